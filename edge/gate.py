"""The key check and the rate limit in the edge: one decision per request, in the dialect's own words.

nginx decides for every request it serves itself (nginx/lua/marquee_gate.lua) and tells the edge
it did (`X-Marquee-Admitted`); the edge decides here for a request that reaches it unchecked. Both
send the same script call (edge/gate.lua), which reads the key's grant and counts its account's
window in Redis, so a key change is in effect on both at once and a request is counted once.

A decision names its refusal (`INVALID_KEY`, …) and carries the rate headers; each dialect
renders it: TMDB's envelope (edge/errors.py), OMDb's `Response`/`Error` (marquee/omdb.py).
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from redis.exceptions import RedisError

from edge import ratelimit
from edge.ratelimit import RateLimiter, WindowStats
from marquee.grants import grant_name
from marquee.registry import KeyGrant, RegistrySnapshot, export_grants, hash_key

log = logging.getLogger("marquee.edge")

KEY_SHAPE = re.compile(r"[0-9a-f]{32}")

# Why a request is refused; edge/errors.py maps each to TMDB's envelope.
INVALID_KEY = "invalid_key"
SUSPENDED_KEY = "suspended_key"
PLAN_EXPIRED = "plan_expired"
RATE_LIMITED = "rate_limited"
SERVICE_OFFLINE = "service_offline"  # Redis unreachable and MARQUEE_REDIS_DOWN_POLICY=refuse

# fmt: off
REFUSAL_OF_STATUS = {ratelimit.UNKNOWN_KEY: INVALID_KEY, ratelimit.SUSPENDED_KEY: SUSPENDED_KEY,
                     ratelimit.EXPIRED_PLAN: PLAN_EXPIRED, ratelimit.LIMITED: RATE_LIMITED}
# fmt: on


@dataclass(slots=True)
class Decision:
    refusal: str | None
    headers: dict[str, str] = field(default_factory=dict)
    limit: int = 0  # the account's limit, when known (TMDB's 429 message names it)

    @property
    def allowed(self) -> bool:
        return self.refusal is None


@dataclass(frozen=True, slots=True)
class Hit:
    """A well-formed key, to be checked and counted in Redis."""

    grant: str  # its grant's name in Redis
    fallback: str  # its grant's value in this door's snapshot, or "" (see edge/gate.lua)
    local: KeyGrant | None  # the snapshot's grant, for decisions without Redis


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
    if stats.status == ratelimit.LIMITED:
        headers["Retry-After"] = str(max(1, stats.retry_after))
    return headers


class Gate:
    def __init__(self, snapshot: RegistrySnapshot, limiter: RateLimiter, redis_down_policy: str) -> None:
        self.snapshot = snapshot
        self.limiter = limiter
        self.redis_down_policy = redis_down_policy
        # Requests decided without Redis, by outcome; /healthz shows them so the fact is never silent.
        self.redis_down = {"refused": 0, "admitted": 0}

    def check_key(self, key: str | None) -> Decision | Hit:
        """A refusal decided without Redis (no key, or not a key's shape), or the hit to send."""
        if key is None or KEY_SHAPE.fullmatch(key) is None:
            return Decision(INVALID_KEY)
        digest = hash_key(key)
        local = self.snapshot.grants.get(digest)
        return Hit(grant_name(digest), local.value if local is not None else "", local)

    def settle(self, hit: Hit, outcome: WindowStats | Exception) -> Decision:
        """The decision once Redis has answered (RateLimiter.hit's outcome)."""
        if isinstance(outcome, Exception):
            if isinstance(outcome, (RedisError, OSError)):
                return self._redis_down(hit.local, outcome)
            raise outcome
        if outcome.status == ratelimit.ADMITTED:
            return Decision(None, window_headers(outcome), outcome.limit)
        refusal = REFUSAL_OF_STATUS[outcome.status]
        headers = window_headers(outcome) if refusal == RATE_LIMITED else {}
        return Decision(refusal, headers, outcome.limit)

    async def decide(self, key: str | None) -> Decision:
        hit = self.check_key(key)
        if isinstance(hit, Decision):
            return hit
        try:
            stats: WindowStats | Exception = await self.limiter.hit_async(hit.grant, hit.fallback)
        except (RedisError, OSError) as exc:
            stats = exc
        return self.settle(hit, stats)

    def _redis_down(self, grant: KeyGrant | None, exc: Exception) -> Decision:
        """Without Redis the key is checked against this door's snapshot, then the policy decides."""
        if grant is None:
            return Decision(INVALID_KEY)
        if grant.key_state != "active":
            return Decision(SUSPENDED_KEY, limit=grant.limit)
        if grant.account_state != "active":
            return Decision(PLAN_EXPIRED, limit=grant.limit)
        if self.redis_down_policy == "admit":
            self.redis_down["admitted"] += 1
            log.warning("redis_down_admitted count=%d error=%s", self.redis_down["admitted"], type(exc).__name__)
            return Decision(None, {"X-RateLimit-Limit": str(grant.limit), "X-Marquee-Unmetered": "1"}, grant.limit)
        self.redis_down["refused"] += 1
        log.warning("redis_down_refused count=%d error=%s", self.redis_down["refused"], type(exc).__name__)
        return Decision(SERVICE_OFFLINE, {"Retry-After": "5", "X-RateLimit-Limit": str(grant.limit)}, grant.limit)


async def poll_registry(snapshot: RegistrySnapshot, every_seconds: float, export_to: Path) -> None:
    """Keep the snapshot, Redis's copy of the registry and nginx's export in line with SQLite.

    Commands write their changes into Redis themselves; this poll loads the registry into a
    Redis that lost it (restart, flush) and carries over a change a command could not write
    there. Each change of the snapshot is exported for nginx's gate, its fallback without Redis.
    The SQLite and Redis calls run in a thread: a Redis that does not answer must not stall the loop.
    """
    while True:
        await asyncio.sleep(every_seconds)
        try:
            if await asyncio.to_thread(snapshot.refresh):
                log.info("registry_reloaded keys=%d", len(snapshot.grants))
                export_grants(snapshot.grants, export_to)
        except Exception:  # a locked or briefly missing file must not stop the poller
            log.exception("registry_reload_failed")
