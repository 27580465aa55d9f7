"""The release's search index, `search.sqlite` (marquee/artefacts.py): every movie, series, person,
collection, company and keyword by the names it is known under, for /3/search/*, and every external
id, for /3/find. edge/search_index.py reads it.

Format (SQLite, written once, opened read-only and immutable):
- `entities(kind, id, popularity, tokens, filters, names)`: what each entity is found by. `tokens`
  every token (marquee/search_text.py) of every name it has (original, translated, alternative,
  also known as), `filters` the tokens a filter matches (`y2001` its primary year, `r2001` any year
  it came out, `adult`), `names` its names folded, one a line (for relevance and the exact tier).
  An update copies the rows of the entities it did not change.
- `ranks(kind, rank, id, popularity, names)`: a kind's entities most popular first (ties by id),
  numbered from 0, with their names (a query reads the names of its window of candidates by rank).
- `postings(kind, term, ranks)`: the ranks of the entities with each token and filter token
  (`¤y2001`, `¤adult`), and with each prefix of one to three characters (`prefix:th`), as roaring
  bitmaps (pyroaring's portable serialisation). A query ANDs a few of them: counting its matches
  and taking its most popular (the smallest ranks) cost microseconds, where SQLite FTS5 took a
  millisecond a query at 100k titles (docs/benchmarks.md). An update whose entities kept their
  popularity (so every rank stays) changes the terms, names and postings of the entities it wrote
  again in place (`rederive`); otherwise it derives the kind's ranks, postings and names whole.
  A bitmap is stored as made from its ranks in order (`posting`), so both ways give the same bytes.
- `exact(kind, name, rank)`: each folded name -> the ranks of the entities that have it.
- `items(kind, id, body, known_for)`: each entity's result object in the default language, TMDB's
  list-item shape (the items of similar lists for films and series); a person's `known_for`
  names its three most popular titles (`movie:603`). `body` is stored as the pack stores a document
  (marquee/packs.py): a zstd frame made with its kind's dictionary, `dicts(id, template, dict)` with
  template `search:{kind}`, or the JSON when that is shorter; readers decode it with packs.Decoder.
  Why: at a million films the bodies were a third of the index's 5.1 GB, and compress ~4 times.
  An update compresses with the dictionaries the index it copies was built with.
- `texts(kind, id, suffix, title, overview)`: the title (or name) and overview of films, series and
  collections in every other served language they are translated into (site_gen/sql/search_texts.sql).
- `terms(term)` and `near(variant, term)`: every word of MIN_FUZZY letters or more, and each of its
  one-letter deletions: a query word one typo away shares a deletion with it (SymSpell's idea).
- `external_ids(source, value, kind, id, series_id, season_number, episode_number)` for /3/find,
  keyed by (source, value): a lookup is one descent of the table, and it needs no index beside it.
  Keyed by (kind, id) with an index on (source, value), the index was 794 of its 1,666 MB at 1M
  films, 33 CPU s to sort, and a cold lookup read both (125 against 32 µs); an update's deletes by
  (kind, id) pass over the table once instead (forget_scanning, ~2 s at 1M films).
- `meta(key, value)`: the languages and the format version.

How it is written: `export` runs the index's queries on the database into Arrow files (`Inputs`),
seconds of DuckDB; `write` makes the index from them alone, without the database. Why: the writing
is Python and SQLite on one core (~380 s at a million films), and the build's templates leave about
a third of the other core idle, so a build writes a large index in a process of its own beside them
(site_gen/release.py, `Inputs.large`).
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
from pyroaring import BitMap

from marquee import search_text
from marquee.artefacts import SEARCH_INDEX
from marquee.packs import DICTS_TABLE, kept_encoder
from site_gen.documents import insert_batches, load_sql

FORMAT = "6"
KINDS = ("movie", "tv", "person", "collection", "company", "keyword")
ITEM_QUERIES = {"movie": "movie_list_results.sql", "tv": "person_tv_items.sql"}  # shared with similar lists
BATCH = 20_000
FOLDED_NAMES = 1 << 18  # write_kind's memory of names folded (folding)
TRAINING_ITEMS = 2_000  # a kind's first items, that its dictionary is trained on
# A build writes the index in a process of its own from this many entities exported, or when it
# updates an index this large (copied whole, then its kinds derived again): below, the process's
# start and imports (~0.5 s) cost more than they save.
APART_ENTITIES = 200_000
APART_PREVIOUS_BYTES = 256 << 20
EXPORTED = pa.ipc.IpcWriteOptions(compression="zstd")  # at 1M films ~1 GB on disk so, beside the release
EXTERNAL_COLUMNS = "source, value, kind, id, series_id, season_number, episode_number"  # external_ids' columns
EXTERNAL_KINDS = ("movie", "tv", "person", "season", "episode")  # what external_ids names

SCHEMA = (
    """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE entities(kind TEXT, id INTEGER, popularity REAL, tokens TEXT, filters TEXT, names TEXT,
                      PRIMARY KEY (kind, id)) WITHOUT ROWID;
