"""Every door takes the same key check, the same window and the same key state, at once.

A request reaches its answer through one of three doors: a document nginx serves (its Lua gate,
then the pack), an append nginx splices itself (the same gate in its @edge location), or an
answer the edge's content listener makes (nginx's gate first, then the edge). A key change is in
effect on all of them when its command returns, under load too.
"""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.e2e.conftest import assert_tmdb_error
from tests.release_files import unpacked

pytestmark = pytest.mark.e2e


def doors(stack) -> dict[str, tuple[str, dict[str, str]]]:
    """One request per door: (path, params)."""
    movie = detail_paths(unpacked(stack.settings.current_link))["movie"]
    return {
        "static": (movie, {}),
        "spliced": (movie, {"append_to_response": "credits"}),
        "edge": (movie, {"append_to_response": "trailers"}),
    }


@pytest.mark.parametrize("bearer", [False, True], ids=["api_key", "bearer"])
def test_every_door_answers_every_key_state_at_once(api, bearer):
    account = f"states-{bearer}"
    api.cli("accounts", "create", account, "--plan", "pro")
    key = api.new_key(account, label="k")
    key_id = api.key_id(account, "k")

    def statuses(key_to_send: str | None) -> set[int]:
        codes = set()
        for path, params in doors(api).values():
            headers = {"Authorization": f"Bearer {key_to_send}"} if bearer and key_to_send else {}
            query = dict(params, **({"api_key": key_to_send} if key_to_send and not bearer else {}))
            codes.add(api.client.get(path, params=query, headers=headers).status_code)
        return codes

    assert statuses(key) == {200}
    for bad in (None, "not-a-key", "0123456789abcdef0123456789abcdef"):
        assert statuses(bad) == {401}
    assert api.cli("keys", "suspend", key_id).exit_code == 0
    assert statuses(key) == {401}
    assert_tmdb_error(api.get("/3/configuration", key, bearer=bearer), 401, 10)
    assert api.cli("keys", "unsuspend", key_id).exit_code == 0
    assert statuses(key) == {200}
    assert api.cli("accounts", "expire", account).exit_code == 0
    assert statuses(key) == {402}
    assert api.cli("accounts", "renew", account).exit_code == 0
    assert api.cli("accounts", "set-plan", account, "standard").exit_code == 0
    assert api.get("/3/configuration", key, bearer=bearer).headers["X-RateLimit-Limit"] == "10"
    assert api.cli("keys", "delete", key_id).exit_code == 0
    assert statuses(key) == {401}


def test_a_deleted_key_is_refused_on_every_door_once_the_command_returns_under_load(start_stack):
    """8 clients use a key through the three doors; every request sent after `keys delete`
    returns is refused (the issue measured thousands admitted in the second after it)."""
    stack = start_stack(MARQUEE_PLANS="free=5,loadtest=1000000")
    stack.cli("accounts", "create", "leaky", "--plan", "loadtest")
    key = stack.new_key("leaky", label="leaked")
    routes = list(doors(stack).values())
    stop = threading.Event()
    log: list[tuple[float, int]] = []  # (monotonic time the request was sent, status)

    def client(n: int) -> None:
        with httpx.Client(base_url=stack.settings.api_base_url, timeout=10) as http:
            i = n
            while not stop.is_set():
                path, params = routes[i % len(routes)]
                sent = time.monotonic()
                status = http.get(path, params=dict(params, api_key=key)).status_code
                log.append((sent, status))
                i += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    assert stack.cli("keys", "delete", stack.key_id("leaky", "leaked")).exit_code == 0
    returned = time.monotonic()
    time.sleep(1.0)
    stop.set()
    for thread in threads:
        thread.join(10)
    before = [status for sent, status in log if sent < returned]
    after = [status for sent, status in log if sent > returned]
    assert before.count(200) > 50, "the clients did not get going before the delete"
    assert len(after) > 50 and set(after) == {401}, {s: after.count(s) for s in set(after)}


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

    return {
        "movie": first("3/movie/*.json"),
        "tv": first("3/tv/*.json"),
        "person": first("3/person/*.json"),
        "season": first("3/tv/*/season/*.json"),
        "episode": first("3/tv/*/season/*/episode/*.json"),
    }


# fmt: off
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
# fmt: on


def test_nginx_splices_appends_byte_for_byte_as_the_edge_does(api):
    """The edge's content listener, asked directly on its socket (as nginx would after its gate),
    assembles what nginx splices."""
    paths = detail_paths(unpacked(api.settings.current_link))
    key = api.account("splice", "pro")
    edge = httpx.Client(transport=httpx.HTTPTransport(uds=str(api.settings.content_socket)), base_url="http://edge")
    for namespace, params in APPEND_QUERIES:
        spliced = api.client.get(paths[namespace], params={"api_key": key, **params})
        assembled = edge.get(paths[namespace], params=params, headers={"X-Marquee-Admitted": "30 29 1700000000"})
        assert spliced.status_code == assembled.status_code == 200, (namespace, params)
        assert spliced.content == assembled.content, (namespace, params)
        assert spliced.headers["content-type"] == assembled.headers["content-type"]
        assert spliced.headers["cache-control"] == assembled.headers["cache-control"]
        assert spliced.headers["x-ratelimit-limit"] == "30"
    edge.close()


def test_common_appends_need_no_edge(start_stack):
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
