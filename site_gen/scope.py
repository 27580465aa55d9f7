"""Render scope: what an incremental rebuild must render again, found by content hashes of its inputs.

Every row of every table in the build database is hashed into each entity it names: a `cast` row
(movie_id, person_id) counts for its film and for its person, a `movies` row for its film and its
collection. An entity whose hash differs from the previous release's (ENTITIES/, a file per table) has
changed; since a row counts for both ends, a link removed (a film leaving a collection) changes
both. Tables naming no entity (countries, genre name maps), the languages served and the code that
renders are hashed whole: if any of them changed, everything is rendered.

A document whose path names an entity of kind K (its first placeholder: /3/person/{person_id}/...)
is rendered again when that entity changed or is linked by one row of any table to an entity that
changed (a film credited with a person whose name changed). LINK_TEMPLATES and LINK_SOURCES narrow
the links that reach only some templates, or only from some tables: composite documents
(marquee/packs.py) show other entities through their item documents, so a renamed film rewrites
its item and no list or credits document that references it.
Templates whose SQL applies `in_scope(kind, id)` to that entity (`scoped` in site_gen/templates.py)
render only those; the rest of the template's previous documents are kept by their hash. A template of kind K without the filter is
rendered whole if anything of kind K is in scope, else not at all; so is a template of a part
whose id does not name its owner (an episode group's, site_gen/templates.py PLACEHOLDER_OWNERS),
by its owner's kind. Templates naming no entity (configuration, genre lists, certification lists)
are always rendered whole.

A test rebuilds after changing rows of every catalogue table and requires the rebuilt pack to equal
a full build's, which is what keeps these rules honest.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import duckdb

from marquee_build.catalogue import SQL_DIR as BUILD_SQL_DIR
from site_gen import templates
from site_gen.templates import template_kind, template_owner

# Columns naming an entity, by column name (any table) or (table, column).
# fmt: off
KEY_COLUMNS: dict[str, str] = {
    "movie_id": "movie", "person_id": "person", "series_id": "series", "season_id": "season",
    "episode_id": "episode", "collection_id": "collection", "company_id": "company",
    "keyword_id": "keyword", "network_id": "network", "genre_id": "genre", "soundtrack_id": "soundtrack",
    "provider_id": "provider", "list_id": "list",
}
# fmt: on
# fmt: off
TABLE_KEY_COLUMNS: dict[tuple[str, str], str] = {
    ("movies", "id"): "movie", ("people", "id"): "person", ("credit_people", "id"): "person",
    ("tv_series", "id"): "series", ("tv_seasons", "id"): "season", ("tv_episodes", "id"): "episode",
    ("collections", "id"): "collection", ("companies", "id"): "company", ("networks", "id"): "network",
    ("keywords", "id"): "keyword", ("tv_keywords", "id"): "keyword", ("genres", "id"): "genre", ("lists", "id"): "list",
    ("tv_genres", "id"): "genre", ("soundtracks", "id"): "soundtrack",
    ("movie_related", "other_id"): "movie",
    ("companies", "parent_company_id"): "company",
}
# fmt: on
# Links followed one way only: (table, column) whose entity the table's rows never reach. A film's
# similar and recommended lists show other films, which show nothing of the film: a row neither
# changes the listed film nor puts it in scope when the listing film changes.
ONE_WAY: frozenset[tuple[str, str]] = frozenset({("movie_related", "other_id")})
# Links that reach only some templates (of either kind the table links), or none. A film's similar
# and recommended lists are composites (marquee/packs.py): they hold a reference to each film's item
# document, which changes with the film, so a listed film reaches no list; the list changes with its
# movie_related rows, which count for the listing film. A credit shows the
# film in its person's movie and combined credits and the person in the film's credits; a renamed
# film leaves its people's details, images and translations as they were (at 100k movies, 887
# renamed films reach 15k people: their ~1M other person documents were rendered for nothing).
# The OMDb documents of a film name its director, writers and actors: a renamed person reaches them too.
# fmt: off
_CREDIT_TEMPLATES = (templates.MOVIE_CREDITS, templates.PERSON_MOVIE_CREDITS, templates.PERSON_COMBINED_CREDITS,
                     templates.COMPAT_MOVIE, templates.COMPAT_MOVIE + "/full")
# fmt: on
# A public list shows its titles as references to their items, so a changed title reaches no list;
# a changed list (its name, its entries) reaches the `lists` pages of the titles on it.
# fmt: off
LINK_TEMPLATES: dict[str, tuple[str, ...]] = {
    "movie_related": (),
    "list_items": (templates.MOVIE + "/lists", templates.TV + "/lists"),
    "cast": _CREDIT_TEMPLATES,
    "crew": _CREDIT_TEMPLATES,
}
# fmt: on
# Links that carry only some tables' changes of the other end: a credit shows its film in the
# person's credits as a reference to the film's item (marquee/packs.py), so only the film's own row
# (its release date orders the credits; its removal drops the credit) changes them. A new title
# rewrites the film's item, not the credits of its people (15k of them for 887 films at 100k).
# fmt: off
LINK_SOURCES: dict[str, dict[str, tuple[str, ...]]] = {
    "cast": {"movie": ("movies",)},
    "crew": {"movie": ("movies",)},
}
# fmt: on
# Tables with (owner, owner_id): the owner's kind by its value.
# fmt: off
OWNER_KINDS: dict[str, str] = {"movie": "movie", "tv": "series", "season": "season", "episode": "episode",
                               "collection": "collection", "person": "person", "company": "company"}
# fmt: on
# Entity hashes of a release: a folder with a Parquet file per table (`tbl=<table>/`, DuckDB's
# PARTITION_BY), so an update hashes, compares and writes only the tables it loaded again and
# links the others' files (at 100k movies, ~15M rows: sorting, joining and writing them all cost
# ~3 s of a 1% rebuild).
ENTITIES_NAME = "ENTITIES"
WHOLE = "whole"  # a kind's name in entity_hashes for tables hashed whole, the settings and the code
_CODE_DIRS = ("sql", "schemas")


def key_columns(con: duckdb.DuckDBPyConnection, tables: list[str]) -> dict[str, list[tuple[str, str]]]:
    """Each of the tables with its entity columns [(column, kind)], [] for none; ("owner_id", "owner")
    marks a table whose rows name their owner's kind."""
    found: dict[str, list[tuple[str, str]]] = {table: [] for table in tables}
    for table, column in con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = current_database() "
        "AND NOT internal AND table_name IN (SELECT unnest(?::VARCHAR[])) ORDER BY table_name, column_index",
        [tables],
    ).fetchall():
        kind = TABLE_KEY_COLUMNS.get((table, column)) or KEY_COLUMNS.get(column)
        if kind is not None:
            found[table].append((column, kind))
        elif column == "owner_id":
            found[table].append((column, "owner"))
    return found


