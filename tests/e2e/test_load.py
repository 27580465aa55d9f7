"""`make load` (python -m loadtests.run) for a few seconds against a real stack: it makes its keys,
asks for every kind of document without a failure, the free client is held to its plan, and the
report, CSV and PNG are written."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest
from PIL import Image

from loadtests import FREE_200, FREE_429
from marquee.registry import Registry
from marquee.settings import PROJECT_ROOT, to_env

pytestmark = pytest.mark.e2e

FREE_RATE = 5  # the free plan here: the over-rate client (5 a second) is past it within 2 s
# Every kind of request the mix sends (locust's names); each must be in the stats.
# fmt: off
KINDS = (
    "/3/movie/{id}", "/3/movie/{id}?language", "/3/movie/{id}?append_to_response", "/3/movie/{id}/credits",
    "/3/movie/{id}/similar?page", "/3/movie/{id}/recommendations?page", "/3/tv/{id}?append_to_response",
    "/3/tv/{id}/season/{n}", "/3/tv/{id}/season/{n}/episode/{n}", "/3/person/{id}",
    "/3/person/{id}/combined_credits", "/3/collection/{id}", "/3/keyword/{id}/movies", "/3/genre/movie/list",
    "/3/configuration", "/t/p/w185/{file}", "/3/movie/{id} (404)", "/3/search/{kind}", "/3/find/{imdb_id}",
    "/3/discover/{kind}", "/3/{kind}/{list}", "/compat/",
    FREE_200, FREE_429,
)
# fmt: on


@pytest.fixture(scope="module")
def loaded(start_stack):
    """A stack of its own (the session's release; its /3/configuration names this stack's image host,
    from which the kit, like a TMDB client, fetches posters), and one run of the kit against it."""
    stack = start_stack(MARQUEE_PLANS=f"free={FREE_RATE},loadtest=1000000")
    # 20 clients for 6 s: ~350 requests, so the rarest kinds (similar and recommendations pages,
    # 1.5 of 50 by weight each) are asked for about ten times; not at all, a 1 in 20,000 chance.
    run = subprocess.run(
        [sys.executable, "-m", "loadtests.run", "--users", "20", "--rate", "20", "--time", "6s"],
        env={**os.environ, **to_env(stack.settings)},
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return stack, run


def stats(stack) -> dict[str, dict[str, str]]:
    with open(stack.settings.home / "load" / "locust_stats.csv", newline="") as f:
        return {row["Name"]: row for row in csv.DictReader(f)}


def test_every_kind_of_request_is_sent_and_none_fails(loaded):
    stack, run = loaded
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    rows = stats(stack)
    missing = [kind for kind in KINDS if int(rows.get(kind, {}).get("Request Count", 0)) == 0]
    assert not missing, f"no requests of {missing}"
    assert rows["Aggregated"]["Failure Count"] == "0"
    assert int(rows["Aggregated"]["Request Count"]) == sum(int(rows[kind]["Request Count"]) for kind in KINDS), sorted(
        set(rows) - set(KINDS)
    )
    assert "0 failures" in run.stdout and "report: " in run.stdout


def test_the_over_rate_client_is_held_to_the_free_plan(loaded):
    stack, _ = loaded
    rows = stats(stack)
    # The run is shorter than the 60 s window: the account is admitted its plan's worth, no more.
    assert int(rows[FREE_200]["Request Count"]) == FREE_RATE
    assert int(rows[FREE_429]["Request Count"]) > FREE_RATE


def test_the_report_files_are_written(loaded):
    stack, _ = loaded
    out = stack.settings.home / "load"
    assert "locust" in (out / "report.html").read_text().lower()
    with open(out / "locust_stats_history.csv", newline="") as f:
        assert sum(row["Name"] == "Aggregated" for row in csv.DictReader(f)) >= 5  # a row a second
    with Image.open(out / "timeline.png") as png:
        png.verify()
        assert png.format == "PNG" and png.size[0] >= 800


def test_the_keys_are_gone_after_the_run(loaded):
    stack, _ = loaded
    reg = Registry(stack.settings.registry_path, stack.settings.plans)
    try:
        for account in ("loadtest", "loadtest-free"):
            keys = reg.list_keys(account)
            assert keys and all(key.state == "deleted" for key in keys)
    finally:
        reg.close()


def test_a_server_without_the_loadtest_plan_is_named_before_the_run(start_stack):
    # Started with plans of its own, the server holds the kit's keys to the smallest rate: the kit
    # must say so, not measure a minute of 429s.
    stack = start_stack(MARQUEE_PLANS="free=5,pro=30")
    env = {**os.environ, **to_env(stack.settings), "MARQUEE_PLANS": "free=5,pro=30,loadtest=1000000"}
    run = subprocess.run(
        [sys.executable, "-m", "loadtests.run", "--time", "5s"],
        env=env,
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "admits the `loadtest` plan at 5 requests a window, not 1000000" in run.stderr
    assert not (stack.settings.home / "load" / "locust_stats.csv").exists()
