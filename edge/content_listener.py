"""The dynamic answers nginx hands over (append_to_response, filters, pages), on a bare protocol.

Why not a Sanic route: append_to_response must stay within twice the cost of a plain details
call (`make bench`), and Sanic's request pipeline alone would cost more than the whole static
answer. nginx proxies these requests with only Authorization and, once its own gate has checked
and counted them, `X-Marquee-Admitted`; a request without it (none comes from nginx today) goes
through the edge's Gate, the same script call as nginx's gate.
"""

from __future__ import annotations

import functools
import gzip
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from edge import errors, routes
from edge.assemble import DocumentCache
from edge.caches import DEFAULT_MB, IndexCaches
from edge.content import ContentError
from edge.discover_index import DiscoverIndex
from edge.gate import Decision, Gate, key_from, window_headers
from edge.metrics import CONTENT_ANSWERS
from edge.policy import CACHE_CONTROL, GZIP_LEVEL, GZIP_MIN_LENGTH
from edge.ratelimit import ADMITTED, WindowStats
from edge.routes.changes import ChangeLog
from edge.routes.route import Context
from edge.search_index import SearchIndex
from edge.showtimes import ShowtimesIndex
from edge.upstream_protocol import UpstreamProtocol, header_value
from marquee import omdb
from marquee.artefacts import (
    CHANGES,
    COMPANIONS,
    DISCOVER_INDEX,
    SEARCH_INDEX,
    SHOWTIMES,
    MissingArtefact,
    OpenArtefacts,
    read_ahead,
)
from marquee.packs import etag_of
from marquee.releases import RELEASE_NAME
from marquee.settings import RELEASES_FOLDER

log = logging.getLogger("marquee.edge")


def artefact_readers(cache_mb: int = DEFAULT_MB) -> dict[str, Callable[[Path], Any]]:
    """How the edge opens each artefact of a release, every release's indexes keeping what they read
    in one set of caches within `cache_mb` (MARQUEE_EDGE_CACHE_MB: edge/caches.py)."""
    caches = IndexCaches(cache_mb)
    return {
        SEARCH_INDEX: functools.partial(SearchIndex, caches=caches),
        DISCOVER_INDEX: functools.partial(DiscoverIndex, caches=caches),
        SHOWTIMES: ShowtimesIndex,
        CHANGES: ChangeLog,
    }


ARTEFACT_READERS = artefact_readers()

JSON = b"application/json;charset=utf-8"
# fmt: off
REASONS = {200: "OK", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 402: "Payment Required",
           404: "Not Found", 405: "Method Not Allowed", 429: "Too Many Requests", 500: "Internal Server Error",
           503: "Service Unavailable"}
# fmt: on


STATUS_CLASS = {2: "2xx", 3: "3xx", 4: "4xx", 5: "5xx"}


