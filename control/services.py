"""Start and stop the three processes of a Marquee host: redis-server, the edge and nginx.

`marquee serve` and the end-to-end test fixtures both use this module, so the tests run the
same configuration a user runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import jinja2

from control import docs_page
from edge import errors, list_pack
from edge.assemble import FILTERED, ID_DOCUMENTS, ITEM_TEXT, LOCALIZED_LISTS, LOCALIZED_PATHS
from edge.content import APPENDABLE, DETAIL_PATHS, ID_PREFIX, LEGACY, LEGACY_PATHS, MAX_APPEND, MAX_PAGE
from edge.languages import LANGUAGE_CODE, NO_FALLBACK
from edge.languages import suffixes as language_suffixes
from edge.policy import CACHE_CONTROL, GZIP_LEVEL, GZIP_MIN_LENGTH, MAX_AGE
from edge.ratelimit import SCRIPT_PATH as GATE_SCRIPT
from edge.redis_wire import redis_address
from edge.routes import ROUTES
from edge.routes.search import TEXT_FIELDS
from marquee import jsonp, omdb, releases, warm
from marquee.artefacts import OPENAPI, OPENAPI_PATH, SEARCH_INDEX
from marquee.configuration import CONFIGURATION, configuration_body
from marquee.grants import GRANT_PREFIX
from marquee.image_sizes import ALL_SIZES
from marquee.packs import (
    BASE_NAME,
    BLOB_KEY_FORMAT,
    COMPOSITE_MARK,
    DELTA_APPLICATION_ID,
    GROUP,
    ITEM_SHIFT,
    ITEMS,
    KEY_BYTES,
    MAP_BYTES,
    NUMBER_SEGMENT,
    PACK_FORMAT,
    PACK_NAME,
    READ_CACHE_KIB,
    REFERENCE_NAME,
    ROW_FORMAT,
    UNTRANSLATED,
    VARIANTLESS,
    etag_of,
)
from marquee.registry import grants_serial
from marquee.settings import PROJECT_ROOT, Settings, to_env

NGINX_TEMPLATE = PROJECT_ROOT / "nginx" / "marquee.conf.j2"
DIALECTS = {"tmdb": errors, "omdb": omdb}  # each renders the gate's refusals in its own envelope
# The statuses nginx sets itself, before or beside our Lua, and the envelope each answers with
# (494 is nginx's internal code for headers past large_client_header_buffers).
NGINX_REFUSALS = {
    400: errors.BAD_REQUEST,
    405: errors.METHOD_NOT_ALLOWED,
    413: errors.BODY_TOO_LARGE,
    414: errors.URI_TOO_LONG,
    494: errors.HEADERS_TOO_LARGE,
}


class ServiceError(RuntimeError):
    """A process would not start; the message says which and where its log is."""


def require_binary(name: str) -> str:
    path = shutil.which(name) or (f"/usr/sbin/{name}" if Path(f"/usr/sbin/{name}").exists() else None)
    if path is None:
        raise ServiceError(f"{name} is not installed: run `make deps` (apt-get install nginx redis-server)")
    return path


def _nginx_literal(text: str) -> str:
    # Bodies go inside '...' in nginx.conf, where $ would start a variable.
    if "'" in text or "$" in text or "\\" in text:
        raise ValueError(f"cannot embed {text!r} in nginx.conf")
    return text


def _nginx_regex(pattern: str, braces: bool = False) -> str:
    # Location and map regexes go inside "..." (nginx does not expand variables in them, so `$` is an
    # anchor); a location's may not hold braces, a map's may (a repeat count).
    if '"' in pattern or "\n" in pattern or ("{" in pattern and not braces):
        raise ValueError(f"cannot embed the pattern {pattern!r} in nginx.conf")
    return pattern


def lua_literal(value: object) -> str:
    """A Lua literal for a setting: strings in long brackets, sets as {name = true}, dicts as tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        if "]==]" in value:
            raise ValueError(f"cannot embed {value!r} in a Lua long string")
        return f"[==[{value}]==]"
    if isinstance(value, (list, tuple)):
        return "{" + ", ".join(lua_literal(item) for item in value) + "}"
    if isinstance(value, (set, frozenset)):
        return lua_literal({item: True for item in sorted(value)})
    if isinstance(value, dict):
        # `[ [==[k]==] ]`: without the spaces `[[` would open a long string.
        return "{" + ", ".join(f"[ {lua_literal(k)} ] = {lua_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no Lua literal for {value!r}")


