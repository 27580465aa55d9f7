"""The hot path: nginx's auth_request subrequests, answered by a bare asyncio protocol.

Why not a Sanic route: profiling the edge under wrk (py-spy, `make bench`) showed Sanic's HTTP/1
pipeline (request object, header sanitising, response formatting, a task per request) taking
about 70% of the edge's CPU for a request whose answer is three headers; the key check and the
batched Redis call took the rest. nginx sends this socket a fixed, tiny request (only the two
headers set in nginx/marquee.conf.j2), so parsing is a split, the decision needs no task, and
the answer is a few preformatted bytes. The listener runs on the Sanic app's own event loop and
shares its Gate, so there is still one process, one registry snapshot and one limiter.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

from edge.gate import Decision, Gate, key_from
from edge.ratelimit import WindowStats

log = logging.getLogger("marquee.edge")

MAX_HEADER_BYTES = 8192
BAD_REQUEST = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
# Nearly every answer is an admission: one bytes % formatting instead of a Decision and a dict.
ADMITTED = (b"HTTP/1.1 204 No Content\r\nX-RateLimit-Limit: %d\r\nX-RateLimit-Remaining: %d\r\n"
            b"X-RateLimit-Reset: %d\r\n\r\n")


def format_answer(decision: Decision) -> bytes:
    """204 admits; 401 tells nginx to deny, with the client's real status and body in headers."""
    headers = decision.headers
    if decision.error is None:
        head = "HTTP/1.1 204 No Content\r\n"
    else:
        head = (f"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n"
                f"X-Marquee-Status: {decision.error.http_status}\r\n"
                f"X-Marquee-Body: {decision.error.body().decode()}\r\n")
    return (head + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n").encode()


def _header_value(head: bytes, marker: bytes) -> str | None:
    start = head.find(marker)
    if start < 0:
        return None
    start += len(marker)
    end = head.find(b"\r\n", start)
    value = head[start:] if end < 0 else head[start:end]
    return value.strip().decode("latin-1") or None


def parse_request(head: bytes) -> tuple[str | None, str | None]:
    """The key headers of one request head; nginx sends nothing else worth reading.

    nginx writes the two headers exactly as nginx/marquee.conf.j2 spells them, so a find() is
    enough; any other spelling goes through the general, case-blind parse.
    """
    api_key = _header_value(head, b"\r\nX-Marquee-Api-Key:")
    authorization = _header_value(head, b"\r\nAuthorization:")
    if api_key or authorization:
        return api_key, authorization
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"x-marquee-api-key":
            api_key = value.strip().decode("latin-1") or None
        elif name == b"authorization":
            authorization = value.strip().decode("latin-1") or None
    return api_key, authorization


class AuthProtocol(asyncio.Protocol):
    """One nginx upstream connection. Answers go out in request order even if Redis answers late."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        # Answers not yet written, in request order; None marks one still waiting for Redis.
        self.slots: deque[list] = deque()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > MAX_HEADER_BYTES:
                    self._fail()
                return
            head, self.buffer = self.buffer[:end], self.buffer[end + 4:]
            if not head.startswith(b"GET ") and not head.startswith(b"HEAD "):
                self._fail()
                return
            self._answer(*parse_request(head))

    def _fail(self) -> None:
        if self.transport is not None:
            self.transport.write(BAD_REQUEST)
            self.transport.close()

    def _answer(self, api_key: str | None, authorization: str | None) -> None:
        slot: list = [None]
        self.slots.append(slot)
        outcome = self.gate.check_key(key_from(api_key, authorization))
        if isinstance(outcome, Decision):
            slot[0] = format_answer(outcome)
            self._flush()
            return
        grant = outcome

        def done(window: object) -> None:
            if isinstance(window, WindowStats) and window.admitted:
                slot[0] = ADMITTED % (window.limit, window.remaining, window.reset_epoch)
            else:
                slot[0] = format_answer(self.gate.settle(grant, window))
            self._flush()

        self.gate.limiter.hit(grant.account_id, grant.limit, done)

    def _flush(self) -> None:
        while self.slots and self.slots[0][0] is not None:
            answer = self.slots.popleft()[0]
            if self.transport is not None:
                self.transport.write(answer)


async def start_listener(gate: Gate, path: str, backlog: int) -> asyncio.AbstractServer:
    loop = asyncio.get_running_loop()
    return await loop.create_unix_server(lambda: AuthProtocol(gate), path, backlog=backlog)
