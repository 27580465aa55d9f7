"""Pages of a release's discover index (site_gen/discover_index.py writes it, its format is there).

A query is bitmaps: facet values ANDed (a pipe ORs them), exclusions subtracted, ranges read from a
column's sorted values as a slice of its ranks. The matches are popularity ranks, so a page in
popularity order is a slice of the bitmap. Another order walks the column's sorted ranks and keeps
those that match, or, when the matches are few, sorts just them by their place in that order:
whichever looks at fewer entities ((start + page) × N ÷ matches against matches).

A column's arrays are views of the release's columns file (marquee/discover_columns.py), mapped,
so the answer workers share their pages. A large column (CUT_FROM entities or more) comes with the
bitmaps of slices of its sorted ranks, made by the build: a sortable column's are kept cumulatively
(`prefixes`: the first c entities in its order), another's (several values an entity, a film's
release dates) slice by slice (`buckets`). A range is then the difference of two prefixes (or the
union of the buckets inside it) and two slices at its ends, and a page in the column's order is
walked from the largest prefix that holds no more matches than the page's start, not from the
column's first entity. At a million films a range of half of them was a bitmap made from 500,000
ranks, ~4 ms: a third of the time of cold answers (docs/benchmarks.md, session 33).
"""

from __future__ import annotations

import bisect
import functools
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pyroaring import BitMap

from edge.caches import READERS, IndexCaches, Loaded, bitmap_bytes
from marquee import discover_columns
from marquee.artefacts import DISCOVER_COLUMNS, MissingArtefact
from marquee.discover_columns import bitmap

EMPTY = BitMap()
MMAP_BYTES = 1 << 40  # the whole file: the answer workers share its pages
WALK_CHUNK = 2048


@dataclass(frozen=True)
class Column:
    valued: int  # how many entities have a value: the first `valued` of `ranks`
    values: np.ndarray | None  # float64, ascending, of those (numbers and days; None for texts)
    ranks: np.ndarray  # uint32, ranks ordered by (value, id), those without a value last
    positions: np.ndarray | None  # uint32, rank -> place in `ranks` (sortable columns)
    # A cut column: places in `ranks` where its slices begin and end, from 0 to its length; a
    # sortable one's BitMap(ranks[:cut]) for each, another's the slice that ends at each.
    cuts: list[int] = field(default_factory=list)
    prefixes: list[BitMap] = field(default_factory=list)
    buckets: list[BitMap] = field(default_factory=list)

    def slice(self, start: int, end: int) -> BitMap:
        """The ranks at places start..end-1 of `ranks`."""
        cuts = self.cuts
        first = bisect.bisect_left(cuts, start)  # the first cut at or after start
        last = bisect.bisect_right(cuts, end) - 1  # the last one at or before end
        if first >= last:  # within a slice (or uncut): made from the ranks themselves
            return bitmap(self.ranks[start:end])
        if self.prefixes:
            found = self.prefixes[last] - self.prefixes[first]
        else:
            found = BitMap.union(*self.buckets[first + 1 : last + 1])
        if start < cuts[first]:
            found |= bitmap(self.ranks[start : cuts[first]])
        if cuts[last] < end:
            found |= bitmap(self.ranks[cuts[last] : end])
        return found

    def first_in_order(self, descending: bool) -> Iterator[tuple[int, BitMap]]:
        """(n, the first n entities in the column's order) at each cut of a sortable cut column, n
        ascending. Descending, those with a value come from the largest down, then those without
        in ascending order (as `_walk` and the sort of few matches have them)."""
        if not descending or self.valued == 0:
            yield from zip(self.cuts[1:], self.prefixes[1:])
            return
        at = self.cuts.index(self.valued)
        valued = self.prefixes[at]
        for i in range(at - 1, -1, -1):  # made as asked: a page rarely needs more than the first
            yield self.valued - self.cuts[i], valued - self.prefixes[i]
        yield from zip(self.cuts[at + 1 :], self.prefixes[at + 1 :])


def column_of(arrays: discover_columns.Arrays, valued: int, sortable: bool) -> Column:
    """A Column of what the columns file holds; a sortable column's slices made prefixes."""
    if not arrays.cuts or not sortable:
        return Column(
            valued,
            arrays.values,
            arrays.ranks,
            arrays.positions,
            arrays.cuts,
            buckets=[EMPTY, *arrays.slices] if arrays.cuts else [],
        )
    prefixes = [EMPTY]
    for piece in arrays.slices:
        prefixes.append(prefixes[-1] | piece)
    return Column(valued, arrays.values, arrays.ranks, arrays.positions, arrays.cuts, prefixes=prefixes)