def gate_conf(settings: Settings) -> dict[str, str]:
    """marquee_gate.init()'s table, as Lua literals: the edge's own bodies, script, Redis names and Redis."""
    host, port, db = redis_address(settings.redis_url)
    values: dict[str, object] = {
        "grants_path": str(settings.gate_grants),
        "serial_path": str(grants_serial(settings.gate_grants)),
        "script_path": str(GATE_SCRIPT),
        "grant_prefix": GRANT_PREFIX,
        "window_us": str(int(settings.rate_window_seconds * 1_000_000)),
        "poll_seconds": settings.registry_poll_seconds,
        # The cosocket's spelling of a unix socket is `unix:/path` with no port.
        "redis_host": host if port is not None else f"unix:{host}",
        "redis_db": str(db),
        "redis_timeout_ms": 1000,  # as the edge's RedisWire: fail fast, the policy decides
        "redis_keepalive_ms": 60000,
        "redis_pool": 512,
        "redis_down_policy": settings.redis_down_policy,
        # The gate decides; each dialect words its refusals ($mq_dialect, set per location).
        "refusals": {dialect: module.refusal_answers() for dialect, module in DIALECTS.items()},
        "limit_placeholder": errors.LIMIT_PLACEHOLDER,
    }
    if port is not None:
        values["redis_port"] = port
    return {name: lua_literal(value) for name, value in values.items()}


