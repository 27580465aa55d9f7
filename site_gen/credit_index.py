"""The release's credit index, `credits.sqlite` (marquee/artefacts.py): what /3/credit/{credit_id}
answers, a few dozen bytes a credit instead of a document each. edge/credit_index.py reads it.

Why not documents: a credit document was a composite of ~330 bytes (its title's and person's items
spliced in, marquee/packs.py), and there is one per credit: 21% of the pack's rows at 20k films,
~28M rows at 1M, for a path clients rarely call. What a credit has of its own is a few ids and a
character; the title and the person are items the pack holds anyway (`_items/movie/{id}`,
`_items/tv/{id}`, `_items/person/{id}`), so the edge rebuilds the document's skeleton from a row
and splices the items in as Pack.get did: the same bytes, the same ETag (docs/packed-releases.md).

Format: two files, written once, opened read-only and immutable.
- `credits.rows` (CREDIT_ROWS), every credit with a TMDB-style id (24 lower-case hex digits): the
  Arrow buffers of batches of ROWS, back to back, each 8-byte aligned, little-endian, where the
  table `row_batches` below says. The columns: `key`, the id's 12 bytes (ascending in byte order,
  batch after batch); `role`, a row of `roles`; `media`, the film's or series' id; `person`, the
  person's id; `character`, the character's JSON string as DuckDB wrote it, without its quotes
  (null: none, or `null` where the shape shows one); `episodes`, an episode credit's episode ids,
  uint32 little-endian, in season and episode order (null otherwise). Arrow's buffers and not its
  IPC file: the edge reads them with numpy and struct, without loading pyarrow.
- `credits.sqlite` (SQLite), the tables below.
- `credits(id, role, media, person, "character", episodes)`, WITHOUT ROWID, keyed by the credit id:
  the credits whose ids are not TMDB-style (TEXT; imported IMDb credits are
  `tt0133093-nm0000206-1`), their columns as the Arrow file's. (Format 2 kept the TMDB-style ones
  here too, keyed by their 12 bytes; the edge still reads such a release.)
- `roles(id, head, shape)`: `head` is `{"credit_type":…,"department":…,"job":…}` as DuckDB wrote it,
  `shape` what follows the title's item (edge/credit_index.py SHAPES): movie_cast, movie_crew,
  tv_cast, tv_crew (regular crew and creators) or episode. A few hundred rows: a credit's role costs
  it one or two bytes.
- `episodes(id, summary)`: each listed episode's summary (the `episode_summaries` struct, JSON as
  DuckDB wrote it), once per episode however many credits list it, stored as the pack stores a
  document (marquee/packs.py): a zstd frame made with the dictionary in `dicts` (template
  `credits:episodes`, trained on the first summaries), or the JSON when that is shorter. At 20k
  films the summaries were a third of the index.
- `row_batches(first, size, buffers)`: a batch of `credits.rows` per row: its first key, its rows,
  and its buffers' (offset, length) in the file, in CREDIT_ROW_BUFFERS' order (marquee/artefacts.py),
  as a JSON list (null: a validity bitmap Arrow left out, every row valid).
- `meta(key, value)`: `format`, and `credits`, the number of credits (both files').

Built whole by a build, beside the templates (site_gen/release.py): one DuckDB query, its Arrow
batches written as they come. The rows were SQLite's too until a 1M build's 28.5M credits cost ~80
CPU s of inserts a row at a time, and the file 1.35 GB; their buffers are written in ~25 CPU s and take 1.06 GB
(docs/packed-releases.md, session 51). An update whose load made none of the tables the query reads
again (a film renamed, a translation added) links the previous release's files instead: the rows
would be the same, since the titles and people they show are the pack's items. The credit template
was never scoped, so an update re-rendered every credit before.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa

from marquee.artefacts import COMPANIONS, CREDIT_INDEX, CREDIT_ROW_BUFFERS, CREDIT_ROWS
from marquee.packs import DICTS_TABLE, kept_encoder
from site_gen.documents import copy_rows, create_ordered_values, load_sql, tables_read

FORMAT = "3"
# The rows' columns, as Arrow types. Ids past uint32 (and a role past uint16) stop the build: Arrow's cast says so.
ROWS = pa.schema(
    [
        ("key", pa.binary(12)),
        ("role", pa.uint16()),
        ("media", pa.uint32()),
        ("person", pa.uint32()),
        ("character", pa.binary()),
        ("episodes", pa.binary()),
    ]
)
ROWS_BATCH = 1 << 16  # rows a batch of `credits.rows`: the edge keeps each batch's first key

SCHEMA = (
    """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE roles(id INTEGER PRIMARY KEY, head BLOB NOT NULL, shape TEXT NOT NULL);
