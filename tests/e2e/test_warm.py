"""A publish warms the new release (marquee/warm.py, nginx/lua/marquee_warm.lua) before it serves it."""

from __future__ import annotations

import httpx
import pytest

from marquee import warm
from tests.e2e.conftest import assert_tmdb_error, copy_release

pytestmark = pytest.mark.e2e


def ids(answer: httpx.Response) -> list[int]:
    return [r["id"] for r in answer.json()["results"]]


def test_a_publish_returns_with_the_most_asked_answers_cached_from_the_new_release(start_stack, e2e_release, catalogue):
    movie_id, title = catalogue.execute(
        "SELECT m.id, t.title FROM movies m JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = 'en' "
        "AND t.iso_3166_1 = 'US' WHERE NOT m.adult AND t.title <> '' ORDER BY m.popularity DESC LIMIT 1"
    ).fetchone()
    stack = start_stack(MARQUEE_WARM_REQUESTS="3")
    releases = stack.settings.releases_dir
    with_film, without_film = "20261127T000001Z", "20261127T000002Z"
    copy_release(e2e_release, releases / with_film)
    copy_release(e2e_release, releases / without_film, without_film=movie_id)  # its answers differ
    published = stack.cli("publish", with_film)
    assert published.exit_code == 0, published.stderr
    assert f"warmed {with_film}: nothing asked yet" in published.stdout

    key = stack.account("warm-asker", "pro")
    asked = {  # how often clients ask each: the three most asked are warmed, the least asked not
        ("/3/search/movie", (("query", title),)): 4,
        ("/3/discover/movie", (("sort_by", "vote_count.desc"), ("page", "2"))): 3,
        ("/3/search/multi", (("query", title), ("page", "1"))): 3,
        ("/3/search/movie", (("query", title), ("page", "1"))): 1,
    }
    for (path, params), times in asked.items():
        for _ in range(times):
            assert stack.client.get(path, params={"api_key": key, **dict(params)}).status_code == 200
    listed = httpx.get(f"http://{stack.settings.admin_host}:{stack.settings.admin_port}/asked?n=10").text.splitlines()
    assert listed[0].startswith("4\tgzip\t/3/search/movie?query=")  # most asked first, the key never listed
    assert sorted(int(line.split("\t")[0]) for line in listed) == [1, 3, 3, 4]
    assert not any(key in line for line in listed)

    published = stack.cli("publish", without_film)
    assert published.exit_code == 0, published.stderr
    assert f"warmed {without_film}: 3 of the 3 most asked edge requests" in published.stdout
    # The first ask after the publish is answered from nginx's cache, filled from the new release.
    first = stack.client.get("/3/search/movie", params={"api_key": key, "query": title})
    assert first.headers["x-marquee-cache"] == "HIT"
    assert movie_id not in ids(first)
    assert (
        stack.client.get(
            "/3/discover/movie", params={"api_key": key, "sort_by": "vote_count.desc", "page": "2"}
        ).headers["x-marquee-cache"]
        == "HIT"
    )
    # Not among the most asked: the edge answers it, from the new release too.
    cold = stack.client.get("/3/search/movie", params={"api_key": key, "query": title, "page": "1"})
    assert cold.headers["x-marquee-cache"] == "MISS" and movie_id not in ids(cold)

    rolled = stack.cli("rollback")  # a rollback warms the release it returns to as well
    assert rolled.exit_code == 0 and f"warmed {with_film}: 3 of the 3" in rolled.stdout, rolled.stdout
    back = stack.client.get("/3/search/movie", params={"api_key": key, "query": title})
    assert back.headers["x-marquee-cache"] == "HIT" and movie_id in ids(back)


def test_warm_headers_without_the_service_s_token_go_through_the_gate(start_stack, e2e_release):
    stack = start_stack()
    other = "20261127T000003Z"
    copy_release(e2e_release, stack.settings.releases_dir / other)
    forged = {warm.TOKEN_HEADER: "0" * 32, warm.RELEASE_HEADER: other}
    assert_tmdb_error(stack.client.get("/3/search/movie", params={"query": "a"}, headers=forged), 401, 7)
    key = stack.account("warm-forger", "pro")
    answered = stack.client.get("/3/search/movie", params={"api_key": key, "query": "a"}, headers=forged)
    assert answered.status_code == 200 and int(answered.headers["x-ratelimit-remaining"]) == 29  # counted
    # With the token, a name that is not a release folder's is refused, never a path out of the releases.
    token = {warm.TOKEN_HEADER: warm.token(stack.settings)}
    assert (
        stack.client.get(
            "/3/search/movie", params={"query": "a"}, headers={**token, warm.RELEASE_HEADER: f"../{other}"}
        ).status_code
        == 400
    )
    assert_tmdb_error(
        stack.client.get(
            "/3/search/movie", params={"query": "a"}, headers={**token, warm.RELEASE_HEADER: "20261127T000009Z"}
        ),
        404,
        34,
    )
