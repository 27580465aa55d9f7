"""Benchmark: /3/discover through nginx and the edge, against the authenticated details path.

A generated catalogue (100k movies and 10k series by default, shared with `make bench-search`) is
indexed alone (the search index for the items, the discover index; no release is rendered),
published beside a pack with one details document, and served by a real stack at 50 connections:

- details: the authenticated details path, the reference;
- discover: a realistic mix of filters and sorts, Zipf-distributed over a few thousand distinct
  requests as a browsing app sends them (mostly popularity order and the first pages; genres, years,
  providers in a region, a rating floor, a cast member, tv by network or status), the language asked
  at random; nginx keeps what repeats, the edge answers the rest.

- lists: the title lists (popular, top rated, now playing, upcoming, airing today, on the air,
  popular people) and trending, their first five pages in every language, the first page most:
  nginx answers them from the list pack (edge/list_pack.py), computed here as a build does.

- details, a list page's size: a details document as large as the mean list page, to tell what the
  lists cost beyond their bytes (`lists/same-size details ratio`).

- details and the lists again, as most clients ask (`Accept-Encoding: gzip`): nginx compresses the
  details document on the fly, the lists come gzipped from the pack (`gzip lists/static ratio`; the
  reference compresses to almost nothing, so the ratio errs against the lists).

The rounds alternate the six; each ratio is a mix's throughput over details' in the same round, the
median over rounds. The last lines are `discover p99 ms: X`, `discover/static ratio: X.XX` and
`lists/static ratio: X.XX`.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import urlencode

import duckdb

from bench import wrk
from bench.catalogues import CACHE, catalogue_for
from bench.search import bench_home, edge_memory
from marquee.artefacts import DISCOVER_INDEX, SEARCH_INDEX
from marquee.packs import add_document
from marquee.services import Stack
from edge import list_pack
from site_gen import discover_index, search_index


def build_indexes(catalogue: Path, settings, release: Path, work: Path) -> list[str]:
    """Both indexes of the catalogue, from one load of it (what a build would write beside its pack), and
    today's list pack."""
    with search_index.prepared_database(catalogue, settings, work) as con:
        found = search_index.build(con, list(settings.languages), release / SEARCH_INDEX)
        discovered = discover_index.build(con, release / DISCOVER_INDEX, catalogue)
    # The lists nginx serves from the release (edge/list_pack.py), computed from the indexes as a build does.
    lists = list_pack.publish(release, list(settings.languages))
    return [found.line(), discovered.line(), lists.line()]


def facts(catalogue: Path) -> dict[str, list]:
    """Values browsing filters on, the most common first (read from the catalogue's Parquet)."""
    con = duckdb.connect()

    def column(query: str) -> list:
        return [v for (v,) in con.execute(query).fetchall()]
    try:
        return {
            "genre": column(f"SELECT genre_id FROM '{catalogue}/movie_genres.parquet' GROUP BY 1 ORDER BY count(*) DESC"),
            "tv_genre": column(f"SELECT genre_id FROM '{catalogue}/series_genres.parquet' GROUP BY 1 ORDER BY count(*) DESC"),
            "network": column(f"SELECT network_id FROM '{catalogue}/series_networks.parquet' GROUP BY 1 "
                              "ORDER BY count(*) DESC LIMIT 30"),
            "region": column(f"SELECT iso_3166_1 FROM '{catalogue}/movie_watch_providers.parquet' GROUP BY 1 "
                             "ORDER BY count(*) DESC LIMIT 10"),
            "provider": column(f"SELECT provider_id FROM '{catalogue}/movie_watch_providers.parquet' GROUP BY 1 "
                               "ORDER BY count(*) DESC LIMIT 15"),
            "cast": column(f"SELECT person_id FROM '{catalogue}/cast.parquet' GROUP BY 1 ORDER BY count(*) DESC "
                           "LIMIT 500"),
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
                str(g) for g in rng.sample(known["genre"][:12], rng.choice((1, 1, 2))))
        if rng.random() < 0.3:
            params["primary_release_year"] = str(rng.randint(1970, 2025))
        if rng.random() < 0.2:
            params.update(watch_region=rng.choice(known["region"]), with_watch_providers=str(rng.choice(known["provider"])))
        if params["sort_by"] == "vote_average.desc" or rng.random() < 0.1:
            params["vote_count.gte"] = str(rng.choice((50, 100, 200)))
        if rng.random() < 0.05:
            params["with_cast"] = str(rng.choice(known["cast"]))
        path = "/3/discover/movie"
    params["language"] = rng.choice(languages)
    return f"{path}?{urlencode(params)}"


LIST_PATHS = ("/3/movie/popular", "/3/movie/top_rated", "/3/movie/now_playing", "/3/movie/upcoming", "/3/tv/popular",
              "/3/tv/top_rated", "/3/tv/airing_today", "/3/tv/on_the_air", "/3/person/popular",
              "/3/trending/all/day", "/3/trending/movie/week", "/3/trending/tv/day", "/3/trending/person/week")