def rendered_settings(settings) -> tuple[str, ...]:
    """The settings documents show: the languages served, and the image host the OMDb documents'
    posters name (site_gen/compat.py). A change of either renders everything again."""
    return (*settings.languages, settings.image_secure_base_url)


def code_fingerprint(languages: tuple[str, ...] | list[str]) -> str:
    """A hash of what renders documents besides the catalogue: the settings they show (the languages
    served, rendered_settings) and the code."""
    digest = hashlib.md5(",".join(languages).encode())
    here = Path(__file__).resolve().parent
    build = BUILD_SQL_DIR.parent
    for path in sorted(
        [
            *here.glob("*.py"),
            *build.glob("*.py"),
            *(p for d in _CODE_DIRS for p in (here / d).iterdir() if p.is_file()),  # not __pycache__
            *BUILD_SQL_DIR.glob("*.sql"),
        ]
    ):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def hash_entities(
    con: duckdb.DuckDBPyConnection,
    languages: tuple[str, ...] | list[str],
    tables: list[str],
    created: set[str] | None = None,
    previous: Path | None = None,
) -> None:
    """Create the temp table entity_hashes(tbl, kind, id, hash): for each table, one hash per entity
    over the rows that name it; a table naming none has one row of kind 'whole', and so has the code
    (tbl ''). entity_tables(tbl, reused) lists every table.

    When `created` names the tables this build loaded anew, the other tables are not hashed again:
    their hashes are the previous release's (reused), and entity_hashes holds only the created."""
    reuse = _entities_folder(previous) if created is not None else None
    parts, reused = [], []
    for table, columns in key_columns(con, tables).items():
        if reuse is not None and table not in created and (reuse / _partition(table)).is_dir():
            reused.append(table)
            continue
        quoted = _identifier(table)
        rows: list[str] = []
        if not columns:
            rows.append(f"SELECT '{WHOLE}' AS kind, 0::BIGINT AS id, hash('{table}', t) AS h FROM {quoted} t")
        for column, kind in columns:
            if (table, column) in ONE_WAY:
                continue
            if kind == "owner":
                cases = " ".join(f"WHEN '{value}' THEN '{owner}'" for value, owner in OWNER_KINDS.items())
                rows.append(
                    f"SELECT CASE owner {cases} ELSE '{WHOLE}:' || owner END AS kind, "
                    f"owner_id::BIGINT AS id, hash(t) AS h FROM {quoted} t"
                )
            else:
                rows.append(
                    f"SELECT '{kind}' AS kind, \"{column}\"::BIGINT AS id, hash(t) AS h "
                    f'FROM {quoted} t WHERE "{column}" IS NOT NULL'
                )
        parts.append(
            f"SELECT '{table}' AS tbl, kind, id, hash(sum(h)) AS hash FROM ("
            + " UNION ALL ".join(rows)
            + ") GROUP BY kind, id"
        )
    parts.append(f"SELECT '' AS tbl, '{WHOLE}' AS kind, 0::BIGINT AS id, hash('{code_fingerprint(languages)}') AS hash")
    con.execute(
        "CREATE OR REPLACE TEMP TABLE entity_hashes AS SELECT tbl, kind, id::BIGINT AS id, hash FROM ("
        + " UNION ALL ".join(parts)
        + ") ORDER BY tbl, kind, id"
    )
    con.execute("CREATE OR REPLACE TEMP TABLE entity_tables (tbl VARCHAR, reused BOOLEAN)")
    con.executemany("INSERT INTO entity_tables VALUES (?, ?)", [(table, table in reused) for table in tables])


