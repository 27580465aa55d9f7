"""Every setting Marquee reads, as one table, parsed from the environment in one function.

The README's configuration table lists the same names; tests/test_settings.py keeps the two in step.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _plans(text: str) -> dict[str, int]:
    """Parse `free=20,standard=40` into {"free": 20, "standard": 40}."""
    plans: dict[str, int] = {}
    for part in text.split(","):
        name, _, rate = part.strip().partition("=")
        if not name or not rate.strip().isdigit() or int(rate) < 1:
            raise ValueError(f"MARQUEE_PLANS: expected name=requests_per_window, got {part!r}")
        plans[name.strip()] = int(rate)
    return plans


def _processes(env: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"{env} must be a whole number of at least 1, not {text!r}")
        return int(text)

    return parse


def _languages(text: str) -> list[str]:
    """Parse `en-US,de-DE`; the first is the default language (files without a suffix)."""
    codes = [part.strip() for part in text.split(",") if part.strip()]
    for code in codes:
        if not re.fullmatch(r"[a-z]{2}-[A-Z]{2}", code):
            raise ValueError(f"MARQUEE_LANGUAGES: expected codes like en-US, got {code!r}")
    if not codes or len({c[:2] for c in codes}) != len(codes):
        raise ValueError("MARQUEE_LANGUAGES: give at least one code and at most one per language")
    return codes


def _choice(env: str, *allowed: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in allowed:
            raise ValueError(f"{env} must be one of {', '.join(allowed)}, not {text!r}")
        return text

    return parse


RELEASES_FOLDER = "releases"  # beside `current`, whose target is RELEASES_FOLDER/<name> (marquee/releases.py)


@dataclass(frozen=True)
class Setting:
    name: str
    env: str
    default: str
    parse: Callable[[str], Any]
    help: str


# fmt: off
SETTINGS: tuple[Setting, ...] = (
    Setting("home", "MARQUEE_HOME", str(PROJECT_ROOT / "var"), Path,
            "State folder: releases, the `current` link, the key registry, runtime files and logs."),
    Setting("registry_path", "MARQUEE_REGISTRY_PATH", "", Path,
            "SQLite file holding accounts and key hashes (default: HOME/registry.sqlite3)."),
    Setting("catalogue_dir", "MARQUEE_CATALOGUE_DIR", "", Path,
            "Parquet catalogue that `marquee build` reads (default: HOME/catalogue)."),
    Setting("image_dir", "MARQUEE_IMAGE_DIR", "", Path,
            "Image store the image host serves: originals and every size (default: HOME/images)."),
    Setting("image_sizes", "MARQUEE_IMAGE_SIZES", "request", _choice("MARQUEE_IMAGE_SIZES", "build", "request"),
            "When image sizes are made: `request` (the image host has the edge make a size, or a generated "
            "original, on its first request and keeps the file) or `build` (as well, `marquee build` starts "
            "`marquee images` once it has published, which makes every size ahead; the build never waits)."),
    Setting("listen_host", "MARQUEE_LISTEN_HOST", "127.0.0.1", str,
            "Address nginx listens on for the API and the image host."),
    Setting("api_port", "MARQUEE_API_PORT", "8080", int, "Port of the API host (/3 and /compat)."),
    Setting("image_port", "MARQUEE_IMAGE_PORT", "8081", int, "Port of the public image host (/t/p/...)."),
    Setting("admin_host", "MARQUEE_ADMIN_HOST", "127.0.0.1", str,
            "Address of the admin listener (Prometheus metrics at /metrics): loopback unless you need a scraper "
            "elsewhere to reach it."),
    Setting("admin_port", "MARQUEE_ADMIN_PORT", "8082", int, "Port of the admin listener."),
    Setting("redis_url", "MARQUEE_REDIS_URL", "", str,
            "Redis holding the sliding windows (default: unix://HOME/run/redis.sock). `marquee serve` "
            "starts a redis-server there when it is local and not running."),
    Setting("image_base_url", "MARQUEE_IMAGE_BASE_URL", "", str,
            "images.base_url in /3/configuration, as each node answers it whatever release it serves "
            "(default: http://LISTEN_HOST:IMAGE_PORT/t/p/)."),
    Setting("image_secure_base_url", "MARQUEE_IMAGE_SECURE_BASE_URL", "", str,
            "images.secure_base_url in /3/configuration and OMDb's Poster URLs (default: the base URL)."),
    Setting("plans", "MARQUEE_PLANS", "free=20,standard=40,pro=120,loadtest=1000000", _plans,
            "Plan names and the requests each admits per rate window; `make load` puts its clients on "
            "`loadtest`, wide enough never to limit them (and one on `free`, to be limited)."),
    Setting("languages", "MARQUEE_LANGUAGES",
            "en-US,es-ES,fr-FR,de-DE,it-IT,pt-BR,ru-RU,ja-JP,ko-KR,zh-CN,hi-IN,ar-SA,tr-TR,pl-PL", _languages,
            "Languages rendered and served (`language=xx-YY` or `xx`); the first is the default."),
    Setting("rate_window_seconds", "MARQUEE_RATE_WINDOW_SECONDS", "60", float,
            "Length of the sliding rate window in seconds."),
    Setting("redis_down_policy", "MARQUEE_REDIS_DOWN_POLICY", "refuse", _choice("MARQUEE_REDIS_DOWN_POLICY", "refuse", "admit"),
            "What the key check does when Redis is unreachable: `refuse` (503, status_code 9) or `admit` (count it)."),
    Setting("nginx_modules_dir", "MARQUEE_NGINX_MODULES_DIR", "/usr/lib/nginx/modules", Path,
            "Where nginx's dynamic modules are (ngx_http_lua_module.so and ndk_http_module.so: the key check "
            "and the release pack run in Lua)."),
    Setting("registry_poll_seconds", "MARQUEE_REGISTRY_POLL_SECONDS", "1", float,
            "How often the edge looks for key and plan changes in the registry."),
    Setting("max_keys_per_account", "MARQUEE_MAX_KEYS_PER_ACCOUNT", "10", int,
            "Most live (not deleted) keys one account may hold."),
    Setting("keep_releases", "MARQUEE_KEEP_RELEASES", "5", int,
            "How many published releases to keep on disk for rollback."),
    Setting("build_memory_gb", "MARQUEE_BUILD_MEMORY_GB", "8", float,
            "Memory the build's DuckDB may use, in GB; past it, it spills to disk beside the build "
            "database (DuckDB's own default, 80% of the machine, took a 1M-title build past 17 GB). "
            "The build's Python side needs 2 to 4 GB more at a million titles."),
    Setting("sample_movies", "MARQUEE_SAMPLE_MOVIES", "2000", int,
            "Size of the bundled sample catalogue that `make run` generates."),
    Setting("sample_seed", "MARQUEE_SAMPLE_SEED", "42", int, "Seed of the bundled sample catalogue."),
    Setting("nginx_workers", "MARQUEE_NGINX_WORKERS", "", _processes("MARQUEE_NGINX_WORKERS"),
            "nginx worker processes (default: one per core: nginx does the hot path's work, key check included)."),
    Setting("answer_workers", "MARQUEE_ANSWER_WORKERS", "", _processes("MARQUEE_ANSWER_WORKERS"),
            "The edge's answer processes for search, find, discover, the lists and changes, each on its own "
            "socket that nginx balances over (default: one per core)."),
    Setting("edge_cache_mb", "MARQUEE_EDGE_CACHE_MB", "192", int,
            "Memory each answer worker may keep of what it read of the search and discover indexes "
            "(rows, postings, facets, columns; MB, the releases it has open together): what it drops is "
            "read again from the page cache."),
    Setting("edge_backlog", "MARQUEE_EDGE_BACKLOG", "4096", int,
            "Listen backlog of the edge socket (Sanic's default of 100 gives 502s at 200 connections)."),
    Setting("warm_requests", "MARQUEE_WARM_REQUESTS", "2000", int,
            "How many of the most asked search, discover and other edge requests a publish or rollback "
            "answers from the new release, into nginx's cache, before it switches (0: none)."),
    Setting("warm_seconds", "MARQUEE_WARM_SECONDS", "10", float,
            "The most a publish or rollback spends warming the new release before it switches anyway."),
)
# fmt: on


@dataclass(frozen=True)
class Settings:
    home: Path
    registry_path: Path
    catalogue_dir: Path
    image_dir: Path
    image_sizes: str
    listen_host: str
    api_port: int
    image_port: int
    admin_host: str
    admin_port: int
    redis_url: str
    image_base_url: str
    image_secure_base_url: str
    plans: dict[str, int] = field(hash=False)
    languages: list[str] = field(hash=False)
    rate_window_seconds: float
    redis_down_policy: str
    nginx_modules_dir: Path
    registry_poll_seconds: float
    max_keys_per_account: int
    keep_releases: int
    build_memory_gb: float
    sample_movies: int
    sample_seed: int
    nginx_workers: int
    answer_workers: int
    edge_cache_mb: int
    edge_backlog: int
    warm_requests: int
    warm_seconds: float

    @property
    def releases_dir(self) -> Path:
        return self.home / RELEASES_FOLDER

    @property
    def current_link(self) -> Path:
        """The symlink nginx serves from; publish and rollback rename it atomically."""
        return self.home / "current"

    @property
    def run_dir(self) -> Path:
        return self.home / "run"

    @property
    def log_dir(self) -> Path:
        return self.home / "log"

    @property
    def edge_socket(self) -> Path:
        return self.run_dir / "edge.sock"

    @property
    def content_socket(self) -> Path:
        """nginx proxies append_to_response, filtered and paged requests here (edge/content_listener.py)."""
        return self.run_dir / "content.sock"

    @property
    def answer_sockets(self) -> list[Path]:
        """One socket an answer worker (edge/answer_workers.py): nginx sends search and find there."""
        return [self.run_dir / f"answers-{n}.sock" for n in range(self.answer_workers)]

    @property
    def image_socket(self) -> Path:
        """nginx's image host asks here for an image it has no file for yet (edge/image_listener.py)."""
        return self.run_dir / "images.sock"

    @property
    def gate_grants(self) -> Path:
        """The registry export nginx's gate falls back on while Redis is down or has no registry:
        key digests, accounts, limits and states (edge/gate.py `poll_registry` writes it)."""
        return self.run_dir / "gate-grants.tsv"

    @property
    def api_base_url(self) -> str:
        return f"http://{self.listen_host}:{self.api_port}"