def docs_conf(settings: Settings) -> dict[str, str]:
    """marquee_docs.init()'s table: where `current` is and what its pack (and a delta's base) is called."""
    node_configuration = configuration_body(settings)
    values = {
        "current": str(settings.current_link),
        "current_dir": str(settings.current_link.parent),
        "pack_name": PACK_NAME,
        "base_name": BASE_NAME,
        # marquee/packs.py's layout: a delta's mark, the formats of packs of groups (by integer and by
        # BLOB key) and of rows by hash, a document's group (a PCRE), a BLOB key's length.
        "delta_application_id": DELTA_APPLICATION_ID,
        "pack_format": PACK_FORMAT,
        "blob_key_format": BLOB_KEY_FORMAT,
        "item_shift": ITEM_SHIFT,
        "map_bytes": MAP_BYTES,
        "row_format": ROW_FORMAT,
        "group": GROUP.pattern,
        "key_bytes": KEY_BYTES,
        # Decoded blocks per nginx worker and pack (~20 KB for a film's): a title's documents after its first.
        "cached_blocks": 2000,
        "read_cache_kib": READ_CACHE_KIB,
        # A pack's meta row of shapes without language variants, and how a path becomes its shape.
        "variantless_key": VARIANTLESS,
        "number_segment": NUMBER_SEGMENT.pattern,
        # Per nginx worker; at ~3 KB a document, about 60 MB when full. The hot titles' parts fit.
        "cached_documents": 20000,
        # Per nginx worker, the items composites cite (200 to 450 bytes each): about 80 MB when full.
        "cached_items": 200000,
        # edge/languages.py's rule, as data: the pattern of a value and the suffix of each code.
        "language_code": LANGUAGE_CODE,
        "language_suffixes": language_suffixes(settings.languages),
        "untranslated": UNTRANSLATED,
        "no_fallback": NO_FALLBACK,
        # marquee/packs.py's composite documents: the mark, what a reference's name is not, the items' folder.
        "composite_mark": COMPOSITE_MARK.decode(),
        "reference_other": f"[^{REFERENCE_NAME}]",  # as a Lua pattern: a character no item name has
        "items": ITEMS,
        # edge/assemble.py's title lists in a language, which nginx makes itself (marquee_localize.lua).
        "localized_paths": LOCALIZED_PATHS.pattern,
        # Per nginx worker, a listed title's texts in one language (~300 bytes): about 60 MB when full.
        "cached_texts": 200000,
        "localized_lists": {kind: set(keys) for kind, keys in LOCALIZED_LISTS.items()},
        "localized_fields": {media: set(fields) for media, fields in ITEM_TEXT.items()},
        "item_members": {
            "id",
            "media_type",
            *(field for fields in ITEM_TEXT.values() for field in fields),
            *(TEXT_FIELDS[media][1] for media in ITEM_TEXT),
        },
        # A listed title's texts in a language come from the search index's table of them
        # (site_gen/search_index.py): its name, and each media's (title field, original title
        # field), edge/routes/search.py's Localizer's rule.
        "search_index": SEARCH_INDEX,
        "text_fields": {media: list(TEXT_FIELDS[media][:2]) for media in ITEM_TEXT},
        # edge/list_pack.py's overlay: where the link to today's lists is, its day row, and what sends a list
        # request to the edge instead; edge/content.py's last page.
        "lists_folder": list_pack.FOLDER,
        "lists_current": list_pack.CURRENT,
        "lists_day_row": list_pack.DAY_ROW,
        "lists_gzip_suffix": list_pack.GZIP_SUFFIX,
        "lists_link_us": round(releases.LIST_LINK_SECONDS * 1e6),
        "lists_varying": list(list_pack.VARYING),
        "localized_pages": list_pack.LOCALIZED_PAGES,
        "max_page": MAX_PAGE,
        # nginx's gzip filter settings (the template's gzip_dynamic), for the gzip nginx makes in Lua.
        "gzip_level": GZIP_LEVEL,
        "gzip_min_length": GZIP_MIN_LENGTH,
        "jsonp_content_type": jsonp.CONTENT_TYPE,  # marquee/jsonp.py's; nginx's map $mq_callback holds its pattern
        # /3/configuration as this node answers it, whatever release it serves: its own image host.
        "configuration_uri": CONFIGURATION,
        "node_configuration": node_configuration.decode(),
        "node_configuration_etag": etag_of(node_configuration),
    }
    return {name: lua_literal(value) for name, value in values.items()}


def compat_conf(settings: Settings) -> dict[str, str]:
    """marquee_compat.init()'s table: marquee/omdb.py's callback rule and content types, so nginx words
    OMDb's refusals as the edge words its answers, and this node's poster base (omdb.with_poster_base)."""
    return {
        "callback": lua_literal(f"^(?:{omdb.CALLBACK.pattern})$"),
        "content_types": lua_literal(dict(omdb.CONTENT_TYPES)),
        "poster_key": lua_literal(omdb.POSTER_KEY.decode()),
        "poster_base": lua_literal(omdb.poster_base(settings)),
        "not_available": lua_literal(omdb.NOT_AVAILABLE),
    }


def append_conf(settings: Settings) -> dict[str, str]:
    """marquee_append.init()'s table: edge/content.py's names, so nginx and the edge read one table."""
    values = {
        "detail_paths": [[namespace, pattern.pattern] for namespace, pattern in DETAIL_PATHS],
        "id_prefix": ID_PREFIX.pattern.decode(),
        "appendable": dict(APPENDABLE),
        "legacy": LEGACY,
        "needs_edge": {"trailers", "showtimes"},  # a JSON rewrite, and what is on from now: not a splice
        "localized": set(LOCALIZED_LISTS),
        "max_append": MAX_APPEND,
        "cache_control": CACHE_CONTROL["catalogue"],
        "gzip_min_length": GZIP_MIN_LENGTH,
    }
    return {name: lua_literal(value) for name, value in values.items()}


