"""The edge: a Sanic app that owns the key check, the rate limit and the dynamic /3 routes.

nginx serves every precomputed file itself and asks the auth listener first (auth_request; see
edge/auth_listener.py), so the hot path is one dict lookup, one SHA-256 and a share of one
batched Redis script call.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson
from sanic import Request, Sanic
from sanic.response import HTTPResponse

from edge import errors
from edge.auth_listener import start_listener
from edge.content_listener import ContentProtocol, CurrentRelease
from edge.image_listener import ImageProtocol
from edge.upstream_protocol import start_unix_listener
from edge.gate import Decision, Gate, key_from, poll_registry
from edge.ratelimit import RateLimiter
from edge.redis_wire import RedisWire
from marquee.registry import RegistrySnapshot, export_grants
from marquee.settings import Settings

log = logging.getLogger("marquee.edge")

JSON = "application/json;charset=utf-8"


def error_response(decision: Decision) -> HTTPResponse:
    error = decision.error or errors.INTERNAL
    return HTTPResponse(error.body(), status=error.http_status, headers=decision.headers, content_type=JSON)


def redis_down_counts(edge_counts: dict[str, int], gate_header: str | None) -> dict[str, int]:
    """The edge's Redis-down counters plus nginx's gate's, which nginx sends as `refused=N;admitted=M;…`."""
    counts = dict(edge_counts)
    for part in (gate_header or "").split(";"):
        name, _, value = part.partition("=")
        if name in counts and value.isdigit():
            counts[name] += int(value)
    return counts


def create_app(settings: Settings, name: str = "marquee_edge") -> Sanic:
    app = Sanic(name, dumps=orjson.dumps)
    app.config.ACCESS_LOG = False
    app.config.KEEP_ALIVE_TIMEOUT = 75  # longer than nginx's upstream keepalive_timeout (60 s)
    app.config.FALLBACK_ERROR_FORMAT = "json"
    app.ctx.settings = settings

    @app.before_server_start
    async def open_resources(app: Sanic) -> None:
        # Fail fast when Redis is down: the policy decides, not a retry loop.
        app.ctx.limiter = RateLimiter(RedisWire(settings.redis_url, timeout=1.0), settings.rate_window_seconds)
        app.ctx.snapshot = RegistrySnapshot(settings.registry_path, settings.plans)
        app.ctx.gate = Gate(app.ctx.snapshot, app.ctx.limiter, settings.redis_down_policy)
        export_grants(app.ctx.snapshot.grants, settings.gate_grants)  # before nginx starts
        app.ctx.auth_listener = await start_listener(app.ctx.gate, str(settings.auth_socket), settings.edge_backlog)
        release = CurrentRelease(settings.current_link)  # one for every nginx connection
        app.ctx.content_listener = await start_unix_listener(
            lambda: ContentProtocol(app.ctx.gate, release, settings.languages),
            str(settings.content_socket), settings.edge_backlog)
        if settings.image_sizes == "request":
            app.ctx.image_pool = ThreadPoolExecutor(2, thread_name_prefix="image-sizes")
            originals = settings.image_dir / "t" / "p" / "original"
            app.ctx.image_listener = await start_unix_listener(
                lambda: ImageProtocol(originals, app.ctx.image_pool), str(settings.image_socket), settings.edge_backlog)
        # Everything loaded so far lives as long as the process: keep it out of the cyclic GC's scans.
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)  # the hot path allocates no cycles; collect rarely
        app.ctx.poller = asyncio.get_running_loop().create_task(
            poll_registry(app.ctx.snapshot, settings.registry_poll_seconds, settings.gate_grants)
        )

    @app.after_server_stop
    async def close_resources(app: Sanic) -> None:
        app.ctx.auth_listener.close()
        app.ctx.content_listener.close()
        if settings.image_sizes == "request":
            app.ctx.image_listener.close()
            app.ctx.image_pool.shutdown(wait=False)
        app.ctx.poller.cancel()
        app.ctx.limiter.close()
        app.ctx.snapshot.close()

    @app.get("/healthz")
    async def healthz(request: Request) -> HTTPResponse:
        current = settings.current_link
        build_file = current / "BUILD"
        body = {
            "status": "ok",
            "release": build_file.read_text().strip() if build_file.exists() else None,
            "keys": len(app.ctx.snapshot.grants),
            "redis_down": redis_down_counts(app.ctx.gate.redis_down, request.headers.get("x-marquee-gate")),
            "limiter": {"batches": app.ctx.limiter.batches, "hits": app.ctx.limiter.hits},
        }
        return HTTPResponse(orjson.dumps(body), content_type=JSON)

    @app.route("/3/<path:path>", methods=["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"])
    async def unknown_dynamic(request: Request, path: str) -> HTTPResponse:
        """Paths nginx hands over that no dynamic route owns: key check first, then TMDB's 404."""
        decision = await app.ctx.gate.decide(key_from(request.args.get("api_key"), request.headers.get("authorization")))
        if decision.allowed:
            decision.error = errors.NOT_FOUND
        return error_response(decision)

    @app.exception(Exception)
    async def on_error(request: Request, exc: Exception) -> HTTPResponse:
        status = getattr(exc, "status_code", 500)
        if status == 404:
            return error_response(Decision(errors.NOT_FOUND))
        if status == 405:
            return error_response(Decision(errors.METHOD_NOT_ALLOWED))
        log.exception("unhandled_error path=%s", request.path)
        return error_response(Decision(errors.INTERNAL))

    return app


def serve(settings: Settings) -> None:
    """Run one edge process on the unix socket nginx proxies to (one worker beats two on 2 cores)."""
    socket_path = Path(settings.edge_socket)
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    for stale in (socket_path, settings.auth_socket, settings.content_socket, settings.image_socket):
        if stale.exists():
            stale.unlink()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app = create_app(settings)
    app.run(unix=str(socket_path), single_process=True, backlog=settings.edge_backlog,
            access_log=False, motd=False)
