"""Benchmark: /3/discover through nginx and the edge, against the authenticated details path.

A generated catalogue (100k movies and 10k series by default, shared with `make bench-search`) is
indexed alone (the search index for the items, the discover index; no release is rendered),
published beside a pack with one details document, and served by a real stack:

- details: the authenticated details path, the reference;
- discover: a realistic mix of filters and sorts, Zipf-distributed over a few thousand distinct
  requests as a browsing app sends them (mostly popularity order and the first pages; genres, years,
  providers in a region, a rating floor, a cast member, tv by network or status), the language asked
  at random; nginx keeps what repeats, the edge answers the rest. No discover request precedes the
  first round: it is the first traffic a published index sees.
- cold discover: requests drawn the same way, each asked once in the whole run (each round its own
  list), so every answer is the edge's.

- lists: the title lists (popular, top rated, now playing, upcoming, airing today, on the air,
  popular people) and trending, their first five pages in every language, the first page most:
  nginx answers them from the list pack (edge/list_pack.py), computed here as a build does.

- details, a list page's size: a details document as large as the mean list page, to tell what the
  lists cost beyond their bytes (`lists/same-size details ratio`).

- details and the lists again, as most clients ask (`Accept-Encoding: gzip`): nginx compresses the
  details document on the fly, the lists come gzipped from the pack (`gzip lists/static ratio`; the
  reference compresses to almost nothing, so the ratio errs against the lists).

The catalogue's indexes are built once and kept with it (bench/catalogues.py `indexes_for`). The
rounds alternate the seven at `--connections` (8: the p99 target's load); one more round of details
and both discover mixes runs at `--wide` (50). Each ratio is a mix's throughput over details' in the
same round, the median over rounds; a p99 line is the worst round's. Last, the browsing mix runs
once more with a publish in its middle (of a copy of the release, warmed as `marquee publish`
warms it: bench/search.py `after_publish`). The last lines are `publish p99 ms: X`, `edge memory MB: X`, `discover p99 ms: X`
(browsing and cold), `discover/static ratio: X.XX` and `lists/static ratio: X.XX`.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

import duckdb

from bench import wrk
from bench.catalogues import indexes_for
from bench.index_stack import after_publish, arguments, edge_memory, memory_line, served
from edge import list_pack
from marquee.packs import add_document


def build_indexes(catalogue: Path, settings, release: Path, cache: Path) -> list[str]:
    """Both indexes of the catalogue in `release` (bench/catalogues.py: built once, kept), and today's
    list pack, computed from them as a build does (edge/list_pack.py)."""
    indexes_for(catalogue, settings, release, cache)
    return [list_pack.publish(release, list(settings.languages)).line()]


def facts(catalogue: Path) -> dict[str, list]:
    """Values browsing filters on, the most common first (read from the catalogue's Parquet)."""
    con = duckdb.connect()

    def column(query: str) -> list:
        return [v for (v,) in con.execute(query).fetchall()]

    try:
        return {
            "genre": column(
                f"SELECT genre_id FROM '{catalogue}/movie_genres.parquet' GROUP BY 1 ORDER BY count(*) DESC"
            ),
            "tv_genre": column(
                f"SELECT genre_id FROM '{catalogue}/series_genres.parquet' GROUP BY 1 ORDER BY count(*) DESC"
            ),
            "network": column(
                f"SELECT network_id FROM '{catalogue}/series_networks.parquet' GROUP BY 1 "
                "ORDER BY count(*) DESC LIMIT 30"
            ),
            "region": column(
                f"SELECT iso_3166_1 FROM '{catalogue}/movie_watch_providers.parquet' GROUP BY 1 "
                "ORDER BY count(*) DESC LIMIT 10"
            ),
            "provider": column(
                f"SELECT provider_id FROM '{catalogue}/movie_watch_providers.parquet' GROUP BY 1 "
                "ORDER BY count(*) DESC LIMIT 15"
            ),
            "cast": column(
                f"SELECT person_id FROM '{catalogue}/cast.parquet' GROUP BY 1 ORDER BY count(*) DESC LIMIT 500"
            ),
        }
    finally:
        con.close()


SORTS = ["popularity.desc"] * 6 + ["vote_average.desc", "primary_release_date.desc", "revenue.desc", "title.asc"]
TV_SORTS = ["popularity.desc"] * 6 + ["vote_average.desc", "first_air_date.desc", "name.asc"]


def browse(rng: random.Random, known: dict[str, list], languages: list[str]) -> str:
    """One discover request as a browsing client sends it."""
    page = str(min(500, int(rng.paretovariate(1.5))))
    if rng.random() < 0.25:
        params = {"sort_by": rng.choice(TV_SORTS), "page": page}
        choice = rng.random()
        if choice < 0.4:
            params["with_genres"] = str(rng.choice(known["tv_genre"][:8]))
        elif choice < 0.7:
            params["with_networks"] = str(rng.choice(known["network"]))
        else:
            params["with_status"] = rng.choice(["0", "3", "0|2"])
        if rng.random() < 0.3:
            params["first_air_date.gte"] = f"{rng.randint(1990, 2024)}-01-01"
        path = "/3/discover/tv"
    else:
        params = {"sort_by": rng.choice(SORTS), "page": page}
        if rng.random() < 0.6:
            params["with_genres"] = ("," if rng.random() < 0.5 else "|").join(
                str(g) for g in rng.sample(known["genre"][:12], rng.choice((1, 1, 2)))
            )
        if rng.random() < 0.3:
            params["primary_release_year"] = str(rng.randint(1970, 2025))
        if rng.random() < 0.2:
            params.update(
                watch_region=rng.choice(known["region"]), with_watch_providers=str(rng.choice(known["provider"]))
            )
        if params["sort_by"] == "vote_average.desc" or rng.random() < 0.1:
            params["vote_count.gte"] = str(rng.choice((50, 100, 200)))
        if rng.random() < 0.05:
            params["with_cast"] = str(rng.choice(known["cast"]))
        path = "/3/discover/movie"
    params["language"] = rng.choice(languages)
    return f"{path}?{urlencode(params)}"


# fmt: off
LIST_PATHS = ("/3/movie/popular", "/3/movie/top_rated", "/3/movie/now_playing", "/3/movie/upcoming", "/3/tv/popular",
              "/3/tv/top_rated", "/3/tv/airing_today", "/3/tv/on_the_air", "/3/person/popular",
              "/3/trending/all/day", "/3/trending/movie/week", "/3/trending/tv/day", "/3/trending/person/week")
# fmt: on


def title_lists(rng: random.Random, languages: list[str], count: int) -> list[str]:
    return [
        f"{rng.choice(LIST_PATHS)}?{urlencode({'page': rng.choice((1, 1, 1, 1, 2, 2, 3, 4, 5)), 'language': rng.choice(languages)})}"
        for _ in range(count)
    ]


def list_sized(release: Path) -> str:
    """A details document as large as the list pack's mean page, added to the bench release's pack: the
    list pages are 3 to 20 KB, the reference document 3 KB, and nginx's cost grows with the bytes."""
    pack = list_pack.current(release)
    with sqlite3.connect(pack) as con:
        size = int(con.execute("SELECT avg(length(body)) FROM docs WHERE name LIKE '%?page=_'").fetchone()[0])
    body = b'{"id":2,"title":"Bench","overview":"' + b"x" * max(0, size - 40) + b'"}'
    add_document(release, "3/movie/sized.json", body)
    return "/3/movie/sized"


def cold_lists(
    rng: random.Random,
    known: dict[str, list],
    languages: list[str],
    seen: set[str],
    rounds: int,
    count: int,
    keys: list[str],
    work: Path,
) -> list[Path]:
    """A script per round of `count` discover requests each asked once in the whole run (none in `seen`,
    the browsing mix's): every answer is the edge's, never nginx's cache's."""
    scripts = []
    for n in range(rounds):
        paths: list[str] = []
        while len(paths) < count:
            path = browse(rng, known, languages)
            if path not in seen:
                seen.add(path)
                paths.append(f"{path}&api_key={keys[len(paths) % len(keys)]}")
        scripts.append(wrk.script_for(work, f"cold{n}", paths))
    return scripts


def main() -> None:
    parser = arguments(__doc__, "discover")
    parser.add_argument("--distinct", type=int, default=20_000, help="distinct discover requests in the mix")
    args = parser.parse_args()
    rng = random.Random(11)
    with served(args, "marquee-bench-discover-", build_indexes) as bench:
        settings, keys, work = bench.settings, bench.keys, bench.work
        known = facts(bench.catalogue)
        distinct = list(dict.fromkeys(browse(rng, known, settings.languages) for _ in range(args.distinct)))
        requests = args.seconds * 6000
        mix = [
            f"{distinct[i]}&api_key={keys[n % len(keys)]}"
            for n, i in enumerate(wrk.zipf_choices(rng, len(distinct), requests))
        ]
        details = [f"{bench.details_path}?api_key={key}" for key in keys]
        sized_path = list_sized(bench.release)
        sized = [f"{sized_path}?api_key={key}" for key in keys]
        listed = [
            f"{target}&api_key={keys[n % len(keys)]}"
            for n, target in enumerate(title_lists(rng, settings.languages, requests))
        ]
        cold_count = args.seconds * 8000  # more than a round of the edge's answers sends
        cold = cold_lists(rng, known, settings.languages, set(distinct), args.rounds + 1, cold_count, keys, work)
        gzip = {"Accept-Encoding": "gzip"}
        scripts = {
            "details": wrk.script_for(work, "details", details),
            "discover": wrk.script_for(work, "discover", mix),
            "lists": wrk.script_for(work, "lists", listed),
            "sized": wrk.script_for(work, "sized", sized),
            "details gzip": wrk.script_for(work, "details-gzip", details, gzip),
            "lists gzip": wrk.script_for(work, "lists-gzip", listed, gzip),
        }
        base = settings.api_base_url

        def run(script: Path) -> Callable[[], dict]:
            return lambda: wrk.run(base, args.seconds, args.connections, script)

        # No discover before the rounds: the first round is the first traffic a published index sees.
        wrk.warm_up(base, args.seconds, args.connections, scripts["details"])
        wrk.warm_up(base, args.seconds, args.connections, scripts["lists"])
        print(
            f"wrk -t1 -c{args.connections} -d{args.seconds}s, {args.rounds} rounds, {len(distinct):,} distinct "
            f"discover requests, {cold_count:,} new ones a cold round",
            flush=True,
        )
        rounds = iter(cold)
        runs = [
            ("details (authenticated)", run(scripts["details"])),
            ("discover, browsing mix", run(scripts["discover"])),
            ("discover, cold (every request new)", lambda: wrk.run(base, args.seconds, args.connections, next(rounds))),
            ("title lists", run(scripts["lists"])),
            ("details, a list page's size", run(scripts["sized"])),
            ("details, clients taking gzip", run(scripts["details gzip"])),
            ("title lists, clients taking gzip", run(scripts["lists gzip"])),
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
                ("discover, browsing mix", scripts["discover"]),
                ("discover, cold (every request new)", cold[-1]),
            ],
            wide_results,
        )
        published = after_publish(
            settings, args.seconds, args.connections, "discover, browsing mix", scripts["discover"]
        )
        edge_memory_found = edge_memory(bench.stack)
    p99 = {name: [r["p99"] for r in results[runs[i][0]]] for name, i in (("browsing", 1), ("cold", 2))}
    if max(r["rps"] for r in results[runs[2][0]]) * args.seconds > cold_count:
        print(f"warning: a cold round sent more than its {cold_count:,} new requests: some were repeats")
    print(
        "p99 ms per round: browsing "
        + ", ".join(f"{p:.1f}" for p in p99["browsing"])
        + "; cold "
        + ", ".join(f"{p:.1f}" for p in p99["cold"])
    )
    wide_p99 = [r[0]["p99"] for name, r in wide_results.items() if name.startswith("discover")]
    print(
        f"at {args.wide} connections: discover/static {wide[0][0]:.2f}, cold/static {wide[1][0]:.2f}, "
        f"p99 ms {wide_p99[0]:.1f} and {wide_p99[1]:.1f}"
    )
    print(f"lists/same-size details ratio: {wrk.median(ratios[2]) / wrk.median(ratios[3]):.2f}")
    print(
        f"gzip lists/static ratio: {wrk.median([lists / details for details, lists in zip(ratios[4], ratios[5])]):.2f}"
    )
    print(f"cold discover/static ratio: {wrk.median(ratios[1]):.2f}")
    print(memory_line(edge_memory_found))
    print(f"publish p99 ms: {published['p99']:.1f}")  # the browsing mix, its first seconds on a new release
    print(f"edge memory MB: {edge_memory_found['Pss'] / 1e6:,.0f}")  # PSS of the edge and its answer workers
    print(f"discover p99 ms: {max(p99['browsing'] + p99['cold']):.1f}")  # the worst round's, cold or browsing
    print(f"discover/static ratio: {wrk.median(ratios[0]):.2f}")
    print(f"lists/static ratio: {wrk.median(ratios[2]):.2f}")


if __name__ == "__main__":
    main()
