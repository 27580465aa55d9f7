"""The release's discover index, `discover.sqlite` (marquee/artefacts.py): every film and series by
each value /3/discover/{movie,tv} filters on, and in each order it sorts by. edge/discover_index.py
reads it; the items themselves come from the search index (`items`, `texts`).

Films and series are numbered by popularity, most popular first (ties by id): a kind's `rank`.

Format (SQLite, written once, opened read-only and immutable):
- `facets(kind, facet, ranks)`: the ranks with each facet value, a roaring bitmap (pyroaring's
  portable serialisation). The facets and the SQL that lists them are FACETS below: `genre:28`,
  `cast:287`, `provider:US:8:flatrate` (region, provider, monetization; `*` for any region),
  `monetization:US:rent`, `release_type:US:3`, `certification:US:PG-13`, `mood:cozy`, `adult`, ...
- `columns(kind, name, sortable, valued, length, numeric, at, size, cuts, slices)`: a number (or
  day, or text) per entity, whose arrays are an extent of `discover.columns` beside the index (its
  format in marquee/discover_columns.py, with what the other fields say): the `length` ranks in
  ascending order of (value, id), entities without a value last by id; `valued` how many have a
  value; for numbers and days their float64 values in the same order, for range filters (binary
  search, then a slice of the ranks as a bitmap); for a sortable column each rank's place in its
  order, so a small result set is sorted without walking the whole order; for a large one the
  bitmaps of its slices. A column that is not sortable may list an entity several times (a film's
  release dates) and lists no entity without one; `release:{region}:shown` has one value a film, the
  date its items show with `region` (regional_releases' day), which a date order then sorts by.
  The column `id` holds each rank's id (int64 values, in rank order, no ranks). `title` and `name` are the default language's; `title.de-DE`
  (the variant's suffix) another served language's.
- `regional_releases(id, region, day)`: a film's release date in each country, its first theatrical
  one there (types 2, 3), else its first of any type: the date its items show with `region`
  (TMDB's presentation filter; without a release there they keep the primary date).
- `activity(kind, day, id, views)`: views by day (days since 1970) of films, series and people, from
  the catalogue's optional `activity` table (marquee_datasets/activity.py), for /3/trending; adult
  titles (and videos) are left out, and a person has a share of the views of the titles they are
  billed first, second or third in (ACTIVITY_SHARES). Empty without one: trending falls back on
  popularity and recency (edge/routes/trending.py).
- `meta(key, value)`: the format version, per kind the number of entities (`count:movie`), per
  country its film certifications from the mildest (`certifications:US`, one a line), for
  `certification.gte` and `.lte`, and `activity`, the MD5 of the activity file read (if any).

Written by every build; an update (for_release with the previous release and the tables its load
made again) copies from the previous index what its change cannot have reached. Facets and columns
hold ranks, so a kind's are copied only when every entity kept its rank (its `id` column holds the
same bytes): then its facets, all or none (a facet's name does not say which query made it), when
no query of FACETS reads a table made again, and each column when its query reads none. The
certifications, regional_releases and activity (its file's MD5 the same too) likewise. Only the
build SQL's tables are tracked: what reads one site_gen derives (tv_series_listed) is written. A
popularity change renumbers the kind and writes it whole; new titles write the title columns alone.
"""

from __future__ import annotations

import functools
import hashlib
import mmap
import sqlite3
import time
import warnings
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyroaring import BitMap

from marquee import discover_columns
from marquee.artefacts import DISCOVER_COLUMNS, DISCOVER_INDEX
from marquee_build.catalogue import build_steps
from site_gen.documents import tables_read

