"""The daily ID export files (site_gen/exports.py) on the image host, as files.tmdb.org serves
TMDB's: every entity of the catalogue, one JSON line each, in TMDB's fields."""

from __future__ import annotations

import gzip

import httpx
import orjson
import pytest

pytestmark = pytest.mark.e2e


def test_every_id_is_in_its_export_file(api, e2e_release, catalogue):
    files = {p.name.split("_ids_")[0]: p.name for p in (e2e_release / "exports").iterdir()}
    assert set(files) == {"movie", "tv_series", "person", "collection", "keyword", "tv_network", "production_company"}
    host = f"http://{api.settings.listen_host}:{api.settings.image_port}"
    checks = {
        "movie": ("movies", ["adult", "id", "original_title", "popularity", "video"]),
        "tv_series": ("tv_series", ["id", "original_name", "popularity"]),
        "person": ("people", ["adult", "id", "name", "popularity"]),
        "tv_network": ("networks", ["id", "name"]),
    }
    for stem, (table, fields) in checks.items():
        response = httpx.get(f"{host}/p/exports/{files[stem]}")  # no key, as TMDB's
        assert response.status_code == 200 and response.headers["content-type"] == "application/gzip"
        lines = [orjson.loads(line) for line in gzip.decompress(response.content).splitlines()]
        assert [list(line) for line in lines[:1]] == [fields]
        expected = catalogue.execute(f"SELECT {', '.join(fields)} FROM {table} ORDER BY id").fetchall()
        assert [tuple(line[f] for f in fields) for line in lines] == [tuple(row) for row in expected]
    assert httpx.get(f"{host}/p/exports/../documents.sqlite").status_code in (400, 404)
    assert httpx.get(f"{host}/p/exports/movie_ids_01_01_1999.json.gz").status_code == 404
