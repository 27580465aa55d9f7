"""Company documents traced back to the catalogue: details, alternative_names, images."""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest

# fmt: off
COMPANY_KEYS = ["description", "headquarters", "homepage", "id", "logo_path", "name", "origin_country",
                "parent_company"]
# fmt: on
LOGO_KEYS = ["aspect_ratio", "file_path", "height", "id", "file_type", "vote_average", "vote_count", "width"]


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in ("companies", "company_alternative_names", "company_images"):
        path = str(catalogue_dir / f"{table}.parquet").replace("'", "''")
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{path}')")
    yield con
    con.close()


def _doc(release: Path, uri: str):
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


def test_every_company_has_its_three_documents(built_release: Path, db):
    ids = {i for (i,) in db.execute("SELECT id FROM companies").fetchall()}
    assert {int(p.stem) for p in (built_release / "3/company").glob("*.json")} == ids
    for company_id in ids:
        for sub in ("alternative_names", "images"):
            assert (built_release / f"3/company/{company_id}/{sub}.json").is_file()


def test_details_match_the_companies_row_and_parent(built_release: Path, db):
    rows = db.execute("""SELECT c.id, c.name, c.description, c.headquarters, c.homepage, c.logo_path,
                                c.origin_country, p.id, p.name, p.logo_path
                         FROM companies c LEFT JOIN companies p ON p.id = c.parent_company_id""").fetchall()
    assert any(r[7] is not None for r in rows) and any(r[7] is None for r in rows)
    for cid, name, description, hq, homepage, logo, country, parent_id, parent_name, parent_logo in rows:
        doc = _doc(built_release, f"/3/company/{cid}")
        assert list(doc) == COMPANY_KEYS
        assert [doc[k] for k in COMPANY_KEYS[:-1]] == [description, hq, homepage, cid, logo, name, country]
        expected = None if parent_id is None else {"id": parent_id, "logo_path": parent_logo, "name": parent_name}
        assert doc["parent_company"] == expected


def test_alternative_names_in_catalogue_order(built_release: Path, db):
    for (cid,) in db.execute("SELECT id FROM companies ORDER BY id").fetchall():
        doc = _doc(built_release, f"/3/company/{cid}/alternative_names")
        assert list(doc) == ["id", "results"] and doc["id"] == cid
        rows = db.execute(
            "SELECT name, type FROM company_alternative_names WHERE company_id = ? ORDER BY ord", [cid]
        ).fetchall()
        assert [(r["name"], r["type"]) for r in doc["results"]] == rows


def test_logos_start_with_the_logo_path_and_exist(image_store: Path, built_release: Path, db):
    for cid, logo in db.execute("SELECT id, logo_path FROM companies ORDER BY id").fetchall():
        doc = _doc(built_release, f"/3/company/{cid}/images")
        assert list(doc) == ["id", "logos"] and doc["id"] == cid
        rows = db.execute(
            "SELECT id, file_path, width, height FROM company_images WHERE company_id = ? ORDER BY ord", [cid]
        ).fetchall()
        assert [(i["id"], i["file_path"], i["width"], i["height"]) for i in doc["logos"]] == rows
        if logo is None:
            assert doc["logos"] == []
            continue
        assert doc["logos"][0]["file_path"] == logo
        for image in doc["logos"]:
            assert list(image) == LOGO_KEYS
            assert len(image["id"]) == 24 and image["file_type"] in (".png", ".svg")
            assert (image_store / "original" / image["file_path"].lstrip("/")).is_file()