def lua_modules_dir(settings: Settings) -> Path:
    modules = settings.nginx_modules_dir
    if not (modules / "ngx_http_lua_module.so").exists():
        raise ServiceError(
            f"nginx serves release packs through its Lua module, which is not in {modules} "
            "(MARQUEE_NGINX_MODULES_DIR): run `make deps` (apt-get install libnginx-mod-http-lua)"
        )
    return modules


def render_nginx_conf(settings: Settings) -> str:
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    template = env.from_string(NGINX_TEMPLATE.read_text())
    bodies = {
        "not_found": errors.NOT_FOUND,
        "service_offline": errors.SERVICE_OFFLINE,
        "internal": errors.INTERNAL,
        "bad_callback": errors.BAD_CALLBACK,
    }
    return template.render(
        lua_modules=lua_modules_dir(settings),
        lua_dir=PROJECT_ROOT / "nginx" / "lua",
        lua_init={
            "marquee_metrics": {"edge_metrics_path": lua_literal("/_edge_metrics")},
            "marquee_docs": docs_conf(settings),
            "marquee_gate": gate_conf(settings),
            "marquee_append": append_conf(settings),
            "marquee_compat": compat_conf(settings),
            "marquee_warm": {name: lua_literal(value) for name, value in warm.lua_conf(settings).items()},
        },
        run_as_root=os.geteuid() == 0,
        worker_processes=settings.nginx_workers,
        run_dir=settings.run_dir,
        log_dir=settings.log_dir,
        edge_socket=settings.edge_socket,
        content_socket=settings.content_socket,
        answer_sockets=settings.answer_sockets,
        image_socket=settings.image_socket,
        image_sizes_pattern="|".join(ALL_SIZES),
        gzip_level=GZIP_LEVEL,
        gzip_min_length=GZIP_MIN_LENGTH,
        # Lists a `language` filters (edge/assemble.py's FILTERED); title lists are localised in nginx.
        language_dependent_lists="|".join(FILTERED),
        # A public list or a credit in a language: edge/assemble.py's ID_DOCUMENTS, as the map's part of $uri.
        id_documents=[pattern.pattern[1:-1].replace("[^/]", "[^/|]") for pattern in ID_DOCUMENTS.values()],
        listen_host=settings.listen_host,
        api_port=settings.api_port,
        image_port=settings.image_port,
        admin_host=settings.admin_host,
        admin_port=settings.admin_port,
        current=settings.current_link,
        image_dir=settings.image_dir,
        openapi_path=OPENAPI_PATH,
        docs_path=docs_page.DOCS_PATH,
        docs_page=docs_page.PAGE_NAME,
        docs_static=docs_page.STATIC,
        openapi_name=OPENAPI,
        cache=CACHE_CONTROL,
        bodies={name: _nginx_literal(errors.tmdb_error_body(e)) for name, e in bodies.items()},
        routes=[
            {
                "family": r.family,
                "pattern": _nginx_regex(r.pattern),
                "cacheable": r.cacheable,
                "dialect": r.dialect,
                "apart": r.apart,
                "cache_seconds": min(MAX_AGE[r.cache_control], 3600),
                "precomputed": r.precomputed.split(".") if r.precomputed else None,
                "cache_control": CACHE_CONTROL[r.cache_control],
                "etag": r.etag,
            }
            for r in ROUTES
            if r.location
        ],
        legacy_paths={_nginx_regex(pattern): target for pattern, target in LEGACY_PATHS.items()},
        # A `callback` is "ok", "bad" or absent; nginx's map tests it with marquee/jsonp.py's pattern.
        callback_pattern=_nginx_regex(f"^(?:{jsonp.RAW_CALLBACK.pattern})$", braces=True),
        refusals={
            status: {
                "http_status": e.http_status,
                "body": _nginx_literal(errors.tmdb_error_body(e)),
                "omdb_body": _nginx_literal(omdb.catch_all().decode()),
            }
            for status, e in NGINX_REFUSALS.items()
        },
    )


