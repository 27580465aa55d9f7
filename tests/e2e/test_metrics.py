"""Metrics on the admin listener and JSON access logs, checked against the requests actually sent."""

from __future__ import annotations

import json
import re
import sqlite3
import time

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from marquee.packs import Pack
from tests.e2e.conftest import eventually

pytestmark = pytest.mark.e2e


def scrape(stack) -> dict[tuple[str, tuple], float]:
    """Every sample of /metrics by (name, sorted labels)."""
    response = httpx.get(f"http://{stack.settings.admin_host}:{stack.settings.admin_port}/metrics", timeout=5)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture(scope="module")
def metered(start_stack):
    return start_stack(MARQUEE_PLANS="free=2,pro=1000")


def a_movie(stack) -> str:
    with Pack(stack.settings.current_link) as pack:
        return "/" + sorted(n for n in pack.names("3/movie/%.json") if n.count("/") == 2 and n.count(".") == 1)[
            0
        ].removesuffix(".json")


def test_metrics_count_doors_decisions_and_latency(metered):
    stack = metered
    key = stack.account("metered", "pro")
    free = stack.account("metered-free", "free")
    movie = a_movie(stack)
    before = scrape(stack)
    for _ in range(3):
        assert stack.get(movie, key).status_code == 200
    assert stack.get("/3/movie/999999999", key).status_code == 404
    assert stack.get(movie, "not-a-key").status_code == 401
    assert stack.get(movie, "0123456789abcdef" * 2).status_code == 401
    assert [stack.get(movie, free).status_code for _ in range(3)] == [200, 200, 429]
    assert stack.client.get(movie, params={"api_key": key, "append_to_response": "credits"}).status_code == 200
    assert stack.client.get(movie, params={"api_key": key, "append_to_response": "trailers"}).status_code == 200

    def counted() -> bool:
        after = scrape(stack)
        return (
            value(after, "marquee_gate_decisions_total", decision="admitted")
            - value(before, "marquee_gate_decisions_total", decision="admitted")
            >= 8
            and value(after, "marquee_edge_event_loop_lag_seconds_count") > 0
            and value(after, "marquee_registry_keys") >= 2
        )  # the lag probed every 0.25 s, the registry polled

    eventually(counted, timeout=5)  # each worker adds its counts once a second
    after = scrape(stack)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("marquee_gate_decisions_total", decision="admitted") == 8
    assert delta("marquee_gate_decisions_total", decision="limited") == 1
    assert delta("marquee_gate_decisions_total", decision="malformed_key") == 1
    assert delta("marquee_gate_decisions_total", decision="unknown_key") == 1
    assert delta("marquee_requests_total", door="document", **{"class": "2xx"}) == 5
    assert delta("marquee_requests_total", door="document", **{"class": "4xx"}) == 4
    assert delta("marquee_requests_total", door="append", **{"class": "2xx"}) == 1
    assert delta("marquee_requests_total", door="edge", **{"class": "2xx"}) == 1
    assert delta("marquee_key_check_seconds_count") == 10  # every hit that went to Redis
    assert value(after, "marquee_key_check_seconds_bucket", le="+Inf") == value(
        after, "marquee_key_check_seconds_count"
    )
    assert (
        delta("marquee_document_cache_total", result="hit") + delta("marquee_document_cache_total", result="miss") > 0
    )
    release = stack.settings.current_link.resolve().name
    assert value(after, "marquee_release_info", release=release) == 1
    # The edge's part: its answer, its loop-lag probe, its registry copy.
    assert value(after, "marquee_edge_up") == 1
    assert delta("marquee_edge_answers_total", **{"class": "2xx"}) == 1
    assert value(after, "marquee_registry_keys") >= 2
    assert value(after, "marquee_registry_in_redis") == 1


def test_the_admin_listener_is_loopback_and_only_serves_metrics(metered):
    assert metered.settings.admin_host == "127.0.0.1"
    conf = (metered.settings.run_dir / "nginx.conf").read_text()
    assert f"listen 127.0.0.1:{metered.settings.admin_port};" in conf
    other = httpx.get(f"http://127.0.0.1:{metered.settings.admin_port}/3/configuration", timeout=5)
    assert other.status_code == 404
    internal = httpx.get(f"http://127.0.0.1:{metered.settings.admin_port}/_edge_metrics", timeout=5)
    assert internal.status_code == 404


