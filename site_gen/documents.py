"""Collected documents: what each resource family hands to the release between collect and write.

Phase one (collect) prepares what a family's SQL shares (list items, macros) and names one query per
path template; phase two (write) runs each query and streams its rows, the JSON already serialised
by DuckDB's `to_json`, hashed and checked against the template's schema, in Arrow record batches.
No document is stored in DuckDB: at a million titles they are ~115 GB, and materialising them
first cost more than rendering them (the checkpoints of the build database took half the SQL time
at 10k movies).
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow as pa

from marquee.manifests import DIGEST_SQL, delta_file, manifest_key, manifest_rows, manifest_sql
from marquee.packs import COMPOSITE_MARK
from site_gen import plan, scope
from site_gen.json_text import json_text
from site_gen.templates import PLACEHOLDER, template_kind
from site_gen.validate import ValidationError, check_value, load_schemas
from site_gen.validate_sql import check_type, null_check

SQL_DIR = Path(__file__).resolve().parent / "sql"
_MARK = COMPOSITE_MARK.decode()  # how an item reference starts, as SQL and JSON text

BATCH_ROWS = 5_000
# Entities a range when a `chunked` template renders in ranges of ids (site_gen/templates.py): at
# 1M titles 5M people make 20 ranges, each aggregating a twentieth of the credits. A series stands
# for about ten films' rows (its episodes' translations, ~17 episodes): 100k series make 4 ranges.
CHUNK_ENTITIES = 250_000
CHUNK_WEIGHTS = {"series": 10}

# A batch of documents: uri; JSON body, null when unchanged since the previous release; digest, null
# to compute; valid, the compiled schema check (null: to be validated in Python).
BATCH_SCHEMA = pa.schema([("uri", pa.string()), ("body", pa.binary()), ("digest", pa.uint64()), ("valid", pa.bool_())])


class Marker:
    """What a template's batches give in an update besides rows, for the Writer to act on."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


# Instead of rows, in an update that reaches none of the template's documents: the Writer keeps them
# all from the previous release (Writer.keep_template), without a row passing.
KEPT_WHOLE = Marker("KEPT_WHOLE")
# Before the rows of an update that renders some of the template's entities: the rows are changes
# over the previous release's manifest of it (Writer.over_previous), the other entities' not read.
OVER_PREVIOUS = Marker("OVER_PREVIOUS")


@dataclass(frozen=True)
class Documents:
    """All documents of one path template, ready to be written."""

    template: str
    # batches(way), as BATCH_SCHEMA, `way` the template's in the build plan (site_gen/plan.py):
    # KEPT_WHOLE for KEPT, OVER_PREVIOUS before the rows of DELTA
    batches: Callable[[str], Iterator[pa.RecordBatch | Marker]]
    keeps_to_scope: bool = False  # its SQL renders only the entities in_scope() admits


def load_sql(name: str) -> str:
    """The text of site_gen/sql/<name>, without a trailing semicolon (it is embedded in CREATE ... AS)."""
    return (SQL_DIR / name).read_text().strip().rstrip(";")


def tables_read(con: duckdb.DuckDBPyConnection, sql: str, what: str) -> set[str]:
    """The tables a query reads, from DuckDB's own parse of it (so a list of them cannot go stale);
    ValueError naming `what` when it does not parse. A name where a common table expression (WITH) of
    that name is visible is the CTE, not a table. When in doubt a name counts (in a CTE's own body,
    a recursive one's included): callers reuse what no table read has changed."""
    tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [sql]).fetchall()[0][0])
    if tree.get("error"):
        raise ValueError(f"{what} does not parse: {tree.get('error_message')}")
    tables: set[str] = set()
    nodes: list[tuple[object, frozenset[str]]] = [(tree, frozenset())]  # each with the CTE names it sees
    while nodes:
        node, ctes = nodes.pop()
        if isinstance(node, dict):
            if node.get("type") == "BASE_TABLE":
                qualified = node.get("schema_name") or node.get("catalog_name")
                if qualified or node["table_name"].lower() not in ctes:
                    tables.add(node["table_name"])
            defined = (node.get("cte_map") or {}).get("map") or []
            names = [entry["key"].lower() for entry in defined]
            nodes.extend((entry["value"], ctes | frozenset(names[:i])) for i, entry in enumerate(defined))
            nodes.extend((value, ctes | frozenset(names)) for key, value in node.items() if key != "cte_map")
        elif isinstance(node, list):
            nodes.extend((item, ctes) for item in node)
    return tables