KINDS = {"movie": "movies", "tv": "tv_series"}  # kind -> its table (popularity, id)
BATCH = 10_000
EMPTY_COLUMN = pa.table({"rank": pa.array([], pa.int32()), "value": pa.array([], pa.int64())})

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE facets(kind TEXT, facet TEXT, ranks BLOB, PRIMARY KEY (kind, facet)) WITHOUT ROWID;
CREATE TABLE regional_releases(id INTEGER, region TEXT, day TEXT, PRIMARY KEY (id, region)) WITHOUT ROWID;
CREATE TABLE activity(kind TEXT, day INTEGER, id INTEGER, views INTEGER, PRIMARY KEY (kind, day, id)) WITHOUT ROWID;
CREATE TABLE columns(kind TEXT, name TEXT, sortable INTEGER, valued INTEGER, length INTEGER, "numeric" INTEGER,
                     at INTEGER, size INTEGER, cuts BLOB, slices BLOB, PRIMARY KEY (kind, name)) WITHOUT ROWID;
"""

DAYS = "date_diff('day', DATE '1970-01-01', CAST({} AS DATE))"

# (facet, id) per kind: each query lists the entities of one facet family. Values are parsed by
# edge/routes/discover.py into these very names.
# fmt: off
FACETS: dict[str, list[str]] = {
    "movie": [
        "SELECT 'genre:' || genre_id, movie_id FROM movie_genres",
        "SELECT 'keyword:' || keyword_id, movie_id FROM movie_keywords",
        "SELECT 'company:' || company_id, movie_id FROM movie_companies",
        'SELECT DISTINCT \'cast:\' || person_id, movie_id FROM "cast"',
        "SELECT DISTINCT 'crew:' || person_id, movie_id FROM crew",
        "SELECT DISTINCT 'country:' || c, id FROM (SELECT id, unnest(origin_country) AS c FROM movies)",
        "SELECT 'language:' || original_language, id FROM movies WHERE original_language IS NOT NULL",
        # A film's year is its release date's or, imported from IMDb without a date, its year alone.
        "SELECT 'year:' || y, id FROM (SELECT coalesce(year(release_date), release_year) AS y, id FROM movies) "
        "WHERE y IS NOT NULL",
        # `year` looks at every release date, the primary one included.
        "SELECT DISTINCT 'release_year:' || y, id FROM (SELECT year(release_date) AS y, movie_id AS id "
        "FROM movie_release_dates WHERE release_date IS NOT NULL UNION ALL SELECT coalesce(year(release_date), "
        "release_year), id FROM movies) WHERE y IS NOT NULL",
        "SELECT DISTINCT 'release_type:' || iso_3166_1 || ':' || type, movie_id FROM movie_release_dates",
        "SELECT DISTINCT 'release_type:*:' || type, movie_id FROM movie_release_dates",
        "SELECT DISTINCT 'certification:' || iso_3166_1 || ':' || certification, movie_id "
        "FROM movie_release_dates WHERE coalesce(certification, '') <> ''",
        "SELECT DISTINCT 'provider:' || iso_3166_1 || ':' || provider_id || ':' || kind, movie_id "
        "FROM movie_watch_providers",
        "SELECT DISTINCT 'provider:*:' || provider_id || ':' || kind, movie_id FROM movie_watch_providers",
        "SELECT DISTINCT 'monetization:' || iso_3166_1 || ':' || kind, movie_id FROM movie_watch_providers",
        "SELECT DISTINCT 'monetization:*:' || kind, movie_id FROM movie_watch_providers",
        "SELECT 'mood:' || lower(mood), owner_id FROM moods WHERE owner = 'movie'",
        "SELECT 'adult', id FROM movies WHERE adult",
        "SELECT 'video', id FROM movies WHERE video",
    ],
    "tv": [
        "SELECT 'genre:' || genre_id, series_id FROM series_genres",
        "SELECT 'keyword:' || keyword_id, series_id FROM series_keywords",
        "SELECT 'company:' || company_id, series_id FROM series_companies",
        "SELECT 'network:' || network_id, series_id FROM series_networks",
        "SELECT DISTINCT 'country:' || c, id FROM (SELECT id, unnest(origin_country) AS c FROM tv_series)",
        "SELECT 'language:' || original_language, id FROM tv_series WHERE original_language IS NOT NULL",
        "SELECT 'year:' || y, id FROM (SELECT coalesce(year(first_air_date), first_air_year) AS y, id "
        "FROM tv_series) WHERE y IS NOT NULL",
        "SELECT 'status:' || status, id FROM tv_series WHERE status IS NOT NULL",
        "SELECT 'type:' || type, id FROM tv_series WHERE type IS NOT NULL",
        "SELECT DISTINCT 'provider:' || iso_3166_1 || ':' || provider_id || ':' || kind, series_id "
        "FROM series_watch_providers",
        "SELECT DISTINCT 'provider:*:' || provider_id || ':' || kind, series_id FROM series_watch_providers",
        "SELECT DISTINCT 'monetization:' || iso_3166_1 || ':' || kind, series_id FROM series_watch_providers",
        "SELECT DISTINCT 'monetization:*:' || kind, series_id FROM series_watch_providers",
        "SELECT 'mood:' || lower(mood), owner_id FROM moods WHERE owner = 'tv'",
        "SELECT 'adult', id FROM tv_series WHERE adult",
        # Unknown, not only undated: a series imported from IMDb has its year alone, and is no less aired.
        "SELECT 'no_first_air_date', id FROM tv_series WHERE first_air_date IS NULL AND first_air_year IS NULL",
    ],
}
# fmt: on

# name -> (SQL of (id, value), sortable). A sortable column has a row for every entity (NULL when
# it has no value); the others list (id, value) pairs, as many as an entity has.
# fmt: off
COLUMNS: dict[str, dict[str, tuple[str, bool]]] = {
    "movie": {
        "popularity": ("SELECT id, popularity FROM movies", True),
        "vote_average": ("SELECT id, vote_average FROM movies", True),
        "vote_count": ("SELECT id, vote_count FROM movies", True),
        "revenue": ("SELECT id, revenue FROM movies", True),
        "primary_release_date": (f"SELECT id, {DAYS.format('release_date')} FROM movies", True),
        "title": ("SELECT m.id, lower(coalesce(nullif(t.title, ''), m.original_title)) FROM movies m "
                  "LEFT JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = getvariable('iso_639_1') "
                  "AND t.iso_3166_1 = getvariable('iso_3166_1')", True),
        "original_title": ("SELECT id, lower(original_title) FROM movies", True),
        "runtime": ("SELECT id, runtime FROM movies WHERE runtime IS NOT NULL", False),
        # release_date.gte/lte: a film's release dates of a type in a region (`*`: any).
        "release:*:*": (f"SELECT movie_id, {DAYS.format('release_date')} FROM movie_release_dates "
                        "WHERE release_date IS NOT NULL", False),
        **{f"release:*:{t}": (f"SELECT movie_id, {DAYS.format('release_date')} FROM movie_release_dates "
                              f"WHERE release_date IS NOT NULL AND type = {t}", False) for t in range(1, 7)},
    },
    "tv": {
        "popularity": ("SELECT id, popularity FROM tv_series", True),
        "vote_average": ("SELECT id, vote_average FROM tv_series", True),
        "vote_count": ("SELECT id, vote_count FROM tv_series", True),
        "first_air_date": (f"SELECT id, {DAYS.format('first_air_date')} FROM tv_series", True),
        "name": ("SELECT id, lower(name) FROM tv_series_listed", True),
        "original_name": ("SELECT id, lower(original_name) FROM tv_series", True),
        "runtime": ("SELECT id, episode_run_time[1] FROM tv_series WHERE episode_run_time[1] IS NOT NULL", False),
        "air_date": (f"SELECT series_id, {DAYS.format('air_date')} FROM tv_episodes WHERE air_date IS NOT NULL",
                     False),
    },
}
# fmt: on
# The date a film's items show with `region` (TMDB's presentation filter): its first theatrical
# release there (types 2, 3), else its first of any type, per (film, country) of movie_release_dates.
SHOWN_RELEASE = (
    "coalesce(min(CAST(release_date AS DATE)) FILTER (WHERE type IN (2, 3)), min(CAST(release_date AS DATE)))"
)
# Per region, the release columns (`release:{region}:{t}`, `*`: any type) of each country with a
# release (regional_columns), and `release:{region}:shown`, the date shown there (SHOWN_RELEASE),
# which a date order with `region` sorts by (edge/routes/discover.py): all from this one query, one
# sort of its rows, each column a run of them (regional_tables). A query a column, a scan and sort
# of the release dates each, cost ~250 queries for the sample (most of its index's time) and
# ~1,750 for TMDB's countries.
REGIONAL_RELEASES = f"""
SELECT iso_3166_1 AS region, CAST(type AS VARCHAR) AS t, movie_id AS id, {DAYS.format("release_date")} AS value
FROM movie_release_dates WHERE release_date IS NOT NULL
UNION ALL
SELECT iso_3166_1, '*', movie_id, {DAYS.format("release_date")} FROM movie_release_dates WHERE release_date IS NOT NULL
UNION ALL
SELECT iso_3166_1, 'shown', movie_id, {DAYS.format(SHOWN_RELEASE)} FROM movie_release_dates
WHERE release_date IS NOT NULL GROUP BY movie_id, iso_3166_1
"""
REGIONAL_TYPES = ("*", *map(str, range(1, 7)), "shown")  # a region's columns, `release:{region}:{t}`


# meta's per country, from the mildest, one a line
CERTIFICATIONS = (
    "SELECT 'certifications:' || iso_3166_1, string_agg(certification, chr(10) ORDER BY \"order\", "
    "certification) FROM certifications GROUP BY iso_3166_1"
)
FIRST_RELEASES = f"""
SELECT movie_id, iso_3166_1, strftime({SHOWN_RELEASE}, '%Y-%m-%d')
FROM movie_release_dates WHERE release_date IS NOT NULL GROUP BY movie_id, iso_3166_1
"""
ACTIVITY_SHARES = (0.5, 0.3, 0.2)  # of a title's views, to its cast billed first, second and third
ACTIVITY = """
WITH a AS (SELECT kind, id, date_diff('day', DATE '1970-01-01', day) AS day, views FROM read_parquet(?)),
titles AS (
    SELECT a.* FROM a JOIN movies m ON a.kind = 'movie' AND m.id = a.id WHERE NOT m.adult AND NOT m.video
    UNION ALL SELECT a.* FROM a JOIN tv_series s ON a.kind = 'tv' AND s.id = a.id WHERE NOT s.adult),
