"""wrk runs for the benchmarks: request lists formatted once, latency parsed, runs paired in rounds."""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from control.services import free_port, require_binary
from marquee.registry import Registry
from marquee.settings import Settings, from_env

# Requests are formatted once in init() from a file of targets: a wrk.format() per request would
# cost wrk more CPU than nginx spends on a file, and wrk shares the two cores with the servers.
# With BENCH_WRK_DELAY_MS=n in the environment each connection waits n ms before each request (wrk
# calls `delay` when the script defines it): a smoke run (the suite's) then sends every kind of
# request through every path at a few hundred a second, instead of taking both cores from the tests
# beside it for each second it runs; its figures say only that the bench ran.
SCRIPT = """
local requests = {}
local i = 0
local pause = tonumber(os.getenv("BENCH_WRK_DELAY_MS") or "0")
if pause > 0 then
  delay = function() return pause end
end
init = function(args)
  for line in io.lines("%s") do
    requests[#requests + 1] = wrk.format("GET", line, %s)
  end
end
request = function()
  i = i + 1
  if i > #requests then i = 1 end
  return requests[i]
end
"""


def parse(output: str) -> dict:
    def ms(text: str) -> float:
        value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": ms(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1)),
        "p99": ms(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1)),
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
    }


def script_for(workdir: Path, name: str, targets: list[str], headers: dict[str, str] | None = None) -> Path:
    """A wrk script cycling through `targets` (paths with their query strings), each request with
    `headers` (`Accept-Encoding` for clients that take gzip) besides wrk's own."""
    (workdir / f"{name}.txt").write_text("\n".join(targets) + "\n")
    script = workdir / f"{name}.lua"
    table = "{" + ", ".join(f'["{k}"] = "{v}"' for k, v in (headers or {}).items()) + "}"
    script.write_text(SCRIPT % (workdir / f"{name}.txt", table))
    return script


def run(base_url: str, seconds: int, connections: int, script: Path) -> dict:
    argv = [require_binary("wrk"), "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), base_url]
    return parse(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)


# A warm-up run's length: the page cache, connections and nginx's caches filled before the timed runs.
WARM_UP_SECONDS = 2


def warm_up(base_url: str, seconds: int, connections: int, script: Path) -> None:
    """A run of `script` for WARM_UP_SECONDS whose figures are dropped; none before timed runs of
    `seconds` shorter than that: a smoke run (the suite's), whose figures say only that it ran."""
    if seconds >= WARM_UP_SECONDS:
        run(base_url, WARM_UP_SECONDS, connections, script)


# The benches' plan: requests each bench account may make per window. No box reaches it (bare nginx
# does 76k to 140k a second here, so 1e8 in a 60 s window is ~1,000 times any bench's rate), so no
# run is rate-limited however fast the box; a fixed 20,000 was exhausted in a one-second smoke run
# on a fast day (issue 31, part 0). The window still counts every hit, as for a real plan.
BENCH_PLANS = "bench=100000000"


def bench_settings(home: Path, **env: str) -> Settings:
    """Settings of a bench's stack in `home`: its own free ports, the bench plan, `env` (MARQUEE_*)
    over the environment's."""
    ports = {name: str(free_port()) for name in ("MARQUEE_API_PORT", "MARQUEE_ADMIN_PORT", "MARQUEE_IMAGE_PORT")}
    return from_env({**os.environ, "MARQUEE_HOME": str(home), **ports, "MARQUEE_PLANS": BENCH_PLANS, **env})


def bench_keys(settings: Settings, accounts: int, plan: str) -> list[str]:
    """One key for each of `accounts` fresh accounts of `plan` (BENCH_PLANS' `bench` in the benches),
    the load spread over many accounts' windows as real traffic's is."""
    registry = Registry(settings.registry_path, settings.plans, 1)
    try:
        keys = []
        for n in range(accounts):
            registry.create_account(f"bench{n}", plan)
            keys.append(registry.create_key(f"bench{n}")[1])
        return keys
    finally:
        registry.close()


def rounds_of(
    rounds: int, runs: list[tuple[str, Callable[[], dict]]], results_by_run: dict[str, list[dict]] | None = None
) -> list[list[float]]:
    """Alternate the runs; print each, and return per round each run's throughput over the first's
    (each run's own figures go to `results_by_run` by name, when given)."""
    ratios: list[list[float]] = [[] for _ in runs[1:]]
    for n in range(1, rounds + 1):
        results = [(name, run()) for name, run in runs]
        if results_by_run is not None:
            for name, r in results:
                results_by_run.setdefault(name, []).append(r)
        for name, r in results:
            print(
                f"round {n}  {name:44s} {r['rps']:9,.0f} req/s   p50 {r['p50']:6.2f} ms   "
                f"p99 {r['p99']:6.2f} ms   non-2xx {r['non2xx']}",
                flush=True,
            )
            if r["non2xx"]:
                sys.exit("some requests failed or were rate-limited: the ratio would be meaningless")
        for i, (_, r) in enumerate(results[1:]):
            ratios[i].append(r["rps"] / results[0][1]["rps"])
    return ratios


def one_round(
    base_url: str,
    seconds: int,
    connections: int,
    scripts: list[tuple[str, Path]],
    results_by_run: dict[str, list[dict]],
) -> list[list[float]]:
    """One more round of the (name, script) runs at `connections`, printed and returned as
    rounds_of does (the benches' round at 50 connections beside their rounds at 8)."""
    print(f"wrk -t1 -c{connections} -d{seconds}s, one round", flush=True)
    return rounds_of(
        1,
        [(name, lambda script=script: run(base_url, seconds, connections, script)) for name, script in scripts],
        results_by_run,
    )


def paired_rounds(
    rounds: int, first: Callable[[], dict], second: Callable[[], dict], names: tuple[str, str]
) -> list[float]:
    """Alternate the two runs; print each and return second/first throughput per round."""
    ratios = rounds_of(rounds, [(names[0], first), (names[1], second)])[0]
    print("per-round ratios: " + ", ".join(f"{r:.3f}" for r in ratios))
    return ratios


def median(values: list[float]) -> float:
    return statistics.median(values)


def zipf_choices(rng: random.Random, n: int, count: int, s: float = 1.07) -> list[int]:
    """`count` ranks in range(n), the k-th drawn with weight 1/k^s: a few hot, a long cold tail."""
    weights = [1 / (rank**s) for rank in range(1, n + 1)]
    return rng.choices(range(n), weights=weights, k=count)