CREATE TABLE ranks(kind TEXT, rank INTEGER, id INTEGER, popularity REAL, names TEXT, PRIMARY KEY (kind, rank)) WITHOUT ROWID;
CREATE TABLE postings(kind TEXT, term TEXT, ranks BLOB, PRIMARY KEY (kind, term)) WITHOUT ROWID;
CREATE TABLE exact(kind TEXT, name TEXT, rank INTEGER, PRIMARY KEY (kind, name, rank)) WITHOUT ROWID;
CREATE TABLE items(kind TEXT, id INTEGER, body TEXT, known_for TEXT, PRIMARY KEY (kind, id)) WITHOUT ROWID;
CREATE TABLE texts(kind TEXT, id INTEGER, suffix TEXT, title TEXT, overview TEXT,
                   PRIMARY KEY (kind, id, suffix)) WITHOUT ROWID;
CREATE TABLE terms(term TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE near(variant TEXT, term TEXT, PRIMARY KEY (variant, term)) WITHOUT ROWID;
CREATE TABLE external_ids(source TEXT, value TEXT, kind TEXT, id INTEGER, series_id INTEGER,
                          season_number INTEGER, episode_number INTEGER,
                          PRIMARY KEY (source, value, kind, id)) WITHOUT ROWID;
"""
    + DICTS_TABLE
    + ";"
)
# SQLite's page cache for the index as it is written (KiB, negative by SQLite's convention). Rows go in
# in key order where they can, but postings and names cannot: at 1M films the index is ~5 GB and
# SQLite's default 2 MB cache made each insert a handful of reads through the OS. 128 MB: at 1M films
# written apart in 314 s with a peak of 0.91 GB, against 358 s and 2.34 GB with 512 MB (session 42).
WRITE_CACHE = -131_072
# An update writes again the entities a scoped build found changed (site_gen/scope.py's
# changed_entities), and those whose index row shows what changed elsewhere: the people credited in
# a film or series whose own row changed (known_for follows the titles' popularity, and a title
# gone leaves it) and the companies that made one (ranked by the popularity of their work). Nothing
# else of a title reaches them: a renamed film is its own row, not its people's (at 1M films, 1% of
# them renamed put 143k people and 5.8k companies in scope, ~20 s of the index's update). A
# collection's and a keyword's rank already change with their films' rows.
SCOPE_SQL = """
CREATE OR REPLACE TEMP TABLE search_scope AS
WITH changed AS (SELECT DISTINCT kind, id FROM changed_entities),
standing AS (
    SELECT DISTINCT kind, id FROM changed_entities
    WHERE (kind = 'movie' AND tbl = 'movies') OR (kind = 'series' AND tbl = 'tv_series')
)
SELECT CASE kind WHEN 'series' THEN 'tv' ELSE kind END AS kind, id FROM changed
WHERE kind IN ('movie', 'series', 'person', 'collection', 'company', 'keyword', 'season', 'episode')
UNION SELECT 'person', person_id FROM "cast" WHERE movie_id IN (SELECT id FROM standing WHERE kind = 'movie')
UNION SELECT 'person', person_id FROM crew WHERE movie_id IN (SELECT id FROM standing WHERE kind = 'movie')
UNION SELECT 'person', person_id FROM series_cast WHERE series_id IN (SELECT id FROM standing WHERE kind = 'series')
UNION SELECT 'person', person_id FROM series_crew WHERE series_id IN (SELECT id FROM standing WHERE kind = 'series')
UNION SELECT 'company', company_id FROM movie_companies WHERE movie_id IN (SELECT id FROM standing WHERE kind = 'movie')
UNION SELECT 'company', company_id FROM series_companies
WHERE series_id IN (SELECT id FROM standing WHERE kind = 'series')
"""


# in_search_scope(kind, id): whether an entity's rows are exported. The queries apply it where they
# scan or aggregate many rows (a person's titles, a series' episodes), which the scope's filter
# around the whole query (_in_scope, which stays exact) does not reach: at 1M films an update's
# people (142k in scope after 1% of films changed) took 17 s of its 23 s export (session 44).
IN_SEARCH_SCOPE = {
    False: "CREATE OR REPLACE TEMP MACRO in_search_scope(scope_kind, scope_id) AS true",
    True: "CREATE OR REPLACE TEMP MACRO in_search_scope(scope_kind, scope_id) AS "
    "scope_id IN (SELECT s.id FROM search_scope s WHERE s.kind = scope_kind)",
}


@dataclass(frozen=True)
class IndexSummary:
    entities: dict[str, int]  # written (all of them, or those an update wrote again)
    terms: int
    external_ids: int
    bytes: int
    seconds: float
    updated: bool = False
    derived: tuple[
        str, ...
    ] = ()  # kinds whose ranks, postings and names were derived whole (an update's others kept theirs)
    stages: tuple[tuple[str, float], ...] = ()  # (stage, seconds): where an update's time went

    def line(self) -> str:
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in self.entities.items())
        stages = ", ".join(f"{stage} {seconds:.1f} s" for stage, seconds in self.stages)
        how = (
            f"updated (ranks derived again: {', '.join(self.derived) or 'none'}; {stages})" if self.updated else "built"
        )
        return (
            f"search index {how}: {kinds}; {self.terms:,} words, {self.external_ids:,} external ids; "
            f"{self.bytes / 1e6:,.1f} MB in {self.seconds:.1f} s"
        )


def deletions(term: str) -> set[str]:
    return {term[:i] + term[i + 1 :] for i in range(len(term))}


def entity_query(kind: str) -> str:
    query = load_sql(f"search_{kind}.sql")
    if kind in ITEM_QUERIES:
        query = query.replace("__ITEMS__", load_sql(ITEM_QUERIES[kind]))
    return query


def _in_scope(query: str, kind_column: str | None, kind: str | None = None) -> str:
    """`query` narrowed to the update's scope (search_scope), by its `kind` column or as `kind`."""
    which = f"s.kind = q.{kind_column}" if kind_column else f"s.kind = '{kind}'"
    return f"SELECT q.* FROM ({query}) q WHERE EXISTS (SELECT 1 FROM search_scope s WHERE {which} AND s.id = q.id)"


@dataclass(frozen=True)
class Inputs:
    """An index's rows as the database gives them, in Arrow files in `folder` (export), which is
    all `write` needs."""

    folder: Path
    languages: tuple[str, ...]
    target: Path
    previous: Path | None  # an update's: the earlier release's index it starts from
    entities: int  # rows exported for `entities`
    seconds: float  # the export's

    @property
    def large(self) -> bool:
        """Whether writing the index is worth a process of its own (APART_ENTITIES)."""
        if self.previous is not None and self.previous.stat().st_size >= APART_PREVIOUS_BYTES:
            return True
        return self.entities >= APART_ENTITIES

    def batches(self, name: str) -> Iterator[pa.RecordBatch]:
        with pa.memory_map(str(self.folder / f"{name}.arrow")) as source:
            yield from pa.ipc.open_stream(source)

    def scope(self) -> dict[str, list[int]]:
        """An update's scope: the ids to write again, by kind (search_scope)."""
        scope: dict[str, list[int]] = defaultdict(list)
        for batch in self.batches("scope"):
            for kind, entity_id in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist()):
                scope[kind].append(entity_id)
        return scope


