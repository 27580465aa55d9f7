"""Every key error through nginx, both key styles, and the key and account lifecycle."""

from __future__ import annotations

import pytest

from marquee.packs import etag_of
from tests.e2e.conftest import assert_tmdb_error
from tests.release_files import unpacked

pytestmark = pytest.mark.e2e


def a_movie_id(api) -> int:
    movies = sorted(p.stem for p in (unpacked(api.settings.current_link) / "3" / "movie").glob("*.json"))
    return int(movies[0])


@pytest.mark.parametrize("bearer", [False, True], ids=["api_key", "bearer"])
def test_a_valid_key_gets_the_release_file(api, bearer):
    key = api.account(f"valid-{bearer}")
    movie_id = a_movie_id(api)
    response = api.get(f"/3/movie/{movie_id}", key, bearer=bearer)
    assert response.status_code == 200
    on_disk = (unpacked(api.settings.current_link) / f"3/movie/{movie_id}.json").read_bytes()
    assert response.content == on_disk
    assert response.json()["id"] == movie_id
    assert response.headers["X-RateLimit-Limit"] == "5"
    assert response.headers["X-RateLimit-Remaining"] == "4"  # the key's first request
    assert int(response.headers["X-RateLimit-Reset"]) > 1_700_000_000


def test_documents_are_gzipped_for_clients_that_accept_it(api):
    key = api.account("gzip")
    # nginx compresses pack bodies on the fly (level 1) from 1 KB up; smaller ones go as they are.
    tree = unpacked(api.settings.current_link)
    movie_id = next(
        int(p.parent.name) for p in sorted((tree / "3/movie").glob("*/credits.json")) if p.stat().st_size > 4096
    )
    response = api.client.get(
        f"/3/movie/{movie_id}/credits", params={"api_key": key}, headers={"Accept-Encoding": "gzip"}
    )
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert response.content == (tree / f"3/movie/{movie_id}/credits.json").read_bytes()  # httpx decoded it
    assert int(response.headers.get("Content-Length", 0)) < len(response.content)
    small = next(p for p in sorted((tree / "3/movie").glob("*/external_ids.json")))
    plain = api.client.get(
        "/" + str(small.relative_to(tree)).removesuffix(".json"),
        params={"api_key": key},
        headers={"Accept-Encoding": "gzip"},
    )
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert plain.content == small.read_bytes()


