"""The release's credit index, `credits.sqlite` (marquee/artefacts.py): what /3/credit/{credit_id}
answers, a few dozen bytes a credit instead of a document each. edge/credit_index.py reads it.

Why not documents: a credit document was a composite of ~330 bytes (its title's and person's items
spliced in, marquee/packs.py), and there is one per credit: 21% of the pack's rows at 20k films,
~28M rows at 1M, for a path clients rarely call. What a credit has of its own is a few ids and a
character; the title and the person are items the pack holds anyway (`_items/movie/{id}`,
`_items/tv/{id}`, `_items/person/{id}`), so the edge rebuilds the document's skeleton from a row
and splices the items in as Pack.get did: the same bytes, the same ETag (docs/packed-releases.md).

Format (SQLite, written once, opened read-only and immutable):
- `credits(id, role, media, person, "character", episodes)`, WITHOUT ROWID, keyed by the credit id:
  its 12 bytes (a BLOB) for a TMDB-style id (24 lower-case hex digits), else the id itself (TEXT;
  imported IMDb credits are `tt0133093-nm0000206-1`). `role` is a row of `roles`; `media` the film's
  or series' id, `person` the person's; `character` the character's JSON string as DuckDB wrote it,
  without its quotes (NULL: none, or `null` where the shape shows one); `episodes` an episode
  credit's episode ids, uint32 little-endian, in season and episode order (NULL otherwise).
- `roles(id, head, shape)`: `head` is `{"credit_type":…,"department":…,"job":…}` as DuckDB wrote it,
  `shape` what follows the title's item (edge/credit_index.py SHAPES): movie_cast, movie_crew,
  tv_cast, tv_crew (regular crew and creators) or episode. A few hundred rows: a credit's role costs
  it one or two bytes.
- `episodes(id, summary)`: each listed episode's summary (the `episode_summaries` struct, JSON as
  DuckDB wrote it), once per episode however many credits list it, stored as the pack stores a
  document (marquee/packs.py): a zstd frame made with the dictionary in `dicts` (template
  `credits:episodes`, trained on the first summaries), or the JSON when that is shorter. At 20k
  films the summaries were a third of the index.
- `meta(key, value)`: `format`, and `credits`, the number of rows of `credits`.

Built whole by a build, after the pack: one DuckDB query and an ordered SQLite insert (1.9 s for
563k credits, docs/packed-releases.md). An update whose load made none of the tables the query reads
again (a film renamed, a translation added) links the previous release's index instead: the rows
would be the same, since the titles and people they show are the pack's items. The credit template
was never scoped, so an update re-rendered every credit before.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from marquee.artefacts import CREDIT_INDEX
from marquee.packs import DICTS_TABLE, kept_encoder
from site_gen.documents import copy_rows, load_sql, tables_read

FORMAT = "2"
UINT32 = 2**32

SCHEMA = (
    """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE roles(id INTEGER PRIMARY KEY, head BLOB NOT NULL, shape TEXT NOT NULL);
CREATE TABLE credits(id PRIMARY KEY, role INTEGER NOT NULL, media INTEGER NOT NULL, person INTEGER NOT NULL,
                     "character" BLOB, episodes BLOB) WITHOUT ROWID;
CREATE TABLE episodes(id INTEGER PRIMARY KEY, summary BLOB NOT NULL);
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
    partial.unlink(missing_ok=True)
    cursor = con.cursor()  # the index's temp table stays out of the caller's cursor
    out = sqlite3.connect(partial)
    try:
        out.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;" + SCHEMA)
        cursor.execute("CREATE OR REPLACE TEMP TABLE credit_rows AS " + load_sql("credit_index.sql"))
        cursor.execute(
            "CREATE OR REPLACE TEMP TABLE credit_roles AS SELECT row_number() OVER (ORDER BY head, shape) "
            "AS id, head, shape FROM (SELECT DISTINCT head, shape FROM credit_rows)"
        )
        roles = cursor.execute("SELECT id, head, shape FROM credit_roles ORDER BY id").fetchall()
        out.executemany("INSERT INTO roles VALUES (?, ?, ?)", [(i, head.encode(), shape) for i, head, shape in roles])
        count = 0
        # SQLite orders TEXT keys before BLOB ones: inserting in that order fills its pages in sequence.
        for key in ("text_key", "hex_key"):
            count += copy_rows(
                cursor,
                f'SELECT c.{key}, r.id, c.media_id, c.person_id, encode(c."character"), '
                f"{EPISODE_BYTES} FROM credit_rows c JOIN credit_roles r ON r.head = c.head "
                f"AND r.shape = c.shape WHERE c.{key} IS NOT NULL ORDER BY c.{key}",
                out,
                "credits",
            )
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
    partial.replace(target)
    return CreditIndexSummary(count, len(roles), listed, target.stat().st_size, time.perf_counter() - started)


def read_tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables the index's query reads."""
    return tables_read(con, load_sql("credit_index.sql"), "credit_index.sql") - {"credit_rows"}


def for_release(
    con: duckdb.DuckDBPyConnection, release_dir: Path, previous: Path | None = None, reloaded: set[str] | None = None
) -> CreditIndexSummary | None:
    """Build the release's index, or link `previous`'s when the load made again (`reloaded`) none of
    the tables it reads (None: a linked index, nothing built)."""
    target = Path(release_dir) / CREDIT_INDEX
    kept = Path(previous) / CREDIT_INDEX if previous is not None else None
    if reloaded is not None and kept is not None and kept.is_file() and not read_tables(con) & reloaded:
        os.link(kept, target)
        return None
    return build(con, target)