def nginx_startup_errors(argv: list[str]) -> str:
    """Why nginx would not start. Its error log keeps only alerts (no key may reach it), so start
    it once more with start-up messages on stderr: it fails before it serves any request."""
    try:
        result = subprocess.run([*argv, "-g", "error_log stderr info;"], capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        return "nginx started on the second try"
    return result.stderr[-2000:]


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when the thread that started it exits


def stop_with(parent: int):
    """What a child runs before its exec: the kernel sends it SIGTERM when `parent` (this process,
    from the thread that started the stack: the main one everywhere we start one) is gone, so a test
    run or `marquee serve` killed half way leaves no redis-server, nginx or edge behind (the edge's
    answer workers then follow the edge: edge/answer_workers.py)."""

    def set_signal() -> None:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # gone before the line above: nothing will signal this child
            os._exit(1)

    return set_signal


def wait_for(check, what: str, timeout: float, proc: subprocess.Popen | None = None, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            break
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.05)
    tail = log.read_text()[-2000:] if log and log.exists() else ""
    raise ServiceError(f"{what} did not start (log: {log})\n{tail}")


def port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex((host, port)) == 0


def unix_socket_open(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(0.2)
        return s.connect_ex(str(path)) == 0


# Ports for services are drawn below the kernel's ephemeral range: a port the kernel picks (bind to
# 0) is one an outgoing connection may take before the service binds it, and the suite's clients
# open thousands (a test failed so, "port … is already in use"). The range below it is cut into
# PORT_SLICES, one a process: the suite's workers each take their own (PYTEST_XDIST_WORKER gw0,
# gw1, …, inherited by the benches they run; the bench smokes, run together, are each given one past
# the workers'), so two never pick the same port between pick and bind.
PORT_FLOOR = 10_000
PORT_SLICES = 16
_last_port: int | None = None


def _port_slice() -> range:
    try:
        ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32_768
    size = max(ephemeral - PORT_FLOOR, PORT_SLICES) // PORT_SLICES
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker[2:]) if worker[:2] == "gw" and worker[2:].isdigit() else os.getpid()
    start = PORT_FLOOR + (index % PORT_SLICES) * size
    return range(start, start + size)


def free_port() -> int:
    """A loopback port no one listens on, for a service about to bind it: in this process's slice,
    the first after the last one it handed out that nothing is bound to."""
    global _last_port
    ports = _port_slice()
    first = _last_port + 1 if _last_port in ports else ports.start + os.getpid() % len(ports)
    for step in range(len(ports)):
        port = ports.start + (first - ports.start + step) % len(ports)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _last_port = port
        return port
    raise ServiceError(f"no free port in {ports.start}-{ports.stop - 1}")


@dataclass
class Stack:
    """The running processes, stopped in reverse order of starting."""

    settings: Settings
    procs: list[tuple[str, subprocess.Popen]] = field(default_factory=list)

    def _spawn(self, name: str, argv: list[str], env: dict | None = None) -> tuple[subprocess.Popen, Path]:
        self.settings.log_dir.mkdir(parents=True, exist_ok=True)
        log = self.settings.log_dir / f"{name}.log"
        with open(log, "ab") as out:
            proc = subprocess.Popen(
                argv,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
                preexec_fn=stop_with(os.getpid()),
            )
        self.procs = [(n, p) for n, p in self.procs if n != name] + [(name, proc)]
        if name != "nginx":  # nginx writes its own nginx.pid
            (self.settings.run_dir / f"{name}.pid").write_text(f"{proc.pid}\n")
        return proc, log

    def redis_is_local(self) -> bool:
        url = urlparse(self.settings.redis_url)
        return url.scheme == "unix" or (url.scheme == "redis" and url.hostname in ("127.0.0.1", "localhost"))

    def start_redis(self) -> None:
        url = urlparse(self.settings.redis_url)
        if url.scheme == "unix":
            path = Path(url.path)
            ready = lambda: unix_socket_open(path)  # noqa: E731
            where = ["--port", "0", "--unixsocket", str(path), "--unixsocketperm", "700"]
        else:
            host, port = url.hostname, url.port or 6379
            ready = lambda: port_open(host, port)  # noqa: E731
            where = ["--bind", host, "--port", str(port)]
        if ready():
            return  # already running (e.g. a shared Redis): use it
        # No persistence: windows are short-lived and the registry lives in SQLite.
        argv = [
            require_binary("redis-server"),
            *where,
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.settings.run_dir),
        ]
        proc, log = self._spawn("redis", argv)
        wait_for(ready, "redis-server", 10, proc, log)

    def start_edge(self) -> None:
        env = dict(os.environ, **to_env(self.settings))
        proc, log = self._spawn("edge", [sys.executable, "-m", "control", "edge"], env)
        sockets = (self.settings.edge_socket, self.settings.content_socket, *self.settings.answer_sockets)
        wait_for(lambda: all(unix_socket_open(p) for p in sockets), "edge", 20, proc, log)

    def nginx_conf(self) -> str:
        """nginx's configuration for these settings (a benchmark may change it: bench/hot_path.py)."""
        return render_nginx_conf(self.settings)

    def start_nginx(self) -> None:
        host = self.settings.listen_host
        for where, port in (
            (host, self.settings.api_port),
            (host, self.settings.image_port),
            (self.settings.admin_host, self.settings.admin_port),
        ):
            if port_open(where, port):
                raise ServiceError(
                    f"port {where}:{port} is already in use "
                    "(MARQUEE_API_PORT / MARQUEE_IMAGE_PORT / MARQUEE_ADMIN_PORT)"
                )
        conf = self.settings.run_dir / "nginx.conf"
        conf.write_text(self.nginx_conf())
        (self.settings.run_dir / docs_page.PAGE_NAME).write_text(docs_page.page(self.settings))
        argv = [require_binary("nginx"), "-c", str(conf), "-p", str(self.settings.run_dir)]
        proc, log = self._spawn("nginx", argv)
        try:
            wait_for(
                lambda: port_open(host, self.settings.api_port) and port_open(host, self.settings.image_port),
                "nginx",
                10,
                proc,
                self.settings.log_dir / "nginx-error.log",
            )
        except ServiceError as exc:
            raise ServiceError(f"{exc}\n{nginx_startup_errors(argv)}") from None

    def start(self, redis: bool = True) -> Stack:
        self.settings.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            if redis and self.redis_is_local():
                self.start_redis()
            self.start_edge()
            self.start_nginx()
        except BaseException:
            self.stop()
            raise
        return self

    def process(self, name: str) -> subprocess.Popen:
        return next(proc for n, proc in self.procs if n == name)

    def revive(self) -> list[str]:
        """Start again the edge or redis-server if either has died; returns what was restarted.

        nginx keeps serving precomputed documents without the edge (its gate needs Redis and its
        export of the registry, not the edge), so an edge that dies costs only the answers the edge
        makes until this brings it back. A dead nginx is not revived: `marquee serve` stops.
        """
        revived = []
        for name, proc in list(self.procs):
            if proc.poll() is None or name == "nginx":
                continue
            if name == "edge":
                self.start_edge()
            elif name == "redis":
                self.start_redis()
            revived.append(name)
        return revived

    def stop_one(self, name: str) -> None:
        for n, proc in self.procs:
            if n == name and proc.poll() is None:
                # nginx finishes in-flight requests on SIGQUIT; the others stop cleanly on SIGTERM.
                proc.send_signal(signal.SIGQUIT if n == "nginx" else signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                if n == "edge":  # and its worker processes, in its process group (start_new_session)
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        for name, _ in reversed(self.procs):
            self.stop_one(name)

    def alive(self) -> list[str]:
        return [name for name, proc in self.procs if proc.poll() is None]
