"""language, fallback_language, append_to_response, pages and image filters through nginx."""

from __future__ import annotations

import httpx
import orjson
import pytest

from tests.e2e.conftest import assert_tmdb_error
from tests.release_files import unpacked

pytestmark = pytest.mark.e2e


def write(root, name, doc):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    data = orjson.dumps(doc)
    path.write_bytes(data)
    return data


@pytest.fixture(scope="module")
def lang_api(start_stack, tmp_path_factory):
    root = tmp_path_factory.mktemp("lang-release")
    write(root, "3/configuration.json", {"images": {}, "change_keys": []})
    write(root, "3/movie/7.json", {"id": 7, "title": "Seven", "overview": "English"})
    write(root, "3/movie/7.de-DE.json", {"id": 7, "title": "Sieben", "overview": "Deutsch"})
    write(root, "3/movie/7.ja-JP.json", {"id": 7, "title": "セブン", "overview": "日本語"})
    write(root, "3/movie/7.und.json", {"id": 7, "title": "Sette", "overview": ""})
    write(root, "3/movie/7/credits.json", {"id": 7, "cast": [{"name": "A"}], "crew": []})
    write(
        root,
        "3/movie/7/similar.json",
        {"id": 7, "page": 1, "results": [{"id": 9}], "total_pages": 1, "total_results": 1},
    )
    write(
        root,
        "3/movie/7/images.json",
        {
            "id": 7,
            "backdrops": [],
            "logos": [],
            "posters": [{"file_path": "/a.jpg", "iso_639_1": "en"}, {"file_path": "/b.jpg", "iso_639_1": None}],
        },
    )
    (root / "BUILD").write_text("lang\n")
    return start_stack(release=root)


@pytest.mark.parametrize(
    "language, title",
    [
        (None, "Seven"),
        ("en-US", "Seven"),
        ("en", "Seven"),
        ("de-DE", "Sieben"),
        ("de", "Sieben"),
        ("de-at", "Sieben"),
        ("ja-JP", "セブン"),
        ("fr-FR", "Sette"),
        ("zz-ZZ", "Sette"),
        ("../../BUILD", "Sette"),
    ],
)
def test_language_picks_the_variant_file(lang_api, language, title):
    key = lang_api.account(f"lang-{language}", "pro")
    params = {"api_key": key} | ({"language": language} if language else {})
    response = lang_api.client.get("/3/movie/7", params=params)
    assert response.status_code == 200
    assert response.json()["title"] == title


def test_fallback_language_is_opt_in(lang_api):
    key = lang_api.account("fallback", "pro")
    assert lang_api.client.get("/3/movie/7", params={"api_key": key, "language": "fr"}).json()["overview"] == ""
    response = lang_api.client.get(
        "/3/movie/7", params={"api_key": key, "language": "fr", "fallback_language": "en-US"}
    )
    assert response.json()["overview"] == "English"


def test_language_independent_documents_ignore_language(lang_api):
    key = lang_api.account("independent", "pro")
    response = lang_api.client.get("/3/movie/7/credits", params={"api_key": key, "language": "de-DE"})
    assert response.json() == {"id": 7, "cast": [{"name": "A"}], "crew": []}


def test_append_goes_through_the_edge_and_counts_once(lang_api):
    key = lang_api.account("appender", "pro")
    before = int(lang_api.get("/3/configuration", key).headers["X-RateLimit-Remaining"])
    response = lang_api.client.get(
        "/3/movie/7", params={"api_key": key, "language": "de", "append_to_response": "credits,similar,casts,nope"}
    )
    assert response.status_code == 200
    doc = response.json()
    assert doc["title"] == "Sieben"
    assert doc["credits"] == {"cast": [{"name": "A"}], "crew": []} == doc["casts"]
    assert doc["similar"]["results"] == [{"id": 9}] and "nope" not in doc
    assert int(response.headers["X-RateLimit-Remaining"]) == before - 1
    assert response.headers["Cache-Control"].startswith("public")


