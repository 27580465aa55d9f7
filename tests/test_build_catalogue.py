from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from marquee_build.catalogue import CatalogueError, build_database, load_database, sql_files


def test_sql_runs_in_file_name_order():
    names = [p.name for p in sql_files()]
    assert names == sorted(names) and names[0].startswith("0")


def test_build_loads_and_normalises(catalogue_dir: Path, tmp_path: Path):
    con = build_database(catalogue_dir, tmp_path / "db.duckdb")
    try:
        assert con.execute("SELECT count(*) FROM movies").fetchone()[0] == 150
        (genres,) = con.execute("SELECT genres FROM movie_genre_lists LIMIT 1").fetchone()
        assert set(genres[0]) == {"id", "name"}
        assert con.execute("SELECT count(*) FROM build_problems").fetchone()[0] == 0
    finally:
        con.close()


def test_missing_table_is_named(catalogue_dir: Path, tmp_path: Path):
    partial = tmp_path / "partial"
    shutil.copytree(catalogue_dir, partial, ignore=shutil.ignore_patterns("images", "crew.parquet"))
    with pytest.raises(CatalogueError, match=r"missing table 'crew' \(crew.parquet\)"):
        build_database(partial, tmp_path / "db.duckdb")


def test_missing_folder_is_clear(tmp_path: Path):
    with pytest.raises(CatalogueError, match="does not exist"):
        build_database(tmp_path / "nope", tmp_path / "db.duckdb")


def test_dangling_reference_fails_the_build(catalogue_dir: Path, tmp_path: Path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    broken = tmp_path / "broken"
    shutil.copytree(catalogue_dir, broken, ignore=shutil.ignore_patterns("images"))
    cast = pq.read_table(broken / "cast.parquet")
    ids = cast.column("person_id").to_pylist()
    ids[0] = 999_999_999
    pq.write_table(cast.set_column(1, "person_id", pa.array(ids, pa.int64())), broken / "cast.parquet")
    with pytest.raises(CatalogueError, match="cast: unknown person 999999999"):
        build_database(broken, tmp_path / "db.duckdb")


@pytest.mark.parametrize(
    "table, change, message",
    [
        ("season_translations", "duplicate", "season_translations: 1 duplicate"),
        ("person_translations", "unknown", "person_translations: unknown id 999999999"),
        ("episode_translations", "language", "episode_translations: unknown language qq"),
    ],
)
def test_inconsistent_tv_translations_fail_the_build(catalogue_dir: Path, tmp_path: Path, table, change, message):
    import pyarrow as pa
    import pyarrow.parquet as pq

    broken = tmp_path / "broken"
    shutil.copytree(catalogue_dir, broken, ignore=shutil.ignore_patterns("images"))
    rows = pq.read_table(broken / f"{table}.parquet")
    if change == "duplicate":
        rows = pa.concat_tables([rows, rows.slice(0, 1)])
    elif change == "unknown":
        ids = rows.column(0).to_pylist()
        ids[0] = 999_999_999
        rows = rows.set_column(0, rows.schema.names[0], pa.array(ids, pa.int64()))
    else:
        codes = rows.column("iso_639_1").to_pylist()
        codes[0] = "qq"
        rows = rows.set_column(rows.schema.names.index("iso_639_1"), "iso_639_1", pa.array(codes))
    pq.write_table(rows, broken / f"{table}.parquet")
    with pytest.raises(CatalogueError, match=message):
        build_database(broken, tmp_path / "db.duckdb")


def test_the_build_keeps_what_duckdb_frees_for_its_next_query(catalogue_dir: Path, tmp_path: Path):
    """build/allocator.py: DuckDB's jemalloc keeps freed pages FREED_MEMORY_MS, not its own 1 s,
    once a build has opened its database (a DuckDB without jemalloc has nothing to set)."""
    from marquee_build.allocator import FREED_MEMORY_MS, freed_memory_ms

    if freed_memory_ms() is None:
        pytest.skip("this DuckDB has no jemalloc")
    load_database(catalogue_dir, tmp_path / "build.duckdb").con.close()
    assert freed_memory_ms() == FREED_MEMORY_MS != 1_000