def export(con: duckdb.DuckDBPyConnection, languages: list[str], target: Path, previous: Path | None = None) -> Inputs:
    """The rows an index of the database `con` holds (after site_gen.languages.prepare) is written
    from, in a folder beside `target`; with `previous`, an update's: only what the scoped build
    changed (SCOPE_SQL), and the scope itself."""
    started = time.perf_counter()
    folder = target.with_name(target.name + ".inputs")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    queries = {kind: entity_query(kind) for kind in KINDS}
    texts, external = load_sql("search_texts.sql"), load_sql("search_external_ids.sql")
    if previous is not None:
        con.execute(SCOPE_SQL)
        queries = {kind: _in_scope(query, None, kind) for kind, query in queries.items()}
        texts, external = _in_scope(texts, "kind"), _in_scope(external, "kind")
        _export(con, "SELECT DISTINCT kind, id FROM search_scope ORDER BY kind, id", folder / "scope.arrow")
    con.execute(IN_SEARCH_SCOPE[previous is not None])
    entities = sum(_export(con, f"SELECT * FROM ({q}) ORDER BY id", folder / f"{k}.arrow") for k, q in queries.items())
    _export(con, f"SELECT * FROM ({texts}) ORDER BY kind, id, suffix", folder / "texts.arrow")
    external = f"SELECT {EXTERNAL_COLUMNS} FROM ({external}) ORDER BY source, value, kind, id"  # the table's order
    _export(con, external, folder / "external_ids.arrow")
    return Inputs(folder, tuple(languages), target, previous, entities, time.perf_counter() - started)


