"""Load a Parquet catalogue into DuckDB and normalise it for the renderers.

Every table of the contract (build/contract.py) is loaded as-is from its Parquet file, one statement
each, unless a file of build/sql reads that file itself (to reshape it as it loads); then the SQL of
build/sql/*.sql (installed as marquee_build/sql) runs in file-name order. The catalogue folder
reaches it as the DuckDB variable `catalogue_dir` (bound as a parameter, so odd folder names cannot
inject SQL).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import duckdb

from marquee_build import contract
from marquee_build.allocator import keep_freed_memory
from marquee_build.steps import Step, parse_steps, steps_to_run

SQL_DIR = Path(__file__).resolve().parent / "sql"

# The tables a catalogue holds (build/contract.py, with their columns and types).
REQUIRED_TABLES: tuple[str, ...] = tuple(contract.REQUIRED)
OPTIONAL_TABLES: tuple[str, ...] = tuple(contract.OPTIONAL)


class CatalogueError(Exception):
    """The catalogue folder is missing, incomplete or inconsistent."""


LOAD_AS_IS = "CREATE OR REPLACE TABLE \"{table}\" AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/{table}.parquet');"


def sql_files() -> list[Path]:
    return sorted(SQL_DIR.glob("*.sql"))


def build_steps() -> list[Step]:
    """The build's statements: the contract's tables loaded as-is (those no SQL file reads itself),
    then every file of build/sql."""
    files = [(path.name, path.read_text()) for path in sql_files()]
    reshaped = {table for step in parse_steps(files) for table in step.files}
    loads = "\n".join(LOAD_AS_IS.format(table=table) for table in REQUIRED_TABLES if table not in reshaped)
    return parse_steps([("build/contract.py", loads), *files])


def check_catalogue(catalogue_dir: Path) -> None:
    """Raise CatalogueError naming the missing folder, or the first table or column that does not fit
    the contract (build/contract.py)."""
    if not catalogue_dir.is_dir():
        raise CatalogueError(f"catalogue folder {catalogue_dir} does not exist (run `marquee generate` first)")
    try:
        contract.check(catalogue_dir)
    except contract.ContractError as exc:
        raise CatalogueError(str(exc)) from None


def build_database(catalogue_dir: Path, db_path: Path) -> duckdb.DuckDBPyConnection:
    """Load and normalise the catalogue into a DuckDB file at db_path; returns the open connection."""
    return load_database(catalogue_dir, db_path).con


@dataclass
class LoadedDatabase:
    con: duckdb.DuckDBPyConnection
    tables: list[str]  # the tables the build SQL creates (not its temp ones), in order
    created: set[str]  # the objects this load created anew: every one unless it updated a kept database
    digests: dict[str, str]  # MD5 of each Parquet file read, for the next load to compare
    steps_run: int
    steps: int


def file_digests(catalogue_dir: Path) -> dict[str, str]:
    """MD5 of each catalogue table's Parquet file, by table name."""
    digests = {}
    for table in REQUIRED_TABLES:
        with open(Path(catalogue_dir) / f"{table}.parquet", "rb") as handle:
            digests[table] = hashlib.file_digest(handle, "md5").hexdigest()
    return digests


def load_database(
    catalogue_dir: Path, db_path: Path, previous_digests: dict[str, str] | None = None, memory_gb: float | None = None
) -> LoadedDatabase:
    """Load and normalise the catalogue into the DuckDB file at db_path.

    With previous_digests, db_path holds the database an earlier load left for these digests, and
    only the steps reading a changed Parquet file, or an object created again, run (build/steps.py).
    With memory_gb (MARQUEE_BUILD_MEMORY_GB), DuckDB keeps to that much memory and spills the rest
    into a folder beside db_path."""
    catalogue_dir = Path(catalogue_dir).resolve()
    check_catalogue(catalogue_dir)
    digests = file_digests(catalogue_dir)
    changed = (
        None
        if previous_digests is None
        else {name for name, digest in digests.items() if previous_digests.get(name) != digest}
    )
    steps = build_steps()
    run, created = steps_to_run(steps, changed)
    con = duckdb.connect(str(db_path))
    keep_freed_memory()  # the build's queries reuse what the one before freed (build/allocator.py)
    try:
        if memory_gb:
            con.execute(f"SET memory_limit = '{memory_gb * 1024:.0f}MB'")
            con.execute("SET temp_directory = ?", [str(Path(db_path).parent / "spill")])
        con.execute("SET VARIABLE catalogue_dir = ?", [str(catalogue_dir)])
        for step, runs in zip(steps, run):
            if not runs:
                continue
            try:
                con.execute(step.sql)
            except duckdb.Error as exc:
                raise CatalogueError(f"{step.file}: {exc}") from exc
        problems = con.execute("SELECT problem FROM build_problems LIMIT 5").fetchall()
        if problems:
            total = con.execute("SELECT count(*) FROM build_problems").fetchall()[0][0]
            listed = "; ".join(p for (p,) in problems)
            raise CatalogueError(f"catalogue {catalogue_dir} is inconsistent ({total} problems): {listed}")
    except BaseException:
        con.close()
        raise
    tables = [step.creates for step in steps if step.creates and not step.temp]
    return LoadedDatabase(con, tables, created, digests, sum(run), len(steps))