def test_append_errors_and_key_checks_on_the_edge_path(lang_api):
    key = lang_api.account("appender2", "pro")
    too_many = ",".join(["credits"] * 21)
    assert_tmdb_error(
        lang_api.client.get("/3/movie/7", params={"api_key": key, "append_to_response": too_many}), 400, 27
    )
    assert_tmdb_error(lang_api.client.get("/3/movie/7", params={"append_to_response": "credits"}), 401, 7)
    assert_tmdb_error(
        lang_api.client.get("/3/movie/8", params={"api_key": key, "append_to_response": "credits"}), 404, 34
    )
    bearer = lang_api.client.get(
        "/3/movie/7", params={"append_to_response": "credits"}, headers={"Authorization": f"Bearer {key}"}
    )
    assert bearer.status_code == 200 and "credits" in bearer.json()


def test_pages_and_image_filters_through_nginx(lang_api):
    key = lang_api.account("pager", "pro")
    empty = lang_api.client.get("/3/movie/7/similar", params={"api_key": key, "page": "2"}).json()
    assert empty["page"] == 2 and empty["results"] == []
    assert_tmdb_error(lang_api.client.get("/3/movie/7/similar", params={"api_key": key, "page": "501"}), 400, 22)
    assert lang_api.client.get("/3/movie/7/similar", params={"api_key": key, "page": "1"}).json()["results"]
    posters = lang_api.client.get("/3/movie/7/images", params={"api_key": key, "language": "en"}).json()["posters"]
    assert [p["file_path"] for p in posters] == ["/a.jpg"]
    posters = lang_api.client.get("/3/movie/7/images", params={"api_key": key}).json()["posters"]
    assert len(posters) == 2


def test_append_on_the_real_release(api):
    key = api.account("real-append", "pro")
    movie_id = sorted(
        int(p.name.split(".")[0]) for p in (unpacked(api.settings.current_link) / "3/movie").glob("*.json")
    )[0]
    response = api.client.get(
        f"/3/movie/{movie_id}",
        params={"api_key": key, "append_to_response": "credits"},
        headers={"Accept-Encoding": "gzip"},
    )
    assert response.status_code == 200
    doc = response.json()
    credits = orjson.loads((unpacked(api.settings.current_link) / f"3/movie/{movie_id}/credits.json").read_bytes())
    assert doc["credits"] == {k: v for k, v in credits.items() if k != "id"}
    assert doc["id"] == movie_id


# fmt: off
LANGUAGE_VALUES = [None, "", "de", "de-DE", "DE-at", "ja", "fr", "xx", "zz-ZZ", "en", "en-GB", "de DE", "de+DE", "d",
                   "deu", "\xff", "ja-JP-x", "../../BUILD"]
# fmt: on


def test_nginx_and_the_edge_pick_the_same_variant(lang_api):
    """The rule is edge/languages.py's, handed to nginx's Lua as data: for every pair of `language` and
    `fallback_language`, the document nginx serves is the one the edge's content listener assembles."""
    key = lang_api.account("same-variant", "pro")
    edge = httpx.Client(
        transport=httpx.HTTPTransport(uds=str(lang_api.settings.content_socket)), base_url="http://edge"
    )
    titles = set()
    for language in LANGUAGE_VALUES:
        for fallback in (None, "", "de-DE", "xx", "ja"):
            params = {
                name: value
                for name, value in (("language", language), ("fallback_language", fallback))
                if value is not None
            }
            served = lang_api.client.get("/3/movie/7", params={"api_key": key, **params})
            if served.status_code == 429:  # the window of 30 is spent: a new key, a new account
                key = lang_api.account(f"same-variant-{language}-{fallback}", "pro")
                served = lang_api.client.get("/3/movie/7", params={"api_key": key, **params})
            assembled = edge.get("/3/movie/7", params=params, headers={"X-Marquee-Admitted": "30 29 1700000000"})
            assert served.status_code == assembled.status_code == 200, params
            assert served.content == assembled.content, params
            titles.add(served.json()["title"])
    edge.close()
    assert titles == {"Seven", "Sieben", "セブン", "Sette"}