def _export(con: duckdb.DuckDBPyConnection, query: str, path: Path) -> int:
    """A query's rows, in order, as an Arrow stream file; the number of rows."""
    reader = con.sql(query).to_arrow_reader(BATCH)
    rows = 0
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, reader.schema, options=EXPORTED) as stream:
        for batch in reader:
            stream.write_batch(batch)
            rows += batch.num_rows
    return rows


def build(con: duckdb.DuckDBPyConnection, languages: list[str], target: Path) -> IndexSummary:
    """Write the index of the database `con` holds (after site_gen.languages.prepare) to `target`."""
    return write(export(con, languages, target))


def update(con: duckdb.DuckDBPyConnection, languages: list[str], previous: Path, target: Path) -> IndexSummary:
    """`previous` (an earlier release's index) with what this scoped build changed written again;
    equal to a build of the whole database (tests/test_site_gen_scope.py)."""
    return write(export(con, languages, target, previous))


def can_update(previous: Path | None, languages: list[str]) -> bool:
    """Whether `previous` is an index of this format and these languages, that an update may start from."""
    if previous is None or not previous.is_file():
        return False
    try:
        with closing(sqlite3.connect(f"file:{previous}?mode=ro", uri=True)) as old:
            meta = dict(old.execute("SELECT key, value FROM meta"))
    except sqlite3.Error:
        return False
    return meta.get("format") == FORMAT and meta.get("languages") == ",".join(languages)


def write(inputs: Inputs) -> IndexSummary:
    """The index `inputs` were exported for, made from them alone (a process of its own may run
    it); the inputs' folder is removed."""
    try:
        return _write(inputs)
    finally:
        shutil.rmtree(inputs.folder, ignore_errors=True)


