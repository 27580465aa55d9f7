"""A typed value's JSON text, as DuckDB's `to_json` writes it, with its JSON-typed parts pasted in.

Composites splice JSON made once (a film's credits are `CAST('[' || string_agg(entry) || ']' AS JSON)`
of entries serialised and checked when they were made, site_gen/documents.py). `to_json` of a
struct holding such a value parses it again and writes it back (yyjson). `json_text` writes the
struct's plain fields with `to_json`, a run of them at a time, and pastes the JSON-typed ones as
they are: the same bytes, because what is pasted is `to_json`'s own output (a spliced value that
is not, `' 1.50 '::JSON`, `to_json` would rewrite as `1.5`; tests/test_site_gen_json_text.py
compares the two on every document of a release). At 1M films, rendered in one process by turns
(docs/benchmarks.md, session 48): a film's credits 46 and 44 CPU s against 54 and 52; a person's
combined credits 225 and 99 against 247 and 243 (the box's spread at its widest).

A value with no JSON-typed part is left to `to_json` whole (nothing to gain, one call).
"""

from __future__ import annotations

import json

from duckdb.sqltypes import DuckDBPyType

from site_gen.validate_sql import is_json


def has_json(sql_type: DuckDBPyType) -> bool:
    """Whether a JSON-typed value is anywhere in `sql_type` (an ARRAY's children include its size)."""
    if is_json(sql_type):
        return True
    if sql_type.id in ("struct", "list", "array", "map", "union"):
        return any(isinstance(child, DuckDBPyType) and has_json(child) for _, child in sql_type.children)
    return False


def json_text(expr: str, sql_type: DuckDBPyType) -> str:
    """SQL: the VARCHAR `to_json(expr)::VARCHAR` is, for a value of `sql_type` (NULL for a NULL)."""
    if is_json(sql_type):
        return f"{expr}::VARCHAR"
    if not _taken_apart(sql_type):
        return f"to_json({expr})::VARCHAR"
    return "'{' || " + " || ',' || ".join(_struct_parts(expr, list(sql_type.children))) + " || '}'"


def _taken_apart(sql_type: DuckDBPyType) -> bool:
    """Whether json_text writes the value by its members. Only structs are: a list holding JSON (a
    season's episodes, each with its crew) is left to `to_json`, since pasting its elements through
    a lambda cost more than it saved (at 1M films a season's documents took 123 and 117 CPU s so,
    92 and 99 through `to_json`; session 48)."""
    return sql_type.id == "struct" and has_json(sql_type)


def _member(expr: str, sql_type: DuckDBPyType) -> str:
    """A member's text, a NULL written as JSON's null."""
    text = json_text(expr, sql_type)
    return (
        f"CASE WHEN {expr} IS NULL THEN 'null' ELSE {text} END"
        if _taken_apart(sql_type)
        else f"coalesce({text}, 'null')"
    )


def _struct_parts(expr: str, children: list[tuple[str, DuckDBPyType]]) -> list[str]:
    """SQL texts of a struct's members in order, joined by commas: each run of fields without JSON one
    `to_json` of them (its braces cut off), each field with JSON its key and `_member`."""
    parts, run = [], []

    def end_run() -> None:
        if run:
            members = ", ".join(f"{_ident(name)} := {expr}.{_ident(name)}" for name in run)
            parts.append(f"(to_json(struct_pack({members}))::VARCHAR)[2:-2]")
            run.clear()

    for name, child in children:
        if has_json(child):
            end_run()
            key = json.dumps(name).replace("'", "''")
            parts.append(f"'{key}:' || {_member(f'{expr}.{_ident(name)}', child)}")
        else:
            run.append(name)
    end_run()
    return parts


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
