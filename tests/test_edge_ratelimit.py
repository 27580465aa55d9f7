"""The gate's script call (edge/gate.lua through edge/ratelimit.py) against a real redis-server:
the batched moving window, and each hit's grant read in the same call."""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis.exceptions import RedisError

from edge import ratelimit
from edge.ratelimit import KEY_PREFIX, RateLimiter
from edge.redis_wire import RedisWire
from marquee.grants import GRANT_PREFIX, LOADED
from tests.redis_fixture import redis_server  # noqa: F401  (fixture)


def run(coro):
    return asyncio.run(coro)


def grant(redis_server, account: int, limit: int, key_state: str = "active", account_state: str = "active") -> str:
    """Put a grant for a made-up key of `account` into Redis (as marquee/grants.py does); its name."""
    name = f"{GRANT_PREFIX}acct{account}-{limit}"
    client = redis.Redis.from_url(redis_server.url)
    client.set(name, f"{account} {limit} {key_state} {account_state}")
    client.set(LOADED, "1")
    client.close()
    return name


async def hits(limiter: RateLimiter, name: str, n: int):
    return await asyncio.gather(*(limiter.hit_async(name) for _ in range(n)))


def test_one_turn_of_hits_shares_one_call_and_admits_exactly_the_limit(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        results = await hits(limiter, grant(redis_server, 1, 7), 20)
        limiter.close()
        return limiter, results

    limiter, results = run(scenario())
    assert [r.admitted for r in results] == [True] * 7 + [False] * 13
    assert {r.status for r in results[7:]} == {ratelimit.LIMITED} and {r.limit for r in results} == {7}
    assert [r.remaining for r in results[:7]] == [6, 5, 4, 3, 2, 1, 0]
    assert all(1 <= r.retry_after <= 60 for r in results[7:])
    assert limiter.batches == 1 and limiter.hits == 20


def test_accounts_have_separate_windows_in_one_batch(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        names = {account: grant(redis_server, account, 2) for account in (1, 2)}
        results = await asyncio.gather(*(limiter.hit_async(names[account]) for account in (1, 2, 1, 2, 1, 2)))
        limiter.close()
        return results

    assert [r.admitted for r in run(scenario())] == [True, True, True, True, False, False]


def test_window_slides_and_reset_is_when_the_oldest_hit_leaves(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 0.5)
        name = grant(redis_server, 9, 2)
        first = await hits(limiter, name, 3)
        await asyncio.sleep(0.6)
        second = await hits(limiter, name, 1)
        limiter.close()
        return first, second

    first, second = run(scenario())
    assert [r.admitted for r in first] == [True, True, False]
    assert first[2].retry_after == 1  # 0.5 s rounds up to whole seconds
    assert second[0].admitted and second[0].remaining == 1


def test_a_downgrade_keeps_history_and_waits_for_enough_hits_to_leave(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        await hits(limiter, grant(redis_server, 5, 10), 10)
        after = await hits(limiter, grant(redis_server, 5, 3), 1)
        limiter.close()
        return after[0]

    refused = run(scenario())
    assert not refused.admitted and refused.remaining == 0 and refused.retry_after > 0


def test_script_flushed_from_redis_is_sent_again(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        name = grant(redis_server, 3, 5)
        await hits(limiter, name, 1)
        redis.Redis.from_url(redis_server.url).script_flush()
        again = await hits(limiter, name, 1)
        limiter.close()
        return again[0]

    result = run(scenario())
    assert result.admitted and result.remaining == 3


def test_redis_down_fails_every_hit_and_recovers_after_restart(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url, connect_timeout=0.3), 60)
        await hits(limiter, grant(redis_server, 4, 5), 1)
        redis_server.stop()
        with pytest.raises(RedisError):
            await limiter.hit_async("any")
        with pytest.raises(RedisError):
            await limiter.hit_async("any")
        redis_server.start()
        # A restarted Redis lost the window, the grants and the script; the limiter reconnects and
        # sends the script again, and the door's fallback grant stands in until the registry is loaded.
        back = await limiter.hit_async(f"{GRANT_PREFIX}gone", "4 5 active active")
        limiter.close()
        return back

    assert run(scenario()).remaining == 4


def test_window_keys_name_only_the_account(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        await hits(limiter, grant(redis_server, 42, 5), 2)
        limiter.close()

    run(scenario())
    client = redis.Redis.from_url(redis_server.url)
    assert sorted(k for k in client.keys("*") if k.startswith(KEY_PREFIX.encode())) == [f"{KEY_PREFIX}42".encode()]
    assert client.llen(f"{KEY_PREFIX}42") == 2
    assert 0 < client.pttl(f"{KEY_PREFIX}42") <= 60_000


@pytest.mark.parametrize(
    "key_state, account_state, status",
    [
        ("suspended", "active", ratelimit.SUSPENDED_KEY),
        ("active", "expired", ratelimit.EXPIRED_PLAN),
        ("suspended", "expired", ratelimit.SUSPENDED_KEY),
    ],
)
def test_refused_grants_are_not_counted(redis_server, key_state, account_state, status):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        results = await hits(limiter, grant(redis_server, 7, 5, key_state, account_state), 3)
        limiter.close()
        return results

    assert {r.status for r in run(scenario())} == {status}
    assert redis.Redis.from_url(redis_server.url).llen(f"{KEY_PREFIX}7") == 0


def test_a_missing_grant_is_an_unknown_key_once_the_registry_is_loaded(redis_server):
    """The door's fallback counts only while Redis holds no registry: a deleted key's stale
    fallback must not let it in once the registry is there."""

    async def scenario(fallback: str):
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        result = await limiter.hit_async(f"{GRANT_PREFIX}missing", fallback)
        limiter.close()
        return result

    client = redis.Redis.from_url(redis_server.url)
    assert run(scenario("8 5 active active")).status == ratelimit.ADMITTED  # not loaded: the fallback
    assert run(scenario("")).status == ratelimit.UNKNOWN_KEY
    client.set(LOADED, "1")
    assert run(scenario("8 5 active active")).status == ratelimit.UNKNOWN_KEY
    assert client.llen(f"{KEY_PREFIX}8") == 1
