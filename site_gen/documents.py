"""Collected documents: what each resource family hands to the release between collect and write.

Phase one (collect) runs each family's SQL once into a DuckDB table of (uri, body) rows, with
the JSON already serialised by DuckDB's `to_json`; phase two (write) streams those rows back in Arrow
record batches, so memory stays flat however large the catalogue is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import duckdb

SQL_DIR = Path(__file__).resolve().parent / "sql"
UNTRANSLATED = ".und"  # the variant suffix of TMDB's answer for a missing translation
BATCH_ROWS = 5_000

Batch = list[tuple[str, Any]]  # (uri, JSON bytes or a Python object)


@dataclass(frozen=True)
class Documents:
    """All documents of one path template, ready to be written."""

    template: str
    count: int
    batches: Callable[[], Iterator[Batch]]


def load_sql(name: str) -> str:
    """The text of site_gen/sql/<name>, without a trailing semicolon (it is embedded in CREATE ... AS)."""
    return (SQL_DIR / name).read_text().strip().rstrip(";")


def set_language(con: duckdb.DuckDBPyConnection, language: str = "en-US") -> None:
    """Select the translation the SQL renders (`getvariable('iso_639_1')`, `getvariable('iso_3166_1')`)."""
    iso_639_1, _, iso_3166_1 = language.partition("-")
    con.execute("SET VARIABLE iso_639_1 = ?", [iso_639_1])
    con.execute("SET VARIABLE iso_3166_1 = ?", [iso_3166_1])


def from_sql(con: duckdb.DuckDBPyConnection, template: str, sql_name: str) -> Documents:
    """Run sql_name (a SELECT of uri, body) into a table now; stream it when written."""
    table = "doc_" + re.sub(r"[^a-z0-9]+", "_", sql_name.removesuffix(".sql").lower())
    con.execute(f"CREATE OR REPLACE TABLE {table} AS {load_sql(sql_name)}")
    # An untranslated variant equal to the default document (a title with no English text, a person
    # with no biography) need not exist: nginx and the edge fall back from X.und.json to X.json.
    con.execute(f"DELETE FROM {table} WHERE suffix(uri, '{UNTRANSLATED}') AND body = "
                f"(SELECT d.body FROM {table} d WHERE d.uri = {table}.uri[:-{len(UNTRANSLATED) + 1}])")
    count = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]

    def batches() -> Iterator[Batch]:
        reader = con.cursor().sql(f"SELECT uri, body FROM {table}").to_arrow_reader(BATCH_ROWS)
        for batch in reader:
            yield list(zip(batch.column(0).to_pylist(), batch.column(1).to_pylist()))

    return Documents(template, count, batches)


def from_objects(template: str, documents: dict[str, Any]) -> Documents:
    """Documents built in Python (small, fixed ones such as /3/configuration)."""
    rows = list(documents.items())
    return Documents(template, len(rows), lambda: iter([rows]))
