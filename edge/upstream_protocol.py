"""HTTP/1.1 from nginx, and only from nginx: request heads without bodies, answers in request order.

nginx talks to the edge's listeners over keep-alive unix-socket connections with a fixed, small
set of headers (nginx/marquee.conf.j2), one request at a time per connection. That makes a full
HTTP server unnecessary on the hot paths: a head is everything up to the blank line, and an answer
is a few preformatted bytes. Answers that wait for Redis keep their place in line, so even a
pipelining client would get them in order.
"""

from __future__ import annotations

import asyncio
from collections import deque

MAX_HEAD_BYTES = 16384
BAD_REQUEST = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def header_value(head: bytes, marker: bytes) -> str | None:
    """The value of the header whose `\\r\\nName:` is `marker` (nginx's exact spelling), or None."""
    start = head.find(marker)
    if start < 0:
        return None
    start += len(marker)
    end = head.find(b"\r\n", start)
    value = head[start:] if end < 0 else head[start:end]
    return value.strip().decode("latin-1") or None


class UpstreamProtocol(asyncio.Protocol):
    """One nginx upstream connection; subclasses implement `handle(head, slot)`."""

    def __init__(self) -> None:
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        # Answers not yet written, in request order; [None] marks one still being decided.
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
                if len(self.buffer) > MAX_HEAD_BYTES:
                    self.fail()
                return
            head, self.buffer = self.buffer[:end], self.buffer[end + 4 :]
            slot: list = [None]
            self.slots.append(slot)
            self.handle(head, slot)

    def handle(self, head: bytes, slot: list) -> None:
        raise NotImplementedError

    def fill(self, slot: list, answer: bytes) -> None:
        slot[0] = answer
        while self.slots and self.slots[0][0] is not None:
            ready = self.slots.popleft()[0]
            if self.transport is not None:
                self.transport.write(ready)

    def fail(self) -> None:
        if self.transport is not None:
            self.transport.write(BAD_REQUEST)
            self.transport.close()
            self.transport = None


async def start_unix_listener(factory, path: str, backlog: int) -> asyncio.AbstractServer:
    return await asyncio.get_running_loop().create_unix_server(factory, path, backlog=backlog)