CREATE TABLE credits(id PRIMARY KEY, role INTEGER NOT NULL, media INTEGER NOT NULL, person INTEGER NOT NULL,
                     "character" BLOB, episodes BLOB) WITHOUT ROWID;
CREATE TABLE episodes(id INTEGER PRIMARY KEY, summary BLOB NOT NULL);
CREATE TABLE row_batches(first BLOB PRIMARY KEY, size INTEGER NOT NULL, buffers TEXT NOT NULL) WITHOUT ROWID;
"""
    + DICTS_TABLE
    + ";"
)
TRAINING_SUMMARIES = 2_000  # the episode summaries the dictionary is trained on


@dataclass(frozen=True)
class CreditIndexSummary:
    credits: int
    roles: int
    episodes: int
    bytes: int
    seconds: float

    def line(self) -> str:
        per = self.bytes / self.credits if self.credits else 0.0
        return (
            f"credit index: {self.credits:,} credits ({self.roles} roles, {self.episodes:,} episodes), "
            f"{self.bytes:,} bytes ({per:.1f} a credit) in {self.seconds:.1f} s"
        )


# An episode credit's episode ids as uint32 little-endian bytes, made by DuckDB (a Python function a
# row cost ~1.5 µs for each of 28M credits at 1M films); ids past uint32 stop the build.
EPISODE_BYTES = """CASE WHEN c.episodes IS NULL THEN NULL
    WHEN list_min(c.episodes) < 0 OR list_max(c.episodes) >= 4294967296
        THEN error('an episode id out of uint32 range: ' || c.episodes::VARCHAR)
    ELSE unhex(array_to_string(list_transform(c.episodes, lambda x: printf('%02x%02x%02x%02x', x % 256,
        (x // 256) % 256, (x // 65536) % 256, (x // 16777216) % 256)), '')) END"""


def build(con: duckdb.DuckDBPyConnection, target: Path) -> CreditIndexSummary:
    """Write the credit index of the build database `con` to `target` (replaced when complete)."""
    started = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    rows_target = target.with_name(CREDIT_ROWS)
    rows_partial = rows_target.with_name(rows_target.name + ".partial")
    partial.unlink(missing_ok=True)
    cursor = con.cursor()  # the index's temp table stays out of the caller's cursor
    out = sqlite3.connect(partial)
    try:
        out.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;" + SCHEMA)
        create_ordered_values(cursor)  # a cursor is a connection of its own: the build's macros are not on it
        cursor.execute("CREATE OR REPLACE TEMP TABLE credit_rows AS " + load_sql("credit_index.sql"))
        cursor.execute(
            "CREATE OR REPLACE TEMP TABLE credit_roles AS SELECT row_number() OVER (ORDER BY head, shape) "
            "AS id, head, shape FROM (SELECT DISTINCT head, shape FROM credit_rows)"
        )
        roles = cursor.execute("SELECT id, head, shape FROM credit_roles ORDER BY id").fetchall()
        out.executemany("INSERT INTO roles VALUES (?, ?, ?)", [(i, head.encode(), shape) for i, head, shape in roles])
        rows = (
            'SELECT c.{key} AS key, r.id AS role, c.media_id AS media, c.person_id AS person, encode(c."character") '
            f'AS "character", {EPISODE_BYTES} AS episodes FROM credit_rows c JOIN credit_roles r ON r.head = c.head '
            "AND r.shape = c.shape WHERE c.{key} IS NOT NULL ORDER BY c.{key}"
        )
        count = write_rows(cursor, rows.format(key="hex_key"), rows_partial, out)
        count += copy_rows(cursor, rows.format(key="text_key"), out, "credits")
        summaries = (
            "SELECT s.episode_id, encode(to_json(s.summary)::VARCHAR) FROM episode_summaries s "
            "WHERE s.episode_id IN (SELECT unnest(episodes) FROM credit_rows) ORDER BY s.episode_id"
        )
        encode = kept_encoder(
            out,
            "credits:episodes",
            [
                summary
                for (_, summary) in cursor.execute(f"SELECT * FROM ({summaries}) LIMIT {TRAINING_SUMMARIES}").fetchall()
            ],
        )
        listed = copy_rows(cursor, summaries, out, "episodes", encode)
        out.executemany("INSERT INTO meta VALUES (?, ?)", [("format", FORMAT), ("credits", str(count))])
        out.commit()
    finally:
        out.close()
        cursor.execute("DROP TABLE IF EXISTS credit_rows; DROP TABLE IF EXISTS credit_roles")
        cursor.close()
    rows_partial.replace(rows_target)  # first: the index names its batches
    partial.replace(target)
    size = target.stat().st_size + rows_target.stat().st_size
    return CreditIndexSummary(count, len(roles), listed, size, time.perf_counter() - started)


def write_rows(cursor: duckdb.DuckDBPyConnection, query: str, path: Path, out: sqlite3.Connection) -> int:
    """The rows of `query` (ROWS' columns, in key order) into `path`, a batch's buffers at a time,
    each batch a row of `row_batches` in `out`; how many rows."""
    count = 0
    with open(path, "wb") as handle:
        for batch in cursor.sql(query).to_arrow_reader(ROWS_BATCH):
            if not batch.num_rows:
                continue
            batch = batch.cast(ROWS)
            buffers = []
            for column in batch.columns:
                assert column.offset == 0  # DuckDB's batches are fresh arrays, their buffers the rows'
                parts = column.buffers()
                if not pa.types.is_binary(column.type):
                    assert column.null_count == 0, "the fixed-width columns are written without their validity"
                    parts = parts[1:]
                buffers += parts
            placed = []
            for buffer in buffers:
                if buffer is None:
                    placed.append(None)
                    continue
                placed.append((handle.tell(), buffer.size))
                handle.write(buffer)
                handle.write(bytes(-buffer.size % 8))
            assert len(placed) == len(CREDIT_ROW_BUFFERS)
            out.execute(
                "INSERT INTO row_batches VALUES (?, ?, ?)",
                (batch.column(0)[0].as_py(), batch.num_rows, json.dumps(placed)),
            )
            count += batch.num_rows
    return count


def read_tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables the index's query reads."""
    return tables_read(con, load_sql("credit_index.sql"), "credit_index.sql") - {"credit_rows"}


def for_release(
    con: duckdb.DuckDBPyConnection, release_dir: Path, previous: Path | None = None, reloaded: set[str] | None = None
) -> CreditIndexSummary | None:
    """Build the release's index, or link `previous`'s when the load made again (`reloaded`) none of
    the tables it reads (None: a linked index, nothing built)."""
    target = Path(release_dir) / CREDIT_INDEX
    kept = Path(previous) if previous is not None else None
    files = (CREDIT_INDEX, *COMPANIONS[CREDIT_INDEX])
    if (
        reloaded is not None
        and kept is not None
        and all((kept / name).is_file() for name in files)
        and not read_tables(con) & reloaded
    ):
        for name in files:
            os.link(kept / name, Path(release_dir) / name)
        return None
    return build(con, target)