def _write(inputs: Inputs) -> IndexSummary:
    started = time.perf_counter()
    target, previous = inputs.target, inputs.previous
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    stages: list[tuple[str, float]] = []

    def lap(stage: str) -> None:
        stages.append((stage, time.perf_counter() - started - sum(seconds for _, seconds in stages)))

    scope = inputs.scope() if previous is not None else None
    if previous is not None:
        shutil.copyfile(previous, partial)  # SQLite file: the previous release's stays as it was
        lap("copy")
    out = sqlite3.connect(partial)
    try:
        out.executescript(f"PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size={WRITE_CACHE};")
        if previous is None:
            out.executescript("PRAGMA page_size=8192;" + SCHEMA)
            out.executemany(
                "INSERT INTO meta VALUES (?, ?)", [("format", FORMAT), ("languages", ",".join(inputs.languages))]
            )
        vocabulary: set[str] = set()
        counts, derived = {}, []
        for kind in KINDS:
            ids = scope.get(kind, []) if scope is not None else None
            before = scoped_entities(out, kind, ids) if ids is not None else None
            if ids is not None:
                forget(out, "entities", kind, ids)
                forget(out, "items", kind, ids)
            counts[kind] = write_kind(inputs.batches(kind), out, kind, vocabulary, updating=ids is not None)
            if ids is None or before is not None and not rederive(out, kind, before, scoped_entities(out, kind, ids)):
                derive(out, kind)
                derived.append(kind)
            lap(kind)
        write_vocabulary(out, vocabulary)
        if scope is not None:
            for kind in ("movie", "tv", "collection"):
                forget(out, "texts", kind, scope.get(kind, []))
            forget_scanning(out, "external_ids", {kind: scope.get(kind, []) for kind in EXTERNAL_KINDS})
        insert_batches(inputs.batches("texts"), out, "texts")
        external_count = insert_external_ids(inputs, out)
        out.commit()
        lap("texts and external ids")
        if previous is None:
            out.execute("VACUUM")
    finally:
        out.close()
    partial.replace(target)
    return IndexSummary(
        counts,
        len(vocabulary),
        external_count,
        target.stat().st_size,
        inputs.seconds + time.perf_counter() - started,
        updated=previous is not None,
        derived=tuple(derived),
        stages=(("export", inputs.seconds), *stages),
    )


def insert_external_ids(inputs: Inputs, out: sqlite3.Connection) -> int:
    """The exported external ids into `external_ids`: the titles' and people's first, then the
    seasons' and episodes'; the number of rows. Why two passes: a title's or person's row has no
    series, season or episode, and binding those three NULLs as parameters was a third of its insert
    (sqlite3 looks None up in its adaptation protocol): at 1M films 21.4M rows in 51 CPU s against
    72 to 77 in one pass. The second pass's rows fall between the first's; the closing VACUUM packs
    the table as tightly either way (871 MB)."""
    count = 0
    for batch in inputs.batches("external_ids"):
        plain = batch.filter(pc.is_null(batch.column("series_id")))
        columns = [plain.column(i).to_pylist() for i in range(4)]
        out.executemany("INSERT INTO external_ids VALUES (?, ?, ?, ?, NULL, NULL, NULL)", zip(*columns))
        count += plain.num_rows
    for batch in inputs.batches("external_ids"):
        count += insert_batches([batch.filter(pc.is_valid(batch.column("series_id")))], out, "external_ids")
    return count


def forget(out: sqlite3.Connection, table: str, kind: str, ids: list[int]) -> None:
    """Delete the rows of `table` of the entities `ids` of `kind` (an update's scope)."""
    out.executemany(f"DELETE FROM {table} WHERE kind = ? AND id = ?", ((kind, i) for i in ids))


