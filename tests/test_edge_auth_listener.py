"""The auth listener's wire format and the key-check decisions it answers with."""

from __future__ import annotations

import asyncio

import pytest

from edge import errors
from edge.auth_listener import AuthProtocol, format_answer, parse_request
from edge.gate import Decision, Gate, key_from
from edge.ratelimit import WindowStats
from marquee.registry import Registry, RegistrySnapshot


def test_key_from_prefers_the_query_parameter():
    assert key_from("a" * 32, "Bearer " + "b" * 32) == "a" * 32
    assert key_from(None, "bearer " + "b" * 32) == "b" * 32
    assert key_from(None, "Basic xyz") is None
    assert key_from(None, None) is None


def test_parse_request_reads_only_the_two_key_headers():
    head = b"GET /_auth HTTP/1.1\r\nHost: edge\r\nX-Marquee-Api-Key: abc\r\nAuthorization: Bearer def"
    assert parse_request(head) == ("abc", "Bearer def")
    assert parse_request(b"GET /_auth HTTP/1.1\r\nX-Marquee-Api-Key: \r\nAuthorization: ") == (None, None)
    assert parse_request(b"GET /_auth HTTP/1.1\r\nx-marquee-api-key: abc") == ("abc", None)
    assert parse_request(b"GET /_auth HTTP/1.1\r\nAUTHORIZATION: Bearer x\r\nHost: e") == (None, "Bearer x")


def test_answers_tell_nginx_the_real_status_and_body():
    admitted = format_answer(Decision(None, {"X-RateLimit-Limit": "20"}))
    assert admitted == b"HTTP/1.1 204 No Content\r\nX-RateLimit-Limit: 20\r\n\r\n"
    denied = format_answer(Decision(errors.rate_limited(20), {"Retry-After": "3"})).decode()
    assert denied.startswith("HTTP/1.1 401 Unauthorized\r\n")
    assert "X-Marquee-Status: 429\r\n" in denied and "Retry-After: 3\r\n" in denied
    assert '"status_code":25' in denied and denied.endswith("\r\n\r\n")


class FakeLimiter:
    """Holds hits until the test answers them, to check the answers keep request order."""

    def __init__(self):
        self.waiting = []

    def hit(self, account_id, limit, on_done):
        self.waiting.append((limit, on_done))


class Transport:
    def __init__(self):
        self.written = []

    def write(self, data):
        self.written.append(data)

    def close(self):
        self.written.append(b"<closed>")


@pytest.fixture
def gate_and_key(tmp_path):
    reg = Registry(tmp_path / "r.sqlite3", {"free": 2})
    reg.create_account("acme", "free")
    _, key = reg.create_key("acme")
    reg.close()
    return Gate(RegistrySnapshot(tmp_path / "r.sqlite3", {"free": 2}), FakeLimiter(), "refuse"), key


def test_answers_keep_request_order_when_redis_answers_later(gate_and_key):
    gate, key = gate_and_key
    protocol, transport = AuthProtocol(gate), Transport()
    protocol.connection_made(transport)
    protocol.data_received(f"GET /_auth HTTP/1.1\r\nX-Marquee-Api-Key: {key}\r\n\r\n".encode()
                           + b"GET /_auth HTTP/1.1\r\nX-Marquee-Api-Key: nope\r\n\r\n")
    assert transport.written == []  # the invalid key's answer waits behind the pending one
    limit, on_done = gate.limiter.waiting.pop()
    on_done(WindowStats(True, limit, 1, 1_800_000_000, 0))
    assert transport.written[0].startswith(b"HTTP/1.1 204")
    assert b"X-Marquee-Status: 401" in transport.written[1]


def test_redis_errors_follow_the_policy(gate_and_key):
    from redis.exceptions import ConnectionError

    gate, key = gate_and_key
    grant = gate.check_key(key)
    refused = gate.settle(grant, ConnectionError("down"))
    assert refused.error is errors.SERVICE_OFFLINE and refused.headers["Retry-After"] == "5"
    gate.redis_down_policy = "admit"
    admitted = gate.settle(grant, ConnectionError("down"))
    assert admitted.allowed and gate.redis_down == {"refused": 1, "admitted": 1}


def test_requests_other_than_get_or_oversized_heads_are_refused(gate_and_key):
    gate, _ = gate_and_key
    for data in (b"POST /_auth HTTP/1.1\r\n\r\n", b"G" * 17000):
        protocol, transport = AuthProtocol(gate), Transport()
        protocol.connection_made(transport)
        protocol.data_received(data)
        assert transport.written[0].startswith(b"HTTP/1.1 400") and transport.written[-1] == b"<closed>"


def test_check_key_decisions(gate_and_key, tmp_path):
    gate, key = gate_and_key
    assert gate.check_key(None).error is errors.INVALID_KEY
    assert gate.check_key("x" * 32).error is errors.INVALID_KEY
    assert gate.check_key("0" * 32).error is errors.INVALID_KEY
    assert gate.check_key(key).limit == 2