billed AS (
    SELECT 'movie' AS kind, movie_id AS title, person_id, "order" AS billed FROM "cast" WHERE "order" < 3
    UNION ALL SELECT 'tv', series_id, person_id, "order" FROM series_cast WHERE "order" < 3)
SELECT kind, day, id, views FROM titles
UNION ALL
SELECT 'person', t.day, b.person_id, sum(floor(t.views * list_extract(?, b.billed + 1)))::BIGINT
FROM titles t JOIN billed b ON b.kind = t.kind AND b.title = t.id JOIN people p ON p.id = b.person_id
WHERE NOT p.adult GROUP BY ALL
"""


@dataclass(frozen=True)
class DiscoverSummary:
    counts: dict[str, int]
    facets: int
    bytes: int
    seconds: float
    # The parts of the index (`facets:movie`, `columns:movie:title`, `meta:certifications`,
    # `regional_releases`, `activity`) copied from the previous release's, and the ones written.
    copied: frozenset[str] = field(default_factory=frozenset)
    written: frozenset[str] = field(default_factory=frozenset)

    def line(self) -> str:
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in self.counts.items())
        reused = (
            f" ({len(self.copied):,} of {len(self.copied) + len(self.written):,} parts copied from the previous "
            f"release's)"
            if self.copied
            else ""
        )
        return (
            f"discover index built: {kinds}; {self.facets:,} facet values; {self.bytes / 1e6:,.1f} MB in "
            f"{self.seconds:.1f} s{reused}"
        )


# Per served language other than the default, the title (name) as the items show it there: the
# translation's, else the original (site_gen/sql/search_texts.sql's rule), for sort_by=title.
# fmt: off
LANGUAGE_TITLES = {
    "movie": ("title", "SELECT m.id, lower(coalesce(nullif(t.title, ''), m.original_title)) FROM movies m "
                       "LEFT JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = '{language}' "
                       "AND t.iso_3166_1 = '{region}'"),
    "tv": ("name", "SELECT s.id, lower(coalesce(nullif(t.name, ''), s.original_name)) FROM tv_series s "
                   "LEFT JOIN series_translations t ON t.series_id = s.id AND t.iso_639_1 = '{language}' "
                   "AND t.iso_3166_1 = '{region}'"),
}
# fmt: on


def language_columns(con: duckdb.DuckDBPyConnection, kind: str) -> dict[str, tuple[str, bool]]:
    name, query = LANGUAGE_TITLES[kind]
    variants = con.execute(
        "SELECT suffix, iso_639_1, iso_3166_1 FROM render_variants WHERE kind = 'other' ORDER BY suffix"
    ).fetchall()
    return {
        name + suffix: (query.format(language=language, region=region), True) for suffix, language, region in variants
    }


def regional_columns(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, bool]]:
    """Each country's release columns, made by REGIONAL_RELEASES (the query whose tables say whether
    the previous index's may be copied)."""
    regions = [r for (r,) in con.execute("SELECT DISTINCT iso_3166_1 FROM movie_release_dates ORDER BY 1").fetchall()]
    return {f"release:{region}:{t}": (REGIONAL_RELEASES, False) for region in regions for t in REGIONAL_TYPES}


