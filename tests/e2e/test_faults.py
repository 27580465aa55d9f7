"""Faults under load: Redis killed, the edge killed, a build that fails half way.

Each keeps the promises that matter to clients: the configured Redis-down policy answers in TMDB's
envelope and no key is lost; nginx keeps serving documents while the edge is away and `marquee
serve` brings the edge back; a failed build leaves the current release serving and nothing behind.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from control.cli import cli
from control.services import free_port
from marquee.packs import Pack
from marquee.settings import to_env
from tests.e2e.conftest import assert_tmdb_error, eventually

pytestmark = pytest.mark.e2e


class Load:
    """Clients sending one request after another in threads, PAUSE apart; every answer is kept with
    its time. Four clients at ~200 requests a second put every moment of a fault under traffic and
    leave the second core to the tests beside this one."""

    PAUSE = 0.02

    def __init__(self, base_url: str, requests: list[tuple[str, dict]], clients: int = 4) -> None:
        self.answers: list[tuple[float, str, httpx.Response]] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(base_url, requests, n)) for n in range(clients)]

    def _run(self, base_url: str, requests: list[tuple[str, dict]], n: int) -> None:
        with httpx.Client(base_url=base_url, timeout=10) as client:
            while not self._stop.is_set():
                path, params = requests[n % len(requests)]
                n += 1
                try:
                    self.answers.append((time.monotonic(), path + str(params), client.get(path, params=params)))
                except httpx.HTTPError as exc:  # a refused connection would be a failure too: keep it
                    self.answers.append((time.monotonic(), path + str(params), exc))
                time.sleep(self.PAUSE)

    def __enter__(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(10)

    def between(self, start: float, end: float) -> list[tuple[str, httpx.Response]]:
        return [(what, answer) for at, what, answer in self.answers if start <= at < end]


def a_movie(release: Path) -> str:
    with Pack(release) as pack:
        return "/" + sorted(n for n in pack.names("3/movie/%.json") if n.count("/") == 2 and n.count(".") == 1)[
            0
        ].removesuffix(".json")


def test_redis_killed_under_load_then_back(start_stack):
    """Each Redis-down policy on a stack of its own, both outages at once: most of each is waiting
    (the keys' export, the outage, the windows counting again), so one after the other took ~21 s."""
    stacks = {
        policy: start_stack(
            MARQUEE_REDIS_DOWN_POLICY=policy, MARQUEE_REGISTRY_POLL_SECONDS="1", MARQUEE_PLANS="free=5,wide=1000000"
        )
        for policy in ("refuse", "admit")
    }
    with ThreadPoolExecutor(len(stacks)) as pool:
        outages = {
            policy: pool.submit(redis_killed_under_load_then_back, stack, policy) for policy, stack in stacks.items()
        }
    for outage in outages.values():
        outage.result()  # its failure raised here, with its traceback (and policy)


def redis_killed_under_load_then_back(stack, policy: str) -> None:
    key = stack.account("survivor", "wide")
    doomed = stack.new_key("survivor", label="doomed")
    stack.exported(doomed)
    movie = a_movie(stack.settings.current_link)
    with Load(
        stack.settings.api_base_url,
        [(movie, {"api_key": key}), (movie, {"api_key": key, "append_to_response": "credits"})],
    ) as load:
        time.sleep(0.5)
        down = time.monotonic()
        stack.stack.process("redis").kill()
        time.sleep(1.0)
        # Key changes while Redis is down are saved; the command says where they stand.
        created = stack.cli("keys", "create", "--account", "survivor", "--label", "born")
        assert created.exit_code == 0 and "could not take it" in created.stderr
        born = created.stdout.strip()
        assert stack.cli("keys", "delete", stack.key_id("survivor", "doomed")).exit_code == 0
        time.sleep(1.5)  # the edge's poll reads them from SQLite for the fallback
        back = time.monotonic()  # answers from here on may already have Redis
        stack.stack.start_redis()
        time.sleep(2.5)
    during = load.between(down + 0.2, back)
    assert during, "no request while Redis was down"
    for what, answer in during:
        assert isinstance(answer, httpx.Response), (what, answer)
        if policy == "refuse":
            assert_tmdb_error(answer, 503, 9)
            assert answer.headers["Retry-After"] == "5"
        else:
            assert answer.status_code == 200 and answer.headers["X-Marquee-Unmetered"] == "1", what
    # Within 2 s of Redis returning, windows count again.
    after = [answer for what, answer in load.between(back + 2.0, back + 2.5)]
    assert after and all(a.status_code == 200 and "X-RateLimit-Remaining" in a.headers for a in after)
    remaining = [int(stack.get(movie, key).headers["X-RateLimit-Remaining"]) for _ in range(2)]
    assert remaining[1] == remaining[0] - 1
    # No key lost, none resurrected: the registry is in Redis again, with the changes made meanwhile.
    assert stack.get("/3/configuration", born).status_code == 200
    assert_tmdb_error(stack.get("/3/configuration", doomed), 401, 7)
    health = stack.client.get("/healthz").json()["redis_down"]
    assert health["refused" if policy == "refuse" else "admitted"] >= len(during) * 0.9


def test_the_edge_killed_under_load_is_started_again_by_marquee_serve(e2e_release: Path, tmp_path_factory):
    home = tmp_path_factory.mktemp("revive")
    (home / "current").symlink_to(e2e_release)
    env = dict(
        os.environ,
        MARQUEE_HOME=str(home),
        MARQUEE_API_PORT=str(free_port()),
        MARQUEE_ADMIN_PORT=str(free_port()),
        MARQUEE_PLANS="pro=1000000",
        MARQUEE_IMAGE_PORT=str(free_port()),
        MARQUEE_IMAGE_DIR=str(e2e_release.parent.parent / "images"),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "control", "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        lines = []
        while not any("Ctrl-C" in line for line in lines) and proc.poll() is None:
            lines.append(proc.stdout.readline())
        key = re.search(r"Demo key \(account demo\): ([0-9a-f]{32})", "".join(lines)).group(1)
        movie = a_movie(e2e_release)
        base = f"http://127.0.0.1:{env['MARQUEE_API_PORT']}"
        static = (movie, {"api_key": key})
        made_by_edge = (movie, {"api_key": key, "append_to_response": "trailers"})

        def made_again(at: float, what: str, answer) -> bool:  # by the edge started again
            return at > killed + 0.5 and "trailers" in what and getattr(answer, "status_code", 0) == 200

        with Load(base, [static, made_by_edge]) as load:
            eventually(lambda: len(load.answers) >= 8)  # under load
            killed = time.monotonic()
            os.kill(int((home / "run" / "edge.pid").read_text()), signal.SIGKILL)
            eventually(lambda: any(made_again(*answer) for answer in list(load.answers)))
            time.sleep(1.0)  # and it stays up
        documents = [a for at, what, a in load.answers if at >= killed and "trailers" not in what]
        edge_answers = [(at, a) for at, what, a in load.answers if at >= killed and "trailers" in what]
        assert documents and all(isinstance(a, httpx.Response) and a.status_code == 200 for a in documents)
        for _, answer in edge_answers:  # while the edge is away: TMDB's 503, never an nginx page
            assert isinstance(answer, httpx.Response)
            if answer.status_code != 200:
                assert_tmdb_error(answer, 503, 9)
        # Refused for less than 5 s, then made by the edge again until the end.
        last_refused = max((at for at, a in edge_answers if a.status_code != 200), default=killed)
        assert last_refused < killed + 5.0
        assert any(at > last_refused and "trailers" in a.json() for at, a in edge_answers)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
    assert "edge stopped unexpectedly and was started again" in out


def test_a_build_that_fails_half_way_leaves_the_current_release_serving_and_nothing_behind(
    start_stack, catalogue_dir, monkeypatch, tmp_path
):
    from site_gen.writer import PackWriter

    # An image store of its own: nothing this test does may reach the session's shared one.
    stack = start_stack(MARQUEE_IMAGE_SIZES="request", MARQUEE_IMAGE_DIR=str(tmp_path / "images"))
    key = stack.account("builder", "pro")
    movie = a_movie(stack.settings.current_link)
    before = (
        sorted(p.name for p in stack.settings.releases_dir.glob("*")) if stack.settings.releases_dir.exists() else []
    )
    calls = [0]
    original = PackWriter.write_batch

    def failing(self, template, batch):
        calls[0] += 1
        if calls[0] == 10:
            raise RuntimeError("injected: rendering failed half way")
        return original(self, template, batch)

    monkeypatch.setattr(PackWriter, "write_batch", failing)
    result = CliRunner().invoke(cli, ["build", "--full", "--catalogue", str(catalogue_dir)], env=to_env(stack.settings))
    assert result.exit_code == 1 and calls[0] == 10, result.output
    assert "build failed, nothing published" in result.output and "injected" in result.output
    assert "Traceback" not in result.output
    after = sorted(p.name for p in stack.settings.releases_dir.glob("*") if not p.name.startswith("."))
    assert after == [n for n in before if not n.startswith(".")]  # no half release
    assert stack.get(movie, key).status_code == 200


def test_a_build_that_fills_the_disk_leaves_nothing_behind(start_stack, catalogue_dir, tmp_path):
    """A small tmpfs as the releases folder: the build runs out of space part way."""
    stack = start_stack(MARQUEE_IMAGE_SIZES="request", MARQUEE_IMAGE_DIR=str(tmp_path / "images"))
    key = stack.account("fuller", "pro")
    releases = stack.settings.releases_dir
    releases.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(releases)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        result = CliRunner().invoke(
            cli, ["build", "--full", "--catalogue", str(catalogue_dir)], env=to_env(stack.settings)
        )
        assert result.exit_code == 1, result.output
        assert "nothing published" in result.output and "Traceback" not in result.output
        assert [p.name for p in releases.iterdir() if not p.name.startswith(".")] == []
        assert stack.get(a_movie(stack.settings.current_link), key).status_code == 200
    finally:
        # Lazy: the failed build's DuckDB may still hold a file there until it is collected.
        subprocess.run(["umount", "-l", str(releases)], check=False)
