"""The release's search index, `search.sqlite` (marquee/artefacts.py): every movie, series, person,
collection, company and keyword by the names it is known under, for /3/search/*, and every external
id, for /3/find. edge/search_index.py reads it.

Format (SQLite, written once, opened read-only and immutable):
- `<kind>_fts`, an FTS5 table per kind (tokenizer `ascii`: tokens are folded and split beforehand by
  marquee/search_text.py, and space is the only separator left), one row per entity:
  `tokens` every token of every name it has (original, translated, alternative, also known as),
  `filters` the tokens a filter matches (`y2001` primary year, `r2001` any year it came out,
  `adult`), and, not indexed, `id` and `names` (its names folded, one a line, for relevance).
  The rowid orders the rows by popularity: (POPULARITY_SLOTS - popularity in hundredths) << 32 |
  a sequence number. FTS5 returns matches in rowid order, so the most popular come first and a
  LIMIT stops early: a query costs the candidates it looks at, not everything it matches.
- `exact(kind, name, id, ord)`: each folded name -> its entity (`ord`, its rowid), for the exact tier.
- `items(kind, id, body, known_for)`: each entity's result object in the default language, TMDB's
  list-item shape (the items of similar lists for films and series); a person's `known_for`
  names its three most popular titles (`movie:603`).
- `texts(kind, id, suffix, title, overview)`: the title (or name) and overview of films, series and
  collections in every other served language they are translated into (site_gen/sql/search_texts.sql).
- `terms(term)` and `near(variant, term)`: every word of MIN_FUZZY letters or more, and each of its
  one-letter deletions: a query word one typo away shares a deletion with it (SymSpell's idea).
- `external_ids(source, value, kind, id, series_id, season_number, episode_number)` for /3/find.
- `meta(key, value)`: the languages and the format version.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import duckdb

from marquee import search_text
from marquee.artefacts import SEARCH_INDEX
from site_gen.documents import load_sql

FORMAT = "1"
KINDS = ("movie", "tv", "person", "collection", "company", "keyword")
ITEM_QUERIES = {"movie": "movie_list_results.sql", "tv": "person_tv_items.sql"}  # shared with similar lists
POPULARITY_SLOTS = (1 << 30) - 1
BATCH = 20_000

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE items(kind TEXT, id INTEGER, body TEXT, known_for TEXT, PRIMARY KEY (kind, id)) WITHOUT ROWID;
CREATE TABLE texts(kind TEXT, id INTEGER, suffix TEXT, title TEXT, overview TEXT,
                   PRIMARY KEY (kind, id, suffix)) WITHOUT ROWID;
CREATE TABLE exact(kind TEXT, name TEXT, id INTEGER, ord INTEGER, PRIMARY KEY (kind, name, id)) WITHOUT ROWID;
CREATE TABLE terms(term TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE near(variant TEXT, term TEXT, PRIMARY KEY (variant, term)) WITHOUT ROWID;
CREATE TABLE external_ids(source TEXT, value TEXT, kind TEXT, id INTEGER, series_id INTEGER,
                          season_number INTEGER, episode_number INTEGER);
"""
FTS = ("CREATE VIRTUAL TABLE {kind}_fts USING fts5(tokens, filters, id UNINDEXED, names UNINDEXED, "
       "tokenize='ascii', prefix='1 2 3', detail=column)")


@dataclass(frozen=True)
class IndexSummary:
    entities: dict[str, int]
    terms: int
    external_ids: int
    bytes: int
    seconds: float

    def line(self) -> str:
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in self.entities.items())
        return (f"search index: {kinds}; {self.terms:,} words, {self.external_ids:,} external ids; "
                f"{self.bytes / 1e6:,.1f} MB in {self.seconds:.1f} s")


def order_key(popularity: float | None, sequence: int) -> int:
    """The rowid: most popular first, then in the order rows were written."""
    slots = min(POPULARITY_SLOTS, max(0, round((popularity or 0.0) * 100)))
    return (POPULARITY_SLOTS - slots) << 32 | sequence


def deletions(term: str) -> set[str]:
    return {term[:i] + term[i + 1:] for i in range(len(term))}


def entity_query(con: duckdb.DuckDBPyConnection, kind: str) -> str:
    query = load_sql(f"search_{kind}.sql")
    if kind in ITEM_QUERIES:
        query = query.replace("__ITEMS__", load_sql(ITEM_QUERIES[kind]))
    return query