def forget_scanning(out: sqlite3.Connection, table: str, scope: dict[str, list[int]]) -> None:
    """`forget` for a table not keyed by (kind, id) (external_ids), every kind's `scope` ids at once:
    one pass over its rows, each of a kind in scope checked against the ids, where a DELETE per id
    would pass over them all each time."""
    kinds = [kind for kind, ids in scope.items() if ids]
    if not kinds:
        return
    out.execute(
        "CREATE TEMP TABLE IF NOT EXISTS forgotten(kind TEXT, id INTEGER, PRIMARY KEY (kind, id)) WITHOUT ROWID"
    )
    out.execute("DELETE FROM temp.forgotten")
    out.executemany("INSERT OR IGNORE INTO temp.forgotten VALUES (?, ?)", ((k, i) for k in kinds for i in scope[k]))
    out.execute(
        f"DELETE FROM {table} WHERE kind IN ({', '.join('?' * len(kinds))}) "
        "AND (kind, id) IN (SELECT kind, id FROM temp.forgotten)",
        kinds,
    )


def write_kind(
    batches: Iterable[pa.RecordBatch], out: sqlite3.Connection, kind: str, vocabulary: set[str], updating: bool = False
) -> int:
    """Every entity of `kind` exported (an update: those in scope, their previous rows deleted), as
    `entities` and `items` rows; the number written."""
    count = 0
    template = f"search:{kind}"  # its dictionary's name in `dicts`
    encode = kept_encoder(out, template) if updating else None
    fold = folding()
    for batch in batches:  # in key order
        entities, items, words = [], [], set()
        columns = batch.to_pydict()
        bodies = [item.encode() for item in columns["item"]]
        if encode is None:  # a build: the kind's dictionary from its first items
            encode = kept_encoder(out, template, bodies[:TRAINING_ITEMS])
        for entity_id, popularity, names, filters, item, known_for in zip(
            columns["id"],
            columns["popularity"],
            columns["names"],
            columns["filters"],
            map(encode, bodies),
            columns["known_for"],
        ):
            count += 1
            # Sorted, so a row depends on its entity alone (SQL's lists come in no particular order).
            folded = sorted({n for n in map(fold, filter(None, names)) if n})
            tokens = sorted({t for name in folded for t in name.split(" ")})
            words.update(tokens)
            entities.append(
                (
                    kind,
                    entity_id,
                    popularity or 0.0,
                    " ".join(tokens),
                    " ".join(sorted(set(filters or ()))),
                    "\n".join(folded),
                )
            )
            items.append((kind, entity_id, item, ",".join(known_for) if known_for else None))
        out.executemany("INSERT INTO entities VALUES (?, ?, ?, ?, ?, ?)", entities)
        out.executemany("INSERT INTO items VALUES (?, ?, ?, ?)", items)
        vocabulary.update(t for t in words if len(t) >= search_text.MIN_FUZZY and not search_text.is_cjk(t))
    return count


def folding(limit: int = FOLDED_NAMES) -> Callable[[str], str]:
    """search_text.normalized, remembering the last `limit` names it folded (forgotten all at once when
    full). Why: names repeat across entities (a person's name under every language, common titles):
    at 1M films 14.6M names are ~0.5M distinct, and folding each was ~5 µs of the index's one core."""
    folds: dict[str, str] = {}  # str to str: a dict the garbage collector does not track

    def fold(name: str) -> str:
        folded = folds.get(name)
        if folded is None:
            if len(folds) >= limit:
                folds.clear()
            folded = folds[name] = search_text.normalized(name)
        return folded

    return fold


def scoped_entities(out: sqlite3.Connection, kind: str, ids: list[int]) -> dict[int, tuple] | None:
    """The `entities` rows (popularity, tokens, filters, names) by id of `ids` of `kind` (an update's
    scope) as the index holds them now; None when the scope has none of that kind."""
    if not ids:
        return None
    out.execute("CREATE TEMP TABLE IF NOT EXISTS scope_ids (id INTEGER PRIMARY KEY)")
    out.execute("DELETE FROM temp.scope_ids")
    out.executemany("INSERT OR IGNORE INTO temp.scope_ids VALUES (?)", ((i,) for i in ids))
    return {
        row[0]: row[1:]
        for row in out.execute(
            "SELECT e.id, e.popularity, e.tokens, e.filters, e.names FROM temp.scope_ids s "
            "JOIN entities e ON e.kind = ? AND e.id = s.id",
            (kind,),
        )
    }