class DiscoverIndex:
    """One release's discover index, opened read-only (a published release never changes)."""

    def __init__(self, path: Path | str, caches: IndexCaches | None = None) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        self.con.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        meta = dict(self.con.execute("SELECT key, value FROM meta"))
        if meta.get("format") != discover_columns.FORMAT:
            self.con.close()
            raise MissingArtefact(
                f"{path}: a discover index of format {meta.get('format')}, not "
                f"{discover_columns.FORMAT}: build the release again"
            )
        self.data = discover_columns.open_file(Path(path).with_name(DISCOVER_COLUMNS))
        self.counts = {key.split(":", 1)[1]: int(value) for key, value in meta.items() if key.startswith("count:")}
        self.certifications = {
            key.split(":", 1)[1]: value.split("\n") for key, value in meta.items() if key.startswith("certifications:")
        }
        caches = caches if caches is not None else IndexCaches()
        reader = next(READERS)
        self.facet = Loaded(caches["discover facets"], reader, self._facet)
        self.column = Loaded(caches["discover columns"], reader, self._column)
        self.released = Loaded(caches["discover facets"], reader, self._released)  # by region
        self.everything = functools.lru_cache(maxsize=None)(lambda kind: BitMap(range(self.counts[kind])))

    def close(self) -> None:
        self.column.forget()  # its arrays are views of the mapped file
        self.con.close()
        try:
            self.data.close()
        except (AttributeError, BufferError):  # bytes; or a view of it still held (an answer in flight)
            pass

    def _facet(self, kind: str, facet: str) -> tuple[BitMap, int]:
        row = self.con.execute("SELECT ranks FROM facets WHERE kind = ? AND facet = ?", (kind, facet)).fetchone()
        return (BitMap.deserialize(row[0]), len(row[0])) if row else (EMPTY, 0)

    def _column(self, kind: str, name: str) -> tuple[Column | None, int]:
        """A column and what it holds of its own (its bitmaps: its arrays are the mapped file's)."""
        row = self.con.execute(
            'SELECT sortable, valued, length, "numeric", at, cuts, slices FROM columns WHERE kind = ? AND name = ?',
            (kind, name),
        ).fetchone()
        if row is None:
            return None, 0
        sortable, valued = bool(row[0]), row[1]
        column = column_of(
            discover_columns.read(self.data, self.counts[kind], name, sortable, *row[1:]), valued, sortable
        )
        return column, sum(map(bitmap_bytes, column.prefixes or column.buckets))

    def activity(self, kind: str, first_day: int, last_day: int) -> list[tuple[int, int]]:
        """(id, views) of every `kind` with views from `first_day` to `last_day` (days since 1970), the
        most viewed first (ties by id); empty when the catalogue has no activity then."""
        return self.con.execute(
            "SELECT id, sum(views) AS total FROM activity WHERE kind = ? AND day BETWEEN ? AND ? "
            "GROUP BY id ORDER BY total DESC, id",
            (kind, first_day, last_day),
        ).fetchall()

    def regional_dates(self, ids: list[int], region: str) -> dict[int, str]:
        """The release date in `region` of each film of `ids` released there."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(
            self.con.execute(
                f"SELECT id, day FROM regional_releases WHERE region = ? AND id IN ({marks})", (region, *ids)
            ).fetchall()
        )

    def ids(self, kind: str, ranks: list[int]) -> list[int]:
        by_rank = self.column(kind, "id")
        return by_rank.values[np.asarray(ranks, np.int64)].tolist() if by_rank and ranks else []

    def between(self, kind: str, name: str, low: float | None, high: float | None) -> BitMap:
        """The ranks whose value of column `name` is within [low, high] (either may be open)."""
        column = self.column(kind, name)
        if column is None or column.values is None:
            return EMPTY
        start = 0 if low is None else int(np.searchsorted(column.values, low, "left"))
        end = column.valued if high is None else int(np.searchsorted(column.values, high, "right"))
        return column.slice(start, end) if start < end else EMPTY

    def page(self, kind: str, matches: BitMap, order: str, descending: bool, start: int, count: int) -> list[int]:
        """Ranks of matches[start:start+count] in `order` ("popularity" or a sortable column)."""
        total = len(matches)
        if start >= total:
            return []
        end = min(start + count, total)
        if order == "popularity":
            if not descending:  # the least popular first: from the end of the bitmap
                return list(reversed(list(matches[total - end : total - start])))
            return list(matches[start:end])
        column = self.column(kind, order)
        valued = column.valued
        wanted = end
        if total * total <= wanted * self.counts[kind]:  # few matches: sort them by their place
            ranks = np.frombuffer(matches.to_array(), np.uint32)
            places = column.positions[ranks].astype(np.int64)
            if descending:  # those with a value from the last, then the others in order
                places = np.where(places < valued, valued - 1 - places, places)
            return ranks[np.argsort(places, kind="stable")[start:end]].tolist()
        skip, before = _skipped(column, matches, descending, start) if column.prefixes else (0, 0)
        found: list[int] = []
        for chunk in _walk(column.ranks, valued, descending, skip):
            hits = bitmap(chunk) & matches  # in C; only a chunk with matches is looked at in Python
            if hits:
                found.extend(chunk[np.isin(chunk, np.frombuffer(hits.to_array(), np.uint32))].tolist())
                if len(found) >= wanted - before:
                    break
        return found[start - before : end - before]

    def shown_page(self, matches: BitMap, region: str, descending: bool, start: int, count: int) -> list[int] | None:
        """Ranks of films matches[start:start+count] in the order of the release date each shows with
        `region` (show_regional_dates): its date there (the column `release:{region}:shown`) if it
        has one, else its primary one; undated films last; ties by id, as a column's order has them.
        The first start+count of each kind are taken in their own column's order and merged, so a
        page costs about what the same page of one order does. None for an index built without the
        column: then the primary order."""
        shown = self.column("movie", f"release:{region}:shown")
        if shown is None:
            return None
        wanted = start + count
        released = self.released(region)
        here, here_days = _first_matching(shown, matches & released, descending, wanted)
        elsewhere = np.asarray(
            self.page("movie", matches - released, "primary_release_date", descending, 0, wanted), np.int64
        )
        primary = self.column("movie", "primary_release_date")
        places = primary.positions[elsewhere]
        dated = places < primary.valued  # a column's order puts the undated last, in both directions
        ranks = np.concatenate([here, elsewhere[dated]])
        days = np.concatenate([here_days, primary.values[places[dated]]])
        sign = -1 if descending else 1
        order = np.lexsort((sign * self.column("movie", "id").values[ranks], sign * days))
        return np.concatenate([ranks[order], elsewhere[~dated]])[start:wanted].tolist()

    def _released(self, region: str) -> tuple[BitMap, int]:
        """The films with a release date in `region`: those of its `shown` column."""
        shown = self.column("movie", f"release:{region}:shown")
        found = shown.slice(0, shown.valued) if shown is not None and shown.valued else EMPTY
        return found, bitmap_bytes(found)


def _first_matching(column: Column, matches: BitMap, descending: bool, wanted: int) -> tuple[np.ndarray, np.ndarray]:
    """(ranks, values) of the first `wanted` of a column's valued entries that are in `matches`, in its
    order (reversed for descending), a chunk at a time (_spans)."""
    ranks, values, found = [], [], 0
    if matches:
        for begin, end, step in _spans(column.valued, column.valued, descending):
            chunk, days = column.ranks[begin:end][::step], column.values[begin:end][::step]
            hits = bitmap(chunk) & matches
            if hits:
                keep = np.isin(chunk, np.frombuffer(hits.to_array(), np.uint32))
                ranks.append(chunk[keep])
                values.append(days[keep])
                found += len(ranks[-1])
                if found >= wanted:
                    break
    if not ranks:
        return np.array([], np.int64), np.array([], np.float64)
    return np.concatenate(ranks).astype(np.int64)[:wanted], np.concatenate(values)[:wanted]


def show_regional_dates(index: DiscoverIndex, items: list[dict], region: str) -> None:
    """`region` as TMDB's presentation filter: each film item shows its release date in that country
    (ISO 3166-1, upper case) where it has one, else its primary one."""
    dates = index.regional_dates([item["id"] for item in items], region)
    for item in items:
        item["release_date"] = dates.get(item["id"], item.get("release_date"))


def _spans(valued: int, length: int, descending: bool, skip: int = 0) -> Iterator[tuple[int, int, int]]:
    """(begin, end, step) of a column's places a chunk at a time from the `skip`th in its order: those
    with a value in order (step -1: the chunk reversed, for descending), then those without one, up to
    `length`."""
    if descending:
        for stop in range(valued - skip, 0, -WALK_CHUNK):
            yield max(0, stop - WALK_CHUNK), stop, -1
    else:
        for begin in range(skip, valued, WALK_CHUNK):
            yield begin, min(begin + WALK_CHUNK, valued), 1
    for begin in range(max(valued, skip), length, WALK_CHUNK):
        yield begin, min(begin + WALK_CHUNK, length), 1


def _walk(ranks: np.ndarray, valued: int, descending: bool, skip: int = 0) -> Iterator[np.ndarray]:
    """The column's ranks a chunk at a time, in _spans' order."""
    for begin, end, step in _spans(valued, len(ranks), descending, skip):
        yield ranks[begin:end][::step]


def _skipped(column: Column, matches: BitMap, descending: bool, start: int) -> tuple[int, int]:
    """(n, k) for the largest of a cut column's first-n sets that holds k <= start matches: the n
    entities a page from the `start`th match need not walk. (0, 0) for a column not cut."""
    skip = before = 0
    for n, first in column.first_in_order(descending):
        found = first.intersection_cardinality(matches)
        if found > start:
            break
        skip, before = n, found
    return skip, before