def build(con: duckdb.DuckDBPyConnection, languages: list[str], target: Path) -> IndexSummary:
    """Write the index of the database `con` holds (after site_gen.languages.prepare) to `target`."""
    started = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    out = sqlite3.connect(partial)
    try:
        out.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192;" + SCHEMA)
        out.executemany("INSERT INTO meta VALUES (?, ?)", [("format", FORMAT), ("languages", ",".join(languages))])
        vocabulary: set[str] = set()
        counts = {kind: write_kind(con, out, kind, vocabulary) for kind in KINDS}
        write_vocabulary(out, vocabulary)
        out.executemany("INSERT INTO texts VALUES (?, ?, ?, ?, ?)", con.execute(load_sql("search_texts.sql")).fetchall())
        external = con.execute(load_sql("search_external_ids.sql")).fetchall()
        out.executemany("INSERT INTO external_ids VALUES (?, ?, ?, ?, ?, ?, ?)", external)
        out.execute("CREATE INDEX external_ids_value ON external_ids(source, value)")
        for kind in KINDS:
            out.execute(f"INSERT INTO {kind}_fts({kind}_fts) VALUES ('optimize')")
        out.commit()
    finally:
        out.close()
    partial.replace(target)
    return IndexSummary(counts, len(vocabulary), len(external), target.stat().st_size, time.perf_counter() - started)


def write_kind(con: duckdb.DuckDBPyConnection, out: sqlite3.Connection, kind: str, vocabulary: set[str]) -> int:
    out.execute(FTS.format(kind=kind))
    reader = con.sql(entity_query(con, kind) + " ORDER BY popularity DESC, id").to_arrow_reader(BATCH)
    sequence = 0
    for batch in reader:
        rows, exact, items = [], [], []
        columns = batch.to_pydict()
        for entity_id, popularity, names, filters, item, known_for in zip(
                columns["id"], columns["popularity"], columns["names"], columns["filters"], columns["item"],
                columns["known_for"]):
            sequence += 1
            rowid = order_key(popularity, sequence)
            folded = list(dict.fromkeys(n for n in (search_text.normalized(name) for name in names if name) if n))
            tokens = list(dict.fromkeys(t for name in folded for t in name.split(" ")))
            vocabulary.update(t for t in tokens if len(t) >= search_text.MIN_FUZZY and not search_text.is_cjk(t))
            rows.append((rowid, " ".join(tokens), " ".join(filters or ()), entity_id, "\n".join(folded)))
            exact.extend((kind, name, entity_id, rowid) for name in folded)
            items.append((kind, entity_id, item, ",".join(known_for) if known_for else None))
        out.executemany(f"INSERT INTO {kind}_fts(rowid, tokens, filters, id, names) VALUES (?, ?, ?, ?, ?)", rows)
        out.executemany("INSERT OR IGNORE INTO exact VALUES (?, ?, ?, ?)", exact)
        out.executemany("INSERT INTO items VALUES (?, ?, ?, ?)", items)
    return sequence


def write_vocabulary(out: sqlite3.Connection, vocabulary: Iterable[str]) -> None:
    terms = sorted(vocabulary)
    out.executemany("INSERT INTO terms VALUES (?)", ((t,) for t in terms))
    out.executemany("INSERT OR IGNORE INTO near VALUES (?, ?)",
                    ((variant, term) for term in terms for variant in (term, *deletions(term))))


def build_for_release(con: duckdb.DuckDBPyConnection, languages: list[str], release_dir: Path) -> IndexSummary:
    return build(con, languages, Path(release_dir) / SEARCH_INDEX)



def build_alone(catalogue_dir: Path, settings, target: Path, work_dir: Path) -> IndexSummary:
    """The index of a catalogue without rendering its release: what the search benchmark builds at
    a million titles (the database is loaded into `work_dir`, as a build would)."""
    from marquee_build.catalogue import load_database
    from site_gen import languages

    loaded = load_database(Path(catalogue_dir), Path(work_dir) / "search-database.duckdb")
    try:
        languages.prepare(loaded.con, settings)
        return build(loaded.con, list(settings.languages), Path(target))
    finally:
        loaded.con.close()