def _partition(table: str) -> str:
    return f"tbl={table}"


def _entities_folder(release: Path | None) -> Path | None:
    """The release's entity hashes folder when it has one in this layout."""
    path = Path(release) / ENTITIES_NAME if release is not None else None
    return path if path is not None and path.is_dir() and (path / _partition("")).is_dir() else None


def _entity_rows(folder: Path, tables: list[str]) -> str:
    """SQL: the (tbl, kind, id, hash) rows of these tables ('' for the code) in an entities folder."""
    globs = [str(folder / _partition(table) / "*.parquet") for table in tables if (folder / _partition(table)).is_dir()]
    if not globs:
        return "(SELECT NULL::VARCHAR AS tbl, NULL::VARCHAR AS kind, NULL::BIGINT AS id, NULL::UBIGINT AS hash WHERE false)"
    return (
        f"(SELECT tbl, kind, id, hash FROM read_parquet({globs!r}, hive_partitioning = true, "
        f"hive_types = {{'tbl': VARCHAR}}))"
    )


def save_entities(con: duckdb.DuckDBPyConnection, release: Path, previous: Path | None = None) -> None:
    """Write the entity hashes into the release: the tables hashed now, and a hard link to the
    previous release's file of each table reused."""
    folder = Path(release) / ENTITIES_NAME
    con.execute(f"COPY entity_hashes TO '{folder}' (FORMAT parquet, PARTITION_BY (tbl), COMPRESSION zstd)")
    reused = [table for (table,) in con.execute("SELECT tbl FROM entity_tables WHERE reused").fetchall()]
    source = _entities_folder(previous)
    for table in reused:
        assert source is not None, "tables are reused only from a previous release"
        (folder / _partition(table)).mkdir()
        for path in (source / _partition(table)).iterdir():
            os.link(path, folder / _partition(table) / path.name)


