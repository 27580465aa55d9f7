"""control/services.py: the ports handed to services come from below the kernel's ephemeral range,
a slice for each of the suite's workers, never the same one twice in a row."""

from __future__ import annotations

import socket
from pathlib import Path

from control import services


def test_ports_are_below_the_ephemeral_range_in_a_slice_a_worker(monkeypatch):
    ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    slices = {}
    for worker in ("gw0", "gw1", "gw2"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        slices[worker] = services._port_slice()
        assert services.PORT_FLOOR <= slices[worker].start and slices[worker].stop <= ephemeral
    assert not set(slices["gw0"]) & set(slices["gw1"]) and not set(slices["gw1"]) & set(slices["gw2"])
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    monkeypatch.setattr(services, "_last_port", None)
    first, second = services.free_port(), services.free_port()
    assert first in slices["gw1"] and second in slices["gw1"] and first != second
    # A port something listens on is passed over.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", second + 1))
        taken.listen()
        assert services.free_port() not in (second, second + 1)
