"""The batched moving-window limiter against a real redis-server."""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis.exceptions import RedisError

from edge.ratelimit import KEY_PREFIX, RateLimiter
from edge.redis_wire import RedisWire
from tests.redis_fixture import redis_server  # noqa: F401  (fixture)


def run(coro):
    return asyncio.run(coro)


async def hits(limiter: RateLimiter, account: int, limit: int, n: int):
    return await asyncio.gather(*(limiter.hit_async(account, limit) for _ in range(n)))


def test_one_turn_of_hits_shares_one_call_and_admits_exactly_the_limit(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        results = await hits(limiter, 1, 7, 20)
        limiter.close()
        return limiter, results

    limiter, results = run(scenario())
    assert [r.admitted for r in results] == [True] * 7 + [False] * 13
    assert [r.remaining for r in results[:7]] == [6, 5, 4, 3, 2, 1, 0]
    assert all(1 <= r.retry_after <= 60 for r in results[7:])
    assert limiter.batches == 1 and limiter.hits == 20


def test_accounts_have_separate_windows_in_one_batch(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        results = await asyncio.gather(*(limiter.hit_async(account, 2) for account in (1, 2, 1, 2, 1, 2)))
        limiter.close()
        return results

    assert [r.admitted for r in run(scenario())] == [True, True, True, True, False, False]


def test_window_slides_and_reset_is_when_the_oldest_hit_leaves(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 0.5)
        first = await hits(limiter, 9, 2, 3)
        await asyncio.sleep(0.6)
        second = await hits(limiter, 9, 2, 1)
        limiter.close()
        return first, second

    first, second = run(scenario())
    assert [r.admitted for r in first] == [True, True, False]
    assert first[2].retry_after == 1  # 0.5 s rounds up to whole seconds
    assert second[0].admitted and second[0].remaining == 1


def test_a_downgrade_keeps_history_and_waits_for_enough_hits_to_leave(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        await hits(limiter, 5, 10, 10)
        after = await hits(limiter, 5, 3, 1)
        limiter.close()
        return after[0]

    refused = run(scenario())
    assert not refused.admitted and refused.remaining == 0 and refused.retry_after > 0


def test_script_flushed_from_redis_is_sent_again(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        await hits(limiter, 3, 5, 1)
        redis.Redis.from_url(redis_server.url).script_flush()
        again = await hits(limiter, 3, 5, 1)
        limiter.close()
        return again[0]

    result = run(scenario())
    assert result.admitted and result.remaining == 3


def test_redis_down_fails_every_hit_and_recovers_after_restart(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url, connect_timeout=0.3), 60)
        await hits(limiter, 4, 5, 1)
        redis_server.stop()
        with pytest.raises(RedisError):
            await limiter.hit_async(4, 5)
        with pytest.raises(RedisError):
            await limiter.hit_async(4, 5)
        redis_server.start()
        # A restarted Redis lost the window and the script; the limiter reconnects and reloads.
        back = await hits(limiter, 4, 5, 1)
        limiter.close()
        return back[0]

    assert run(scenario()).remaining == 4


def test_window_keys_name_only_the_account(redis_server):
    async def scenario():
        limiter = RateLimiter(RedisWire(redis_server.url), 60)
        await hits(limiter, 42, 5, 2)
        limiter.close()

    run(scenario())
    client = redis.Redis.from_url(redis_server.url)
    assert client.keys("*") == [f"{KEY_PREFIX}42".encode()]
    assert client.llen(f"{KEY_PREFIX}42") == 2
    assert 0 < client.pttl(f"{KEY_PREFIX}42") <= 60_000
