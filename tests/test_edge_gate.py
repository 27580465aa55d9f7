"""The edge's gate against a real redis-server and a real registry: a key change is in effect when
the registry call returns, Redis is loaded again after it lost the registry, and without Redis the
gate decides from its snapshot and the policy."""

from __future__ import annotations

import asyncio

import pytest
import redis

from edge import gate as gate_module
from edge.gate import Gate
from edge.ratelimit import RateLimiter
from edge.redis_wire import RedisWire
from marquee import grants
from marquee.registry import Registry, RegistrySnapshot
from tests.redis_fixture import redis_server  # noqa: F401  (fixture)

PLANS = {"free": 2, "pro": 30}


@pytest.fixture
def world(tmp_path, redis_server):
    """A registry whose commands publish to Redis, and an edge's snapshot that loaded it at start."""
    path = tmp_path / "registry.sqlite3"
    registry = Registry(path, PLANS, 10, redis_server.url)
    snapshot = RegistrySnapshot(path, PLANS, redis_server.url)
    yield registry, snapshot, redis_server
    registry.close()
    snapshot.close()


def decide(snapshot: RegistrySnapshot, url: str, key: str | None, policy: str = "refuse"):
    async def scenario():
        limiter = RateLimiter(RedisWire(url, connect_timeout=0.3), 60)
        try:
            return await Gate(snapshot, limiter, policy).decide(key)
        finally:
            limiter.close()

    return asyncio.run(scenario())


def test_every_key_change_is_in_effect_when_the_registry_call_returns(world):
    """The snapshot is never refreshed here: the gate sees each change through Redis alone."""
    registry, snapshot, server = world
    registry.create_account("acme", "pro")
    info, key = registry.create_key("acme")
    first = decide(snapshot, server.url, key)
    assert first.allowed and first.headers["X-RateLimit-Limit"] == "30"
    registry.set_key_state(info.id, "suspended")
    assert decide(snapshot, server.url, key).refusal == gate_module.SUSPENDED_KEY
    registry.set_key_state(info.id, "active")
    registry.set_account_state("acme", "expired")
    assert decide(snapshot, server.url, key).refusal == gate_module.PLAN_EXPIRED
    registry.set_account_state("acme", "active")
    registry.set_plan("acme", "free")
    downgraded = decide(snapshot, server.url, key)  # the window kept its one hit: 2 - 2 = 0 left
    assert downgraded.allowed and downgraded.headers["X-RateLimit-Remaining"] == "0"
    limited = decide(snapshot, server.url, key)
    assert limited.refusal == gate_module.RATE_LIMITED and limited.limit == 2
    registry.set_key_state(info.id, "deleted")
    assert decide(snapshot, server.url, key).refusal == gate_module.INVALID_KEY
    assert registry.unpublished == []


def test_malformed_and_unknown_keys_are_refused(world):
    _, snapshot, server = world
    for key in (None, "", "not-a-key", "A" * 32):
        assert decide(snapshot, server.url, key).refusal == gate_module.INVALID_KEY
    assert decide(snapshot, server.url, "0123456789abcdef" * 2).refusal == gate_module.INVALID_KEY


def test_a_flushed_redis_is_loaded_again_and_forgets_deleted_keys(world):
    registry, snapshot, server = world
    registry.create_account("acme", "pro")
    kept_info, kept = registry.create_key("acme")
    gone_info, gone = registry.create_key("acme")
    snapshot.refresh()
    client = redis.Redis.from_url(server.url)
    client.flushall()
    # Until an edge loads it again, the snapshot's grants stand in (the script's fallback).
    assert decide(snapshot, server.url, kept).allowed
    registry_without_redis = Registry(registry.path, PLANS)  # a change that never reached Redis
    registry_without_redis.set_key_state(gone_info.id, "deleted")
    registry_without_redis.close()
    assert snapshot.refresh()  # the edge's poll: reads the change and loads Redis whole
    assert client.exists(grants.LOADED)
    assert decide(snapshot, server.url, kept).allowed
    assert decide(snapshot, server.url, gone).refusal == gate_module.INVALID_KEY
    stored = {name.decode() for name in client.scan_iter(match=grants.GRANT_PREFIX + "*")}
    assert stored == {grants.grant_name(d) for d in snapshot.values}
    client.close()


def test_a_change_that_could_not_reach_redis_is_published_by_the_next_poll(world):
    registry, snapshot, server = world
    registry.create_account("acme", "pro")
    info, key = registry.create_key("acme")
    server.stop()
    registry.set_key_state(info.id, "suspended")  # saved; Redis is down
    assert registry.unpublished and "Connection" in registry.unpublished[0]
    # Without Redis the gate decides from its snapshot, once the poll has read the change.
    snapshot.refresh()
    assert decide(snapshot, server.url, key).refusal == gate_module.SUSPENDED_KEY
    server.start()  # empty: no registry, no windows
    snapshot.refresh()
    assert decide(snapshot, server.url, key).refusal == gate_module.SUSPENDED_KEY
    assert redis.Redis.from_url(server.url).get(grants.grant_name(next(iter(snapshot.values)))) is not None


@pytest.mark.parametrize("policy", ["refuse", "admit"])
def test_without_redis_keys_are_checked_against_the_snapshot_then_the_policy_decides(world, policy):
    registry, snapshot, server = world
    registry.create_account("acme", "pro")
    _, key = registry.create_key("acme")
    snapshot.refresh()
    server.stop()
    decision = decide(snapshot, server.url, key, policy)
    if policy == "refuse":
        assert decision.refusal == gate_module.SERVICE_OFFLINE and decision.headers["Retry-After"] == "5"
    else:
        assert decision.allowed and decision.headers["X-Marquee-Unmetered"] == "1"
    assert decide(snapshot, server.url, "0123456789abcdef" * 2, policy).refusal == gate_module.INVALID_KEY
