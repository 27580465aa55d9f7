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

from edge.gate import Decision, Gate, key_from
from edge.ratelimit import WindowStats
from edge.upstream_protocol import UpstreamProtocol, header_value, start_unix_listener

log = logging.getLogger("marquee.edge")

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


def parse_request(head: bytes) -> tuple[str | None, str | None]:
    """The key headers of one request head; nginx sends nothing else worth reading.

    nginx writes the two headers exactly as nginx/marquee.conf.j2 spells them, so a find() is
    enough; any other spelling goes through the general, case-blind parse.
    """
    api_key = header_value(head, b"\r\nX-Marquee-Api-Key:")
    authorization = header_value(head, b"\r\nAuthorization:")
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


class AuthProtocol(UpstreamProtocol):
    """Answers nginx's auth_request subrequests."""

    def __init__(self, gate: Gate) -> None:
        super().__init__()
        self.gate = gate

    def handle(self, head: bytes, slot: list) -> None:
        if not head.startswith(b"GET ") and not head.startswith(b"HEAD "):
            self.fail()
            return
        outcome = self.gate.check_key(key_from(*parse_request(head)))
        if isinstance(outcome, Decision):
            self.fill(slot, format_answer(outcome))
            return
        grant = outcome

        def done(window: object) -> None:
            if isinstance(window, WindowStats) and window.admitted:
                self.fill(slot, ADMITTED % (window.limit, window.remaining, window.reset_epoch))
            else:
                self.fill(slot, format_answer(self.gate.settle(grant, window)))

        self.gate.limiter.hit(grant.account_id, grant.limit, done)


async def start_listener(gate: Gate, path: str, backlog: int) -> asyncio.AbstractServer:
    return await start_unix_listener(lambda: AuthProtocol(gate), path, backlog)
