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

import random
import resource
import sqlite3
from pathlib import Path
from urllib.parse import quote

from bench import wrk
from bench.catalogues import indexes_for
from bench.index_stack import after_publish, arguments, edge_memory, memory_line, served
from marquee.artefacts import SEARCH_INDEX
from marquee.settings import Settings

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


def main() -> None:
    args = arguments(__doc__, "search").parse_args()
    rng = random.Random(7)

    def prepare(catalogue: Path, settings: Settings, release: Path, cache: Path) -> list[str]:
        indexes_for(catalogue, settings, release, cache)
        return []

    with served(args, "marquee-bench-search-", prepare) as bench:
        settings, keys, work = bench.settings, bench.keys, bench.work
        index = bench.release / SEARCH_INDEX
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
        details = [f"{bench.details_path}?api_key={key}" for key in keys]
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
        wrk.warm_up(base, args.seconds, args.connections, scripts["details"])
        wrk.warm_up(base, args.seconds, args.connections, cold_lists[0])  # warm the page cache with the index
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
        edge_memory_found = edge_memory(bench.stack)
        index_bytes = index.stat().st_size
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


if __name__ == "__main__":
    main()
