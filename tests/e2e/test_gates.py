"""MARQUEE_GATE: nginx's Lua gate and the edge's auth listener answer alike, and share one window.

The other e2e modules run against the default gate (nginx); test_ratelimit.py runs its window
tests against both. This module covers the key states through the edge gate, and the one window
an account has whichever door its requests take.
"""

from __future__ import annotations

import pytest

from tests.release_files import unpacked
from tests.e2e.conftest import assert_tmdb_error, eventually

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def edge_gate(start_stack):
    return start_stack(MARQUEE_GATE="edge")


@pytest.mark.parametrize("bearer", [False, True], ids=["api_key", "bearer"])
def test_the_edge_gate_answers_every_key_state_as_the_nginx_gate_does(edge_gate, api, bearer):
    for stack in (edge_gate, api):
        account = f"states-{stack.settings.gate}-{bearer}"
        stack.cli("accounts", "create", account, "--plan", "pro")
        key = stack.new_key(account, label="k")
        ok = stack.get("/3/configuration", key, bearer=bearer)
        assert ok.status_code == 200 and ok.headers["X-RateLimit-Limit"] == "30"
        for bad in (None, "not-a-key", "0123456789abcdef0123456789abcdef"):
            assert_tmdb_error(stack.get("/3/configuration", bad, bearer=bearer), 401, 7)
        assert_tmdb_error(stack.get("/3/movie/999999999", key, bearer=bearer), 404, 34)
        assert stack.cli("keys", "suspend", stack.key_id(account, "k")).exit_code == 0
        eventually(lambda: stack.get("/3/configuration", key).status_code == 401)
        assert_tmdb_error(stack.get("/3/configuration", key, bearer=bearer), 401, 10)
        assert stack.cli("keys", "unsuspend", stack.key_id(account, "k")).exit_code == 0
        assert stack.cli("accounts", "expire", account).exit_code == 0
        eventually(lambda: stack.get("/3/configuration", key).status_code == 402)
        assert_tmdb_error(stack.get("/3/configuration", key, bearer=bearer), 402, 36)


def test_static_and_dynamic_doors_count_in_one_window(api):
    """A static file (nginx's gate) and an appended answer (the edge's gate) take from one window."""
    key = api.account("two-doors", "pro")
    movie = next(p.stem for p in sorted((unpacked(api.settings.current_link) / "3" / "movie").glob("*.json")))
    remaining = []
    for path, params in [(f"/3/movie/{movie}", {}), (f"/3/movie/{movie}", {"append_to_response": "credits"})] * 2:
        response = api.client.get(path, params={"api_key": key, **params})
        assert response.status_code == 200, response.text
        remaining.append(int(response.headers["X-RateLimit-Remaining"]))
    assert remaining == list(range(remaining[0], remaining[0] - 4, -1))


def detail_paths(release) -> dict[str, str]:
    """One detail path of each namespace that takes appends, from the release on disk."""
    def first(pattern: str) -> str:
        found = sorted(p for p in release.glob(pattern) if p.name.count(".") == 1)[0]
        return "/" + str(found.relative_to(release)).removesuffix(".json")
    return {"movie": first("3/movie/*.json"), "tv": first("3/tv/*.json"), "person": first("3/person/*.json"),
            "season": first("3/tv/*/season/*.json"), "episode": first("3/tv/*/season/*/episode/*.json")}


APPEND_QUERIES = [
    ("movie", {"append_to_response": "credits,videos,images,keywords,external_ids"}),
    ("movie", {"append_to_response": "casts,similar_movies,release_dates", "language": "de-DE"}),
    ("movie", {"append_to_response": "credits, credits,nonsense,watch/providers", "language": "ja"}),
    ("movie", {"append_to_response": "credits", "language": "xx-YY", "fallback_language": "fr-FR"}),
    ("movie", {"append_to_response": "images,recommendations", "language": "ko-KR"}),  # the edge's part
    ("movie", {"append_to_response": "trailers"}),  # the edge's part
    ("tv", {"append_to_response": "aggregate_credits,content_ratings,casts,videos", "language": "ar-SA"}),
    ("season", {"append_to_response": "videos", "language": "ja-JP"}),
    ("season", {"append_to_response": "credits,external_ids,translations"}),
    ("episode", {"append_to_response": "credits,images", "language": "ru-RU"}),
    ("person", {"append_to_response": "movie_credits,external_ids"}),
    ("person", {"append_to_response": "combined_credits", "language": "zh-CN"}),
]


def test_nginx_splices_appends_byte_for_byte_as_the_edge_does(api, edge_gate):
    paths = detail_paths(unpacked(api.settings.current_link))
    key_nginx, key_edge = api.account("splice-n", "pro"), edge_gate.account("splice-e", "pro")
    for namespace, params in APPEND_QUERIES:
        spliced = api.client.get(paths[namespace], params={"api_key": key_nginx, **params})
        assembled = edge_gate.client.get(paths[namespace], params={"api_key": key_edge, **params})
        assert spliced.status_code == assembled.status_code == 200, (namespace, params)
        assert spliced.content == assembled.content, (namespace, params)
        assert spliced.headers["content-type"] == assembled.headers["content-type"]
        assert spliced.headers["cache-control"] == assembled.headers["cache-control"]
        assert spliced.headers["x-ratelimit-limit"] == "30"


def test_common_appends_need_no_edge_with_the_nginx_gate(start_stack):
    """With the edge stopped, nginx still answers splices; what only the edge can do gets 503/9."""
    stack = start_stack()
    key = stack.account("no-edge", "pro")
    movie = detail_paths(unpacked(stack.settings.current_link))["movie"]
    stack.stack.stop_one("edge")
    spliced = stack.client.get(movie, params={"api_key": key, "append_to_response": "credits,keywords"})
    assert spliced.status_code == 200
    assert set(spliced.json()) >= {"id", "title", "credits", "keywords"}
    assert "id" not in spliced.json()["credits"]
    assert_tmdb_error(stack.client.get(movie, params={"api_key": key, "append_to_response": "trailers"}), 503, 9)


def test_head_of_a_spliced_answer_has_its_headers_and_no_body(api):
    key = api.account("heads", "pro")
    movie = detail_paths(unpacked(api.settings.current_link))["movie"]
    params = {"api_key": key, "append_to_response": "credits"}
    head = api.client.head(movie, params=params)
    get = api.client.get(movie, params=params)
    assert head.status_code == get.status_code == 200
    assert head.content == b"" and get.json()["credits"]
    assert head.headers["content-type"] == get.headers["content-type"]
    assert int(head.headers["x-ratelimit-remaining"]) == int(get.headers["x-ratelimit-remaining"]) + 1