def copy_rows(
    con: duckdb.DuckDBPyConnection,
    query: str,
    out: sqlite3.Connection,
    table: str,
    encode: Callable[[bytes], bytes] | None = None,
    batch_rows: int = 50_000,
) -> int:
    """Every row of a DuckDB query into an SQLite table of the same columns, through Arrow batches
    (DuckDB's fetchmany makes its Python tuples a value at a time); `encode` stores the last column
    (packs.kept_encoder). Returns the rows copied."""
    return insert_batches(con.sql(query).to_arrow_reader(batch_rows), out, table, encode)


def insert_batches(
    batches: Iterable[pa.RecordBatch],
    out: sqlite3.Connection,
    table: str,
    encode: Callable[[bytes], bytes] | None = None,
) -> int:
    """Every row of Arrow `batches` into an SQLite table of the same columns (copy_rows)."""
    count = 0
    for batch in batches:
        columns = [column.to_pylist() for column in batch.columns]
        if encode is not None:
            columns[-1] = [None if value is None else encode(value) for value in columns[-1]]
        out.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})", zip(*columns))
        count += batch.num_rows
    return count


def set_language(con: duckdb.DuckDBPyConnection, language: str = "en-US") -> None:
    """Select the translation the SQL renders (`getvariable('iso_639_1')`, `getvariable('iso_3166_1')`)."""
    iso_639_1, _, iso_3166_1 = language.partition("-")
    con.execute("SET VARIABLE iso_639_1 = ?", [iso_639_1])
    con.execute("SET VARIABLE iso_3166_1 = ?", [iso_3166_1])


def from_sql(
    con: duckdb.DuckDBPyConnection,
    template: str,
    sql_name: str,
    checked: dict[str, str | tuple[str, ...]] | None = None,
    scoped: bool = False,
    chunked: bool = False,
) -> Documents:
    """sql_name (a SELECT of uri and doc, the document as one typed STRUCT), run when written.

    The query runs on `con` itself, not a cursor: temp tables, macros and variables the family set
    up are connection-local. Before a row is rendered, the query's type is checked against the
    template's schema (site_gen/validate_sql.py); each row then carries `valid`, the rule's null
    check evaluated by DuckDB beside the rendering. DuckDB serialises (`json_text`) and hashes every
    body (manifests.DIGEST_SQL, what the next build compares; readers hash the ETag); in an update,
    bodies whose hash equals the previous manifest's (the template's file, site_gen/writer.py) stay
    in DuckDB and the row carries a null body; a template the update does not reach gives
    KEPT_WHOLE instead of rows. An untranslated variant
    equal to its default document is dropped by the Writer (nginx and the edge fall back from X.und
    to X).

    `checked` maps top-level properties the query splices as JSON to the checked_items table they
    come from: their items were checked once when serialised, so no row checks them again.
    `scoped`: the query keeps to in_scope() (site_gen/templates.py), so an update renders it in part;
    `chunked`: a full build runs it once per range of CHUNK_ENTITIES of its entity's ids."""
    return from_query(con, template, load_sql(sql_name), checked, scoped, chunked)


