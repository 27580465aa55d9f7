"""The edge: one process beside nginx for what cannot be precomputed, and the registry's keeper.

nginx answers every precomputed document itself, after its own key check (nginx/lua/marquee_gate.lua).
The edge owns:
- the content listener (edge/content_listener.py): appends, filters and pages nginx cannot splice;
- the answer workers (edge/answer_workers.py) for search and find: it starts them and restarts them;
- the image listener (edge/image_listener.py): sizes and generated originals on their first request;
- the registry's copies: it loads the registry into Redis at start and after Redis lost it, and
  exports it for nginx's gate as its fallback without Redis (edge/gate.py `poll_registry`);
- /healthz and /metrics (edge/metrics.py; nginx's admin listener adds its own), on this Sanic app.
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
from edge.answer_workers import AnswerWorkers
from edge.assemble import answer_as_node
from edge.content_listener import ContentProtocol, CurrentRelease, artefact_readers
from edge.gate import Gate, poll_registry
from edge.image_listener import ImageProtocol, image_release
from edge.metrics import Metrics
from edge.ratelimit import RateLimiter
from edge.redis_wire import RedisWire
from edge.upstream_protocol import start_unix_listener
from marquee.artefacts import OpenArtefacts
from marquee.registry import RegistrySnapshot, export_grants
from marquee.settings import Settings

log = logging.getLogger("marquee.edge")

JSON = "application/json;charset=utf-8"


def error_response(error: errors.TmdbError) -> HTTPResponse:
    return HTTPResponse(error.body(), status=error.http_status, content_type=JSON)


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
    answer_as_node(settings)

    @app.before_server_start
    async def open_resources(app: Sanic) -> None:
        # Fail fast when Redis is down: the policy decides, not a retry loop.
        app.ctx.limiter = RateLimiter(RedisWire(settings.redis_url, timeout=1.0), settings.rate_window_seconds)
        # Loads the registry into Redis (when Redis is up) before nginx starts.
        app.ctx.snapshot = RegistrySnapshot(settings.registry_path, settings.plans, settings.redis_url)
        app.ctx.gate = Gate(app.ctx.snapshot, app.ctx.limiter, settings.redis_down_policy)
        export_grants(app.ctx.snapshot.grants, settings.gate_grants)  # before nginx starts
        release = CurrentRelease(
            settings.current_link,  # one for every nginx connection
            artefacts=OpenArtefacts(artefact_readers(settings.edge_cache_mb)),
        )
        # Search and find (edge/routes/route.py `apart`): processes of their own, nginx's upstream.
        app.ctx.answer_workers = AnswerWorkers(settings)
        app.ctx.answer_workers.start()
        app.ctx.metrics = Metrics(app.ctx.gate, release.cache, settings.current_link)
        app.ctx.content_listener = await start_unix_listener(
            lambda: ContentProtocol(app.ctx.gate, release, settings.languages),
            str(settings.content_socket),
            settings.edge_backlog,
        )
        # Whatever the image host has no file for yet (edge/image_listener.py), whatever MARQUEE_IMAGE_SIZES.
        app.ctx.image_pool = ThreadPoolExecutor(2, thread_name_prefix="images")
        image_store, images_release = settings.image_dir / "t" / "p", image_release(settings.current_link)
        app.ctx.image_listener = await start_unix_listener(
            lambda: ImageProtocol(image_store, images_release, app.ctx.image_pool),
            str(settings.image_socket),
            settings.edge_backlog,
        )
        # Everything loaded so far lives as long as the process: keep it out of the cyclic GC's scans.
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)  # the hot path allocates no cycles; collect rarely
        loop = asyncio.get_running_loop()
        app.ctx.poller = loop.create_task(
            poll_registry(app.ctx.snapshot, settings.registry_poll_seconds, settings.gate_grants)
        )
        app.ctx.lag_probe = loop.create_task(app.ctx.metrics.probe_loop_lag())
        app.ctx.supervisor = loop.create_task(app.ctx.answer_workers.supervise())

    @app.after_server_stop
    async def close_resources(app: Sanic) -> None:
        app.ctx.content_listener.close()
        app.ctx.supervisor.cancel()
        app.ctx.answer_workers.stop()
        app.ctx.image_listener.close()
        app.ctx.image_pool.shutdown(wait=False)
        app.ctx.poller.cancel()
        app.ctx.lag_probe.cancel()
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

    @app.get("/metrics")
    async def metrics(request: Request) -> HTTPResponse:
        return HTTPResponse(app.ctx.metrics.render(), content_type="text/plain; version=0.0.4; charset=utf-8")

    @app.exception(Exception)
    async def on_error(request: Request, exc: Exception) -> HTTPResponse:
        status = getattr(exc, "status_code", 500)
        if status == 404:
            return error_response(errors.NOT_FOUND)
        if status == 405:
            return error_response(errors.METHOD_NOT_ALLOWED)
        log.exception("unhandled_error path=%s", request.path)
        return error_response(errors.INTERNAL)

    return app


def serve(settings: Settings) -> None:
    """Run one edge process on the unix socket nginx proxies to (one worker beats two on 2 cores)."""
    socket_path = Path(settings.edge_socket)
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    for stale in (socket_path, settings.content_socket, settings.image_socket, *settings.answer_sockets):
        if stale.exists():
            stale.unlink()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app = create_app(settings)
    app.run(unix=str(socket_path), single_process=True, backlog=settings.edge_backlog, access_log=False, motd=False)
