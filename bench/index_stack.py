"""The stack the search and discover benches measure: a generated catalogue's indexes published
beside a pack with one 3 KB details document (the reference path), served by real redis, nginx and
edge on free ports, with bench accounts; and what both report of it (a round with a publish in its
middle, the edge's memory).

`served(args, prefix, prepare)` sets it up from the options `arguments()` gives both benches, and
takes it down however the bench ends.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import wrk
from bench.catalogues import CACHE, catalogue_for
from bench.hot_path import make_release
from control.services import Stack
from marquee import releases, warm
from marquee.settings import Settings

ACCOUNTS = 200  # the load spread over many accounts' windows, as real traffic's is


def arguments(description: str, wide_mix: str) -> argparse.ArgumentParser:
    """The options both benches take; each adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--movies", type=int, default=100_000)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8, help="the rounds' connections (the p99 target's)")
    parser.add_argument("--wide", type=int, default=50, help=f"connections of one more round of details and {wide_mix}")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where generated catalogues and indexes are kept")
    return parser


def bench_home(home: Path) -> tuple[Settings, str]:
    """Settings for a stack in `home` on free ports, with a plan no run exhausts, and the path of the
    3 KB details document of a release published there: what the search and discover benches
    measure against."""
    settings = wrk.bench_settings(home)
    return settings, make_release(home, b'{"id":1,"title":"Bench","overview":"' + b"x" * 3000 + b'"}')


@dataclass
class Served:
    home: Path
    catalogue: Path
    settings: Settings
    release: Path  # the published release, its indexes in it
    details_path: str  # the reference document's path
    keys: list[str]
    stack: Stack
    work: Path  # a folder for the benches' wrk scripts


@contextmanager
def served(
    args: argparse.Namespace, prefix: str, prepare: Callable[[Path, Settings, Path, Path], list[str]]
) -> Iterator[Served]:
    """The stack for `args` (arguments()): the catalogue of `--movies` films (made once, kept in
    `--cache`), `prepare(catalogue, settings, release, cache)` putting its indexes in the release
    (its lines printed), then started; stopped and its home removed on the way out."""
    home = Path(tempfile.mkdtemp(prefix=prefix))
    stack = None
    try:
        catalogue = catalogue_for(args.movies, args.cache.resolve())
        settings, details_path = bench_home(home)
        release = home / "releases" / "bench"
        for line in prepare(catalogue, settings, release, args.cache.resolve()):
            print(line, flush=True)
        keys = wrk.bench_keys(settings, ACCOUNTS, "bench")
        stack = Stack(settings).start()
        work = home / "wrk"
        work.mkdir()
        yield Served(home, catalogue, settings, release, details_path, keys, stack, work)
    finally:
        if stack is not None:
            stack.stop()
        shutil.rmtree(home, ignore_errors=True)


def after_publish(settings: Settings, seconds: int, connections: int, name: str, script: Path) -> dict:
    """`script` (the run `name`) in a round with a publish in its middle: 2 s in (`seconds` in, when
    shorter: a smoke run), `publish` of a copy of the current release (hard links, a folder of its
    own: the same documents and indexes under a new root, so every cache keyed by the release,
    nginx's of answers and the edge's, starts empty, as after a real publish), warmed first as the
    command does (marquee/warm.py: the round's own requests, counted by nginx in the rounds before,
    are what it replays). The round runs on for at least `seconds` after the publish returns. Its
    p99 is the bench's `publish p99 ms` (issue 30 part 3: a publish costs clients nothing they feel)."""
    folder = releases.new_release_dir(settings)
    shutil.copytree(settings.current_link.resolve(), folder, symlinks=True, copy_function=os.link, dirs_exist_ok=True)
    lead = min(2, seconds)
    with ThreadPoolExecutor(1) as pool:
        timed = pool.submit(
            wrk.run, settings.api_base_url, lead + math.ceil(settings.warm_seconds) + seconds, connections, script
        )
        time.sleep(lead)
        warmed = warm.warm(settings, folder.name)
        releases.publish(settings, folder.name)
        result = timed.result()
    print(
        f"round with a publish   {name:30s} {result['rps']:9,.0f} req/s   p99 {result['p99']:6.2f} ms   "
        f"non-2xx {result['non2xx']}   ({warmed.line()})",
        flush=True,
    )
    return result


def edge_memory(stack: Stack) -> dict[str, int]:
    """Proportional bytes (PSS) of the edge and its answer workers: the index's pages that the
    workers share are counted once between them, not once each as their resident sizes would.
    `Pss` in all, of which `Pss_Anon` the processes' own memory and `Pss_File` mapped files (the
    indexes' pages, which are the page cache's)."""

    def pss(pid: int) -> dict[str, int]:
        fields = {}
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("Pss", "Pss_Anon", "Pss_File"):
                fields[name] = int(value.split()[0]) * 1024
        return fields

    def tree(pid: int) -> list[int]:
        children = Path(f"/proc/{pid}/task/{pid}/children")
        kids = [int(c) for c in children.read_text().split()] if children.exists() else []
        return [pid] + [p for kid in kids for p in tree(kid)]

    each = [pss(pid) for pid in tree(stack.process("edge").pid)]
    return {name: sum(fields.get(name, 0) for fields in each) for name in ("Pss", "Pss_Anon", "Pss_File")}


def memory_line(memory: dict[str, int]) -> str:
    return (
        f"edge memory (PSS, its answer workers included) {memory['Pss'] / 1e6:,.0f} MB: its own "
        f"{memory['Pss_Anon'] / 1e6:,.0f} MB, mapped index pages {memory['Pss_File'] / 1e6:,.0f} MB"
    )