# in_scope()'s part for a template rendered in ranges of its entity's ids (documents.py, `chunked`):
# while chunk_kind is set, only that kind's ids from chunk_lo to chunk_hi; unset (NULL), everything.
IN_CHUNK = (
    "(scope_kind IS DISTINCT FROM getvariable('chunk_kind') "
    "OR scope_id BETWEEN getvariable('chunk_lo') AND getvariable('chunk_hi'))"
)


def plan_scope(con: duckdb.DuckDBPyConnection, previous: Path | None) -> bool:
    """Define in_scope(kind, id) for this build's SQL; returns whether the build is scoped.

    Without a previous release with entity hashes, or when anything hashed whole changed, every
    document is rendered (in_scope is true). Otherwise render_scope(kind, id, templates) holds the
    changed entities and those linked to them by one row, with the templates a link reaches (NULL:
    every template of the kind)."""
    con.execute(f"CREATE OR REPLACE TEMP MACRO in_scope(scope_kind, scope_id) AS {IN_CHUNK}")
    con.execute("SET VARIABLE render_scoped = false")
    entities = _entities_folder(previous)
    if entities is None:
        return False
    # Compared: the tables hashed now, the code, and tables the previous release had and this one has not.
    reused = {table for (table,) in con.execute("SELECT tbl FROM entity_tables WHERE reused").fetchall()}
    before = [path.name[len(_partition("")) :] for path in entities.iterdir() if path.name.startswith(_partition(""))]
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE changed_entities AS "
        f"SELECT DISTINCT coalesce(n.tbl, p.tbl) AS tbl, coalesce(n.kind, p.kind) AS kind, "
        f"coalesce(n.id, p.id) AS id "
        f"FROM entity_hashes n FULL JOIN {_entity_rows(entities, [t for t in before if t not in reused])} p "
        f"ON n.tbl = p.tbl AND n.kind = p.kind AND n.id = p.id WHERE n.hash IS DISTINCT FROM p.hash"
    )
    if con.execute(f"SELECT count(*) FROM changed_entities WHERE kind LIKE '{WHOLE}%'").fetchall()[0][0]:
        return False
    links = []
    # Which tables changed entities of each kind: a link from a kind (or, under LINK_SOURCES, from
    # tables) with no change is not scanned at all (at 100k movies the link tables hold ~10M rows).
    changed_in: dict[str, set[str]] = {}
    for tbl, kind in con.execute("SELECT DISTINCT tbl, kind FROM changed_entities").fetchall():
        changed_in.setdefault(kind, set()).add(tbl)
    tables = [table for (table,) in con.execute("SELECT tbl FROM entity_tables").fetchall()]
    for table, columns in key_columns(con, tables).items():
        quoted = _identifier(table)
        named = [(column, kind) for column, kind in columns if kind != "owner"]
        if LINK_TEMPLATES.get(table) == ():  # its links reach no template
            continue
        for column, kind in named:
            for other, other_kind in named:
                if other != column and (table, column) not in ONE_WAY:
                    reaches = (
                        f"{list(LINK_TEMPLATES[table])}::VARCHAR[]" if table in LINK_TEMPLATES else "NULL::VARCHAR[]"
                    )
                    sources = LINK_SOURCES.get(table, {}).get(other_kind)
                    carried = (
                        changed_in.get(other_kind, set()) & set(sources) if sources else changed_in.get(other_kind)
                    )
                    if not carried:  # nothing changed that this link carries
                        continue
                    only = f" AND tbl IN (SELECT unnest({list(sources)}::VARCHAR[]))" if sources else ""
                    links.append(
                        f"SELECT '{kind}' AS kind, \"{column}\"::BIGINT AS id, {reaches} AS templates "
                        f'FROM {quoted} WHERE "{other}" IN '
                        f"(SELECT id FROM changed_entities WHERE kind = '{other_kind}'{only})"
                    )
    # One row per entity and the templates it is in scope for (NULL: all of its kind).
    con.execute(
        "CREATE OR REPLACE TEMP TABLE render_scope AS SELECT kind, id, "
        "CASE WHEN bool_or(templates IS NULL) THEN NULL ELSE flatten(list(DISTINCT templates)) END AS templates "
        "FROM ("
        + " UNION ALL ".join(["SELECT DISTINCT kind, id, NULL::VARCHAR[] AS templates FROM changed_entities", *links])
        + ") GROUP BY kind, id ORDER BY kind, id"
    )
    # The template being rendered is the variable scope_template (documents.py sets it); the steps
    # collect runs before any template (shared item tables) see every entity in scope.
    con.execute(
        "CREATE OR REPLACE TEMP MACRO in_scope(scope_kind, scope_id) AS "
        "scope_id IN (SELECT s.id FROM render_scope s WHERE s.kind = scope_kind AND "
        + _reaches("getvariable('scope_template')")
        + f") AND {IN_CHUNK}"
    )
    con.execute("SET VARIABLE render_scoped = true")
    return True


