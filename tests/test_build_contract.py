"""build/contract.py: the catalogue contract the generator, the importers and the build share."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from marquee_build import contract
from marquee_build.catalogue import CatalogueError, check_catalogue


def test_conform_orders_and_types_the_columns():
    table = pa.table({"name": ["Drama"], "id": pa.array([18], pa.int32()), "extra": [1]})
    conformed = contract.conform("genres", table)
    assert conformed.schema == contract.TABLES["genres"] and conformed.to_pylist() == [{"id": 18, "name": "Drama"}]


def test_conform_names_the_table_and_column_that_do_not_fit():
    with pytest.raises(contract.ContractError, match="table 'genres' has no column 'name'"):
        contract.conform("genres", pa.table({"id": [1]}))
    with pytest.raises(contract.ContractError, match="table 'movies'.*'release_date'"):
        movies = contract.empty("movies").to_pydict()
        movies["release_date"] = ["not a date"]
        contract.conform("movies", pa.table({k: v if k == "release_date" else [None] for k, v in movies.items()}))


def test_empty_tables_fit(tmp_path: Path):
    for name in contract.REQUIRED:
        pq.write_table(contract.empty(name), tmp_path / f"{name}.parquet")
    contract.check(tmp_path)


def test_the_build_names_a_catalogue_column_of_the_wrong_type(catalogue_dir: Path, tmp_path: Path):
    for name in contract.REQUIRED:
        (tmp_path / f"{name}.parquet").symlink_to(catalogue_dir / f"{name}.parquet")
    check_catalogue(tmp_path)  # the session's generated catalogue fits
    (tmp_path / "movies.parquet").unlink()
    movies = pq.read_table(catalogue_dir / "movies.parquet")
    pq.write_table(
        movies.set_column(movies.schema.get_field_index("runtime"), "runtime", movies["runtime"].cast(pa.string())),
        tmp_path / "movies.parquet",
    )
    with pytest.raises(CatalogueError, match="table 'movies': column 'runtime' is string, the contract says int64"):
        check_catalogue(tmp_path)
    (tmp_path / "cast.parquet").unlink()
    (tmp_path / "movies.parquet").unlink()
    (tmp_path / "movies.parquet").symlink_to(catalogue_dir / "movies.parquet")
    with pytest.raises(CatalogueError, match="missing table 'cast'"):
        check_catalogue(tmp_path)
