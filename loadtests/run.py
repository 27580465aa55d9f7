"""`make load`: load-test a running Marquee with the traffic mix of API clients, and report on it.

    .venv/bin/python -m loadtests.run --users 50 --rate 10 --time 1m [--host http://127.0.0.1:8080]

1. Keys: the `loadtest` account (plan `loadtest`, wide enough never to be limited) and the
   `loadtest-free` account (plan `free`) each get fresh keys in the registry, as `marquee serve`
   makes the demo key. Written to Redis too, they are in effect on every door at once. They are
   deleted when the run ends (and any a run that did not end left, before), so runs never pile
   keys up against an account's limit.
2. The host must admit a key at the `loadtest` plan's rate: a server started with other plans
   would limit the clients, and the run would measure 429s.
3. locust, headless, runs loadtests/locustfile.py.
4. HOME/load (var/load) gets locust's HTML report (report.html), its CSV stats and history
   (locust_*.csv), and timeline.png (loadtests/plot.py).

Exits with locust's status: 1 when any request failed.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click

from loadtests import FREE_429, plot
from loadtests.targets import read_targets
from marquee.registry import Registry
from marquee.settings import PROJECT_ROOT, Settings, from_env

LOCUSTFILE = Path(__file__).resolve().parent / "locustfile.py"
WIDE = "loadtest"  # the account and its plan
FREE_ACCOUNT, FREE_PLAN = "loadtest-free", "free"
LABEL = "load"  # what marks a key as the load test's
WIDE_KEYS = 4  # clients spread over a few keys of one account, as an application's installs would


@dataclass(frozen=True)
class LoadKeys:
    wide: list[str]
    free: list[str]


def retire_keys(reg: Registry, account: str) -> None:
    """Delete the load test's live keys of `account` (an account holds at most
    MARQUEE_MAX_KEYS_PER_ACCOUNT, and a key of the wide plan should not outlive its run)."""
    for old in reg.list_keys(account):
        if old.label == LABEL and old.state != "deleted":
            reg.set_key_state(old.id, "deleted")


def fresh_keys(reg: Registry, account: str, plan: str, count: int) -> list[str]:
    """`count` new keys of `account` on `plan` (made or moved there if need be), once the keys a
    run that did not finish left are deleted."""
    accounts = {a.name: a for a in reg.accounts()}
    if account not in accounts:
        reg.create_account(account, plan)
    elif accounts[account].plan != plan:
        reg.set_plan(account, plan)
    retire_keys(reg, account)
    return [reg.create_key(account, LABEL)[1] for _ in range(count)]


@contextmanager
def registry(settings: Settings) -> Iterator[Registry]:
    """The registry, writing to Redis too, so key changes are in effect when they return."""
    reg = Registry(settings.registry_path, settings.plans, settings.max_keys_per_account, settings.redis_url)
    try:
        yield reg
    finally:
        reg.close()
    if reg.unpublished:  # Redis unreachable: most likely nothing is running (check_host says so)
        click.echo(
            f"warning: Redis ({settings.redis_url}) did not take the key changes: {reg.unpublished[0]}", err=True
        )


def make_keys(settings: Settings) -> LoadKeys:
    for plan in (WIDE, FREE_PLAN):
        if plan not in settings.plans:
            raise click.ClickException(
                f"MARQUEE_PLANS has no `{plan}` plan; the load test needs "
                f"`{FREE_PLAN}` and `{WIDE}` (the default has both: {WIDE}=1000000)"
            )
    with registry(settings) as reg:
        return LoadKeys(fresh_keys(reg, WIDE, WIDE, WIDE_KEYS), fresh_keys(reg, FREE_ACCOUNT, FREE_PLAN, 1))


def check_host(settings: Settings, host: str, key: str) -> None:
    """Fail early, with the reason, when the host would not serve the load test as planned."""
    # An edge's poll rewrites a new key's grant with the plans it was started with: wait for it,
    # so a server without the `loadtest` plan shows here and not as a run of 429s.
    time.sleep(2 * settings.registry_poll_seconds)
    url = f"{host}/3/configuration?api_key={key}"
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            limit = response.headers.get("X-RateLimit-Limit")
    except urllib.error.HTTPError as exc:
        raise click.ClickException(
            f"{host} answered a load-test key with HTTP {exc.code}: is it serving the "
            f"registry at {settings.registry_path}?"
        ) from None
    except OSError as exc:
        raise click.ClickException(
            f"nothing answers at {host} ({exc}): start Marquee with `make run` (or point LOAD_HOST at it)"
        ) from None
    if limit != str(settings.plans[WIDE]):
        raise click.ClickException(
            f"{host} admits the `{WIDE}` plan at {limit} requests a window, not "
            f"{settings.plans[WIDE]}: restart it with the same MARQUEE_PLANS"
        )


def summary(stats: Path) -> str:
    """One line from locust's stats: all requests, and the free account's 429s."""
    with open(stats, newline="") as f:
        rows = {row["Name"]: row for row in csv.DictReader(f)}
    total = rows["Aggregated"]
    limited = rows.get(FREE_429, {}).get("Request Count", "0")
    return (
        f"{int(total['Request Count']):,} requests ({float(total['Requests/s']):,.1f}/s), "
        f"{int(total['Failure Count']):,} failures, p50 {total['50%']} ms, p95 {total['95%']} ms, "
        f"p99 {total['99%']} ms; {limited} answered 429 to the over-rate free client"
    )


def run_locust(host: str, users: int, rate: float, duration: str, keys: LoadKeys, out: Path) -> int:
    """Run loadtests/locustfile.py headless, its reports in `out` (the last run's removed first, so
    none is taken for this one's); returns locust's exit status."""
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("locust_*.csv"), out / "report.html", out / "timeline.png"]:
        old.unlink(missing_ok=True)
    env = {**os.environ, "LOAD_KEYS": " ".join(keys.wide), "LOAD_FREE_KEYS": " ".join(keys.free)}
    argv = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(LOCUSTFILE),
        "--headless",
        "--host",
        host,
        "--users",
        str(users),
        "--spawn-rate",
        f"{rate:g}",
        "--run-time",
        duration,
        "--csv",
        str(out / "locust"),
        "--csv-full-history",
        "--html",
        str(out / "report.html"),
    ]
    # From the project root, so the locustfile imports `loadtests` as this does.
    return subprocess.run(argv, env=env, cwd=PROJECT_ROOT).returncode


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", help="API base URL (default: this machine's, http://MARQUEE_LISTEN_HOST:MARQUEE_API_PORT).")
@click.option("--users", type=click.IntRange(min=1), default=50, show_default=True, help="Clients at full load.")
@click.option(
    "--rate",
    type=click.FloatRange(min=0, min_open=True),
    default=10.0,
    show_default=True,
    help="Clients started per second.",
)
@click.option("--time", "duration", default="1m", show_default=True, help="How long: 30s, 5m, 1h30m.")
def main(host: str | None, users: int, rate: float, duration: str) -> None:
    """Load-test a running Marquee with its own keys; the report lands in MARQUEE_HOME/load."""
    try:
        settings = from_env()
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    host = (host or settings.api_base_url).rstrip("/")
    try:
        targets = read_targets(settings.current_link)
    except (LookupError, FileNotFoundError) as exc:
        raise click.ClickException(f"{exc}; publish one with `make sample` (or `marquee build`)") from None
    click.echo(f"asking for {targets.counts()} of {settings.current_link.resolve().name}")
    out = settings.home / "load"
    keys = make_keys(settings)
    try:
        check_host(settings, host, keys.wide[0])
        status = run_locust(host, users, rate, duration, keys, out)
    finally:
        with registry(settings) as reg:
            for account in (WIDE, FREE_ACCOUNT):
                retire_keys(reg, account)
    stats = out / "locust_stats.csv"
    if not stats.exists():
        raise click.ClickException(f"locust stopped before writing its stats (exit status {status})")
    png = plot.draw(
        out / "locust_stats_history.csv", out / "timeline.png", f"Marquee under load: {users} clients against {host}"
    )
    click.echo(f"\n{summary(stats)}\nreport: {out / 'report.html'}\ntimeline: {png}\nCSV: {out}/locust_*.csv")
    sys.exit(status)


if __name__ == "__main__":
    main()