def terms_of(tokens: str, filters: str) -> set[str]:
    """The posting terms an entities row is in: its tokens, its filters marked, and the prefixes of
    its tokens (derive's rule)."""
    words = tokens.split(" ") if tokens else []
    return {*words, *(search_text.FILTER_MARK + f for f in (filters.split(" ") if filters else ()))} | {
        search_text.PREFIX_MARK + w[:length]
        for w in words
        if not w.startswith(search_text.FILTER_MARK)
        for length in range(1, min(search_text.STORED_PREFIX, len(w)) + 1)
    }


def rederive(out: sqlite3.Connection, kind: str, before: dict[int, tuple], after: dict[int, tuple]) -> bool:
    """Bring a kind's ranks, postings and exact names up to date with the rows an update wrote again,
    in place; False (nothing done) when the ranks themselves moved (an entity came, went or changed
    popularity), which only derive() can follow. Why: renaming 1% of a million films touched every
    person credited in them, and deriving films and people whole was most of the update (~70 s)."""
    if before.keys() != after.keys() or any(before[i][0] != after[i][0] for i in before):
        return False
    changed = {i for i in after if before[i] != after[i]}
    if not changed:
        return True
    ranks = {
        entity_id: rank
        for rank, entity_id in out.execute("SELECT rank, id FROM ranks WHERE kind = ?", (kind,))
        if entity_id in changed
    }
    adds: dict[str, list[int]] = defaultdict(list)
    removes: dict[str, list[int]] = defaultdict(list)
    for entity_id in sorted(changed):
        rank = ranks[entity_id]
        (_, old_tokens, old_filters, old_names), (_, tokens, filters, names) = before[entity_id], after[entity_id]
        old_terms, terms = terms_of(old_tokens, old_filters), terms_of(tokens, filters)
        for term in old_terms - terms:
            removes[term].append(rank)
        for term in terms - old_terms:
            adds[term].append(rank)
        if names != old_names:
            out.execute("UPDATE ranks SET names = ? WHERE kind = ? AND rank = ?", (names, kind, rank))
            old_set, new_set = ({n for n in text.split("\n") if n} for text in (old_names, names))
            out.executemany(
                "DELETE FROM exact WHERE kind = ? AND name = ? AND rank = ?",
                ((kind, name, rank) for name in old_set - new_set),
            )
            out.executemany("INSERT INTO exact VALUES (?, ?, ?)", ((kind, name, rank) for name in new_set - old_set))
    for term in adds.keys() | removes.keys():
        row = out.execute("SELECT ranks FROM postings WHERE kind = ? AND term = ?", (kind, term)).fetchone()
        bitmap = BitMap.deserialize(row[0]) if row else BitMap()
        bitmap -= BitMap(removes.get(term, ()))
        bitmap |= BitMap(adds.get(term, ()))
        if bitmap:
            out.execute("INSERT OR REPLACE INTO postings VALUES (?, ?, ?)", (kind, term, posting(bitmap)))
        else:
            out.execute("DELETE FROM postings WHERE kind = ? AND term = ?", (kind, term))
    return True


def posting(ranks: BitMap | array) -> bytes:
    """A postings row's bitmap, serialised from its ranks in order, so the same ranks are the same
    bytes however they were gathered (a union or an update of roaring bitmaps keeps the containers
    it grew into, and an update must equal a build byte for byte)."""
    return BitMap(ranks.to_array() if isinstance(ranks, BitMap) else ranks).serialize()