def from_query(
    con: duckdb.DuckDBPyConnection,
    template: str,
    query: str,
    checked: dict[str, str | tuple[str, ...]] | None = None,
    scoped: bool = False,
    chunked: bool = False,
) -> Documents:
    """Documents of the query text (see from_sql)."""
    checked = checked or {}

    def rendered() -> tuple[str, str]:
        schema = schema_for(template)
        doc_type = con.sql(f"SELECT doc FROM ({query})").types[0]  # bound, not run
        check_type(template, schema, doc_type)
        _require_checked(con, template, checked)
        valid = null_check(schema, doc_type, checked=frozenset(checked))
        return (
            f"SELECT uri, doc, body, {DIGEST_SQL}(body) AS digest "
            f"FROM (SELECT uri, doc, encode({json_text('doc', doc_type)}) AS body FROM ({query}))"
        ), valid

    if chunked and not scoped:
        raise ValueError(f"{template}: only a template keeping to in_scope() can be rendered in ranges")
    return Documents(template, _batches(con, template, query, rendered, chunked), scoped)


def from_items(con: duckdb.DuckDBPyConnection, template: str, table: str) -> Documents:
    """The items of composite documents (marquee/packs.py) as documents of their own: one per row of
    `table` (id, json), a checked_items table whose items were checked against every template that
    splices them, at the template's path (`/_items/movie/{movie_id}` -> `/_items/movie/603`): each
    placeholder is the table's column of that name, or `id`; the first one names the entity.
    A composite lists them with item_ref()."""
    found = template_kind(template)
    assert found is not None, f"{template}: an item template names its entity"
    columns = set(con.sql(f"SELECT * FROM {table}").columns)

    def column(placeholder: str) -> str:  # the table's column of that name, else `id` (`{movie_id}`)
        return placeholder if placeholder in columns else "id"

    uri = "'" + PLACEHOLDER.sub(lambda m: f"' || {column(m.group(1))} || '", template) + "'"
    entity = column(PLACEHOLDER.search(template).group(1))
    query = f"SELECT {uri} AS uri, json FROM {table} WHERE in_scope('{found[0]}', {entity})"

    def rendered() -> tuple[str, str]:
        _checked_parts(con)
        if not con.execute("SELECT count(*) FROM checked_parts WHERE tbl = ?", [table]).fetchall()[0][0]:
            raise ValidationError(template, "", f"{table} is not a checked_items table")
        return (
            f"SELECT uri, body, {DIGEST_SQL}(body) AS digest FROM (SELECT uri, encode(json) AS body FROM ({query}))"
        ), "true"

    return Documents(template, _batches(con, template, query, rendered), keeps_to_scope=True)


def _batches(
    con: duckdb.DuckDBPyConnection,
    template: str,
    query: str,
    rendered: Callable[[], tuple[str, str]],
    chunked: bool = False,
) -> Callable[[str], Iterator[pa.RecordBatch | Marker]]:
    """The Documents.batches of a template whose SQL `rendered()` gives when it is written: the
    hashed rows (uri, body, digest, ...) and the check of a row (SQL over those columns), written the
    way the build plan says (site_gen/plan.py); in a full build, in ranges of ids when `chunked`."""

    def batches(way: str = plan.FULL) -> Iterator[pa.RecordBatch | Marker]:
        if way == plan.KEPT:  # nothing of its kind changed: every previous document is kept, unrendered
            yield KEPT_WHOLE
            return
        # which entities in_scope() admits; and the path rendered, for SQL shared by two (watch_provider_list.sql)
        con.execute("SET VARIABLE scope_template = ?", [template])
        hashed, valid = rendered()
        folder = _previous_folder(con) if way != plan.FULL else None
        key = {manifest_key(template)}
        if way == plan.FULL:
            sql = f"SELECT uri, body, digest, {valid} AS valid FROM ({hashed})"
            kind = template_kind(template)
            if chunked and kind is not None:
                yield from _in_ranges(con, sql, kind[0])
                return
        elif way == plan.DELTA:
            # Changes over the previous manifest (Writer.over_previous): the base rows of entities out
            # of scope are not read at all; the previous delta's rows of those are carried over.
            yield OVER_PREVIOUS
            previous = manifest_rows(folder, key, removed=True, where=scope.entity_in_scope(template, "name"))
            delta = folder / delta_file(template)
            sql = (
                _compared_sql(hashed, valid, previous, removals=True)
                + " UNION ALL "
                + scope.kept_sql(template, manifest_sql([delta] if delta.exists() else []))
            )
        else:  # every document of the template: the previous manifest's rows of it to compare with
            previous = manifest_rows(folder, key)
            sql = _compared_sql(hashed, valid, previous)
            if way == plan.SCOPED:  # the query rendered the entities in scope; the rest are kept
                sql += " UNION ALL " + scope.kept_sql(template, previous)
        yield from con.sql(sql).to_arrow_reader(BATCH_ROWS)

    return batches


