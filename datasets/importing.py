"""What every importer shares: how it reports (ImportSummary), and how it writes a catalogue whole
or not at all (`staged`, `write_tables`), against the contract (build/contract.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from marquee_build import contract
from marquee_datasets import certifications

# Reference tables TMDB serves whatever the catalogue (its rating systems), not facts about titles.
REFERENCE: dict[str, Callable[[], pa.Table]] = {"certifications": certifications.reference_table}
# TMDB's lists of countries and languages (site_gen/data, from its OpenAPI): an import's own rows win,
# and every other code is there too, so a translation or release in any language or country resolves.
REFERENCE_LISTS = {"countries": "iso_3166_1", "languages": "iso_639_1"}
DATA_DIR = Path(__file__).resolve().parent.parent / "site_gen" / "data"


def id_space(catalogue: Path) -> str | None:
    """Whose ids the catalogue's titles carry ("tmdb" when they are TMDB's, "imdb" when they are the
    numbers of IMDb's tt and nm ids), or None when no importer said (contract.FACTS_FILE)."""
    return contract.facts(catalogue).get("ids")


def reference_rows(name: str) -> pa.Table:
    """TMDB's list `name` (countries, languages) as the contract's table."""
    return contract.conform(name, pa.Table.from_pylist(orjson.loads((DATA_DIR / f"{name}.json").read_bytes())))


def with_reference_rows(name: str, table: pa.Table | None) -> pa.Table:
    """The import's table `name` (countries, languages) with TMDB's rows for the codes it lacks."""
    key = REFERENCE_LISTS[name]
    reference = reference_rows(name)
    if table is None or table.num_rows == 0:
        return reference
    table = contract.conform(name, table)
    have = set(table[key].to_pylist())
    missing = pc.invert(pc.is_in(reference[key], value_set=pa.array(sorted(have), pa.string())))
    return pa.concat_tables([table, reference.filter(missing)])


class ImportFailed(Exception):
    """The import cannot run (a missing file, a file of another format): nothing was changed."""


@dataclass
class ImportSummary:
    read: int = 0
    imported: dict[str, int] = field(default_factory=dict)
    skipped: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, reason)
    seconds: float = 0.0
    what: str = "movies"  # the table whose count the first line reports
    notes: list[str] = field(default_factory=list)  # what else the operator should know
    status: Callable[[str], None] | None = None  # told what the import is doing (a terminal's status line)

    def say(self, doing: str) -> None:
        if self.status is not None:
            self.status(doing)

    def lines(self) -> list[str]:
        rate = self.read / self.seconds if self.seconds else 0.0
        out = [
            f"read {self.read:,} rows, imported {self.imported.get(self.what, 0):,} {self.what}, skipped "
            f"{len(self.skipped):,} in {self.seconds:.1f} s ({rate:,.0f} rows/s)",
            "tables: " + ", ".join(f"{name} {count:,}" for name, count in self.imported.items() if count),
        ]
        out.extend(self.notes)
        for file, line, reason in self.skipped[:10]:
            out.append(f"skipped {file} line {line}: {reason}")
        if len(self.skipped) > 10:
            out.append(f"... and {len(self.skipped) - 10:,} more skipped rows")
        return out


MEMORY_LIMIT = "1GB"  # DuckDB spills past it to the staging folder: an import's memory stays flat


def connect(staging: Path) -> duckdb.DuckDBPyConnection:
    """DuckDB for an import: in memory up to MEMORY_LIMIT, then on disk beside the catalogue being
    written (removed with the staging folder), so a dump of any size imports on this machine."""
    con = duckdb.connect(
        config={
            "memory_limit": MEMORY_LIMIT,
            "temp_directory": str(Path(staging) / ".spill"),
            "preserve_insertion_order": False,
        }
    )
    con.execute("SET enable_progress_bar = false")  # a long import's bar would go to the caller's stdout
    return con


def sql_string(value: object) -> str:
    """An SQL string literal: DuckDB takes no parameters in the CREATE … AS an import reads with."""
    return "'" + str(value).replace("'", "''") + "'"