def test_etags_are_content_hashes_and_answer_304(api):
    key = api.account("etag")
    movie_id = a_movie_id(api)
    first = api.client.get(f"/3/movie/{movie_id}", params={"api_key": key})
    # W/ when nginx gzipped the body on the way out (the bytes differ, the document does not).
    assert first.headers["ETag"].removeprefix("W/") == f'"{etag_of(first.content)}"'
    assert first.headers["Content-Type"] == "application/json; charset=utf-8"
    again = api.client.get(
        f"/3/movie/{movie_id}", params={"api_key": key}, headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304 and again.content == b""
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    other = api.client.get(f"/3/movie/{movie_id}", params={"api_key": key}, headers={"If-None-Match": '"0"'})
    assert other.status_code == 200 and other.content == first.content
    head = api.client.head(f"/3/movie/{movie_id}", params={"api_key": key})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["ETag"].removeprefix("W/") == first.headers["ETag"].removeprefix("W/")


@pytest.mark.parametrize("bearer", [False, True], ids=["api_key", "bearer"])
@pytest.mark.parametrize("key", [None, "", "not-a-key", "0123456789abcdef0123456789abcdef", "A" * 32, "ab" * 40])
def test_missing_malformed_and_unknown_keys_get_401_7(api, key, bearer):
    response = api.get("/3/configuration", key, bearer=bearer)
    assert_tmdb_error(response, 401, 7)
    assert "X-RateLimit-Remaining" not in response.headers


def test_unknown_paths_and_ids_get_404_34_after_the_key_check(api):
    key = api.account("notfound")
    for path in ("/3/movie/999999999", "/3/movie/abc", "/3/nothing/here", "/3/movie/1/../../etc/passwd"):
        response = api.get(path, key)
        assert_tmdb_error(response, 404, 34)
    assert_tmdb_error(api.get("/3/movie/999999999", None), 401, 7)
    assert_tmdb_error(api.client.get("/not-an-api-path"), 404, 34)


def test_deleted_key_gets_401_7(api):
    key = api.account("deleter")
    api.new_key("deleter", label="doomed")
    doomed_id = api.key_id("deleter", "doomed")
    assert api.cli("keys", "delete", doomed_id).exit_code == 0
    other = api.cli("keys", "list", "--account", "deleter").stdout
    assert f"{doomed_id}\tdoomed\tdeleted" in other
    assert api.get("/3/configuration", key).status_code == 200


def test_delete_takes_effect_for_the_key_in_use(api):
    api.cli("accounts", "create", "gone", "--plan", "pro")
    key = api.new_key("gone", label="only")
    assert api.get("/3/configuration", key).status_code == 200
    assert api.cli("keys", "delete", api.key_id("gone", "only")).exit_code == 0
    assert_tmdb_error(api.get("/3/configuration", key), 401, 7)
    refused = api.cli("keys", "delete", api.key_id("gone", "only"))
    assert refused.exit_code != 0 and "no key with id" in refused.stderr


def test_a_leaked_key_deletes_itself_from_standard_input(api):
    api.cli("accounts", "create", "leaker", "--plan", "pro")
    leaked = api.new_key("leaker", label="leaked")
    other = api.new_key("leaker", label="other")
    result = api.cli("keys", "delete", "--key", "-", input=leaked + "\n")
    assert result.exit_code == 0, result.stderr
    assert f"key {api.key_id('leaker', 'leaked')} of account leaker is now deleted" in result.stdout
    assert_tmdb_error(api.get("/3/configuration", leaked), 401, 7)
    assert api.get("/3/configuration", other).status_code == 200
    again = api.cli("keys", "delete", "--key", "-", input=leaked)
    assert again.exit_code != 0 and "no live key matches" in again.stderr
    # The key never travels as an argument: only `-` is accepted, and not with an id.
    assert api.cli("keys", "delete", "--key", other).exit_code != 0
    assert api.cli("keys", "delete", "1", "--key", "-", input=other).exit_code != 0
    assert api.get("/3/configuration", other).status_code == 200


def test_suspend_gives_401_10_and_unsuspend_restores(api):
    api.cli("accounts", "create", "suspect", "--plan", "pro")
    key = api.new_key("suspect", label="s")
    key_id = api.key_id("suspect", "s")
    assert api.cli("keys", "suspend", key_id).exit_code == 0
    assert_tmdb_error(api.get("/3/configuration", key), 401, 10)
    assert_tmdb_error(api.get("/3/configuration", key, bearer=True), 401, 10)
    assert api.cli("keys", "unsuspend", key_id).exit_code == 0
    assert api.get("/3/configuration", key).status_code == 200


def test_expired_plan_gives_402_36_until_renewed(api):
    key = api.account("lapsed", "pro")
    assert api.cli("accounts", "expire", "lapsed").exit_code == 0
    assert_tmdb_error(api.get("/3/genre/movie/list", key), 402, 36)
    assert api.cli("accounts", "renew", "lapsed").exit_code == 0
    assert api.get("/3/genre/movie/list", key).status_code == 200


def test_the_eleventh_key_is_refused(api):
    api.cli("accounts", "create", "many", "--plan", "pro")
    for n in range(9):
        assert api.cli("keys", "create", "--account", "many", "--label", f"k{n}").exit_code == 0
    last = api.new_key("many", label="tenth")
    refused = api.cli("keys", "create", "--account", "many", "--label", "eleventh")
    assert refused.exit_code != 0
    assert "already has 10 keys" in refused.stderr
    assert refused.stdout == ""
    assert api.get("/3/configuration", last).status_code == 200
    # Deleting one frees a place.
    assert api.cli("keys", "delete", api.key_id("many", "k0")).exit_code == 0
    assert api.cli("keys", "create", "--account", "many", "--label", "again").exit_code == 0


def test_plan_change_applies_to_every_key_of_the_account(api):
    first = api.account("upgrader", "free")
    second = api.new_key("upgrader")
    assert api.get("/3/configuration", first).headers["X-RateLimit-Limit"] == "5"
    assert api.cli("accounts", "set-plan", "upgrader", "pro").exit_code == 0
    assert api.get("/3/configuration", second).headers["X-RateLimit-Limit"] == "30"
    assert api.get("/3/configuration", first).headers["X-RateLimit-Limit"] == "30"
    refused = api.cli("accounts", "set-plan", "upgrader", "platinum")
    assert refused.exit_code != 0 and "unknown plan 'platinum'" in refused.stderr


def test_keys_list_never_shows_a_key(api):
    key = api.account("lister")
    listing = api.cli("keys", "list", "--account", "lister")
    assert listing.exit_code == 0
    assert key not in listing.stdout
    assert listing.stdout.splitlines()[0] == "id\tlabel\tstate\tcreated"