def chunk_ranges(con: duckdb.DuckDBPyConnection, kind: str) -> list[tuple[int, int]]:
    """Ranges of ids covering every BIGINT, each holding about CHUNK_ENTITIES of the build's
    entities of `kind` (scope.hash_entities' table), fewer of a kind CHUNK_WEIGHTS weighs; one
    range when they are fewer."""
    count = con.execute("SELECT count(DISTINCT id) FROM entity_hashes WHERE kind = ?", [kind]).fetchall()[0][0]
    chunks = -(-count * CHUNK_WEIGHTS.get(kind, 1) // CHUNK_ENTITIES)
    if chunks <= 1:
        return [(-(2**63), 2**63 - 1)]
    bounds = con.execute(
        "SELECT quantile_disc(id, ?) FROM (SELECT DISTINCT id FROM entity_hashes WHERE kind = ?)",
        [[n / chunks for n in range(1, chunks)], kind],
    ).fetchall()[0][0]
    edges = sorted(set(bounds))
    return list(zip([-(2**63)] + [edge + 1 for edge in edges], edges + [2**63 - 1]))


def _in_ranges(con: duckdb.DuckDBPyConnection, sql: str, kind: str) -> Iterator[pa.RecordBatch]:
    """`sql`'s batches, the query run once per chunk_ranges range: in_scope() (scope.IN_CHUNK)
    admits only that range's entities of `kind` while it runs."""
    try:
        for low, high in chunk_ranges(con, kind):
            con.execute("SET VARIABLE chunk_kind = ?", [kind])
            con.execute("SET VARIABLE chunk_lo = ?", [low])
            con.execute("SET VARIABLE chunk_hi = ?", [high])
            yield from con.sql(sql).to_arrow_reader(BATCH_ROWS)
    finally:
        con.execute("SET VARIABLE chunk_kind = NULL")


def _compared_sql(hashed: str, valid: str, previous: str, removals: bool = False) -> str:
    """SQL: batch rows of the rendered documents compared with the previous (name, digest) rows, a
    body (and its check) only when the hash differs or the document is new. With `removals`, each
    previous name no longer rendered is a row with neither body nor digest (removed, also when an
    earlier delta removed it: its digest is null)."""
    join = "FULL" if removals else "LEFT"
    return (
        f"SELECT coalesce(uri, '/' || substr(gone, 1, length(gone) - 5)) AS uri, "
        f"CASE WHEN changed THEN body END AS body, digest, CASE WHEN changed THEN {valid} ELSE true END AS valid "
        f"FROM (SELECT d.*, CASE WHEN d.uri IS NULL THEN p.name END AS gone, "
        f"d.uri IS NOT NULL AND p.digest IS DISTINCT FROM d.digest AS changed FROM ({hashed}) d "
        f"{join} JOIN {previous} p ON p.name = substr(d.uri, 2) || '.json')"
    )


def create_item_ref(con: duckdb.DuckDBPyConnection) -> None:
    """The SQL macro item_ref(kind, id): a composite document's reference to the item document
    `_items/{kind}/{id}` (marquee/packs.py `assemble`), valid JSON for the checks and to_json."""
    con.execute(
        f"CREATE OR REPLACE TEMP MACRO item_ref(kind, id) AS CAST('{_MARK}' || kind || '/' || id || '\"}}' AS VARCHAR)"
    )


def create_ordered_values(con: duckdb.DuckDBPyConnection) -> None:
    """The SQL macro ordered_values(pairs): the `v` of each struct of `pairs` ({'k…': key, …, 'v': element}),
    in the order of their keys. How a template orders a list (docs/architecture.md "Lists in TMDB's
    order"): `ordered_values(list({'k': key, 'v': x}))`, not `list(x ORDER BY key)`, whose sort of every
    group's rows cost 1.4 to 2.6 times as much at 1M films."""
    con.execute("CREATE OR REPLACE TEMP MACRO ordered_values(pairs) AS list_transform(list_sort(pairs), lambda x: x.v)")


def checked_items(
    con: duckdb.DuckDBPyConnection,
    table: str,
    query: str,
    uses: tuple[tuple[str, str], ...],
    parts: tuple[tuple[str, str], ...] = (),
) -> None:
    """Serialise every row's `item` (a typed STRUCT) once, into the temp table `table`: the query's
    other columns and `json`, the item's JSON text.

    For lists that repeat the same items across many documents: each film is an item of ~40 similar
    and recommendation lists. `uses` lists the (template, array property) the items make whole, the
    property a path for a nested one (`episodes[].crew`: each episode's crew in a season); `parts`
    those whose entries add fields of their own (a film's item in a person's credits, the credit's
    character and job added by checked_entries): there the item is checked against the
    properties it has. Each item is checked against the item schema of every use, by the same rule
    as a document (its type when bound, then its nulls in SQL), and one invalid item stops the build,
    as an invalid document would. from_query's `checked` then accepts only a table checked for its
    template."""
    item_type = con.sql(f"SELECT item FROM ({query})").types[0]  # bound, not run
    fields = set(_children_names(item_type))
    checks = []
    for template, field in (*uses, *parts):
        item_schema = _item_schema(template, field)
        if (template, field) in parts:
            item_schema = _restricted(item_schema, fields)
        checks.append((template, field, item_schema))
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * EXCLUDE (item), {json_text('item', item_type)} AS json, "
        f"{_checked_json('item', item_type, checks)} AS valid FROM ({query})"
    )
    _refuse_invalid(con, table, checks)
    _record_checked(
        con,
        table,
        [
            (t, f, sorted(set(_item_schema(t, f)["properties"]) & fields), (t, f) not in parts)
            for t, f in (*uses, *parts)
        ],
    )


