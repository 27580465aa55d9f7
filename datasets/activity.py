"""Daily activity for the synthetic catalogue: how many people looked at each film and series each
day, the signal /3/trending ranks by (edge/routes/trending.py).

A model, not noise: a title draws interest from a week before it comes out (a film's release, a
series' latest episode), most on the day, fading with a half-life of a week for films and three
days for episodes; a popular title keeps a floor of interest whatever its age; weekends draw 30%
more, and each day varies a little. Rows cover the four weeks around the reference date (the day
the sample is dated around), for the titles with any interest then: `activity(kind, id, day, views)`.
People's activity is derived from their titles' at build time (site_gen/discover_index.py).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from marquee_datasets.columns import rng_for

TABLES = ("activity",)
DAYS_BEFORE, DAYS_AFTER = 14, 13  # the days around the reference date that have activity
HALF_LIFE = {"movie": 7.0, "tv": 3.0}
HYPE_DAYS = 7
FLOOR_SHARE = 0.01  # the most popular 1% keep a floor of interest


def activity_table(
    movies: pa.Table, series: pa.Table, episodes: pa.Table, seed: int, reference: np.datetime64
) -> dict[str, pa.Table]:
    rng = rng_for(seed, "activity")
    ref = reference.astype("datetime64[D]")
    days = ref + np.arange(-DAYS_BEFORE, DAYS_AFTER + 1)
    parts = [
        _views(
            "movie",
            np.asarray(movies.column("id")),
            np.asarray(movies.column("popularity")),
            _events(np.asarray(movies.column("id")), np.asarray(movies.column("id")), movies.column("release_date")),
            days,
            rng,
        )
    ]
    parts.append(
        _views(
            "tv",
            np.asarray(series.column("id")),
            np.asarray(series.column("popularity")),
            _events(
                np.asarray(series.column("id")), np.asarray(episodes.column("series_id")), episodes.column("air_date")
            ),
            days,
            rng,
        )
    )
    kind = np.concatenate([np.full(len(p[0]), k, object) for k, p in zip(("movie", "tv"), parts)])
    ids = np.concatenate([p[0] for p in parts])
    day = np.concatenate([p[1] for p in parts])
    views = np.concatenate([p[2] for p in parts])
    return {
        "activity": pa.table(
            {
                "kind": pa.array(kind, pa.string()),
                "id": pa.array(ids, pa.int64()),
                "day": pa.array(day, pa.date32()),
                "views": pa.array(views, pa.int64()),
            }
        )
    }


def _events(ids: np.ndarray, owners: np.ndarray, dates: pa.ChunkedArray) -> list[np.ndarray]:
    """Per title (in `ids` order), the sorted days of its events (releases, episodes)."""
    when = np.asarray(dates.cast(pa.date32()).to_numpy(zero_copy_only=False), dtype="datetime64[D]")
    known = ~np.isnat(when)
    owners, when = owners[known], when[known]
    order = np.lexsort((when, owners))
    owners, when = owners[order], when[order]
    starts = np.searchsorted(owners, ids, side="left")
    ends = np.searchsorted(owners, ids, side="right")
    return [when[a:b] for a, b in zip(starts, ends)]


def _views(
    kind: str,
    ids: np.ndarray,
    popularity: np.ndarray,
    events: list[np.ndarray],
    days: np.ndarray,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    floor = popularity >= np.quantile(popularity, 1 - FLOOR_SHARE) if len(popularity) else popularity > 0
    first, last = days[0] - np.timedelta64(90, "D"), days[-1] + np.timedelta64(HYPE_DAYS, "D")
    out_ids, out_days, out_views = [], [], []
    weekend = np.isin((days.astype(np.int64) + 3) % 7, (5, 6))  # 1970-01-01 was a Thursday
    for i in np.flatnonzero(floor | np.array([bool(((e >= first) & (e <= last)).any()) for e in events])):
        event = events[i]
        if len(event) == 0:  # a popular title with no date: its floor of interest alone
            event = np.array([days[0] - np.timedelta64(100_000, "D")])
        # The latest event on or before each day (or the next one within the hype week before it).
        index = np.searchsorted(event, days, side="right") - 1
        age = np.where(index >= 0, (days - event[np.maximum(index, 0)]).astype(np.int64), 10_000)
        upcoming = np.searchsorted(event, days, side="right")
        ahead = np.where(
            upcoming < len(event), (event[np.minimum(upcoming, len(event) - 1)] - days).astype(np.int64), 10_000
        )
        buzz = np.where(age < 10_000, np.power(0.5, age / HALF_LIFE[kind]), 0.0)
        buzz = np.maximum(buzz, np.where(ahead <= HYPE_DAYS, 0.5 * (1 - ahead / (HYPE_DAYS + 1)), 0.0))
        interest = popularity[i] * (buzz + (0.05 if floor[i] else 0.0))
        views = np.floor(interest * 100 * np.where(weekend, 1.3, 1.0) * rng.lognormal(0, 0.25, len(days)))
        keep = views >= 1
        out_ids.append(np.full(int(keep.sum()), ids[i]))
        out_days.append(days[keep])
        out_views.append(views[keep].astype(np.int64))
    if not out_ids:
        return np.array([], np.int64), np.array([], "datetime64[D]"), np.array([], np.int64)
    return np.concatenate(out_ids), np.concatenate(out_days), np.concatenate(out_views)
