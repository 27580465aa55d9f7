"""The gate's Redis side: each hit's key state and its account's sliding window in one script
call (edge/gate.lua), with hits batched into one call per event-loop turn.

Why not `limits` as is: its moving window is the same algorithm (see gate.lua), but `hit()`
returns only a bool, so the X-RateLimit headers need a second `get_window_stats()` round trip,
and each round trip through redis-py costs about 100 µs of Python here (perf-baseline.md; py-spy
on `make bench`). Instead every hit that arrives while one call is in flight joins the next
call: the script runs atomically and in arrival order, so the window stays exact, while the
per-request Redis cost falls as load rises. Callbacks, not tasks: the content listener needs no
coroutine per request.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from redis.exceptions import NoScriptError, RedisError

from edge.redis_wire import RedisWire

log = logging.getLogger("marquee.edge")

SCRIPT_PATH = Path(__file__).parent / "gate.lua"  # nginx's gate (nginx/lua/marquee_gate.lua) runs it too
SCRIPT = SCRIPT_PATH.read_text()
SCRIPT_SHA = hashlib.sha1(SCRIPT.encode()).hexdigest()
KEY_PREFIX = "marquee:window:"

# The script's verdict per hit (edge/gate.lua).
ADMITTED, UNKNOWN_KEY, SUSPENDED_KEY, EXPIRED_PLAN, LIMITED = range(5)


@dataclass(frozen=True, slots=True)
class WindowStats:
    status: int  # one of the verdicts above
    account_id: int  # 0 for an unknown key
    limit: int
    remaining: int
    reset_epoch: int  # whole seconds: when the oldest counted hit leaves the window
    retry_after: int  # whole seconds to wait before a hit would be admitted (0 when admitted)

    @property
    def admitted(self) -> bool:
        return self.status == ADMITTED


Outcome = WindowStats | Exception
# (grant name in Redis, the door's own grant value or "" as the script's fallback, callback)
Pending = tuple[str, str, Callable[[Outcome], None]]


class RateLimiter:
    """Key states and moving windows, shared by every key of an account and every door on one Redis."""

    def __init__(self, wire: RedisWire, window_seconds: float) -> None:
        self.wire = wire
        self.window_us = int(window_seconds * 1_000_000)
        self._pending: list[Pending] = []
        self._in_flight: list[Pending] | None = None
        self._scheduled = False
        self._connecting = False
        # Batch sizes tell whether batching pays off under load; /healthz shows them.
        self.batches = 0
        self.hits = 0

    def hit(self, grant: str, fallback: str, on_done: Callable[[Outcome], None]) -> None:
        """Check one key and count its request; `on_done` gets WindowStats, or the Redis error if
        there is no answer. `grant` names the key's grant in Redis (marquee/grants.py);
        `fallback` is its value in the door's own snapshot ("" if none), used only while Redis
        holds no registry."""
        self._pending.append((grant, fallback, on_done))
        if not self._scheduled and self._in_flight is None:
            # Wait for the rest of this event-loop turn so that its hits share one call.
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._send)

    async def hit_async(self, grant: str, fallback: str = "") -> WindowStats:
        future = asyncio.get_running_loop().create_future()
        self.hit(grant, fallback, lambda outcome: future.done() or future.set_result(outcome))
        outcome = await future
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def _send(self) -> None:
        self._scheduled = False
        if self._in_flight is not None or not self._pending or self._connecting:
            return
        if not self.wire.connected:
            self._connecting = True
            asyncio.get_running_loop().create_task(self._connect_then_send())
            return
        batch, self._pending = self._pending, []
        self._in_flight = batch
        self.batches += 1
        self.hits += len(batch)
        grants = [grant for grant, _, _ in batch]
        fallbacks = [fallback for _, fallback, _ in batch]
        self._args = (len(grants), *grants, self.window_us, *fallbacks)
        self.wire.call(self._on_reply, "EVALSHA", SCRIPT_SHA, *self._args)

    async def _connect_then_send(self) -> None:
        try:
            await self.wire.connect()
        except (RedisError, OSError) as exc:
            batch, self._pending = self._pending, []
            for _, _, on_done in batch:
                on_done(exc)
        finally:
            self._connecting = False
        self._send()

    def _on_reply(self, reply: object) -> None:
        if isinstance(reply, NoScriptError):
            # A restarted or flushed Redis forgot the script: EVAL sends it and caches it again.
            self.wire.call(self._on_reply, "EVAL", SCRIPT, *self._args)
            return
        batch, self._in_flight = self._in_flight or [], None
        if isinstance(reply, Exception):
            for _, _, on_done in batch:
                on_done(reply)
        else:
            flat = reply
            for i, (_, _, on_done) in enumerate(batch):
                status, account, limit, remaining, reset_ms, retry_ms = flat[6 * i : 6 * i + 6]
                on_done(WindowStats(status, account, limit, remaining, -(-reset_ms // 1000), -(-retry_ms // 1000)))
        if self._pending:
            self._send()

    def close(self) -> None:
        self.wire.close()