def from_env(environ: Mapping[str, str] | None = None) -> Settings:
    """Read every setting from `environ` (default: os.environ), falling back to the table's default."""
    env = os.environ if environ is None else environ
    values = {}
    for s in SETTINGS:
        raw = env.get(s.env, s.default)
        try:
            values[s.name] = s.parse(raw) if raw != "" else raw
        except ValueError as exc:
            raise ValueError(f"{s.env}={raw!r}: {exc}") from None
    home = values["home"] = Path(values["home"]).absolute()
    values["registry_path"] = Path(values["registry_path"] or home / "registry.sqlite3")
    values["catalogue_dir"] = Path(values["catalogue_dir"] or home / "catalogue")
    values["image_dir"] = Path(values["image_dir"] or home / "images")
    cores = os.cpu_count() or 2
    values["nginx_workers"] = values["nginx_workers"] or cores
    values["answer_workers"] = values["answer_workers"] or cores
    # A unix socket by default: a TCP round trip to Redis cost the edge twice the CPU on loopback.
    values["redis_url"] = values["redis_url"] or f"unix://{home / 'run' / 'redis.sock'}"
    base = values["image_base_url"] or f"http://{values['listen_host']}:{values['image_port']}/t/p/"
    values["image_base_url"] = base
    values["image_secure_base_url"] = values["image_secure_base_url"] or base
    assert {f.name for f in fields(Settings)} == set(values)
    return Settings(**values)


def to_env(settings: Settings) -> dict[str, str]:
    """The environment that makes `from_env` rebuild `settings` (for the processes we start)."""
    env = {}
    for s in SETTINGS:
        value = getattr(settings, s.name)
        if isinstance(value, dict):
            value = ",".join(f"{k}={v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ",".join(value)
        env[s.env] = str(value)
    return env
