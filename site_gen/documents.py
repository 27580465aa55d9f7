"""Collected documents: what each resource family hands to the release between collect and write.

Phase one (collect) prepares what a family's SQL shares (list items, macros) and names one query per
path template; phase two (write) runs each query and streams its (uri, body) rows, the JSON already
serialised by DuckDB's `to_json`, in Arrow record batches. No document is stored in DuckDB: at a
million titles they are ~115 GB, and materialising them first cost more than rendering them (the
checkpoints of the build database took half the SQL time at 10k movies).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import duckdb
import orjson

SQL_DIR = Path(__file__).resolve().parent / "sql"
UNTRANSLATED = ".und"  # the variant suffix of TMDB's answer for a missing translation
BATCH_ROWS = 5_000

# (uri, JSON bytes, or None when unchanged since the previous release, etag or None to compute)
Batch = list[tuple[str, bytes | None, str | None]]


@dataclass(frozen=True)
class Documents:
    """All documents of one path template, ready to be written."""

    template: str
    batches: Callable[..., Iterator[Batch]]  # batches(only_changed=False)


def load_sql(name: str) -> str:
    """The text of site_gen/sql/<name>, without a trailing semicolon (it is embedded in CREATE ... AS)."""
    return (SQL_DIR / name).read_text().strip().rstrip(";")


def set_language(con: duckdb.DuckDBPyConnection, language: str = "en-US") -> None:
    """Select the translation the SQL renders (`getvariable('iso_639_1')`, `getvariable('iso_3166_1')`)."""
    iso_639_1, _, iso_3166_1 = language.partition("-")
    con.execute("SET VARIABLE iso_639_1 = ?", [iso_639_1])
    con.execute("SET VARIABLE iso_3166_1 = ?", [iso_3166_1])


def from_sql(con: duckdb.DuckDBPyConnection, template: str, sql_name: str) -> Documents:
    """sql_name (a SELECT of uri, body), run when written.

    The query runs on `con` itself, not a cursor: temp tables, macros and variables the family set
    up are connection-local. DuckDB hashes every body (md5, the pack's ETag); in an update, bodies
    whose hash equals the previous manifest's (the `previous_etags` view) stay in DuckDB and the
    row carries None. An untranslated variant equal to its default document is dropped by the
    Writer (nginx and the edge fall back from X.und to X)."""
    query = load_sql(sql_name)

    def batches(only_changed: bool = False) -> Iterator[Batch]:
        hashed = f"SELECT uri, body, md5(body) AS etag FROM ({query})"
        if only_changed:  # the previous manifest is sorted by template: its zonemaps skip the others
            hashed = (f"SELECT d.uri, CASE WHEN p.etag = d.etag THEN NULL ELSE d.body END, d.etag FROM ({hashed}) d "
                      f"LEFT JOIN (SELECT name, etag FROM previous_etags WHERE template = '{template}') p "
                      f"ON p.name = substr(d.uri, 2) || '.json'")
        for batch in con.sql(hashed).to_arrow_reader(BATCH_ROWS):
            yield list(zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), batch.column(2).to_pylist()))

    return Documents(template, batches)


def from_objects(template: str, documents: dict[str, Any]) -> Documents:
    """Documents built in Python (small, fixed ones such as /3/configuration): always written whole."""
    rows = [(uri, orjson.dumps(doc), None) for uri, doc in documents.items()]
    return Documents(template, lambda only_changed=False: iter([rows]))


def use_previous_manifest(con: duckdb.DuckDBPyConnection, manifest: Path) -> None:
    """Compare this build's documents with a previous release's manifest (`previous_etags`)."""
    # One sorted table, not a view: each family's query joins only its own template's rows.
    con.execute(f"CREATE OR REPLACE TEMP TABLE previous_etags AS "
                f"SELECT template, name, etag FROM read_parquet('{manifest}') ORDER BY template, name")
