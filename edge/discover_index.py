"""Pages of a release's discover index (site_gen/discover_index.py writes it, its format is there).

A query is bitmaps: facet values ANDed (a pipe ORs them), exclusions subtracted, ranges read from a
column's sorted values as a slice of its ranks. The matches are popularity ranks, so a page in
popularity order is a slice of the bitmap. Another order walks the column's sorted ranks and keeps
those that match, or, when the matches are few, sorts just them by their place in that order:
whichever looks at fewer entities ((start + page) × N ÷ matches against matches).
"""

from __future__ import annotations

import bisect
import functools
import heapq
import sqlite3
from array import array
from dataclasses import dataclass
from pathlib import Path

from pyroaring import BitMap

EMPTY = BitMap()
MMAP_BYTES = 1 << 40  # the whole file: the answer workers share its pages
WALK_CHUNK = 2048


@dataclass(frozen=True)
class Column:
    valued: int  # how many entities have a value: the first `valued` of `ranks`
    values: array | None  # float64, ascending, of those (numbers and days; None for texts)
    ranks: array  # ranks ordered by (value, id), those without a value last
    positions: array | None  # rank -> place in `ranks` (sortable columns)


class DiscoverIndex:
    """One release's discover index, opened read-only (a published release never changes)."""

    def __init__(self, path: Path | str) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        self.con.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        meta = dict(self.con.execute("SELECT key, value FROM meta"))
        self.counts = {key.split(":", 1)[1]: int(value) for key, value in meta.items() if key.startswith("count:")}
        self.certifications = {key.split(":", 1)[1]: value.split("\n") for key, value in meta.items()
                               if key.startswith("certifications:")}
        self.facet = functools.lru_cache(maxsize=20_000)(self._facet)
        self.column = functools.lru_cache(maxsize=1_000)(self._column)
        self.everything = functools.lru_cache(maxsize=None)(lambda kind: BitMap(range(self.counts[kind])))

    def close(self) -> None:
        self.con.close()

    def _facet(self, kind: str, facet: str) -> BitMap:
        row = self.con.execute("SELECT ranks FROM facets WHERE kind = ? AND facet = ?", (kind, facet)).fetchone()
        return BitMap.deserialize(row[0]) if row else EMPTY

    def _column(self, kind: str, name: str) -> Column | None:
        row = self.con.execute('SELECT valued, "values", ranks, positions FROM columns WHERE kind = ? AND name = ?',
                               (kind, name)).fetchone()
        if row is None:
            return None
        valued, values, ranks, positions = row
        return Column(valued, _array("q" if name == "id" else "d", values), _array("I", ranks), _array("I", positions))

    def activity(self, kind: str, first_day: int, last_day: int) -> list[tuple[int, int]]:
        """(id, views) of every `kind` with views from `first_day` to `last_day` (days since 1970), the
        most viewed first (ties by id); empty when the catalogue has no activity then."""
        return self.con.execute("SELECT id, sum(views) AS total FROM activity WHERE kind = ? AND day BETWEEN ? AND ? "
                                "GROUP BY id ORDER BY total DESC, id", (kind, first_day, last_day)).fetchall()

    def regional_dates(self, ids: list[int], region: str) -> dict[int, str]:
        """The release date in `region` of each film of `ids` released there."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self.con.execute(f"SELECT id, day FROM regional_releases WHERE region = ? AND id IN ({marks})",
                                     (region, *ids)).fetchall())

    def ids(self, kind: str, ranks: list[int]) -> list[int]:
        by_rank = self.column(kind, "id")
        return [int(by_rank.values[r]) for r in ranks] if by_rank else []

    def between(self, kind: str, name: str, low: float | None, high: float | None) -> BitMap:
        """The ranks whose value of column `name` is within [low, high] (either may be open)."""
        column = self.column(kind, name)
        if column is None or column.values is None:
            return EMPTY
        start = 0 if low is None else bisect.bisect_left(column.values, low)
        end = column.valued if high is None else bisect.bisect_right(column.values, high)
        return BitMap(column.ranks[start:end]) if start < end else EMPTY

    def page(self, kind: str, matches: BitMap, order: str, descending: bool, start: int, count: int) -> list[int]:
        """Ranks of matches[start:start+count] in `order` ("popularity" or a sortable column)."""
        total = len(matches)
        if start >= total:
            return []
        end = min(start + count, total)
        if order == "popularity":
            if not descending:  # the least popular first: from the end of the bitmap
                return list(reversed(list(matches[total - end:total - start])))
            return list(matches[start:end])
        column = self.column(kind, order)
        valued = column.valued
        wanted = end
        if total * total <= wanted * self.counts[kind]:  # few matches: sort them by their place
            positions = column.positions
            if descending:
                keyed = ((valued - 1 - p if p < valued else p, r) for r in matches for p in (positions[r],))
            else:
                keyed = ((positions[r], r) for r in matches)
            return [r for _, r in heapq.nsmallest(wanted, keyed)][start:end]
        found: list[int] = []
        for chunk in _walk(column.ranks, valued, descending):
            hits = BitMap(chunk) & matches  # in C; only a chunk with matches is looked at in Python
            if hits:
                found.extend(r for r in chunk if r in hits)
                if len(found) >= wanted:
                    break
        return found[start:end]


def show_regional_dates(index: DiscoverIndex, items: list[dict], region: str) -> None:
    """`region` as TMDB's presentation filter: each film item shows its release date in that country
    (ISO 3166-1, upper case) where it has one, else its primary one."""
    dates = index.regional_dates([item["id"] for item in items], region)
    for item in items:
        item["release_date"] = dates.get(item["id"], item.get("release_date"))


def _walk(ranks: array, valued: int, descending: bool):
    """The column's ranks a chunk at a time: those with a value in order (reversed for descending),
    then those without one."""
    if descending:
        for stop in range(valued, 0, -WALK_CHUNK):
            chunk = ranks[max(0, stop - WALK_CHUNK):stop]
            chunk.reverse()
            yield chunk
    else:
        for begin in range(0, valued, WALK_CHUNK):
            yield ranks[begin:min(begin + WALK_CHUNK, valued)]
    for begin in range(valued, len(ranks), WALK_CHUNK):
        yield ranks[begin:begin + WALK_CHUNK]


def _array(typecode: str, blob: bytes | None) -> array | None:
    if blob is None:
        return None
    out = array(typecode)
    out.frombytes(blob)
    return out
