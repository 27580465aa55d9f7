from __future__ import annotations

from pathlib import Path

import duckdb
import orjson


def test_collection_parts_match_the_catalogue(built_release: Path, catalogue_dir: Path):
    con = duckdb.connect()
    movies = str(catalogue_dir / "movies.parquet")
    collections = con.execute(
        "SELECT id, name FROM read_parquet(?)", [str(catalogue_dir / "collections.parquet")]
    ).fetchall()
    assert collections
    for collection_id, name in collections:
        doc = orjson.loads((built_release / f"3/collection/{collection_id}.json").read_bytes())
        assert (doc["id"], doc["name"], doc["original_name"]) == (collection_id, name, name)
        expected = con.execute(
            """SELECT id FROM read_parquet(?) WHERE collection_id = ?
                                  ORDER BY release_date NULLS LAST, id""",
            [movies, collection_id],
        ).fetchall()
        assert [p["id"] for p in doc["parts"]] == [i for (i,) in expected]
        dates = [p["release_date"] for p in doc["parts"] if p["release_date"]]  # TMDB's "" for no date
        assert dates == sorted(dates)
        for part in doc["parts"]:
            assert part["media_type"] == "movie"
            assert part["name"] == part["title"] and part["original_name"] == part["original_title"]
            details = orjson.loads((built_release / f"3/movie/{part['id']}.json").read_bytes())
            assert details["belongs_to_collection"]["id"] == collection_id
            assert part["genre_ids"] == [g["id"] for g in details["genres"]]
            assert part["title"] == details["title"]
    con.close()


def test_one_file_per_collection_and_nothing_else(built_release: Path, catalogue_dir: Path):
    import pyarrow.parquet as pq

    ids = set(pq.read_table(catalogue_dir / "collections.parquet").column("id").to_pylist())
    # Default-language files only: `10.de-DE.json` / `10.und.json` are language variants (test_site_gen_languages).
    files = {
        int(p.name[: -len(".json")]) for p in (built_release / "3/collection").glob("*.json") if p.name.count(".") == 1
    }
    assert files == ids
