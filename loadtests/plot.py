"""Throughput and latency over time, as a PNG, from locust's CSV history (`--csv-full-history`).

    .venv/bin/python -m loadtests.plot var/load/locust_stats_history.csv var/load/timeline.png

Locust's HTML report has the same charts, but only as JavaScript: a PNG can be looked at anywhere,
attached to an issue, and compared run against run.
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: the kit runs headless
import matplotlib.pyplot as plt  # noqa: E402

PERCENTILES = ("50%", "95%", "99%")


def _number(text: str) -> float:
    """A history cell; locust writes N/A for a percentile before the first response."""
    try:
        return float(text)
    except ValueError:
        return math.nan


def _per_second(times: list[int], totals: list[float]) -> list[float]:
    """Rates from running totals: what was added since the row before, over the seconds between."""
    rates = [0.0]
    for i in range(1, len(times)):
        rates.append((totals[i] - totals[i - 1]) / max(times[i] - times[i - 1], 1))
    return rates


def read_history(path: Path) -> dict[str, list[float]]:
    """The history's all-requests rows ("Aggregated", one a second) as columns; `seconds` counts
    from the first row.

    Rates come from the running totals, second by second: locust's own Requests/s column is an
    average over the last 10 s, 2 s behind, so a ramp or a stall would show late and smoothed.
    """
    with open(path, newline="") as f:
        rows = [row for row in csv.DictReader(f) if row["Name"] == "Aggregated"]
    if not rows:
        raise ValueError(f"{path}: no rows of aggregated stats (did locust run?)")
    times = [int(row["Timestamp"]) for row in rows]
    columns = {
        "seconds": [t - times[0] for t in times],
        "users": [_number(row["User Count"]) for row in rows],
        "requests/s": _per_second(times, [_number(row["Total Request Count"]) for row in rows]),
        "failures/s": _per_second(times, [_number(row["Total Failure Count"]) for row in rows]),
    }
    # Until locust has a window of responses (its first second or two) it reports a rate of 0 and
    # percentiles of 0 ms, which would be drawn as the fastest answers of the run: leave them out.
    for percentile in PERCENTILES:
        columns[percentile] = [_number(row[percentile]) if _number(row["Requests/s"]) > 0 else math.nan for row in rows]
    return columns


def draw(history: Path, png: Path, title: str = "Marquee under load") -> Path:
    """Requests and failures a second above, p50/p95/p99 latency below, users on the right."""
    data = read_history(history)
    seconds = data["seconds"]
    figure, (rates, latency) = plt.subplots(2, 1, sharex=True, figsize=(10, 7), constrained_layout=True)
    figure.suptitle(title)
    rates.plot(seconds, data["requests/s"], label="requests/s", color="tab:blue")
    rates.plot(seconds, data["failures/s"], label="failures/s", color="tab:red")
    rates.set_ylabel("per second")
    rates.set_ylim(bottom=0)
    users = rates.twinx()
    users.plot(seconds, data["users"], label="users", color="grey", linestyle="--")
    users.set_ylabel("users")
    users.set_ylim(bottom=0)
    handles = rates.get_legend_handles_labels()[0] + users.get_legend_handles_labels()[0]
    rates.legend(handles=handles, loc="upper left")
    for percentile, colour in zip(PERCENTILES, ("tab:green", "tab:orange", "tab:purple")):
        latency.plot(seconds, data[percentile], label=f"p{percentile.rstrip('%')}", color=colour)
    # Locust's percentiles here are of the last 10 s of responses, not of the whole run so far.
    latency.set_ylabel("response time, ms (last 10 s)")
    latency.set_xlabel("seconds since the first users started")
    latency.set_ylim(bottom=0)
    latency.legend(loc="upper left")
    for axes in (rates, latency):
        axes.grid(alpha=0.3)
    png.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(png, dpi=100)
    plt.close(figure)
    return png


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m loadtests.plot HISTORY_CSV OUTPUT_PNG")
    print(draw(Path(sys.argv[1]), Path(sys.argv[2])))