def checked_entries(
    con: duckdb.DuckDBPyConnection, table: str, query: str, items: str, columns: dict[str, tuple[tuple[str, str], ...]]
) -> None:
    """Entries of composite lists whose items add fields of their own: the temp table `table` holds
    the query's rows with each struct column named in `columns` serialised as an entry,
    `{"\\u0001":"movie/603",` + the struct's fields (marquee/packs.py splices the item `ref` names
    before them), and the query's other columns except `ref`.

    Each column is checked for its uses (template, array property): the properties the item table
    `items` was checked for (checked_items' `parts`) plus the struct's must be every property of the
    item schema, none twice, and the struct is checked against the rest as a document would be."""
    bound = con.sql(f"SELECT * FROM ({query})")  # bound, not run
    types = dict(zip(bound.columns, bound.types))
    serialised, checks_sql, records, all_checks = [], [], [], []
    for column, uses in columns.items():
        extra = set(_children_names(types[column]))
        checks = []
        for template, field in uses:
            item_schema = _item_schema(template, field)
            covered = _covered(con, items, template, field)
            if covered & extra:
                raise ValidationError(
                    template, f"{field}[]", f"{sorted(covered & extra)} both in {items} and the entry"
                )
            rest = _restricted(item_schema, set(item_schema["properties"]) - covered)
            checks.append((template, field, rest))
            records.append((template, field, sorted(set(item_schema["properties"])), True))
        serialised.append(f"'{_MARK}' || ref || '\",' || substr({json_text(column, types[column])}, 2) AS {column}")
        checks_sql.append(_checked_json(column, types[column], checks))
        all_checks += checks
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * EXCLUDE (ref, {', '.join(columns)}), "
        f"{', '.join(serialised)}, {' AND '.join(checks_sql)} AS valid FROM ({query})"
    )
    _refuse_invalid(con, table, all_checks, columns=tuple(columns))
    _record_checked(con, table, records)