def title_lists(rng: random.Random, languages: list[str], count: int) -> list[str]:
    return [f"{rng.choice(LIST_PATHS)}?{urlencode({'page': rng.choice((1, 1, 1, 1, 2, 2, 3, 4, 5)), 'language': rng.choice(languages)})}"
            for _ in range(count)]


def list_sized(release: Path) -> str:
    """A details document as large as the list pack's mean page, added to the bench release's pack: the
    list pages are 3 to 20 KB, the reference document 3 KB, and nginx's cost grows with the bytes."""
    pack = list_pack.current(release)
    with sqlite3.connect(pack) as con:
        size = int(con.execute("SELECT avg(length(body)) FROM docs WHERE name LIKE '%?page=_'").fetchone()[0])
    body = b'{"id":2,"title":"Bench","overview":"' + b"x" * max(0, size - 40) + b'"}'
    add_document(release, "3/movie/sized.json", body)
    return "/3/movie/sized"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--movies", type=int, default=100_000)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--distinct", type=int, default=20_000, help="distinct discover requests in the mix")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where generated catalogues are kept")
    args = parser.parse_args()

    rng = random.Random(11)
    home = Path(tempfile.mkdtemp(prefix="marquee-bench-discover-"))
    stack = None
    try:
        catalogue = catalogue_for(args.movies, args.cache.resolve())
        settings, details_path = bench_home(home)
        for line in build_indexes(catalogue, settings, home / "releases" / "bench", home):
            print(line, flush=True)
        keys = wrk.bench_keys(settings, 200, "bench")
        stack = Stack(settings).start()

        known = facts(catalogue)
        distinct = list(dict.fromkeys(browse(rng, known, settings.languages) for _ in range(args.distinct)))
        requests = args.seconds * 6000
        mix = [f"{distinct[i]}&api_key={keys[n % len(keys)]}"
               for n, i in enumerate(wrk.zipf_choices(rng, len(distinct), requests))]
        details = [f"{details_path}?api_key={key}" for key in keys]
        sized_path = list_sized(home / "releases" / "bench")
        sized = [f"{sized_path}?api_key={key}" for key in keys]
        work = home / "wrk"
        work.mkdir()
        listed = [f"{target}&api_key={keys[n % len(keys)]}"
                  for n, target in enumerate(title_lists(rng, settings.languages, requests))]
        gzip = {"Accept-Encoding": "gzip"}
        scripts = {"details": wrk.script_for(work, "details", details), "discover": wrk.script_for(work, "discover", mix),
                   "lists": wrk.script_for(work, "lists", listed), "sized": wrk.script_for(work, "sized", sized),
                   "details gzip": wrk.script_for(work, "details-gzip", details, gzip),
                   "lists gzip": wrk.script_for(work, "lists-gzip", listed, gzip)}
        base = settings.api_base_url
        wrk.run(base, 2, args.connections, scripts["details"])
        wrk.run(base, args.seconds, args.connections, scripts["discover"])  # steady traffic: repeats in nginx's cache
        wrk.run(base, 2, args.connections, scripts["lists"])
        print(f"wrk -t1 -c{args.connections} -d{args.seconds}s, {args.rounds} rounds, {len(distinct):,} distinct "
              f"discover requests", flush=True)
        runs = [("details (authenticated)", lambda: wrk.run(base, args.seconds, args.connections, scripts["details"])),
                ("discover, browsing mix", lambda: wrk.run(base, args.seconds, args.connections, scripts["discover"])),
                ("title lists", lambda: wrk.run(base, args.seconds, args.connections, scripts["lists"])),
                ("details, a list page's size", lambda: wrk.run(base, args.seconds, args.connections, scripts["sized"])),
                ("details, clients taking gzip", lambda: wrk.run(base, args.seconds, args.connections,
                                                                 scripts["details gzip"])),
                ("title lists, clients taking gzip", lambda: wrk.run(base, args.seconds, args.connections,
                                                                     scripts["lists gzip"]))]
        results: dict[str, list[dict]] = {}
        ratios = wrk.rounds_of(args.rounds, runs, results)
        edge_pss = edge_memory(stack)
    finally:
        if stack is not None:
            stack.stop()
        shutil.rmtree(home, ignore_errors=True)
    p99 = [r["p99"] for r in results[runs[1][0]]]
    print(f"edge memory (PSS, its answer workers included) {edge_pss / 1e6:,.0f} MB")
    print("p99 ms per round: " + ", ".join(f"{p:.1f}" for p in p99))
    print(f"lists/same-size details ratio: {wrk.median(ratios[1]) / wrk.median(ratios[2]):.2f}")
    print(f"gzip lists/static ratio: "
          f"{wrk.median([lists / details for details, lists in zip(ratios[3], ratios[4])]):.2f}")
    print(f"discover p99 ms: {wrk.median(p99):.1f}")
    print(f"discover/static ratio: {wrk.median(ratios[0]):.2f}")
    print(f"lists/static ratio: {wrk.median(ratios[1]):.2f}")


if __name__ == "__main__":
    main()
