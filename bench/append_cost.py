"""Benchmark: a movie details call with five appends against the plain details call, and the
composite documents (a film's similar list, a person's combined credits) against it too.

All go through nginx and the key check; the plain call is one document from the release pack, the
appended one is spliced from six (nginx/lua/marquee_append.lua) of the same release, and a
composite is assembled from its item documents (nginx/lua/marquee_docs.lua; once per worker, then
cached like any document). Cost = time per request, so each figure is plain req/s over its req/s
(median of the rounds, which alternate all seven). Target for appends: at most 2.00.

The fifth run is the OMDb dialect's lookup by IMDb id, `/compat/?apikey=…&i=tt…` (two documents of
the same release: nginx/lua/marquee_compat.lua): `compat/details ratio` is its req/s over plain
details' (target at least 0.80).

The last two are plain and appended details again as most clients ask, with `Accept-Encoding: gzip`
(`gzip append cost ratio`, the same target): nginx sends a gzip it made once, not one per answer.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from bench import wrk
from control.services import Stack
from marquee.packs import Pack
from marquee.releases import publish
from marquee_datasets.synthetic import generate
from site_gen.release import render_release

APPENDS = "credits,videos,images,keywords,external_ids"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--movies", type=int, default=500)
    parser.add_argument("--accounts", type=int, default=200)
    parser.add_argument("--release", type=Path, help="an already rendered release to serve (skips the build)")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="marquee-append-bench-"))
    settings = wrk.bench_settings(home)
    if args.release:
        release = args.release.resolve()
        settings.current_link.symlink_to(release)
    else:
        generate(settings.catalogue_dir, args.movies, 11)
        release = settings.releases_dir / "20260101T000000Z"
        render_release(settings, settings.catalogue_dir, release, echo=None)
        publish(settings, release.name)
    with Pack(release) as pack:
        ids = sorted({int(name.split("/")[2].split(".")[0]) for name in pack.names("3/movie/%")})
        present = [name for name in APPENDS.split(",") if pack.get(f"3/movie/{ids[0]}/{name}.json") is not None]
    keys = wrk.bench_keys(settings, args.accounts, "bench")
    pairs = [(movie_id, keys[n % len(keys)]) for n, movie_id in enumerate(ids)]
    plain = wrk.script_for(home, "plain", [f"/3/movie/{m}?api_key={k}" for m, k in pairs])
    appended = wrk.script_for(
        home, "append", [f"/3/movie/{m}?api_key={k}&append_to_response={APPENDS}" for m, k in pairs]
    )
    similar = wrk.script_for(home, "similar", [f"/3/movie/{m}/similar?api_key={k}" for m, k in pairs])
    gzip = {"Accept-Encoding": "gzip"}  # as most clients ask
    plain_gzip = wrk.script_for(home, "plain-gzip", [f"/3/movie/{m}?api_key={k}" for m, k in pairs], gzip)
    appended_gzip = wrk.script_for(
        home, "append-gzip", [f"/3/movie/{m}?api_key={k}&append_to_response={APPENDS}" for m, k in pairs], gzip
    )
    with Pack(release) as pack:  # people with credits: each credit is an entry over a film's or series' item
        people = sorted({int(name.split("/")[2]) for name in pack.names("3/person/%/combined_credits.json")})
        imdb_ids = [
            name.split("/")[2][: -len(".json")]
            for name in pack.names("compat/imdb/%")
            if b"compat/movie/" in pack.get(name)
        ]
    compat = wrk.script_for(
        home, "compat", [f"/compat/?apikey={keys[n % len(keys)]}&i={i}" for n, i in enumerate(imdb_ids)]
    )
    credits = wrk.script_for(
        home, "credits", [f"/3/person/{p}/combined_credits?api_key={keys[n % len(keys)]}" for n, p in enumerate(people)]
    )
    stack = Stack(settings).start()
    url = settings.api_base_url
    try:
        print(
            f"wrk -t1 -c{args.connections} -d{args.seconds}s, {args.rounds} rounds, {len(ids)} movies, "
            f"{len(people)} people, append_to_response={APPENDS} ({len(present)} of 5 rendered in this "
            f"release: {','.join(present)})",
            flush=True,
        )
        for script in (plain, appended, similar, credits, compat, plain_gzip, appended_gzip):
            wrk.warm_up(url, args.seconds, args.connections, script)
        ratios = wrk.rounds_of(
            args.rounds,
            [
                ("plain details", lambda: wrk.run(url, args.seconds, args.connections, plain)),
                ("details + 5 appends", lambda: wrk.run(url, args.seconds, args.connections, appended)),
                ("similar (composite)", lambda: wrk.run(url, args.seconds, args.connections, similar)),
                ("combined_credits (composite)", lambda: wrk.run(url, args.seconds, args.connections, credits)),
                ("compat lookup by IMDb id", lambda: wrk.run(url, args.seconds, args.connections, compat)),
                (
                    "plain details, clients taking gzip",
                    lambda: wrk.run(url, args.seconds, args.connections, plain_gzip),
                ),
                (
                    "details + 5 appends, clients taking gzip",
                    lambda: wrk.run(url, args.seconds, args.connections, appended_gzip),
                ),
            ],
        )
    finally:
        stack.stop()
        shutil.rmtree(home, ignore_errors=True)
    costs = [[1 / r for r in per_round] for per_round in ratios[:3]]
    for name, cost in zip(("details + 5 appends", "similar list", "combined credits"), costs):
        print(f"{name}: per-round cost " + ", ".join(f"{c:.3f}" for c in cost))
    print(
        f"composite cost ratios (plain req/s / composite req/s): similar {wrk.median(costs[1]):.2f}, "
        f"combined_credits {wrk.median(costs[2]):.2f}"
    )
    print("compat per-round ratios: " + ", ".join(f"{r:.3f}" for r in ratios[3]))
    print(f"compat/details ratio: {wrk.median(ratios[3]):.2f}")
    gzip_costs = [plain_rate / appended_rate for plain_rate, appended_rate in zip(ratios[4], ratios[5])]
    print(f"gzip append cost ratio (the same for clients taking gzip): {wrk.median(gzip_costs):.2f}")
    print(f"append cost ratio (plain req/s / appended req/s, target <= 2.00): {wrk.median(costs[0]):.2f}")


if __name__ == "__main__":
    main()