def derive(out: sqlite3.Connection, kind: str) -> None:
    """A kind's ranks, postings and exact names, from its `entities` rows: written whole, since a
    change of one popularity moves the ranks of every entity between its old and new place."""
    for table in ("ranks", "postings", "exact"):
        out.execute(f"DELETE FROM {table} WHERE kind = ?", (kind,))
    # Ranks go into an array per term (4 bytes each, not a Python int), and rows are written a batch
    # at a time: a million titles' people are millions of rows.
    postings: dict[str, array] = defaultdict(lambda: array("I"))
    ranks, exact = [], []
    # Names come in rank order, the table is in name order: they wait in a temp table, sorted once.
    out.execute("CREATE TEMP TABLE exact_pending (kind TEXT, name TEXT, rank INTEGER)")
    rows = out.cursor().execute(
        "SELECT id, popularity, tokens, filters, names FROM entities WHERE kind = ? ORDER BY popularity DESC, id",
        (kind,),
    )
    for rank, (entity_id, popularity, tokens, filters, names) in enumerate(rows):
        ranks.append((kind, rank, entity_id, popularity, names))
        for token in tokens.split(" ") if tokens else ():
            postings[token].append(rank)
        for token in filters.split(" ") if filters else ():
            postings[search_text.FILTER_MARK + token].append(rank)
        exact.extend((kind, name, rank) for name in names.split("\n") if name)
        if len(ranks) >= BATCH:
            out.executemany("INSERT INTO ranks VALUES (?, ?, ?, ?, ?)", ranks)
            out.executemany("INSERT INTO temp.exact_pending VALUES (?, ?, ?)", exact)
            ranks, exact = [], []
    out.executemany("INSERT INTO ranks VALUES (?, ?, ?, ?, ?)", ranks)
    out.executemany("INSERT INTO temp.exact_pending VALUES (?, ?, ?)", exact)
    out.execute("INSERT INTO exact SELECT kind, name, rank FROM temp.exact_pending ORDER BY name, rank")
    out.execute("DROP TABLE temp.exact_pending")
    prefixes: dict[str, BitMap] = defaultdict(BitMap)
    serialized = []
    for term in list(postings):
        bitmap = BitMap(postings.pop(term))  # from its ranks in order: what posting() would make
        serialized.append((kind, term, bitmap.serialize()))
        if not term.startswith(search_text.FILTER_MARK):
            for length in range(1, min(search_text.STORED_PREFIX, len(term)) + 1):
                prefixes[term[:length]] |= bitmap
    serialized.extend((kind, search_text.PREFIX_MARK + p, posting(b)) for p, b in prefixes.items())
    serialized.sort(key=lambda row: row[1])  # in key order
    out.executemany("INSERT INTO postings VALUES (?, ?, ?)", serialized)


def write_vocabulary(out: sqlite3.Connection, vocabulary: Iterable[str]) -> None:
    """New words and their deletions (an update keeps words no name has any more: they find nothing)."""
    terms = sorted(vocabulary)
    out.executemany("INSERT OR IGNORE INTO terms VALUES (?)", ((t,) for t in terms))
    out.executemany(
        "INSERT OR IGNORE INTO near VALUES (?, ?)",
        sorted((variant, term) for term in terms for variant in (term, *deletions(term))),
    )


def inputs_for_release(
    con: duckdb.DuckDBPyConnection, languages: list[str], release_dir: Path, previous: Path | None, scoped: bool
) -> Inputs:
    """What the index of a release is written from: an update of the previous release's when the
    build is scoped (it knows what changed), else the whole index."""
    target = Path(release_dir) / SEARCH_INDEX
    old = Path(previous) / SEARCH_INDEX if previous is not None else None
    return export(con, languages, target, old if scoped and can_update(old, languages) else None)


@contextmanager
def prepared_database(catalogue_dir: Path, settings, work_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The catalogue loaded into `work_dir` and its languages prepared, as a build has them before it
    writes a release's indexes: for building indexes without rendering a release (the benchmarks)."""
    from marquee_build.catalogue import load_database
    from site_gen import languages

    loaded = load_database(
        Path(catalogue_dir), Path(work_dir) / "search-database.duckdb", memory_gb=settings.build_memory_gb
    )
    try:
        languages.prepare(loaded.con, settings)
        yield loaded.con
    finally:
        loaded.con.close()