def read_dump(
    con: duckdb.DuckDBPyConnection, table: str, path: Path, columns: Iterable[str], summary: ImportSummary, options: str
) -> None:
    """`path` (a delimited dump, gzipped or not) into the temp table `table`: every column text, each
    row with its `line_no`. Rows DuckDB cannot read are skipped and reported with their line and its
    first reason; both count as read. `options` are read_csv's for the dialect (delimiter, quoting)."""
    if not Path(path).is_file():
        raise ImportFailed(f"{path} does not exist")
    struct = "{" + ", ".join(f"'{name}': 'VARCHAR'" for name in columns) + "}"
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT row_number() OVER () AS line_no, * FROM read_csv("
        f"{sql_string(path)}, header = true, auto_detect = false, columns = {struct}, ignore_errors = true, "
        f"store_rejects = true, rejects_table = '{table}_rejects', rejects_scan = '{table}_scans', {options})"
    )
    rejected = con.execute(
        f"SELECT line, first(error_message) FROM {table}_rejects GROUP BY line ORDER BY line"
    ).fetchall()
    summary.read += con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0] + len(rejected)
    summary.skipped.extend(
        (Path(path).name, int(line), " ".join(str(message).split())[:160]) for line, message in rejected
    )


@contextlib.contextmanager
def staged(target: Path) -> Iterator[Path]:
    """A new folder beside `target` to write the catalogue into, renamed over `target` when the block
    ends well and removed when it does not, so the previous catalogue stays as it was."""
    target = Path(target)
    staging = target.parent / f".{target.name}.importing"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(staging / ".spill", ignore_errors=True)
    previous = target.parent / f".{target.name}.previous"
    shutil.rmtree(previous, ignore_errors=True)
    if target.exists():
        target.rename(previous)
    staging.rename(target)
    shutil.rmtree(previous, ignore_errors=True)


def write_tables(
    staging: Path,
    tables: dict[str, str | pa.Table],
    summary: ImportSummary,
    con: duckdb.DuckDBPyConnection,
    base: Path | None = None,
    ids: str | None = None,
    images: str | None = None,
) -> None:
    """Every contract table into `staging`: those imported (SQL on `con`, written by DuckDB straight
    to Parquet, or a small Arrow table), the reference ones, the tables of the catalogue `base` being
    added to (linked, not copied), and the rest empty; and the catalogue's facts (contract.FACTS_FILE):
    whose `ids` they are and whether its `images` are generated, or the base's when it is added to."""
    if base is not None:
        ids = ids if ids is not None else id_space(base)
        images = images if images is not None else contract.facts(base).get("images")
    if ids is not None or images is not None:
        contract.write_facts(staging, ids=ids, images=images)
    for name in contract.TABLES:
        target = staging / f"{name}.parquet"
        imported = tables.get(name)
        summary.say(f"writing {name}")
        if isinstance(imported, pa.Table):
            con.register("imported_arrow", imported)
            imported = "SELECT * FROM imported_arrow"
        kept = base is not None and (Path(base) / f"{name}.parquet").is_file()
        if name in REFERENCE_LISTS and not (kept and imported is None):
            table = with_reference_rows(name, con.sql(imported).to_arrow_table() if imported else None)
        elif imported is not None and not contract.writable_by_sql(name):  # a time zone: through Arrow, batch by batch
            batches = con.sql(imported).to_arrow_reader(100_000)
            with pq.ParquetWriter(target, contract.TABLES[name], compression="zstd") as writer:
                for batch in batches:
                    writer.write_table(contract.conform(name, pa.Table.from_batches([batch])))
            summary.imported[name] = pq.read_metadata(target).num_rows
            continue
        elif imported is not None:
            con.execute(
                f"COPY ({contract.conforming_sql(name, imported)}) TO {sql_string(target)} "
                "(FORMAT parquet, COMPRESSION zstd)"
            )
            summary.imported[name] = pq.read_metadata(target).num_rows
            continue
        elif kept:
            os.link(Path(base) / f"{name}.parquet", target)
            continue
        elif name in REFERENCE:
            table = contract.conform(name, REFERENCE[name]())
        elif name in contract.REQUIRED:
            table = contract.empty(name)
        else:
            continue
        pq.write_table(table, target, compression="zstd")
        summary.imported[name] = table.num_rows
    with contextlib.suppress(duckdb.CatalogException):
        con.unregister("imported_arrow")
    contract.check(staging)  # what DuckDB wrote is the contract's, or the import fails here
