"""edge/discover_index.py on an index written by site_gen/discover_index.py: ranges and pages in a
column's order, from cut columns (bitmaps of slices) as from whole ones, against the same answers
computed from the values themselves."""

from __future__ import annotations

import random
import sqlite3

import duckdb
import numpy as np
import pyarrow as pa
import pytest
from pyroaring import BitMap

from edge import discover_index as reader
from marquee import discover_columns
from marquee.artefacts import DISCOVER_COLUMNS
from site_gen import discover_index as writer

COUNT = 3_000  # films, ranked 0.. by popularity


@pytest.fixture(params=[False, True], ids=["whole", "cut"])
def index(request, tmp_path, monkeypatch):
    """An index of COUNT films: `score`, sortable (a fifth without one, many ties), and `day`, several
    values a film or none; read whole, or cut into 7 slices (as a million films' columns are)."""
    if request.param:
        monkeypatch.setattr(discover_columns, "CUT_FROM", 100)
        monkeypatch.setattr(discover_columns, "CUTS", 7)
    rng = random.Random(3)
    ids = rng.sample(range(1, 1_000_000), COUNT)  # by rank
    scores = {i: round(rng.uniform(0, 10), 1) if rng.random() < 0.8 else None for i in ids}
    days = [(i, rng.randint(0, 400)) for i in ids for _ in range(rng.choice((0, 1, 1, 2, 3)))]
    con = duckdb.connect()
    # From Arrow: DuckDB's executemany takes ~1 ms a row.
    tables = {
        "discover_ranks": pa.table({"id": pa.array(ids, pa.int64()), "rank": pa.array(range(COUNT), pa.int32())}),
        "scores": pa.table({"id": pa.array(scores, pa.int64()), "value": pa.array(scores.values(), pa.float64())}),
        "days": pa.table(
            {"id": pa.array([i for i, _ in days], pa.int64()), "value": pa.array([d for _, d in days], pa.int32())}
        ),
    }
    # A date each film shows with region `XX` (its first release there), for a third of them.
    shown = {i: rng.randint(0, 400) for i in ids if rng.random() < 0.33}
    tables["shown"] = pa.table({"id": pa.array(shown, pa.int64()), "value": pa.array(shown.values(), pa.int32())})
    for name, table in tables.items():
        con.register(f"{name}_arrow", table)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM {name}_arrow")
    path = tmp_path / "discover.sqlite"
    out = sqlite3.connect(path)
    out.executescript(writer.SCHEMA)
    out.execute("INSERT INTO meta VALUES ('count:movie', ?), ('format', ?)", (str(COUNT), discover_columns.FORMAT))
    with open(tmp_path / DISCOVER_COLUMNS, "wb") as handle:
        arrays = discover_columns.Writer(handle)
        columns = (("score", "scores", True), ("day", "days", False), ("primary_release_date", "scores", True),
                   ("release:XX:shown", "shown", False))  # fmt: skip
        for name, table, sortable in columns:
            rows = writer.column_rows(con, f"SELECT id, value FROM {table}")
            writer.write_column(out, arrays, "movie", name, rows, sortable, COUNT)
        by_rank = np.asarray(ids, np.int64)
        writer.insert_column(
            out, "movie", "id", False, COUNT, True, arrays.add(by_rank, np.empty(0, np.uint32), None, COUNT)
        )
    out.commit()
    out.close()
    opened = reader.DiscoverIndex(path)
    assert bool(opened.column("movie", "score").prefixes) == request.param
    assert bool(opened.column("movie", "day").buckets) == request.param
    opened.shown = shown  # for the region test
    yield opened, ids, scores, days
    opened.close()


def test_ranges_are_the_films_with_a_value_within(index):
    opened, ids, scores, days = index
    rank = {i: r for r, i in enumerate(ids)}
    rng = random.Random(5)
    bounds = [(None, None), (None, 3.0), (7.5, None), (0.0, 10.0), (11.0, None)]
    bounds += [tuple(sorted((round(rng.uniform(-1, 11), 1), round(rng.uniform(-1, 11), 1)))) for _ in range(40)]
    for low, high in bounds:
        expected = BitMap(
            rank[i]
            for i, s in scores.items()
            if s is not None and (low is None or s >= low) and (high is None or s <= high)
        )
        assert opened.between("movie", "score", low, high) == expected, (low, high)
        low_day, high_day = (None if low is None else low * 40), (None if high is None else high * 40)
        expected = BitMap(
            rank[i] for i, d in days if (low_day is None or d >= low_day) and (high_day is None or d <= high_day)
        )
        assert opened.between("movie", "day", low_day, high_day) == expected, (low_day, high_day)


def test_pages_in_a_columns_order_as_sorting_the_matches_gives(index):
    """Ascending: by score then id, films without one last (by id); descending: the reverse of the
    scored ones, then those without one (by id), as the whole column's walk has always given them."""
    opened, ids, scores, _ = index
    rng = random.Random(7)
    for _ in range(60):
        density = rng.choice((0.02, 0.3, 0.6, 0.95))
        matches = BitMap(r for r in range(COUNT) if rng.random() < density)
        descending = rng.random() < 0.5
        scored = sorted((scores[ids[r]], ids[r], r) for r in matches if scores[ids[r]] is not None)
        unscored = sorted((ids[r], r) for r in matches if scores[ids[r]] is None)
        order = [r for *_, r in (scored[::-1] if descending else scored)] + [r for _, r in unscored]
        start = rng.choice((0, 0, 20, rng.randrange(len(matches) + 1)))
        count = rng.choice((20, 40))
        assert opened.page("movie", matches, "score", descending, start, count) == order[start : start + count], (
            density,
            descending,
            start,
        )


def test_a_page_by_the_dates_shown_with_a_region_as_sorting_by_them_gives(index):
    """`shown_page`: a film's date in the region where it has one, else its primary date (`score`
    here), undated last by id, ties by id (descending: by id descending); every page of it as
    sorting the matches by those dates gives. A region without the column: None (primary order)."""
    opened, ids, scores, _ = index
    rng = random.Random(11)
    assert opened.shown_page(BitMap(range(COUNT)), "YY", False, 0, 20) is None
    for _ in range(60):
        density = rng.choice((0.0, 0.02, 0.3, 0.95))
        matches = BitMap(r for r in range(COUNT) if rng.random() < density)
        descending = rng.random() < 0.5
        date = {r: opened.shown.get(ids[r], scores[ids[r]]) for r in matches}
        dated = sorted((date[r], ids[r], r) for r in matches if date[r] is not None)
        order = [r for *_, r in (dated[::-1] if descending else dated)]
        order += [r for _, r in sorted((ids[r], r) for r in matches if date[r] is None)]
        start = rng.choice((0, 0, 20, rng.randrange(len(matches) + 1)))
        page = opened.shown_page(matches, "XX", descending, start, 20)
        assert page == order[start : start + 20], (density, descending, start)