def _item_schema(template: str, field: str) -> dict[str, Any]:
    """The schema of the items of the template's array property `field`, a path: `results`, or
    `episodes[].crew` (the crew of each element of `episodes`)."""
    schema = schema_for(template)
    for part in field.split("."):
        schema = schema["properties"][part.removesuffix("[]")]
        if part.endswith("[]"):
            schema = schema["items"]
    return schema["items"]


def _children_names(sql_type: Any) -> list[str]:
    return [name for name, _ in sql_type.children]


def _restricted(schema: dict[str, Any], names: set[str]) -> dict[str, Any]:
    """The object schema with only the properties in `names`."""
    restricted = {**schema, "properties": {k: v for k, v in schema["properties"].items() if k in names}}
    if "required" in schema:
        restricted["required"] = [name for name in schema["required"] if name in names]
    return restricted


def _checked_json(expr: str, sql_type: Any, checks: list[tuple[str, str, dict[str, Any]]]) -> str:
    """SQL: `expr` has every checked property's type (checked now, when bound) and no forbidden null."""
    distinct: list[dict[str, Any]] = []
    for template, field, schema in checks:
        check_type(template, schema, sql_type, f"{field}[]")
        if schema not in distinct:
            distinct.append(schema)
    return " AND ".join(null_check(schema, sql_type, expr) for schema in distinct)


def _refuse_invalid(
    con: duckdb.DuckDBPyConnection,
    table: str,
    checks: list[tuple[str, str, dict[str, Any]]],
    columns: tuple[str, ...] = ("json",),
) -> None:
    """Stop the build at the table's first invalid row, validated again in Python for the path and
    reason (a non-finite number is not JSON); else drop the check column."""
    invalid = con.execute(f"SELECT {', '.join(columns)} FROM {table} WHERE NOT valid LIMIT 1").fetchall()
    if invalid:
        for text in invalid[0]:
            value = text.replace(_MARK, '{"_ref":"', 1)  # an entry: its own fields are what was checked
            for template, field, schema in checks:
                with contextlib.suppress(orjson.JSONDecodeError):
                    check_value(template, f"{field}[]", schema, orjson.loads(value))
        raise ValidationError(checks[0][0], f"{checks[0][1]}[]", "a non-finite number (compiled check)")
    con.execute(f"ALTER TABLE {table} DROP COLUMN valid")


def checked_lists(con: duckdb.DuckDBPyConnection, table: str, items: str) -> None:
    """Record `table`, whose `json` are whole arrays of the checked_items table `items`' items (an
    episode's crew), as checked for the same uses: from_items writes its rows as item documents,
    which a composite splices whole in place of a reference (`"crew":{"\\u0001":"…"}`)."""
    _checked_parts(con)
    con.execute("DELETE FROM checked_parts WHERE tbl = ?", [table])
    con.execute(
        "INSERT INTO checked_parts SELECT ?, template, field, covers, whole FROM checked_parts WHERE tbl = ? AND whole",
        [table, items],
    )


