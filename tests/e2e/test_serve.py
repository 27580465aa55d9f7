"""`marquee serve` in the foreground: it prints a working demo key and Ctrl-C stops every process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from control.services import free_port

pytestmark = pytest.mark.e2e


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a script's background job inherits it


def test_serve_prints_a_working_key_and_stops_on_ctrl_c(e2e_release: Path, tmp_path_factory):
    home = tmp_path_factory.mktemp("serve")  # short: unix socket paths must fit in 108 bytes
    (home / "current").symlink_to(e2e_release)
    env = dict(
        os.environ,
        MARQUEE_HOME=str(home),
        MARQUEE_API_PORT=str(free_port()),
        MARQUEE_ADMIN_PORT=str(free_port()),
        MARQUEE_IMAGE_PORT=str(free_port()),
        MARQUEE_IMAGE_DIR=str(e2e_release.parent.parent / "images"),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "control", "serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=_ignore_sigint,
    )
    try:
        lines = []
        deadline = time.monotonic() + 60
        while not any("Ctrl-C" in line for line in lines) and time.monotonic() < deadline:
            lines.append(proc.stdout.readline())
        found = re.search(r"Demo key \(account demo\): ([0-9a-f]{32})", "".join(lines))
        assert found, "".join(lines)[-2000:]
        key = found.group(1)
        url = f"http://127.0.0.1:{env['MARQUEE_API_PORT']}/3/configuration"
        assert httpx.get(url, params={"api_key": key}).status_code == 200
        printed = "".join(lines)
        docs = re.search(r"API reference and docs: (\S+)", printed).group(1)
        assert httpx.get(docs).headers["content-type"].startswith("text/html")
        curls = re.findall(r"^  (curl .+)$", printed, re.M)
        assert len(curls) == 3 and all(key in line for line in curls)
        for line in curls:  # each works as printed
            code = subprocess.run(line + " -o /dev/null -w '%{http_code}'", shell=True, capture_output=True, text=True)
            assert code.stdout == "200", (line, code.stdout, code.stderr)
        run = home / "run"
        pids = [int(p.read_text()) for p in run.glob("*.pid")] if run.is_dir() else []
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert "stopping nginx, edge and redis-server" in proc.stdout.read()
        with pytest.raises(httpx.HTTPError):
            httpx.get(url, params={"api_key": key}, timeout=2)
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(30)