def response(
    status: int,
    body: bytes,
    headers: dict[str, str],
    head_only: bool = False,
    content_type: str = "application/json;charset=utf-8",
) -> bytes:
    CONTENT_ANSWERS[STATUS_CLASS.get(status // 100, "other")] += 1
    lines = [
        f"HTTP/1.1 {status} {REASONS.get(status, 'Error')}\r\n"
        f"Content-Type: {content_type}\r\n" + ("" if status == 304 else f"Content-Length: {len(body)}\r\n")
    ]
    lines.extend(f"{k}: {v}\r\n" for k, v in headers.items())
    lines.append("\r\n")
    return "".join(lines).encode() + (b"" if head_only else body)


def error_response(
    error: errors.TmdbError, headers: dict[str, str], head_only: bool = False, dialect: str = "tmdb"
) -> bytes:
    """The error with its HTTP status, in TMDB's envelope or, on OMDb's door, OMDb's catch-all."""
    headers = dict(headers, **{"Cache-Control": CACHE_CONTROL["errors"]})
    body = error.body() if dialect != "omdb" else omdb.catch_all()
    return response(error.http_status, body, headers, head_only)


def refused(decision: Decision, head_only: bool = False) -> bytes:
    return error_response(errors.for_refusal(decision.refusal, decision.limit), decision.headers, head_only)


def gzip_of(body: bytes) -> bytes:
    """The gzip nginx's filter would have made (its level, a 32 KB window), without a timestamp."""
    return gzip.compress(body, GZIP_LEVEL, mtime=0)


def parse_target(target: str) -> tuple[str, dict[str, str]]:
    """The path as nginx resolved it for its own gate and documents, and the parameters as nginx's
    `$arg_` reads them: names in any case, the first of a repeated name wins. nginx hands over the
    client's own request line, so both steps are nginx's, redone here; otherwise a path with `..`
    or a parameter in capitals would answer one thing from a document and another from the edge."""
    parts = urlsplit(target)
    params: dict[str, str] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        params.setdefault(name.lower(), value)
    return resolved_path(unquote(parts.path)), params


def resolved_path(path: str) -> str:
    """`/3/movie/../tv//1/` -> `/3/tv/1/`: dot segments and repeated slashes resolved, as nginx
    does before it matches a location (a path that climbs above the root never reaches here)."""
    segments: list[str] = []
    for segment in path.split("/"):
        if segment == "..":
            if segments:
                segments.pop()
        elif segment not in ("", "."):
            segments.append(segment)
    trailing = "/" if path.endswith(("/", "/.", "/..")) and segments else ""
    return "/" + "/".join(segments) + trailing


def admitted_headers(value: str | None) -> dict[str, str] | None:
    """The rate headers of a request nginx's gate admitted and counted (`X-Marquee-Admitted`):
    `limit remaining reset`, or `limit` alone when Redis was down and the policy admitted it.

    Only nginx reaches this socket, and it sends no client header here (proxy_pass_request_headers
    off), so the header cannot come from a client.
    """
    parts = (value or "").split()
    if not parts or not all(p.isdigit() for p in parts):
        return None
    if len(parts) == 3:
        limit, remaining, reset = map(int, parts)
        return window_headers(WindowStats(ADMITTED, 0, limit, remaining, reset, 0))
    if len(parts) == 1:
        return {"X-RateLimit-Limit": parts[0], "X-Marquee-Unmetered": "1"}
    return None


class CurrentRelease:
    """The release `current` points at, and the document cache of it, shared by every nginx connection.

    One readlink per answer; the full realpath (a syscall per path component) and a cache clear
    only when the link changed, i.e. once per publish or rollback, not once per connection.
    """

    def __init__(
        self, current: Path, cache: DocumentCache | None = None, artefacts: OpenArtefacts | None = None
    ) -> None:
        self.current = current
        self.cache = cache if cache is not None else DocumentCache()
        self.artefacts = artefacts if artefacts is not None else OpenArtefacts(ARTEFACT_READERS)
        self._link: str | None = None
        self._root = ""
        self._warming: tuple[str, str, DocumentCache] | None = None  # a publish's next release (warm)

    def warming(self, name: str) -> tuple[str, DocumentCache]:
        """The root of release `name` (a folder beside `current`'s target) and a document cache of its
        own, for a publish's warm requests (marquee/warm.py): its indexes open here before it is current."""
        if self._warming is None or self._warming[0] != name:
            if not RELEASE_NAME.match(name):  # as nginx checked it (marquee_warm.lua)
                raise ContentError(errors.NOT_FOUND)
            root = os.path.realpath(os.path.join(os.path.dirname(self.current), RELEASES_FOLDER, name))
            if not os.path.isdir(root):
                raise ContentError(errors.NOT_FOUND)
            self._warming = (name, root, DocumentCache())
        return self._warming[1], self._warming[2]

    def open_now(self, names: tuple[str, ...]) -> None:
        """Open the current release's artefacts `names` (those there are) before the first request
        asks for one, and have the kernel read their files ahead (marquee/artefacts.read_ahead): after
        a restart they may be on disk only. Not on every open: a publish's release was just written
        (its pages cached) and is warmed (marquee/warm.py). Read ahead as well, whole, in the middle of
        the answers, the publish round's p99 at 1M films was 10 and 15 ms in two runs and 274 to 1,530
        ms in the six after them (the host pages out what is unused for a minute, so those read from
        disk); 12.3 and 10.8 ms without it (docs/benchmarks.md, session 36)."""
        try:
            root = self.root()
        except OSError:  # nothing published yet
            return
        for name in names:
            try:
                self.artefacts.open(root, name)
            except (MissingArtefact, OSError, sqlite3.Error):  # a request for it answers the error
                continue
            for file in (name, *COMPANIONS.get(name, ())):
                read_ahead(Path(root) / file)

    def root(self) -> str:
        """Resolved once per answer, so all of an answer's documents come from one release."""
        target = os.readlink(self.current)
        if target != self._link:
            self._root = os.path.realpath(self.current)
            self._link = target
            self.cache.clear()  # the old release's documents are no longer asked for
        return self._root


class ContentProtocol(UpstreamProtocol):
    def __init__(self, gate: Gate | None, release: CurrentRelease, languages: list[str]) -> None:
        super().__init__()
        self.gate = gate  # None in an answer worker (edge/answer_workers.py): nginx's gate only
        self.release = release
        self.languages = languages

    def handle(self, head: bytes, slot: list) -> None:
        line_end = head.find(b"\r\n")
        request_line = (head if line_end < 0 else head[:line_end]).decode("latin-1")
        method, _, rest = request_line.partition(" ")
        target = rest.rpartition(" ")[0] or rest
        path, params = parse_target(target)
        head_only = method == "HEAD"

        def serve(headers: dict[str, str]) -> None:
            route = routes.route_for(path)
            try:
                body = route.answer(self.context(header_value(head, b"\r\nX-Marquee-Release:")), path, params)
            except ContentError as exc:
                self.fill(slot, error_response(exc.error, headers, head_only))
                return
            except Exception:  # a bug must still answer in the route's envelope, never hang nginx
                log.exception("content_error path=%s", path)
                self.fill(slot, error_response(errors.INTERNAL, headers, head_only, route.dialect))
                return
            headers["Cache-Control"] = CACHE_CONTROL[route.policy(params)]
            # nginx asks for the gzip of an answer it caches for a client taking gzip (X-Marquee-Gzip):
            # made once here and cached, where nginx's filter compressed it again on every answer.
            gzipped = (
                isinstance(body, bytes)
                and len(body) >= GZIP_MIN_LENGTH
                and header_value(head, b"\r\nX-Marquee-Gzip:") == "gzip"
            )
            if route.etag and isinstance(body, bytes):
                etag = f'"{etag_of(body)}"'
                headers["ETag"] = "W/" + etag if gzipped else etag  # weak, as nginx's filter makes it
                # As nginx's documents (marquee_docs.lua `respond`): any tag in the list, weak ones
                # too; never for JSONP, which nginx wraps and sends without an ETag.
                held = header_value(head, b"\r\nIf-None-Match:")
                if held and not params.get("callback") and (held == "*" or etag in held):
                    self.fill(slot, response(304, b"", headers, head_only=True))
                    return
            if isinstance(body, tuple):  # a body in a type of its own (OMDb's XML, JSONP)
                body, content_type = body
                self.fill(slot, response(200, body, headers, head_only, content_type))
                return
            if gzipped:
                headers["Content-Encoding"], headers["Vary"] = "gzip", "Accept-Encoding"
                body = gzip_of(body)
            self.fill(slot, response(200, body, headers, head_only))

        def done(window: object) -> None:
            if isinstance(window, WindowStats) and window.admitted:
                serve(window_headers(window))
                return
            decision = self.gate.settle(hit, window)  # refused, or Redis down (policy)
            if decision.allowed:
                serve(dict(decision.headers))
            else:
                self.fill(slot, refused(decision, head_only))

        admitted = admitted_headers(header_value(head, b"\r\nX-Marquee-Admitted:"))
        if admitted is None and self.gate is None:  # an answer worker trusts nginx's gate alone
            self.fill(slot, error_response(errors.INVALID_KEY, {}, head_only))
            return
        if admitted is None:
            hit = self.gate.check_key(key_from(params.get("api_key"), header_value(head, b"\r\nAuthorization:")))
            if isinstance(hit, Decision):
                self.fill(slot, refused(hit, head_only))
                return
        if method not in ("GET", "HEAD"):
            self.fill(
                slot, error_response(errors.METHOD_NOT_ALLOWED, admitted or {}, dialect=routes.route_for(path).dialect)
            )
            return
        if admitted is not None:  # nginx's gate has checked and counted it
            serve(admitted)
            return

        self.gate.limiter.hit(hit.grant, hit.fallback, done)

    def context(self, warming: str | None = None) -> Context:
        """What this answer reads: the release `current` points at now, through the shared caches, or
        the release a publish's warm request names (nginx sends X-Marquee-Release only for those)."""
        if warming is not None:
            root, cache = self.release.warming(warming)
            return Context(root, self.languages, cache, self.release.artefacts)
        return Context(self.release.root(), self.languages, self.release.cache, self.release.artefacts)