def _checked_parts(con: duckdb.DuckDBPyConnection) -> None:
    """The temp table of which (template, property) each checked table was checked for: `covers`, the
    item properties it holds, and `whole`, whether those are all of them."""
    con.execute(
        "CREATE TEMP TABLE IF NOT EXISTS checked_parts "
        "(tbl VARCHAR, template VARCHAR, field VARCHAR, covers VARCHAR[], whole BOOLEAN)"
    )


def _record_checked(
    con: duckdb.DuckDBPyConnection, table: str, records: list[tuple[str, str, list[str], bool]]
) -> None:
    _checked_parts(con)
    con.execute("DELETE FROM checked_parts WHERE tbl = ?", [table])
    con.executemany("INSERT INTO checked_parts VALUES (?, ?, ?, ?, ?)", [(table, *record) for record in records])


def _covered(con: duckdb.DuckDBPyConnection, items: str, template: str, field: str) -> set[str]:
    """The item properties checked_items checked `items` for, as part of (template, field)."""
    _checked_parts(con)
    rows = con.execute(
        "SELECT covers FROM checked_parts WHERE tbl = ? AND template = ? AND field = ? AND NOT whole",
        [items, template, field],
    ).fetchall()
    if not rows:
        raise ValidationError(template, f"{field}[]", f"{items} was not checked as a part of these entries")
    return set(rows[0][0])


def _require_checked(con: duckdb.DuckDBPyConnection, template: str, checked: dict[str, str | tuple[str, ...]]) -> None:
    """Refuse a property declared checked whose items' table (each of them) was not checked whole for
    this template and property."""
    if not checked:
        return
    _checked_parts(con)
    for field, tables in checked.items():
        for table in (tables,) if isinstance(tables, str) else tables:
            if not con.execute(
                "SELECT count(*) FROM checked_parts WHERE tbl = ? AND template = ? AND field = ? AND whole",
                [table, template, field],
            ).fetchall()[0][0]:
                raise ValidationError(template, field, f"{table} was not checked for this property (checked_items)")


def from_objects(template: str, documents: dict[str, Any]) -> Documents:
    """Documents built in Python (small, fixed ones such as /3/configuration): always written whole,
    and validated in Python (their `valid` is null)."""
    uris = list(documents)
    batch = batch_of(uris, [orjson.dumps(documents[uri]) for uri in uris])
    return Documents(template, lambda way=plan.FULL: iter([batch]))


def batch_of(uris: list[str], bodies: list[bytes]) -> pa.RecordBatch:
    """JSON bodies made in Python as one batch of BATCH_SCHEMA: their digests computed by the Writer,
    their check Python's (`valid` null)."""
    return pa.RecordBatch.from_arrays(
        [
            pa.array(uris, pa.string()),
            pa.array(bodies, pa.binary()),
            pa.nulls(len(uris), pa.uint64()),
            pa.nulls(len(uris), pa.bool_()),
        ],
        schema=BATCH_SCHEMA,
    )


def schema_for(template: str) -> dict[str, Any]:
    """The response schema documents of this path template are checked against (site_gen/validate.py)."""
    schemas = _schemas()
    if template not in schemas:
        raise ValidationError(template, "", "no schema for this path template")
    return schemas[template]


_schemas = functools.cache(load_schemas)  # read once per process, not once per template


def use_previous_manifest(con: duckdb.DuckDBPyConnection, manifest: Path) -> None:
    """Compare this build's documents with a previous release's manifest folder (site_gen/writer.py):
    each template's query reads that template's file alone."""
    con.execute("SET VARIABLE previous_manifest = ?", [str(manifest)])


def _previous_folder(con: duckdb.DuckDBPyConnection) -> Path | None:
    """The previous release's manifest folder use_previous_manifest named (None: no previous)."""
    folder = con.execute("SELECT getvariable('previous_manifest')").fetchall()[0][0]
    return Path(folder) if folder else None
