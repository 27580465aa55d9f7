"""A minimal pipelined Redis connection for the limiter's one hot command, on hiredis's parser.

Why not redis-py here: its asyncio client spends about 100 µs of Python per call (connection
pool, command packing, response callbacks, awaits), which profiling showed as a quarter of the
edge's CPU on the authenticated path. The limiter sends one EVALSHA per event-loop turn and needs
no pool, no retries and no pub/sub, so RESP encoding plus hiredis.Reader does the whole job.
redis-py still serves everything else (the CLI, tests, script loading checks).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from urllib.parse import parse_qs, urlparse

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

Reply = Callable[[object], None]  # called with the parsed reply or an exception instance


def pack(*args: bytes | str | int) -> bytes:
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def as_exception(reply: object) -> Exception | None:
    if isinstance(reply, hiredis.ReplyError):
        text = str(reply)
        return NoScriptError(text) if text.startswith("NOSCRIPT") else ResponseError(text)
    return None


def redis_address(url: str) -> tuple[str, int | None, int]:
    """(host, port, db) of a redis:// URL, or (socket path, None, db) of a unix:// one."""
    parsed = urlparse(url)
    if parsed.scheme == "unix":
        return parsed.path, None, int(parse_qs(parsed.query).get("db", ["0"])[0])
    return parsed.hostname or "127.0.0.1", parsed.port or 6379, int((parsed.path or "/0").strip("/") or 0)


class _Protocol(asyncio.Protocol):
    def __init__(self, owner: RedisWire) -> None:
        self.owner = owner
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            self.owner._deliver(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner._lost(self, exc)


class RedisWire:
    """One connection, replies matched to requests in order; reconnects on the next call."""

    def __init__(self, url: str, timeout: float = 1.0, connect_timeout: float = 0.5) -> None:
        self.host, self.port, self.db = redis_address(url)
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self._protocol: _Protocol | None = None
        self._waiting: deque[tuple[Reply, asyncio.TimerHandle | None]] = deque()

    async def connect(self) -> None:
        loop = asyncio.get_running_loop()
        if self.port is None:
            coro = loop.create_unix_connection(lambda: _Protocol(self), self.host)
        else:
            coro = loop.create_connection(lambda: _Protocol(self), self.host, self.port)
        try:
            _, protocol = await asyncio.wait_for(coro, self.connect_timeout)
        except TimeoutError:
            raise RedisTimeoutError(f"connecting to Redis took over {self.connect_timeout} s") from None
        except OSError as exc:
            raise RedisConnectionError(f"cannot connect to Redis: {exc}") from None
        self._protocol = protocol
        if self.db:
            reply = await self.call_async("SELECT", self.db)
            if isinstance(reply, Exception):
                raise reply

    @property
    def connected(self) -> bool:
        return self._protocol is not None and self._protocol.transport is not None

    def call(self, on_reply: Reply, *args: bytes | str | int) -> None:
        """Send one command on a connected wire; `on_reply` gets the reply or an exception."""
        assert self._protocol is not None and self._protocol.transport is not None
        timer = asyncio.get_running_loop().call_later(self.timeout, self._timed_out) if self.timeout else None
        self._waiting.append((on_reply, timer))
        self._protocol.transport.write(pack(*args))

    async def call_async(self, *args: bytes | str | int) -> object:
        if not self.connected:
            await self.connect()
        future = asyncio.get_running_loop().create_future()
        self.call(lambda reply: future.done() or future.set_result(reply), *args)
        return await future

    def _deliver(self, reply: object) -> None:
        on_reply, timer = self._waiting.popleft()
        if timer is not None:
            timer.cancel()
        on_reply(as_exception(reply) or reply)

    def _fail_all(self, exc: Exception) -> None:
        while self._waiting:
            on_reply, timer = self._waiting.popleft()
            if timer is not None:
                timer.cancel()
            on_reply(exc)

    def _timed_out(self) -> None:
        # The stream's position is unknown after a lost reply: drop the connection and start clean.
        self._fail_all(RedisTimeoutError(f"Redis did not answer within {self.timeout} s"))
        self.close()

    def _lost(self, protocol: _Protocol, exc: Exception | None) -> None:
        if protocol is self._protocol:
            self._protocol = None
        self._fail_all(RedisConnectionError(f"lost the Redis connection: {exc or 'closed'}"))

    def close(self) -> None:
        if self._protocol is not None and self._protocol.transport is not None:
            self._protocol.transport.close()
        self._protocol = None
