"""The edge's answer workers (edge/answer_workers.py): nginx reaches them directly, searches go on
while one is down, the edge starts it again, and a worker trusts nothing but nginx's gate."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import socket
from pathlib import Path

import pytest

from tests.e2e.conftest import assert_tmdb_error, eventually

pytestmark = pytest.mark.e2e


def workers_of(edge_pid: int) -> dict[int, str]:
    """pid -> socket number of each answer worker the edge started."""
    children = Path(f"/proc/{edge_pid}/task/{edge_pid}/children").read_text().split()
    found = {}
    for pid in map(int, children):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if b"edge.answer_workers" in argv:
            found[pid] = argv[argv.index(b"edge.answer_workers") + 1].decode()
    return found


def raw_get(path: Path, head: str) -> bytes:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(5)
        sock.connect(str(path))
        sock.sendall(head.encode())
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < content_length(answer):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def content_length(answer: bytes) -> int:
    for line in answer.partition(b"\r\n\r\n")[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 0


@pytest.fixture(scope="module")
def two_workers(start_stack):
    return start_stack(MARQUEE_ANSWER_WORKERS="2", MARQUEE_PLANS="pro=1000000")


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_searches_are_spread_over_every_worker(two_workers):
    key = two_workers.account("spread", "pro")
    workers = workers_of(two_workers.stack.process("edge").pid)
    assert sorted(workers.values()) == ["0", "1"]
    assert all(p.exists() for p in two_workers.settings.answer_sockets)
    before = {pid: cpu_ticks(pid) for pid in workers}
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(
                lambda n: two_workers.client.get("/3/search/multi", params={"api_key": key, "query": f"the {n} x"}),
                range(300),
            )
        )
    assert all(r.status_code == 200 for r in answers)
    assert all(cpu_ticks(pid) > before[pid] for pid in before), before


def test_a_killed_worker_is_left_out_then_started_again(two_workers):
    key = two_workers.account("workers", "pro")
    edge = two_workers.stack.process("edge").pid
    victim = next(pid for pid, number in workers_of(edge).items() if number == "0")
    os.kill(victim, signal.SIGKILL)
    # nginx leaves the dead socket out and the other worker answers: not one search fails.
    for n in range(30):
        response = two_workers.client.get("/3/search/movie", params={"api_key": key, "query": f"a{n}x"})
        assert response.status_code == 200, response.text
    eventually(lambda: sorted(workers_of(edge).values()) == ["0", "1"] and victim not in workers_of(edge), timeout=10)
    answers = [two_workers.client.get("/3/search/movie", params={"api_key": key, "query": f"b{n}"}) for n in range(10)]
    assert all(r.status_code == 200 for r in answers)
    assert_tmdb_error(two_workers.client.get("/3/search/multi", params={"api_key": "0" * 32, "query": "a"}), 401, 7)


def test_a_worker_answers_only_what_nginx_admitted(two_workers):
    socket_path = two_workers.settings.answer_sockets[1]
    refused = raw_get(socket_path, "GET /3/search/movie?query=a&api_key=x HTTP/1.1\r\nHost: edge\r\n\r\n")
    status, _, body = refused.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 401")
    assert (
        body == b'{"success":false,"status_code":7,"status_message":"Invalid API key: You must be granted a '
        b'valid key.","message":"Invalid API key: You must be granted a valid key."}'
    )
    admitted = raw_get(
        socket_path, "GET /3/search/movie?query=a HTTP/1.1\r\nHost: edge\r\nX-Marquee-Admitted: 40 39 60\r\n\r\n"
    )
    assert admitted.startswith(b"HTTP/1.1 200") and b'"results":[' in admitted
