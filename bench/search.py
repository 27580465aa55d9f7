"""Benchmark: /3/search and /3/find through nginx and the edge, against the authenticated details path.

A generated catalogue (100k movies and 10k series with their people by default, every language) is
indexed alone (no release is rendered; bench/catalogues.py `indexes_for` builds the indexes once and
keeps them with the catalogue), published beside a pack with one details document, and served by a
real stack:

- details: the authenticated details path, the reference;
- realistic: searches as clients send them: query popularity follows a Zipf law over the catalogue's
  titles and names in all 14 languages, typed as prefixes (two letters to the whole title), a tenth
  with a typo, the language asked at random, mostly /3/search/movie, also multi, tv and person;
- cold: every query distinct (each round its own), so nginx's cache of answers never helps;
- find: /3/find by IMDb id, Zipf-distributed over the films.

The rounds alternate the mixes at `--connections` (8: the p99 target's load); one more round of
details and both search mixes runs at `--wide` (50), its cold throughput reported. Ratios are each
mix's throughput over the details path's in the same round, the median over rounds; `search p99 ms`
is the worst round's of both mixes. Last, the realistic mix runs once more with a publish in its
middle (of a copy of the release, warmed as `marquee publish` warms it: `after_publish`). The last lines are
`publish p99 ms: X`, `edge memory MB: X`, `search p99 ms: X`, `search/static ratio: X.XX`
(realistic) and `find/static ratio: X.XX`.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import shutil
import sqlite3
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

from bench import wrk
from bench.catalogues import CACHE, catalogue_for, indexes_for
from bench.hot_path import make_release
from control.services import Stack, free_port
from marquee import releases, warm
from marquee.artefacts import SEARCH_INDEX
from marquee.settings import Settings, from_env

KINDS = ("movie",) * 6 + ("multi", "multi", "tv", "person")


def names_from(index: Path, limit: int) -> list[tuple[str, str]]:
    """(kind, name) pairs to search for: names of the index's most popular entities, every language."""
    con = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    try:
        out = []
        for kind, share in (("movie", 0.6), ("tv", 0.2), ("person", 0.2)):
            for (names,) in con.execute(
                "SELECT names FROM ranks WHERE kind = ? ORDER BY rank LIMIT ?", (kind, int(limit * share))
            ):
                out.extend((kind, name) for name in names.split("\n"))
        imdb = [
            v
            for (v,) in con.execute(
                "SELECT value FROM external_ids WHERE source = 'imdb_id' AND kind = 'movie' LIMIT ?", (limit,)
            )
        ]
        return out, imdb
    finally:
        con.close()


def typed(name: str, rng: random.Random) -> str:
    """A name as a user types it: its first letters, sometimes with a typo in a long word."""
    text = name[: rng.randint(min(2, len(name)), len(name))]
    if rng.random() < 0.1:
        words = text.split(" ")
        long = [i for i, w in enumerate(words) if len(w) >= 5]
        if long:
            i = rng.choice(long)
            w = words[i]
            j = rng.randrange(1, len(w) - 1)
            words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
            text = " ".join(words)
    return text


def search_path(kind: str, query: str, language: str, key: str) -> str:
    return f"/3/search/{kind}?query={quote(query)}&language={language}&api_key={key}"


