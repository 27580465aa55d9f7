"""The key check and the rate limit: one decision per /3 request, shared by every front door.

nginx asks through /_auth before it serves a static file; the edge's own dynamic routes call
`Gate.decide` directly. Either way a request is counted once.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from redis.exceptions import RedisError

from edge import errors
from edge.ratelimit import RateLimiter, WindowStats
from marquee.registry import KeyGrant, RegistrySnapshot, export_grants, hash_key

log = logging.getLogger("marquee.edge")

KEY_SHAPE = re.compile(r"[0-9a-f]{32}")


@dataclass(slots=True)
class Decision:
    error: errors.TmdbError | None
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def allowed(self) -> bool:
        return self.error is None


def key_from(api_key: str | None, authorization: str | None) -> str | None:
    """The key from `?api_key=` or `Authorization: Bearer`; the query parameter wins, as at TMDB."""
    if api_key:
        return api_key
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip()
    return None


def window_headers(stats: WindowStats) -> dict[str, str]:
    headers = {
        "X-RateLimit-Limit": str(stats.limit),
        "X-RateLimit-Remaining": str(stats.remaining),
        "X-RateLimit-Reset": str(stats.reset_epoch),
    }
    if not stats.admitted:
        headers["Retry-After"] = str(max(1, stats.retry_after))
    return headers


class Gate:
    def __init__(self, snapshot: RegistrySnapshot, limiter: RateLimiter, redis_down_policy: str) -> None:
        self.snapshot = snapshot
        self.limiter = limiter
        self.redis_down_policy = redis_down_policy
        # Requests decided without Redis, by outcome; /healthz shows them so the fact is never silent.
        self.redis_down = {"refused": 0, "admitted": 0}

    def check_key(self, key: str | None) -> Decision | KeyGrant:
        """Everything decided without Redis: a refusal, or the grant whose window must be hit."""
        if key is None or KEY_SHAPE.fullmatch(key) is None:
            return Decision(errors.INVALID_KEY)
        grant = self.snapshot.grants.get(hash_key(key))
        if grant is None:
            return Decision(errors.INVALID_KEY)
        if grant.key_state == "suspended":
            return Decision(errors.SUSPENDED_KEY)
        if grant.account_state == "expired":
            return Decision(errors.PLAN_EXPIRED)
        return grant

    def settle(self, grant: KeyGrant, outcome: WindowStats | Exception) -> Decision:
        """The decision once the window has answered (RateLimiter.hit's outcome)."""
        if isinstance(outcome, Exception):
            if isinstance(outcome, (RedisError, OSError)):
                return self._redis_down(grant.limit, outcome)
            raise outcome
        if not outcome.admitted:
            return Decision(errors.rate_limited(grant.limit), window_headers(outcome))
        return Decision(None, window_headers(outcome))

    async def decide(self, key: str | None) -> Decision:
        outcome = self.check_key(key)
        if isinstance(outcome, Decision):
            return outcome
        try:
            stats: WindowStats | Exception = await self.limiter.hit_async(outcome.account_id, outcome.limit)
        except (RedisError, OSError) as exc:
            stats = exc
        return self.settle(outcome, stats)

    def _redis_down(self, limit: int, exc: Exception) -> Decision:
        if self.redis_down_policy == "admit":
            self.redis_down["admitted"] += 1
            log.warning("redis_down_admitted count=%d error=%s", self.redis_down["admitted"], type(exc).__name__)
            return Decision(None, {"X-RateLimit-Limit": str(limit), "X-Marquee-Unmetered": "1"})
        self.redis_down["refused"] += 1
        log.warning("redis_down_refused count=%d error=%s", self.redis_down["refused"], type(exc).__name__)
        return Decision(errors.SERVICE_OFFLINE, {"Retry-After": "5", "X-RateLimit-Limit": str(limit)})


async def poll_registry(snapshot: RegistrySnapshot, every_seconds: float, export_to: Path) -> None:
    """Pick up new, deleted and suspended keys and plan changes within `every_seconds`.

    Each change is also exported for nginx's gate (MARQUEE_GATE=nginx), which polls the export.
    """
    while True:
        await asyncio.sleep(every_seconds)
        try:
            if snapshot.refresh():
                log.info("registry_reloaded keys=%d", len(snapshot.grants))
                export_grants(snapshot.grants, export_to)
        except Exception:  # a locked or briefly missing file must not stop the poller
            log.exception("registry_reload_failed")