def test_access_logs_are_json_lines_with_no_key(metered):
    stack = metered
    key = stack.account("logged", "pro")
    movie = a_movie(stack)
    stack.client.get(movie, params={"api_key": key, "language": "de-DE"})
    stack.client.get(movie + "?API_KEY=" + key + "&api_key=" + key + "&page=1")
    stack.client.get(movie, headers={"Authorization": f"Bearer {key}"})
    stack.client.get(movie, params={"append_to_response": "trailers", "api_key": key})
    log = stack.settings.log_dir / "nginx-access.log"
    db = sqlite3.connect(stack.settings.registry_path)
    (account_id,) = db.execute("SELECT id FROM accounts WHERE name = 'logged'").fetchone()
    db.close()

    def logged() -> list[dict]:
        entries = [json.loads(line) for line in log.read_text().splitlines()]
        return [e for e in entries if e["path"] == movie and e["account"] == str(account_id)]

    eventually(lambda: len(logged()) >= 4)  # nginx writes each worker's buffered log within a second
    assert key not in log.read_text()
    mine = logged()
    for entry in mine:
        assert set(entry) >= {
            "time",
            "request_id",
            "method",
            "path",
            "query",
            "status",
            "duration",
            "bytes",
            "account",
            "door",
        }
        assert re.fullmatch(r"[0-9a-f]{32}", entry["request_id"])
        assert entry["status"] == 200 and entry["bytes"] > 0 and isinstance(entry["duration"], float)
        assert "api_key" not in entry["query"].lower()
    assert any(e["query"] == "language=de-DE" for e in mine)
    assert any(e["query"] == "page=1" for e in mine)
    assert {e["door"] for e in mine} >= {"document", "edge"}


def test_a_path_without_language_variants_is_one_lookup_in_any_language(metered):
    """nginx asks the pack for the default document only when the path's template has no language
    variant (marquee/packs.py VARIANTLESS), where it used to try the language's, the untranslated
    one and then the default: a cold `/credits?language=de-DE` is one miss of its cache, not three."""
    stack = metered
    key = stack.account("metered-variantless", "pro")
    with Pack(stack.settings.current_link) as pack:
        # The last ones: no other test here asks for them, so they are cold in both workers.
        paths = [
            "/" + sorted(pack.names(like))[-1].removesuffix(".json")
            for like in ("3/movie/%/credits.json", "3/tv/%/season/%/credits.json")
        ]
        names = set(pack.names("3/movie/%.json"))
        # A film with neither a Korean nor an untranslated variant: details try both before the default.
        details = "/" + sorted(
            n
            for n in names
            if n.count(".") == 1
            and n.count("/") == 2
            and not {n.replace(".json", v) for v in (".ko-KR.json", ".und.json")} & names
        )[-1].removesuffix(".json")
    for path, lookups in ((paths[0], 1), (paths[1], 1), (details, 3)):
        before = scrape(stack)
        answer = stack.client.get(path, params={"api_key": key, "language": "ko-KR"})
        assert answer.status_code == 200, answer.text

        def missed(wanted: float = lookups) -> bool:
            return (
                value(scrape(stack), "marquee_document_cache_total", result="miss")
                - value(before, "marquee_document_cache_total", result="miss")
                >= wanted
            )

        eventually(missed, timeout=5)  # each worker adds its counts once a second
        time.sleep(1.2)
        after = scrape(stack)
        assert (
            value(after, "marquee_document_cache_total", result="miss")
            - value(before, "marquee_document_cache_total", result="miss")
            == lookups
        ), path
        plain = stack.client.get(path, params={"api_key": key})
        assert plain.content == answer.content and plain.headers["etag"] == answer.headers["etag"]


def test_a_title_list_in_a_language_is_answered_by_nginx(metered):
    """`/similar?language=…` is localised by nginx (marquee_localize.lua), not sent to the edge:
    one answer at the document door, none at the edge's."""
    stack = metered
    key = stack.account("metered-localized", "pro")
    with Pack(stack.settings.current_link) as pack:
        path = "/" + sorted(pack.names("3/movie/%/similar.json"))[0].removesuffix(".json")
    before = scrape(stack)
    answer = stack.client.get(path, params={"api_key": key, "language": "de-DE"})
    assert answer.status_code == 200, answer.text

    def counted() -> bool:
        return (
            value(scrape(stack), "marquee_requests_total", door="document", **{"class": "2xx"})
            - value(before, "marquee_requests_total", door="document", **{"class": "2xx"})
            >= 1
        )

    eventually(counted, timeout=5)
    time.sleep(1.2)  # a worker's counts of the edge's answers would be in by now too
    after = scrape(stack)
    assert value(after, "marquee_edge_answers_total", **{"class": "2xx"}) == value(
        before, "marquee_edge_answers_total", **{"class": "2xx"}
    )
