"""Benchmark: bare nginx serving one release file against the full authenticated path to it.

Both paths use the same nginx, the same file and the same wrk settings. They alternate in
several rounds of one run, and the figure is the median of the per-round ratios: on a shared,
noisy machine a paired ratio drifts far less than either absolute figure. Enough accounts share
the load that no request is rate-limited; the run fails if one is.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from marquee.registry import Registry
from marquee.services import Stack, free_port, port_open, require_binary, wait_for
from marquee.settings import from_env

# Requests are formatted once in init(): a wrk.format() per request would cost wrk more CPU than
# nginx spends on the file, and wrk shares the two cores with the servers it measures.
WRK_SCRIPT = """
local requests = {}
local i = 0
init = function(args)
  for line in io.lines("%(keys)s") do
    requests[#requests + 1] = wrk.format("GET", "%(path)s?api_key=" .. line)
  end
end
request = function()
  i = i + 1
  if i > #requests then i = 1 end
  return requests[i]
end
"""

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
    conf.write_text(BARE_NGINX % {"run": run, "port": port, "root": home / "current", "user": user})
    proc = subprocess.Popen([require_binary("nginx"), "-c", str(conf), "-p", str(run)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: port_open("127.0.0.1", port), "bare nginx", 10, proc)
    return proc


def parse_wrk(output: str) -> dict[str, float]:
    def ms(text: str) -> float:
        value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p50 = ms(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1))
    p99 = ms(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    errors = re.search(r"Socket errors: (.*)", output)
    return {"rps": rps, "p50": p50, "p99": p99, "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "socket_errors": errors.group(1) if errors else ""}


def wrk(url: str, seconds: int, connections: int, script: Path | None = None) -> dict[str, float]:
    argv = [require_binary("wrk"), "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    if script:
        argv[1:1] = ["-s", str(script)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    return parse_wrk(out)


def make_release(home: Path, source: Path | None) -> str:
    """One release holding one movie document: copied from a built release, or a 3 KB stand-in."""
    release = home / "releases" / "bench"
    (release / "3" / "movie").mkdir(parents=True)
    if source is not None:
        shutil.copy(source, release / "3/movie/bench.json")
    else:
        doc = '{"id":1,"title":"Bench","overview":"' + "x" * 3000 + '"}'
        (release / "3/movie/bench.json").write_text(doc)
    (release / "BUILD").write_text("bench\n")
    (home / "current").symlink_to("releases/bench")
    return "/3/movie/bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=8, help="length of each wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="static/authenticated pairs")
    # 200: the connection count at which perf-baseline.md measured bare nginx at its best.
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--accounts", type=int, default=200)
    parser.add_argument("--file", type=Path, help="a release file to serve (default: a 3 KB stand-in)")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="marquee-bench-"))
    env = {"MARQUEE_HOME": str(home), "MARQUEE_API_PORT": str(free_port()), "MARQUEE_IMAGE_PORT": str(free_port()),
           "MARQUEE_PLANS": "bench=20000"}
    settings = from_env(env)
    path = make_release(home, args.file)
    size = (home / "current" / (path.lstrip("/") + ".json")).stat().st_size
    registry = Registry(settings.registry_path, settings.plans, 1)
    keys = []
    for n in range(args.accounts):
        registry.create_account(f"bench{n}", "bench")
        keys.append(registry.create_key(f"bench{n}")[1])
    registry.close()
    keys_file = home / "keys.txt"
    keys_file.write_text("\n".join(keys) + "\n")
    script = home / "keys.lua"
    script.write_text(WRK_SCRIPT % {"keys": keys_file, "path": path})

    static_port = free_port()
    stack = Stack(settings).start()
    bare = start_bare_nginx(home, static_port)
    try:
        static_url = f"http://127.0.0.1:{static_port}{path}"
        api_url = f"{settings.api_base_url}{path}"
        wrk(static_url, 2, args.connections)  # warm up page cache and connections
        wrk(api_url, 2, args.connections, script)
        rounds = []
        for _ in range(args.rounds):
            rounds.append((wrk(static_url, args.seconds, args.connections),
                           wrk(api_url, args.seconds, args.connections, script)))
    finally:
        bare.send_signal(signal.SIGQUIT)
        bare.wait(10)
        stack.stop()
        shutil.rmtree(home, ignore_errors=True)
    print(f"wrk -t1 -c{args.connections} -d{args.seconds}s, {args.rounds} rounds, {args.accounts} accounts, "
          f"file {path} ({size} bytes)")
    ratios = []
    for n, (static, auth) in enumerate(rounds, 1):
        for name, r in (("static (bare nginx, no key)", static), ("authenticated (nginx + edge + redis)", auth)):
            print(f"round {n}  {name:38s} {r['rps']:9,.0f} req/s   p50 {r['p50']:6.2f} ms   "
                  f"p99 {r['p99']:6.2f} ms   non-2xx {r['non2xx']}")
            if r["non2xx"]:
                sys.exit("some requests failed or were rate-limited: the ratio would be meaningless")
        ratios.append(auth["rps"] / static["rps"])
    print("per-round ratios: " + ", ".join(f"{r:.3f}" for r in ratios))
    print(f"authenticated/static ratio: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