def bench_home(home: Path) -> tuple[Settings, str]:
    """Settings for a stack in `home` on free ports, with a plan no run exhausts, and the path of the
    3 KB details document of a release published there: what the search and discover benches
    measure against."""
    settings = from_env(
        {
            **os.environ,
            "MARQUEE_HOME": str(home),
            "MARQUEE_API_PORT": str(free_port()),
            "MARQUEE_ADMIN_PORT": str(free_port()),
            "MARQUEE_IMAGE_PORT": str(free_port()),
            "MARQUEE_PLANS": wrk.BENCH_PLANS,
        }
    )
    return settings, make_release(home, b'{"id":1,"title":"Bench","overview":"' + b"x" * 3000 + b'"}')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--movies", type=int, default=100_000)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8, help="the rounds' connections (the p99 target's)")
    parser.add_argument("--wide", type=int, default=50, help="connections of one more round of details and search")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where generated catalogues and indexes are kept")
    args = parser.parse_args()

    rng = random.Random(7)
    home = Path(tempfile.mkdtemp(prefix="marquee-bench-search-"))
    stack = None
    try:
        catalogue = catalogue_for(args.movies, args.cache.resolve())
        settings, details_path = bench_home(home)
        indexes_for(catalogue, settings, home / "releases" / "bench", args.cache.resolve())
        index = home / "releases" / "bench" / SEARCH_INDEX
        keys = wrk.bench_keys(settings, 200, "bench")
        stack = Stack(settings).start()

        names, imdb = names_from(index, 40_000)
        languages = settings.languages
        vocabulary = [
            (rng.choice(KINDS) if kind == "movie" else kind, typed(name, rng), rng.choice(languages))
            for kind, name in names
        ]
        requests = args.seconds * 4000  # the realistic and find lists (they may wrap: repeats are their point)
        cold_requests = args.seconds * 12_000  # more than a round can send: a cold query is never repeated
        realistic = [
            search_path(*vocabulary[i], keys[n % len(keys)])
            for n, i in enumerate(wrk.zipf_choices(rng, len(vocabulary), requests))
        ]
        finds = [
            f"/3/find/{imdb[i]}?external_source=imdb_id&api_key={keys[n % len(keys)]}"
            for n, i in enumerate(wrk.zipf_choices(rng, len(imdb), requests))
        ]
        details = [f"{details_path}?api_key={key}" for key in keys]
        work = home / "wrk"
        work.mkdir()
        scripts = {
            "details": wrk.script_for(work, "details", details),
            "realistic": wrk.script_for(work, "realistic", realistic),
            "find": wrk.script_for(work, "find", finds),
        }
        # Cold: distinct queries, a list of its own each round, never seen by nginx's cache.
        cold_lists = []
        seen: set[str] = set()
        pool = [(kind, name, language) for kind, name, language in vocabulary]
        for round_number in range(args.rounds + 2):  # a warm-up's, each round's, the wide round's
            paths = []
            while len(paths) < cold_requests:
                kind, name, language = rng.choice(pool)
                query = typed(name, rng)
                if (kind, query, language) in seen:
                    continue
                seen.add((kind, query, language))
                paths.append(search_path(rng.choice(KINDS), query, language, keys[len(paths) % len(keys)]))
            cold_lists.append(wrk.script_for(work, f"cold{round_number}", paths))
        base = settings.api_base_url
        wrk.run(base, 2, args.connections, scripts["details"])
        wrk.run(base, 2, args.connections, cold_lists[0])  # warm the page cache with the index
        # Steady traffic has been searching for a while: its repeats are already in nginx's cache.
        wrk.run(base, args.seconds, args.connections, scripts["realistic"])
        cold = iter(cold_lists[1:])
        print(
            f"wrk -t1 -c{args.connections} -d{args.seconds}s, {args.rounds} rounds, {len(vocabulary):,} distinct "
            f"searches in the realistic mix, {len(imdb):,} IMDb ids",
            flush=True,
        )
        runs = [
            ("details (authenticated)", lambda: wrk.run(base, args.seconds, args.connections, scripts["details"])),
            ("search, realistic mix", lambda: wrk.run(base, args.seconds, args.connections, scripts["realistic"])),
            ("search, cold mix", lambda: wrk.run(base, args.seconds, args.connections, next(cold))),
            ("find by IMDb id", lambda: wrk.run(base, args.seconds, args.connections, scripts["find"])),
        ]
        results: dict[str, list[dict]] = {}
        ratios = wrk.rounds_of(args.rounds, runs, results)
        wide_results: dict[str, list[dict]] = {}
        wide = wrk.one_round(
            base,
            args.seconds,
            args.wide,
            [
                ("details (authenticated)", scripts["details"]),
                ("search, realistic mix", scripts["realistic"]),
                ("search, cold mix", next(cold)),
            ],
            wide_results,
        )
        published = after_publish(
            settings, args.seconds, args.connections, "search, realistic mix", scripts["realistic"]
        )
        edge_memory_found = edge_memory(stack)
        index_bytes = index.stat().st_size
    finally:
        if stack is not None:
            stack.stop()
        shutil.rmtree(home, ignore_errors=True)
    print(
        f"index: {index_bytes / 1e6:,.1f} MB; {memory_line(edge_memory_found)}; "
        f"this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:,.0f} MB"
    )
    p99 = {mix: [r["p99"] for r in results[name]] for mix, name in (("realistic", runs[1][0]), ("cold", runs[2][0]))}
    if max(r["rps"] for r in results[runs[2][0]]) * args.seconds > cold_requests:
        print(f"warning: a cold round sent more than its {cold_requests:,} distinct searches: some were repeats")
    print(
        "p99 ms per round: realistic "
        + ", ".join(f"{p:.1f}" for p in p99["realistic"])
        + "; cold "
        + ", ".join(f"{p:.1f}" for p in p99["cold"])
    )
    cold_wide = wide_results["search, cold mix"][0]
    print(
        f"at {args.wide} connections: search/static {wide[0][0]:.2f}, cold/static {wide[1][0]:.2f}, "
        f"cold {cold_wide['rps']:,.0f} a second, p99 ms {cold_wide['p99']:.1f}"
    )
    print(f"cold/static ratio: {wrk.median(ratios[1]):.2f}")
    print(f"publish p99 ms: {published['p99']:.1f}")  # the realistic mix, its first seconds on a new release
    print(f"edge memory MB: {edge_memory_found['Pss'] / 1e6:,.0f}")  # PSS of the edge and its answer workers
    print(f"search p99 ms: {max(p99['realistic'] + p99['cold']):.1f}")  # the worst round's, realistic or cold
    print(f"search/static ratio: {wrk.median(ratios[0]):.2f}")
    print(f"find/static ratio: {wrk.median(ratios[2]):.2f}")


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


def after_publish(settings: Settings, seconds: int, connections: int, name: str, script: Path) -> dict:
    """`script` (the run `name`) in a round with a publish in its middle: 2 s in, `publish` of a copy
    of the current release (hard links, a folder of its own: the same documents and indexes under a
    new root, so every cache keyed by the release, nginx's of answers and the edge's, starts empty,
    as after a real publish), warmed first as the command does (marquee/warm.py: the round's own
    requests, counted by nginx in the rounds before, are what it replays). The round runs on for at
    least `seconds` after the publish returns. Its p99 is the bench's `publish p99 ms` (issue 30 part
    3: a publish costs clients nothing they feel)."""
    folder = releases.new_release_dir(settings)
    shutil.copytree(settings.current_link.resolve(), folder, symlinks=True, copy_function=os.link, dirs_exist_ok=True)
    lead = 2
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


def memory_line(memory: dict[str, int]) -> str:
    return (
        f"edge memory (PSS, its answer workers included) {memory['Pss'] / 1e6:,.0f} MB: its own "
        f"{memory['Pss_Anon'] / 1e6:,.0f} MB, mapped index pages {memory['Pss_File'] / 1e6:,.0f} MB"
    )


if __name__ == "__main__":
    main()
