"""Two front ends (nginx + edge each, on their own ports) against one Redis and one registry, as
docs/deployment.md lays out a fleet: one window per account and one key state across both."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.e2e.conftest import assert_tmdb_error

pytestmark = pytest.mark.e2e

WINDOW = 4.0  # a short window (MARQUEE_RATE_WINDOW_SECONDS) tests the same sliding rule as 60 s, in seconds
FREE = 20


@pytest.fixture(scope="module")
def fleet(start_stack):
    first = start_stack(MARQUEE_PLANS=f"free={FREE},pro=120", MARQUEE_RATE_WINDOW_SECONDS=str(WINDOW))
    second = start_stack(
        MARQUEE_PLANS=f"free={FREE},pro=120",
        MARQUEE_RATE_WINDOW_SECONDS=str(WINDOW),
        MARQUEE_REGISTRY_PATH=str(first.settings.registry_path),
        MARQUEE_REDIS_URL=first.settings.redis_url,
    )
    assert "redis" not in second.stack.alive()  # it uses the first one's Redis
    return first, second


def test_a_key_deleted_once_is_refused_by_both_front_ends_when_the_command_returns(fleet):
    first, second = fleet
    first.cli("accounts", "create", "fleet-keys", "--plan", "pro")
    key = first.new_key("fleet-keys", label="k")
    assert [node.get("/3/configuration", key).status_code for node in fleet] == [200, 200]
    assert second.cli("keys", "suspend", second.key_id("fleet-keys", "k")).exit_code == 0
    for node in fleet:
        assert_tmdb_error(node.get("/3/configuration", key), 401, 10)
    assert first.cli("keys", "unsuspend", first.key_id("fleet-keys", "k")).exit_code == 0
    assert first.cli("keys", "delete", first.key_id("fleet-keys", "k")).exit_code == 0
    for node in fleet:
        assert_tmdb_error(node.get("/3/configuration", key), 401, 7)


def test_a_free_account_hammered_through_both_past_its_window_gets_at_most_its_plan_in_any_window(fleet):
    first, second = fleet
    key = first.account("fleet-free", "free")
    admitted: list[float] = []  # when each admitted request was sent
    refused = [0]
    stop = time.monotonic() + WINDOW + 2.0

    def hammer(node) -> None:
        with httpx.Client(base_url=node.settings.api_base_url, timeout=10) as client:
            while time.monotonic() < stop:
                sent = time.monotonic()
                status = client.get("/3/configuration", params={"api_key": key}).status_code
                if status == 200:
                    admitted.append(sent)
                else:
                    assert status == 429
                    refused[0] += 1
                time.sleep(0.05)

    threads = [threading.Thread(target=hammer, args=(node,)) for node in fleet for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WINDOW + 20)
    admitted.sort()
    worst = max(sum(1 for t in admitted if start <= t < start + WINDOW - 0.5) for start in admitted)
    print(f"fleet: {len(admitted)} admitted, {refused[0]} refused over {WINDOW + 2:.0f} s; worst window {worst}")
    assert worst == FREE  # never more, and the plan's full rate was reached
    assert refused[0] > 100
    # The first 20 leave the window after WINDOW seconds: some of the last 2 s are admitted again.
    assert FREE < len(admitted) <= 2 * FREE
