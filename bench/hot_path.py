"""Benchmark: bare nginx serving one document as a static file against the full authenticated path
to the same document in a release pack (key check, window, SQLite lookup through Lua).

Both paths use the same nginx binary, the same bytes and the same wrk settings. They alternate in
several rounds of one run, and the figure is the median of the per-round ratios: on a shared,
noisy machine a paired ratio drifts far less than either absolute figure. The bench plan
(wrk.BENCH_PLANS) admits more than any box sends, so no request is rate-limited; the run fails if
one is. The last line is the ratio.

With --zipf (what `make bench` runs) a second stack in the same fleet serves a real release (built
from the cached catalogue of --movies films, or an already rendered --release): a mix over all its
films' details and common sub-resources, Zipf over the films, 14 languages, most documents cold,
against that release's most asked details document alone, in the same rounds. Its line,
`zipf details/static ratio`, is the mix's throughput over the hot document's (issue 29 asks >= 0.80
at 1M films).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import duckdb

from bench import wrk
from bench.catalogues import CACHE, catalogue_for
from control.services import Stack, free_port, port_open, require_binary, wait_for
from marquee.settings import Settings
from site_gen.documents import batch_of
from site_gen.release import render_release
from site_gen.writer import Writer

# The Zipf mix's paths by share: details most, then what clients ask of a film next. Each is a
# document nginx answers from the pack (images and videos without a language: with one they are
# the edge's, filtered). `language` is drawn from MARQUEE_LANGUAGES for the ones that take it.
# fmt: off
ZIPF_PATHS = (("", 40, True), ("/credits", 12, True), ("/images", 8, False), ("/videos", 8, False),
              ("/release_dates", 6, True), ("/keywords", 5, True), ("/external_ids", 5, True),
              ("/alternative_titles", 4, True), ("/translations", 4, True), ("/watch/providers", 4, True),
              ("/similar", 4, True))
# fmt: on
OTHER_DOCUMENTS = 20_000  # beside the bench document in its release's pack, as a real release has
ZIPF_TARGETS = 50_000  # requests in the mix's list a second of a round, cycled by wrk: more than it sends

# Bare nginx at its best for this box: its own process, a worker per core, nothing but the file.
# The same access log format as the API host, so logging costs the same on both sides.
BARE_NGINX = """
%(user)s
worker_processes auto;
pid %(run)s/bare-nginx.pid;
daemon off;
error_log %(run)s/bare-nginx-error.log crit;
events { worker_connections 4096; }
http {
    default_type application/json;
    log_format marquee '$remote_addr [$time_local] "$request_method $uri" $status $body_bytes_sent $request_time';
    access_log %(run)s/bare-nginx-access.log marquee buffer=64k flush=1s;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    server {
        listen 127.0.0.1:%(port)d backlog=4096;
        root %(root)s;
        location /3/ { try_files $uri.json =404; }
    }
}
"""


def start_bare_nginx(home: Path, port: int) -> subprocess.Popen:
    run = home / "bare"
    run.mkdir()
    conf = run / "nginx.conf"
    user = "user root;" if os.geteuid() == 0 else ""  # as in nginx/marquee.conf.j2
    conf.write_text(BARE_NGINX % {"run": run, "port": port, "root": home / "static", "user": user})
    proc = subprocess.Popen(
        [require_binary("nginx"), "-c", str(conf), "-p", str(run)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for(lambda: port_open("127.0.0.1", port), "bare nginx", 10, proc)
    return proc


# --metrics-cost: nginx's metrics module with every counter a no-op, found first on the Lua path.
NO_METRICS = """local M = {}
local function none() end
M.init, M.init_worker, M.add, M.observe_key_check, M.answered, M.log, M.serve = none, none, none, none, none, none, none
return M
"""


class WithoutMetrics(Stack):
    """The same stack, counting nothing for /metrics: what the counters cost the hot path."""

    def nginx_conf(self) -> str:
        stub = self.settings.run_dir / "no-metrics"
        stub.mkdir(exist_ok=True)
        (stub / "marquee_metrics.lua").write_text(NO_METRICS)
        conf = super().nginx_conf()
        return conf.replace('lua_package_path "', f'lua_package_path "{stub}/?.lua;', 1)


def make_release(home: Path, body: bytes, others: int = OTHER_DOCUMENTS) -> str:
    """A release whose pack holds the document (and, as a real one would, `others` more), published
    in home; the same bytes as a plain file under home/static for bare nginx."""
    release = home / "releases" / "bench"
    uris = ["/3/movie/bench"] + [f"/3/movie/{n}" for n in range(others)]
    bodies = [body] + [body.replace(b'"id":1,', f'"id":{n},'.encode(), 1) for n in range(others)]
    writer = Writer(release)
    writer.write_batch("", batch_of(uris, bodies))  # as a build writes a template (a write() a row: 7 s here)
    writer.finish()
    (release / "BUILD").write_text("bench\n")
    (home / "current").symlink_to("releases/bench")
    static = home / "static" / "3" / "movie" / "bench.json"
    static.parent.mkdir(parents=True)
    static.write_bytes(body)
    return "/3/movie/bench"


def film_ids(release: Path) -> list[int]:
    """Every film of a rendered release, from its manifest (no pack scan: 1M names in a second)."""
    rows = duckdb.sql(
        f"SELECT DISTINCT CAST(split_part(split_part(name, '/', 3), '.', 1) AS BIGINT) FROM "
        f"read_parquet('{release}/MANIFEST/*.parquet') WHERE template = '/3/movie/{{movie_id}}'"
    )
    return sorted(row[0] for row in rows.fetchall())


def zipf_targets(ids: list[int], languages: list[str], keys: list[str], count: int) -> tuple[list[str], str]:
    """`count` requests over every film, Zipf over a shuffled order of them (so popularity is not
    the pack's order), and the most asked film's details: the hot document of the same run."""
    rng = random.Random(29)
    order = list(ids)
    rng.shuffle(order)
    films = wrk.zipf_choices(rng, len(order), count)
    paths = rng.choices(ZIPF_PATHS, weights=[weight for _, weight, _ in ZIPF_PATHS], k=count)
    targets = []
    for n, (rank, (suffix, _, localised)) in enumerate(zip(films, paths)):
        language = f"&language={rng.choice(languages)}" if localised else ""
        targets.append(f"/3/movie/{order[rank]}{suffix}?api_key={keys[n % len(keys)]}{language}")
    return targets, f"/3/movie/{order[0]}"


def zipf_stack(home: Path, fleet: Settings, release: Path | None, movies: int, cache: Path) -> tuple[Stack, Path]:
    """A stack of the fleet (its Redis and registry) serving `release`, or a release built here from
    the cached catalogue of `movies` films."""
    home.mkdir()
    settings = wrk.bench_settings(
        home,
        MARQUEE_REDIS_URL=fleet.redis_url,
        MARQUEE_REGISTRY_PATH=str(fleet.registry_path),
        MARQUEE_IMAGE_SIZES="request",
    )
    if release is None:
        release = settings.releases_dir / "zipf"
        render_release(settings, catalogue_for(movies, cache), release, echo=None)
    settings.current_link.symlink_to(release.resolve())
    return Stack(settings).start(redis=False), release


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=8, help="length of each wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="static/authenticated pairs")
    # 200: the connection count at which perf-baseline.md measured bare nginx at its best.
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--accounts", type=int, default=200)
    parser.add_argument("--file", type=Path, help="a JSON document to serve (default: a 3 KB stand-in)")
    parser.add_argument(
        "--documents", type=int, default=OTHER_DOCUMENTS, help="the other documents of its release's pack"
    )
    parser.add_argument(
        "--metrics-cost",
        action="store_true",
        help="also run the authenticated path with nginx's metrics counters off, in the same rounds",
    )
    parser.add_argument(
        "--zipf", action="store_true", help="also a Zipf mix over a real release's films against its hottest document"
    )
    parser.add_argument("--movies", type=int, default=2_000, help="films of the Zipf release built here")
    parser.add_argument("--release", type=Path, help="an already rendered release for the Zipf mix instead")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where generated catalogues are kept")
    args = parser.parse_args()

    body = args.file.read_bytes() if args.file else b'{"id":1,"title":"Bench","overview":"' + b"x" * 3000 + b'"}'
    home = Path(tempfile.mkdtemp(prefix="marquee-bench-"))
    stacks: list[tuple[str, Stack, Path]] = []
    bare = None
    try:
        stack_home = home / "stack"
        stack_home.mkdir()
        settings = wrk.bench_settings(stack_home)
        path = make_release(stack_home, body, args.documents)
        keys = wrk.bench_keys(settings, args.accounts, "bench")
        script = wrk.script_for(stack_home, "auth", [f"{path}?api_key={key}" for key in keys])
        stacks.append((f"authenticated ({settings.nginx_workers} workers)", Stack(settings).start(), script))
        if args.metrics_cost:
            quiet_home = home / "quiet"
            quiet_home.mkdir()
            quiet = wrk.bench_settings(  # one fleet: same keys
                quiet_home, MARQUEE_REDIS_URL=settings.redis_url, MARQUEE_REGISTRY_PATH=str(settings.registry_path)
            )
            (quiet_home / "current").symlink_to(stack_home / "releases" / "bench")  # the same release
            stacks.append(
                (
                    "authenticated, metrics off",
                    WithoutMetrics(quiet).start(redis=False),
                    wrk.script_for(quiet_home, "auth", [f"{path}?api_key={key}" for key in keys]),
                )
            )
        zipf_index = None  # the Zipf mix's place in `stacks` (the hot document's is next)
        if args.zipf:
            stack, release = zipf_stack(home / "zipf", settings, args.release, args.movies, args.cache.resolve())
            zipf_index = len(stacks)
            stacks.append(("zipf over every film", stack, None))  # stopped in `finally` whatever follows
            films = film_ids(release)
            targets, hot = zipf_targets(films, settings.languages, keys, ZIPF_TARGETS * args.seconds)
            stacks[zipf_index] = ("zipf over every film", stack, wrk.script_for(home, "zipf", targets))
            stacks.append(("hot details document", stack, wrk.script_for(home, "hot", [f"{hot}?api_key={keys[0]}"])))
            print(f"zipf mix: {len(films):,} films, {len(targets):,} requests cycled; hot {hot}", flush=True)
        static_script = wrk.script_for(home, "static", [path])
        static_port = free_port()
        bare = start_bare_nginx(stack_home, static_port)
        static_url = f"http://127.0.0.1:{static_port}"
        size = len(body)
        print(
            f"wrk -t1 -c{args.connections} -d{args.seconds}s, {args.rounds} rounds, {args.accounts} accounts, "
            f"document {path} ({size} bytes)",
            flush=True,
        )
        wrk.warm_up(static_url, args.seconds, args.connections, static_script)
        runs = [
            ("static (bare nginx, no key)", lambda: wrk.run(static_url, args.seconds, args.connections, static_script))
        ]
        for name, stack, script in stacks:
            wrk.warm_up(stack.settings.api_base_url, args.seconds, args.connections, script)
            runs.append(
                (
                    name,
                    lambda stack=stack, script=script: wrk.run(
                        stack.settings.api_base_url, args.seconds, args.connections, script
                    ),
                )
            )
        ratios = wrk.rounds_of(args.rounds, runs)
    finally:
        if bare is not None:
            bare.send_signal(signal.SIGQUIT)
            bare.wait(10)
        for stack in {id(stack): stack for _, stack, _ in stacks}.values():  # the Zipf stack runs twice
            stack.stop()
        shutil.rmtree(home, ignore_errors=True)
    if args.metrics_cost:
        cost = [on / off for on, off in zip(ratios[0], ratios[1])]
        print("metrics cost (throughput with counters / without), per round: " + ", ".join(f"{c:.3f}" for c in cost))
        print(f"metrics cost: {wrk.median(cost):.2f}")
    if zipf_index is not None:
        zipf = [mix / hot for mix, hot in zip(ratios[zipf_index], ratios[zipf_index + 1])]
        print("zipf details/static per round: " + ", ".join(f"{z:.3f}" for z in zipf))
        print(f"zipf details/static ratio: {wrk.median(zipf):.2f}")
    print("per-round ratios: " + ", ".join(f"{r:.3f}" for r in ratios[0]))
    print(f"authenticated/static ratio: {wrk.median(ratios[0]):.2f}")


if __name__ == "__main__":
    main()
