"""A stack never outlives the process that started it (issue 31, part 4): a test run or `marquee
serve` killed half way leaves no redis-server, nginx or edge behind (control/services.py `stop_with`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from marquee.settings import PROJECT_ROOT
from tests.e2e.conftest import eventually

pytestmark = pytest.mark.e2e

STARTER = textwrap.dedent("""
    import sys
    from control.services import Stack, free_port
    from marquee.settings import from_env

    settings = from_env({"MARQUEE_HOME": sys.argv[1], "MARQUEE_API_PORT": str(free_port()),
                         "MARQUEE_IMAGE_PORT": str(free_port()), "MARQUEE_ADMIN_PORT": str(free_port())})
    stack = Stack(settings).start()
    print(" ".join(str(proc.pid) for _, proc in stack.procs), flush=True)
    sys.stdin.read()  # until it is killed
""")


def running(pid: int) -> bool:
    """Alive and not a zombie waiting for a parent that is gone."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            pass
    return found


def test_a_stack_stops_when_the_process_that_started_it_is_killed(tmp_path_factory):
    home = tmp_path_factory.mktemp("orphans")  # short: the stack's sockets live under it
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER, str(home)],
        cwd=PROJECT_ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    stack: list[int] = []
    try:
        pids = [int(pid) for pid in starter.stdout.readline().split()]
        assert len(pids) == 3 and all(running(pid) for pid in pids)  # redis-server, the edge, nginx
        stack = pids + [child for pid in pids for child in children(pid)]  # answer workers, nginx's workers
        assert len(stack) > 3
        starter.send_signal(signal.SIGKILL)  # no clean-up of its own runs
        starter.wait()
        eventually(lambda: not any(running(pid) for pid in stack), timeout=15)
    finally:
        if starter.poll() is None:
            starter.kill()
        for pid in stack:  # should the test fail, what it left behind goes with it
            if running(pid):
                os.kill(pid, signal.SIGKILL)