def regional_tables(con: duckdb.DuckDBPyConnection) -> dict[str, pa.Table]:
    """Each regional release column's (rank, value) rows in its order (write_column's), by name: one
    sorted result sliced at the runs a count of each column's rows in the same order marks."""
    ranked = f"FROM ({REGIONAL_RELEASES}) c JOIN discover_ranks r ON r.id = c.id"
    rows = arrow_of(con, f"SELECT r.rank, c.value {ranked} ORDER BY c.region, c.t, c.value, c.id")
    counts = con.execute(f"SELECT c.region, c.t, count(*) {ranked} GROUP BY ALL ORDER BY 1, 2").fetchall()
    tables, at = {}, 0
    for region, t, count in counts:
        tables[f"release:{region}:{t}"] = rows.slice(at, count)
        at += count
    assert at == rows.num_rows
    return tables


class Previous:
    """The previous release's index, attached read-only to the one being written; a part of it is
    copied when the queries making it read no table the load made again (`reloaded`)."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        out: sqlite3.Connection,
        index: Path | None,
        reloaded: set[str] | None,
        columns: discover_columns.Writer,
    ) -> None:
        self.con, self.out, self.columns = con, out, columns
        self.reloaded = {name.lower() for name in reloaded or ()}
        self.attached = index is not None and reloaded is not None and index.is_file()
        self.data: bytes | mmap.mmap = b""  # the previous index's columns file
        if self.attached:  # outside a transaction, as SQLite requires
            out.execute("ATTACH DATABASE ? AS previous", (index.resolve().as_uri() + "?mode=ro",))
            if self.value("format") != discover_columns.FORMAT:  # another layout: nothing of it is copied
                out.execute("DETACH DATABASE previous")
                self.attached = False
            else:
                self.data = discover_columns.open_file(index.with_name(DISCOVER_COLUMNS))

    def value(self, key: str) -> str | None:
        rows = self.out.execute("SELECT value FROM previous.meta WHERE key = ?", (key,)).fetchall()
        return rows[0][0] if rows else None

    def ids(self, kind: str) -> bytes | None:
        """The `id` column of `kind`: its entities in rank order."""
        rows = (
            self.out.execute(
                "SELECT at, valued FROM previous.columns WHERE kind = ? AND name = 'id'", (kind,)
            ).fetchall()
            if self.attached
            else []
        )
        return self.data[rows[0][0] : rows[0][0] + 8 * rows[0][1]] if rows else None

    def unchanged(self, *queries: str) -> bool:
        """Whether none of the queries reads a table made again. Only the build SQL's tables are
        tracked: one of site_gen's (tv_series_listed) counts as changed. The variables they read (the
        default language) and the code are the same, or the load started afresh, reloading every
        table (marquee_build/state.py). A file a query reads is not a table: its caller proves it."""
        if not self.attached:
            return False
        for query in queries:
            tables = {name.lower() for name in tables_read(self.con, query, "a discover query")}
            if tables & self.reloaded or not tables <= build_tables():
                return False
        return True

    def copy(self, table: str, where: str, params: tuple) -> int:
        if table != "columns":
            return self.out.execute(
                f"INSERT INTO main.{table} SELECT * FROM previous.{table} WHERE {where}", params
            ).rowcount
        rows = self.out.execute(f"SELECT * FROM previous.columns WHERE {where}", params).fetchall()
        for *head, at, size, cuts, slices in rows:  # their arrays too, each where the file now ends
            self.out.execute(
                "INSERT INTO columns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*head, self.columns.copy(self.data, at, size), size, cuts, slices),
            )
        return len(rows)


@functools.cache
def build_tables() -> frozenset[str]:
    """What the build SQL makes: the objects `reloaded` tells of."""
    return frozenset(step.creates.lower() for step in build_steps() if step.creates)


def build(
    con: duckdb.DuckDBPyConnection,
    target: Path,
    catalogue_dir: Path | None = None,
    previous: Path | None = None,
    reloaded: set[str] | None = None,
) -> DiscoverSummary:
    """Write the discover index of the database `con` holds (after site_gen.languages.prepare), with
    the activity of `catalogue_dir` when it has some. With `previous` (the previous release's index)
    and `reloaded` (the tables the load made again), what would come out the same is copied from it."""
    started = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    columns_file = target.with_name(DISCOVER_COLUMNS)
    columns_partial = columns_file.with_name(columns_file.name + ".partial")
    handle = open(columns_partial, "wb")
    arrays = discover_columns.Writer(handle)
    out = sqlite3.connect(partial.resolve().as_uri(), uri=True)  # a URI, so that ATTACH takes one
    counts, facets, copied, written = {}, 0, set(), set()

    def part(name: str, reusable: bool, table: str, where: str, params: tuple, write: Callable[[], int | None]) -> int:
        """Part `name`: the previous index's rows of `table` matching `where` when `reusable`, else
        write()'s; the number of rows copied, else what write() returns. A reusable part the previous
        index has no rows of was empty there too (a country without theatrical releases), and is not
        written again: at 1M films that made every update sort all regional releases (7 s)."""
        if reusable:
            copied.add(name)
            return kept.copy(table, where, params)
        written.add(name)
        return write() or 0

    try:
        out.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192;" + SCHEMA)
        kept = Previous(con, out, previous, reloaded, arrays)
        out.execute("INSERT INTO meta VALUES ('format', ?)", (discover_columns.FORMAT,))
        part(
            "meta:certifications",
            kept.unchanged(CERTIFICATIONS),
            "meta",
            "key LIKE 'certifications:%'",
            (),
            lambda: write_rows(out, "meta", con.execute(CERTIFICATIONS)),
        )
        for kind, table in KINDS.items():
            con.execute(
                f"CREATE OR REPLACE TEMP TABLE discover_ranks AS SELECT id, "
                f"(row_number() OVER (ORDER BY popularity DESC NULLS LAST, id) - 1)::INTEGER AS rank "
                f"FROM {table}"
            )
            ids = con.sql("SELECT id FROM discover_ranks ORDER BY rank").to_arrow_table().column("id")
            ids = ids.to_numpy().astype(np.int64)
            counts[kind] = count = len(ids)
            out.execute("INSERT INTO meta VALUES (?, ?)", (f"count:{kind}", str(count)))
            insert_column(out, kind, "id", False, count, True, arrays.add(ids, np.empty(0, np.uint32), None, count))
            ids = ids.tobytes()
            # Facets and columns hold ranks: the previous ones are this build's only if every entity kept its rank.
            ranked = kept.ids(kind) == ids
            facets += part(
                f"facets:{kind}",
                ranked and kept.unchanged(*FACETS[kind]),
                "facets",
                "kind = ?",
                (kind,),
                lambda: write_facets(con, out, kind),
            )
            regional = regional_columns(con) if kind == "movie" else {}
            regional_rows = functools.cache(lambda: regional_tables(con))  # once, if any is written
            # Only the names this build writes are copied: a region without releases any more is gone.
            for name, (query, sortable) in dict(COLUMNS[kind], **language_columns(con, kind), **regional).items():
                part(
                    f"columns:{kind}:{name}",
                    ranked and kept.unchanged(query),
                    "columns",
                    "kind = ? AND name = ?",
                    (kind, name),
                    lambda: write_column(
                        out,
                        arrays,
                        kind,
                        name,
                        regional_rows().get(name, EMPTY_COLUMN) if name in regional else column_rows(con, query),
                        sortable,
                        count,
                    ),
                )
        part(
            "regional_releases",
            kept.unchanged(FIRST_RELEASES),
            "regional_releases",
            "1",
            (),
            lambda: write_rows(out, "regional_releases", con.execute(FIRST_RELEASES)),
        )
        activity = Path(catalogue_dir) / "activity.parquet" if catalogue_dir is not None else None
        if activity is not None and activity.is_file():
            # Not a table: its digest, kept in meta, proves the previous index read the same views.
            with open(activity, "rb") as handle:
                digest = hashlib.file_digest(handle, "md5").hexdigest()
            out.execute("INSERT INTO meta VALUES ('activity', ?)", (digest,))
            part(
                "activity",
                kept.unchanged(ACTIVITY) and kept.value("activity") == digest,
                "activity",
                "1",
                (),
                lambda: write_rows(out, "activity", con.execute(ACTIVITY, [str(activity), list(ACTIVITY_SHARES)])),
            )
        out.commit()
    finally:
        out.close()
        handle.close()
    columns_partial.replace(columns_file)  # first: the index names it
    partial.replace(target)
    return DiscoverSummary(
        counts, facets, target.stat().st_size, time.perf_counter() - started, frozenset(copied), frozenset(written)
    )


def write_rows(out: sqlite3.Connection, table: str, cursor: duckdb.DuckDBPyConnection) -> None:
    while rows := cursor.fetchmany(BATCH):
        out.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)


def write_facets(con: duckdb.DuckDBPyConnection, out: sqlite3.Connection, kind: str) -> int:
    union = " UNION ALL ".join(f"SELECT * FROM ({query})" for query in FACETS[kind])
    written = 0
    query = (
        f"SELECT f.facet, list(r.rank ORDER BY r.rank) AS ranks FROM ({union}) f(facet, id) "
        f"JOIN discover_ranks r ON r.id = f.id WHERE f.facet IS NOT NULL GROUP BY f.facet ORDER BY f.facet"
    )
    # In key order: SQLite appends to its B-tree rather than splitting pages all over it. At 1M films
    # the 4.06M facets in GROUP BY's order cost 81.6 CPU s, sorted 54.7 (docs/benchmarks.md, session 51).
    for batch in con.sql(query).to_arrow_reader(BATCH):
        # Each facet's ranks a slice of the batch's one flat array (at 1M films the cast and crew
        # facets alone list ~35M ranks: not a Python int each).
        lists = batch.column("ranks")
        flat = lists.values.to_numpy().astype(np.uint32)
        offsets = lists.offsets.to_numpy() - lists.offsets[0].as_py()
        rows = [
            (kind, facet, BitMap(array("I", flat[start:end].tobytes())).serialize())
            for facet, start, end in zip(batch.column("facet").to_pylist(), offsets[:-1], offsets[1:])
        ]
        out.executemany("INSERT INTO facets VALUES (?, ?, ?)", rows)
        written += len(rows)
    return written


def arrow_of(con: duckdb.DuckDBPyConnection, query: str) -> pa.Table:
    """`query`'s rows as Arrow, the statement planned once. `con.sql()` binds a statement, then runs
    it (DuckDB 2.0's relations plan it twice): ~1.6 ms more a query, and an index runs one a column
    (~300 for the sample, a fifth of its build's CPU). The copy DuckDB warns a DB-API result's Arrow
    makes is one column's ranks and values: ~12 MB at 1M films."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Arrow output on a DB-API result", UserWarning)
        return con.execute(query).to_arrow_table()


def column_rows(con: duckdb.DuckDBPyConnection, query: str) -> pa.Table:
    """The (rank, value) rows of a column's `query` (its (id, value) pairs), in the column's order."""
    return arrow_of(
        con,
        f"SELECT r.rank, c.value FROM ({query}) c(id, value) JOIN discover_ranks r ON r.id = c.id "
        f"ORDER BY c.value NULLS LAST, c.id",
    )


def write_column(
    out: sqlite3.Connection,
    arrays: discover_columns.Writer,
    kind: str,
    name: str,
    table: pa.Table,
    sortable: bool,
    count: int,
) -> None:
    """Column `name` from its rows (column_rows'): Arrow arrays made numpy ones, not a Python tuple per row."""
    if not table.num_rows and not sortable:
        return
    ranks = table.column("rank").to_numpy().astype(np.uint32)
    value = table.column("value")
    valued = len(value) - value.null_count
    text = pa.types.is_string(value.type) or pa.types.is_large_string(value.type)
    values = None  # a text column's; one without any value is numeric (an empty `values`), as it always was
    if not (text and valued):
        values = np.asarray(pc.drop_null(value).to_numpy(zero_copy_only=False), dtype=np.float64)
    positions = None
    if sortable:
        assert len(ranks) == count, f"{kind}.{name}: a sortable column needs a row for every entity"
        positions = np.zeros(count, np.uint32)
        positions[ranks] = np.arange(count, dtype=np.uint32)
    insert_column(out, kind, name, sortable, valued, values is not None, arrays.add(values, ranks, positions, valued))


def insert_column(
    out: sqlite3.Connection,
    kind: str,
    name: str,
    sortable: bool,
    valued: int,
    numeric: bool,
    placed: discover_columns.Placed,
) -> None:
    out.execute(
        "INSERT INTO columns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            kind,
            name,
            int(sortable),
            valued,
            placed.length,
            int(numeric),
            placed.at,
            placed.size,
            placed.cuts,
            placed.slices,
        ),
    )


def for_release(
    con: duckdb.DuckDBPyConnection,
    release_dir: Path,
    catalogue_dir: Path,
    previous: Path | None = None,
    reloaded: set[str] | None = None,
) -> DiscoverSummary:
    """Build the release's index; in an update (`previous`, the previous release, and `reloaded`, the
    tables its load made again) copying from the previous one what did not change."""
    kept = Path(previous) / DISCOVER_INDEX if previous is not None else None
    return build(con, Path(release_dir) / DISCOVER_INDEX, catalogue_dir, kept, reloaded)
