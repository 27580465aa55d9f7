"""A short run of every benchmark, so `make bench`, `make bench-build`, `make bench-search` and `make bench-discover` cannot
break unseen: each runs as its make target runs it, on a small scale, and prints its last lines."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from marquee.settings import PROJECT_ROOT

pytestmark = pytest.mark.e2e


# wrk paced (bench/wrk.py): each connection a request every 50 ms, a few hundred a second, so a
# smoke's runs leave the second core to the tests beside it. Its figures are then only positive.
SMOKE_PACE = {"BENCH_WRK_DELAY_MS": "50"}


def bench(module: str, *args: str, timeout: int = 280, **env: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **SMOKE_PACE, **env},
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    return run.stdout


# The publish round of search and discover lasts 2 s + the warm's budget + --seconds: a second's budget.
INDEX_BENCH = ("--movies", "300", "--seconds", "1", "--rounds", "1")


@pytest.fixture(scope="module")
def smokes(built_pack: Path, tmp_path_factory) -> dict[str, Future]:
    """Every bench's smoke run, started together: each spends most of its time waiting on paced wrk
    runs, so one after another they kept a worker ~90 s (~65 s together). Discover starts once search
    has indexed the catalogue in their cache (as `make bench-search` and `bench-discover` share
    var/bench-catalogues), so its indexes are reused."""
    from bench.catalogues import catalogue_for

    index_cache, scale_cache = tmp_path_factory.mktemp("bench-catalogues"), tmp_path_factory.mktemp("bench-scale")
    catalogue_for(20, scale_cache)  # as an earlier run leaves it: build_scale's run reuses it
    # The session's release for the Zipf mix and the append costs (--release, as BENCH_RELEASE passes
    # one): the bench's own build of one is render_release, which bench.images runs here.
    release, cache = ("--release", str(built_pack)), ("--cache", str(index_cache))
    runs = {  # name: (module, arguments, environment)
        "hot_path": (
            "bench.hot_path",
            ("--seconds", "1", "--rounds", "1", "--accounts", "10", "--connections", "20", "--documents", "2000")
            + ("--metrics-cost", "--zipf", *release),
            {},
        ),
        "append_cost": ("bench.append_cost", ("--seconds", "1", "--rounds", "1", *release, "--connections", "20"), {}),
        "images": ("bench.images", ("--movies", "20", "--posters", "60", "--connections", "2"), {}),
        "build_scale": ("bench.build_scale", ("20", "40", "--cache", str(scale_cache)), {}),
        "search": ("bench.search", INDEX_BENCH + cache, {"MARQUEE_WARM_SECONDS": "1"}),
        "discover": ("bench.discover", (*INDEX_BENCH, "--distinct", "300", *cache), {"MARQUEE_WARM_SECONDS": "1"}),
    }
    # Each run draws its ports from a slice of its own (control/services.py's PORT_SLICES), past the
    # workers': runs started together, in one worker's slice, would pick the same ports.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:]
    first = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) + int(worker or 0) * len(runs)

    def run(index: int, name: str) -> str:
        module, args, env = runs[name]
        if name == "discover":  # once search's run has made the catalogue's indexes (or ended without them)
            while not any(index_cache.glob("indexes-catalogue-300-*/.complete")) and not futures["search"].done():
                time.sleep(0.1)
        return bench(module, *args, PYTEST_XDIST_WORKER=f"gw{first + index}", **env)

    futures: dict[str, Future] = {}
    with ThreadPoolExecutor(len(runs)) as pool:
        for index, name in enumerate(runs):
            futures[name] = pool.submit(run, index, name)
        yield futures


def figure(output: str, line: str) -> float:
    match = re.search(rf"^{re.escape(line)}[^:\n]*:\s*([\d.]+)", output, re.M)
    assert match, f"no `{line}` line in:\n{output[-1500:]}"
    return float(match.group(1))


def test_hot_path_metrics_cost_and_zipf(smokes):
    out = smokes["hot_path"].result()
    assert 0 < figure(out, "authenticated/static ratio") and 0 < figure(out, "metrics cost")
    assert 0 < figure(out, "zipf details/static ratio")
    assert "zipf mix: 150 films" in out
    assert out.strip().splitlines()[-1].startswith("authenticated/static ratio")


def test_append_cost(smokes):
    out = smokes["append_cost"].result()
    assert 0 < figure(out, "append cost ratio")
    assert 0 < figure(out, "compat/details ratio")
    assert 0 < figure(out, "gzip append cost ratio")


def test_images(smokes):
    out = smokes["images"].result()
    lines = out.strip().splitlines()
    assert lines[-1].startswith("first image p99 ms") and 0 < figure(out, "first image p99 ms")
    assert "60 made by the edge" in out and ", 0 asked of the edge" in out  # the second time, nginx's files


def test_build_scale(smokes):
    out = smokes["build_scale"].result()
    sizes = {line.split()[0]: line.split()[2] for line in out.splitlines() if line.split()[:1] in (["20"], ["40"])}
    assert sizes["20"] == "cached" and sizes["40"] != "cached", out
    assert "projected for" in out and "incremental rebuild after" in out
    lines = out.strip().splitlines()
    assert [line.split(":")[0] for line in lines[-5:]] == [
        "phases (s)",
        "full build seconds",
        "release GB",
        "peak memory GB",
        "incremental rebuild ratio",
    ]
    assert figure(out, "full build seconds") > 0 and figure(out, "peak memory GB") > 0.1
    assert 0 < figure(out, "incremental rebuild ratio") < 1
    # The build's CPU seconds are its worker's and their children's: the bench's own process
    # alone would count next to none of them.
    assert lines[-6].startswith("full build CPU seconds: ")
    assert 0.3 * figure(out, "full build seconds") < figure(out, "full build CPU seconds")


def test_search(smokes):
    out = smokes["search"].result()
    lines = out.strip().splitlines()
    assert [line.split(":")[0] for line in lines[-4:]] == [
        "edge memory MB",
        "search p99 ms",
        "search/static ratio",
        "find/static ratio",
    ]
    assert figure(out, "search/static ratio") > 0 and figure(out, "find/static ratio") > 0
    assert figure(out, "edge memory MB") > 0 and "at 50 connections: search/static" in out
    assert figure(out, "publish p99 ms") > 0 and "round with a publish" in out and "(warmed " in out


def test_discover(smokes):
    out = smokes["discover"].result()
    # After search's run, the catalogue's indexes are there and reused, not built again.
    assert "indexes of catalogue-300 reused" in out and "indexed catalogue-300" not in out
    lines = out.strip().splitlines()
    assert [line.split(":")[0] for line in lines[-4:]] == [
        "edge memory MB",
        "discover p99 ms",
        "discover/static ratio",
        "lists/static ratio",
    ]
    assert figure(out, "discover/static ratio") > 0 and figure(out, "lists/static ratio") > 0
    assert figure(out, "gzip lists/static ratio") > 0 and figure(out, "cold discover/static ratio") > 0
    assert "at 50 connections: discover/static" in out
    assert figure(out, "publish p99 ms") > 0 and "round with a publish" in out and "(warmed " in out
