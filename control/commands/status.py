"""`marquee status`: what an operator looks at first, as tables: the release served (stamp, titles,
documents, size, age) and its artefacts, Redis and the registry (reachable, grants in step), keys
and accounts by state, and the last minute's requests by door and status class from nginx's
metrics (its admin listener's /recent, nginx/lua/marquee_metrics.lua). Read only; every part says
when it cannot be read rather than failing the rest."""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import click
import httpx
from redis.exceptions import RedisError
from rich.console import Console
from rich.table import Table

from marquee import releases as release_store
from marquee.artefacts import ARTEFACTS, DISCOVER_INDEX, OPENAPI
from marquee.grants import GRANT_PREFIX
from marquee.packs import Pack
from marquee.registry import Registry, redis_client
from marquee.settings import Settings

STAMP = "%Y%m%dT%H%M%SZ"  # a release's name (marquee/releases.py new_release_dir)


def size_of(path: Path) -> int:
    """Bytes a file or folder holds (hard links counted in each release that has them)."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else 0


def megabytes(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def age(name: str, now: float) -> str:
    try:
        made = datetime.strptime(name[:16], STAMP).replace(tzinfo=UTC).timestamp()
    except ValueError:
        return "?"
    minutes = int((now - made) // 60)
    return f"{minutes // 1440} d {minutes // 60 % 24} h" if minutes >= 1440 else f"{minutes // 60} h {minutes % 60} min"


def release_table(settings: Settings) -> Table:
    table = Table(title="Release served", title_justify="left")
    for column in ("release", "titles", "documents", "size", "age"):
        table.add_column(column, justify="left" if column == "release" else "right")
    name = release_store.current_release(settings)
    if name is None:
        table.add_row("none published", "", "", "", "")
        return table
    root = settings.current_link.resolve()
    titles = "?"
    if (root / DISCOVER_INDEX).is_file():
        with sqlite3.connect(f"file:{root / DISCOVER_INDEX}?mode=ro", uri=True) as index:
            counts = dict(index.execute("SELECT key, value FROM meta WHERE key LIKE 'count:%'"))
        titles = f"{int(counts.get('count:movie', 0)):,} films, {int(counts.get('count:tv', 0)):,} series"
    with Pack(root) as pack:
        documents = f"{pack.count():,}"
    table.add_row(name, titles, documents, megabytes(size_of(root)), age(name, time.time()))
    return table


def artefacts_table(settings: Settings) -> Table:
    table = Table(title="Its artefacts", title_justify="left")
    table.add_column("artefact")
    table.add_column("size", justify="right")
    root = settings.current_link.resolve() if settings.current_link.exists() else None
    for name in (*ARTEFACTS, OPENAPI):
        path = root / name if root is not None else None
        table.add_row(name, megabytes(size_of(path)) if path is not None and path.exists() else "absent")
    return table


def health_table(settings: Settings, registry: Registry) -> Table:
    table = Table(title="Redis and the registry", title_justify="left")
    table.add_column("part")
    table.add_column("state")
    try:
        client = redis_client(settings.redis_url)
        started = time.perf_counter()
        client.ping()
        ping = (time.perf_counter() - started) * 1000
        grants = sum(1 for _ in client.scan_iter(match=GRANT_PREFIX + "*", count=1000))
        client.close()
        live = registry.live_keys()
        step = "in step" if grants == live else f"{grants:,} grants for {live:,} keys (an edge syncs them)"
        table.add_row(f"Redis {settings.redis_url}", f"up, ping {ping:.1f} ms; {step}")
    except (RedisError, OSError) as exc:
        table.add_row(f"Redis {settings.redis_url}", f"[red]unreachable[/red]: {exc}")
    check = registry.check()
    table.add_row(f"registry {settings.registry_path}", "ok" if check == "ok" else f"[red]{check}[/red]")
    return table


def keys_table(registry: Registry) -> Table:
    """Keys and accounts by state."""
    table = Table(title="Keys and accounts", title_justify="left")
    table.add_column("state")
    table.add_column("keys", justify="right")
    table.add_column("accounts", justify="right")
    keys = registry.key_states()
    accounts = Counter(account.state for account in registry.accounts())
    for state in sorted(set(keys) | set(accounts)):
        table.add_row(state, f"{keys.get(state, 0):,}", f"{accounts.get(state, 0):,}")
    return table


def requests_table(settings: Settings) -> Table:
    url = f"http://{settings.admin_host}:{settings.admin_port}/recent"
    try:
        answer = httpx.get(url, timeout=2).text
    except httpx.HTTPError as exc:
        table = Table(title="Requests", title_justify="left")
        table.add_column("nginx")
        table.add_row(f"not answering at {url} ({type(exc).__name__}): is `marquee serve` running?")
        return table
    seconds, counts = parse_recent(answer)
    classes = sorted({cls for by_class in counts.values() for cls in by_class})
    table = Table(title=f"Requests in the last {seconds:.0f} s, by door and status", title_justify="left")
    table.add_column("door")
    for cls in classes:
        table.add_column(cls, justify="right")
    table.add_column("a second", justify="right")
    for door in sorted(counts):
        row = counts[door]
        rate = sum(row.values()) / seconds if seconds else 0.0
        table.add_row(door, *(f"{row.get(cls, 0):,}" for cls in classes), f"{rate:,.1f}")
    if not counts:
        table.add_row("none")
    return table


def parse_recent(text: str) -> tuple[float, dict[str, dict[str, int]]]:
    """nginx's /recent: (seconds covered, door -> status class -> requests)."""
    seconds, counts = 0.0, {}
    for line in text.splitlines():
        parts = line.split()
        if parts[:1] == ["seconds"]:
            seconds = float(parts[1])
        elif parts[:1] == ["requests"] and len(parts) == 4:
            counts.setdefault(parts[1], {})[parts[2]] = int(parts[3])
    return seconds, counts


@click.command()
@click.pass_obj
def status(settings: Settings) -> None:
    """The release served, its artefacts, Redis and the registry, keys and accounts, the last minute's requests."""
    console = Console(width=max(Console().width, 100))
    console.print(release_table(settings))
    console.print(artefacts_table(settings))
    registry = Registry(settings.registry_path, settings.plans)
    try:
        console.print(health_table(settings, registry))
        console.print(keys_table(registry))
    finally:
        registry.close()
    console.print(requests_table(settings))


COMMANDS = [status]
