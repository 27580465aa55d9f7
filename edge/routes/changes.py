"""What changed, from the release's change log (site_gen/changes.py writes it, its format is there):

- /3/movie/changes, /3/tv/changes, /3/person/changes: the ids changed in the range, 100 a page, each
  with `adult`, the most recently changed first;
- /3/movie/{id}/changes, /3/tv/{id}/changes, /3/person/{id}/changes, /3/tv/season/{season_id}/changes
  and /3/tv/episode/{episode_id}/changes: `{"changes": [{"key", "items"}]}` in TMDB's shape.

`start_date` and `end_date` (YYYY-MM-DD, whole UTC days) give the range, at most 14 days (else
422/20, a bad date 400/23); without them, the last 24 hours, as at TMDB.
"""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson

from edge import errors
from edge.content import ContentError, list_page, page_number
from edge.routes.parameters import MAX_ID, day
from edge.routes.route import Context, Route
from marquee.artefacts import CHANGES

PAGE = 100
MAX_DAYS = 14
INVALID_RANGE = errors.TmdbError(422, 20, "Invalid date range: Should be a range no longer than 14 days.")


class ChangeLog:
    """One release's change log, opened read-only."""

    def __init__(self, path: Path | str) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)

    def close(self) -> None:
        self.con.close()

    def changed(self, kind: str, start: int, end: int) -> list[tuple[int, bool]]:
        return [
            (i, bool(adult))
            for i, adult, _ in self.con.execute(
                "SELECT c.id, coalesce(e.adult, 0), max(c.time) AS last FROM changes c LEFT JOIN entities e "
                "ON e.kind = c.kind AND e.id = c.id WHERE c.kind = ? AND c.time >= ? AND c.time < ? "
                "GROUP BY c.id, e.adult ORDER BY last DESC, c.id",
                (kind, start, end),
            )
        ]

    def of(self, kind: str, entity: int, start: int, end: int) -> list[tuple[str, str]]:
        return self.con.execute(
            "SELECT key, item FROM changes WHERE kind = ? AND id = ? AND time >= ? AND time < ? ORDER BY key, time",
            (kind, entity, start, end),
        ).fetchall()


def now() -> float:
    return time.time()


def window(params: dict[str, str]) -> tuple[int, int]:
    """[start, end) in Unix seconds: whole UTC days from start_date to end_date, or the last 24 hours."""
    first, last = day(params, "start_date"), day(params, "end_date")
    if first is None and last is None:
        end = int(now()) + 1
        return end - 86400, end
    if first is None:
        first = last - timedelta(days=1)
    if last is None:
        last = min(first + timedelta(days=1), datetime.now(UTC).date())
    if last < first or (last - first).days > MAX_DAYS:
        raise ContentError(INVALID_RANGE)
    midnight = datetime.combine(first, datetime.min.time(), UTC)
    return int(midnight.timestamp()), int((midnight + timedelta(days=(last - first).days + 1)).timestamp())


def log_of(context: Context) -> ChangeLog:
    return context.required(CHANGES)


def changed_ids(context: Context, path: str, params: dict[str, str]) -> bytes:
    kind = path.strip("/").split("/")[1]
    page = page_number(params.get("page"))
    start, end = window(params)
    changed = log_of(context).changed(kind, start, end)
    results = [{"id": i, "adult": adult} for i, adult in changed[(page - 1) * PAGE : page * PAGE]]
    return orjson.dumps(list_page(page, results, len(changed), PAGE))


def item_changes(context: Context, path: str, params: dict[str, str]) -> bytes:
    parts = path.strip("/").split("/")
    kind, entity = (parts[2], int(parts[3])) if parts[2] in ("season", "episode") else (parts[1], int(parts[2]))
    start, end = window(params)
    grouped: dict[str, list] = {}
    if entity > MAX_ID:
        return orjson.dumps({"changes": []})
    for key, item in log_of(context).of(kind, entity, start, end):
        grouped.setdefault(key, []).append(orjson.loads(item))
    return orjson.dumps({"changes": [{"key": key, "items": items} for key, items in grouped.items()]})


# fmt: off
ROUTES = [
    Route("changes", r"^/3/(movie|tv|person)/changes/?$", changed_ids, cacheable=True, apart=True,
          cache_control="lists"),
    Route("item_changes", r"^/3/((movie|tv|person)|tv/(season|episode))/[0-9]+/changes/?$", item_changes,
          cacheable=True, apart=True, cache_control="lists"),
]
# fmt: on