def scoped(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether plan_scope() made this build scoped."""
    return bool(con.execute("SELECT coalesce(getvariable('render_scoped'), false)").fetchall()[0][0])


def template_plan(con: duckdb.DuckDBPyConnection, template: str, scoped: bool) -> str:
    """How a scoped build renders a template: 'whole', 'scoped' (only entities in scope, the rest
    kept) or 'none' (nothing of its kind is in scope: every previous document kept). `scoped`: its
    SQL keeps to in_scope() (site_gen/templates.py says so of each template)."""
    found = template_kind(template)
    kind = found[0] if found is not None else template_owner(template)
    if kind is None:
        return "whole"
    if not con.execute(
        f"SELECT count(*) FROM render_scope s WHERE kind = ? AND {_reaches(_literal(template))}", [kind]
    ).fetchall()[0][0]:
        return "none"
    return "scoped" if scoped else "whole"


def entity_in_scope(template: str, name: str) -> str:
    """SQL: whether the entity a manifest name of the template names (its `name` column) is in scope
    for the template (a name it cannot parse: not in scope)."""
    found = template_kind(template)
    assert found is not None
    kind, segment = found
    return (
        f"coalesce(TRY_CAST(split_part(split_part({name}, '/', {segment}), '.', 1) AS BIGINT) IN "
        f"(SELECT id FROM render_scope s WHERE kind = '{kind}' AND {_reaches(_literal(template))}), false)"
    )


def kept_sql(template: str, previous: str) -> str:
    """The previous release's documents of a template a scoped build renders in part, as batch rows
    with a null body (unchanged): those whose entity is not in scope. `previous` is SQL for the
    template's previous (name, digest) rows."""
    return (
        f"SELECT '/' || substr(name, 1, length(name) - 5) AS uri, NULL::BLOB AS body, digest, true AS valid "
        f"FROM {previous} p WHERE NOT {entity_in_scope(template, 'name')}"
    )


def _reaches(template: str) -> str:
    """SQL: render_scope row `s` applies to the template (an SQL expression; NULL means any)."""
    return f"(s.templates IS NULL OR {template} IS NULL OR list_contains(s.templates, {template}))"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
