"""Benchmark: the first request for a poster size nobody asked for yet, through nginx's image host.

A generated catalogue's images are files nowhere until asked for: a first request goes nginx (no file)
-> the edge (the original drawn from its path, the size made: edge/image_listener.py) -> nginx, which
keeps the answer as a file. `--posters` distinct posters (default 2,000), each asked once at one of
the poster sizes in turn (w92 ... w780 and the original), by `--connections` clients (4) against an
empty image store; then the same URLs again, served from the files nginx kept (the edge is not asked:
checked). Latency is per request, measured by the clients (Python, one keep-alive connection each),
so it includes their own share of the two cores. The last line is `first image p99 ms` (target <= 50).
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import re
import shutil
import statistics
import tempfile
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench import wrk
from bench.catalogues import generate_apart
from control.services import Stack
from marquee.image_sizes import SIZES_BY_KIND
from marquee.releases import publish
from marquee.settings import Settings
from site_gen.image_job import catalogue_images
from site_gen.release import render_release

SIZES = (*SIZES_BY_KIND["poster"], "original")


def poster_urls(catalogue: Path, count: int) -> list[str]:
    """`count` image host paths of distinct posters (fewer when the catalogue has fewer), in an order
    that mixes their owners, each at the next poster size in turn."""
    images = catalogue_images(catalogue)
    posters = [name for name, kind in zip(images["name"].to_pylist(), images["kind"].to_pylist()) if kind == "poster"]
    posters = sorted(posters, key=lambda name: zlib.crc32(name.encode()))[:count]
    return [f"/t/p/{size}/{name}" for name, size in zip(posters, itertools.cycle(SIZES))]


def timed_gets(settings: Settings, paths: list[str], connections: int) -> list[float]:
    """GET every path once over `connections` keep-alive connections; each one's milliseconds."""
    local = threading.local()

    def get(path: str) -> float:
        if not hasattr(local, "http"):
            local.http = http.client.HTTPConnection(settings.listen_host, settings.image_port, timeout=10)
        started = time.perf_counter()
        local.http.request("GET", path)
        answer = local.http.getresponse()
        body = answer.read()
        elapsed = (time.perf_counter() - started) * 1000
        if answer.status != 200 or not body:
            raise RuntimeError(f"{path}: {answer.status}")
        return elapsed

    with ThreadPoolExecutor(connections) as pool:
        return list(pool.map(get, paths))


def edge_images(settings: Settings) -> float:
    """Images the edge has answered, from the admin listener's metrics."""
    connection = http.client.HTTPConnection(settings.admin_host, settings.admin_port, timeout=10)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    return sum(float(n) for n in re.findall(r"^marquee_edge_image_sizes_total\{[^}]*\} (\S+)$", text, re.M))


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movies", type=int, default=500, help="catalogue size (about five posters a film)")
    parser.add_argument("--posters", type=int, default=2000, help="distinct posters asked for")
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="marquee-images-bench-"))
    settings = wrk.bench_settings(home, MARQUEE_IMAGE_DIR=str(home / "images"), MARQUEE_IMAGE_SIZES="request")
    stack = None
    try:
        generate_apart(settings.catalogue_dir, args.movies, 11)
        release = settings.releases_dir / "20260101T000000Z"
        render_release(settings, settings.catalogue_dir, release, echo=None)
        publish(settings, release.name)
        paths = poster_urls(settings.catalogue_dir, args.posters)
        stack = Stack(settings).start()
        before = edge_images(settings)
        first = timed_gets(settings, paths, args.connections)
        made = edge_images(settings) - before
        again = timed_gets(settings, paths, args.connections)
        asked_again = edge_images(settings) - before - made
    finally:
        if stack is not None:
            stack.stop()
        shutil.rmtree(home, ignore_errors=True)
    print(
        f"{len(paths)} distinct posters of {args.movies} films, one request each at sizes "
        f"{', '.join(SIZES)} in turn, {args.connections} connections, empty image store",
        flush=True,
    )
    print(f"first requests: p50 {percentile(first, 0.5):.2f} ms, max {max(first):.2f} ms, {made:.0f} made by the edge")
    print(
        f"the same again, from the files nginx kept: p50 {percentile(again, 0.5):.2f} ms, "
        f"p99 {percentile(again, 0.99):.2f} ms, {asked_again:.0f} asked of the edge"
    )
    print(f"first image p99 ms (target <= 50): {percentile(first, 0.99):.2f}")


if __name__ == "__main__":
    main()
