"""Reference lists: TMDB's shapes and data, merged with and consistent with the catalogue."""

from __future__ import annotations

import zoneinfo
from pathlib import Path

import duckdb
import orjson
import pytest

from marquee_datasets import vocab
from site_gen.reference import merged
from site_gen.validate import ValidationError, Validator

# fmt: off
MARQUEE_LANGUAGES = ("en-US", "es-ES", "fr-FR", "de-DE", "it-IT", "pt-BR", "ru-RU", "ja-JP", "ko-KR", "zh-CN",
                     "hi-IN", "ar-SA", "tr-TR", "pl-PL")
# fmt: on


def _doc(release: Path, uri: str):
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in ("countries", "languages", "crew", "series_crew", "episode_crew"):
        if not (catalogue_dir / f"{table}.parquet").is_file():
            continue  # TV tables are optional here
        path = str(catalogue_dir / f"{table}.parquet").replace("'", "''")
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{path}')")
    yield con
    con.close()


def test_countries_hold_every_catalogue_row_verbatim(built_release: Path, db):
    doc = _doc(built_release, "/3/configuration/countries")
    assert len(doc) > 200 and all(list(c) == ["iso_3166_1", "english_name", "native_name"] for c in doc)
    codes = [c["iso_3166_1"] for c in doc]
    assert len(codes) == len(set(codes))
    by_code = {c["iso_3166_1"]: c for c in doc}
    for code, english, native in db.execute("SELECT * FROM countries").fetchall():
        assert by_code[code] == {"iso_3166_1": code, "english_name": english, "native_name": native}


def test_languages_hold_every_catalogue_row_verbatim(built_release: Path, db):
    doc = _doc(built_release, "/3/configuration/languages")
    assert len(doc) > 150 and all(list(lang) == ["iso_639_1", "english_name", "name"] for lang in doc)
    by_code = {lang["iso_639_1"]: lang for lang in doc}
    assert len(by_code) == len(doc)
    for code, english, name in db.execute("SELECT iso_639_1, english_name, name FROM languages").fetchall():
        assert by_code[code] == {"iso_639_1": code, "english_name": english, "name": name}


def test_merge_prefers_catalogue_rows_and_appends_unknown_codes():
    reference = [{"k": "a", "v": "tmdb-a"}, {"k": "b", "v": "tmdb-b"}]
    catalogue = [{"v": "ours-b", "k": "b"}, {"v": "ours-z", "k": "z"}]
    assert merged(reference, catalogue, "k") == [
        {"k": "a", "v": "tmdb-a"},
        {"k": "b", "v": "ours-b"},
        {"k": "z", "v": "ours-z"},
    ]


def test_jobs_cover_every_movie_and_tv_crew_job_of_the_catalogue(built_release: Path, db):
    doc = _doc(built_release, "/3/configuration/jobs")
    jobs = {d["department"]: set(d["jobs"]) for d in doc}
    assert len(jobs) == len(doc)
    assert set(vocab.DEPARTMENT_JOBS) <= set(jobs)
    views = {v for (v,) in db.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    sources = [t for t in ("crew", "series_crew", "episode_crew") if t in views]
    pairs = db.execute(" UNION ".join(f"SELECT DISTINCT department, job FROM {t}" for t in sources)).fetchall()
    for department, job in pairs:
        assert job in jobs[department], (department, job)
    assert "Director" in jobs["Directing"] and "Screenplay" in jobs["Writing"]


def test_primary_translations_include_marquee_languages(built_release: Path):
    doc = _doc(built_release, "/3/configuration/primary_translations")
    assert all(isinstance(t, str) and len(t) == 5 and t[2] == "-" for t in doc)
    assert set(MARQUEE_LANGUAGES) <= set(doc) and len(doc) > len(MARQUEE_LANGUAGES)


def test_timezones_are_real_iana_zones_per_country(built_release: Path, db):
    doc = _doc(built_release, "/3/configuration/timezones")
    available = zoneinfo.available_timezones()
    assert all(list(entry) == ["iso_3166_1", "zones"] for entry in doc)
    for entry in doc:
        assert set(entry["zones"]) <= available, entry
    by_country = {entry["iso_3166_1"]: entry["zones"] for entry in doc}
    assert "America/New_York" in by_country["US"] and by_country["JP"] == ["Asia/Tokyo"]
    assert {code for (code,) in db.execute("SELECT iso_3166_1 FROM countries").fetchall()} <= set(by_country)


def test_tv_certifications_are_real_systems(built_release: Path):
    doc = _doc(built_release, "/3/certification/tv/list")
    systems = doc["certifications"]
    us = {c["certification"]: c["order"] for c in systems["US"]}
    assert us["TV-Y"] < us["TV-PG"] < us["TV-14"] < us["TV-MA"]
    for entries in systems.values():
        assert all(list(c) == ["certification", "meaning", "order"] for c in entries)
        assert all(isinstance(c["order"], int) for c in entries)


def test_tv_content_ratings_of_the_catalogue_are_listed(built_release: Path):
    tv_vocab = pytest.importorskip("marquee_datasets.tv_vocab")
    systems = _doc(built_release, "/3/certification/tv/list")["certifications"]
    for country, ratings in getattr(tv_vocab, "CONTENT_RATINGS", {}).items():
        listed = {c["certification"] for c in systems.get(country, [])}
        assert set(ratings) <= listed, country


def test_bare_array_items_are_checked_by_the_validator():
    validator = Validator()
    with pytest.raises(ValidationError, match=r"\[1\]\.native_name"):
        validator.validate(
            "/3/configuration/countries",
            [
                {"iso_3166_1": "US", "english_name": "United States of America", "native_name": "US"},
                {"iso_3166_1": "FR", "english_name": "France"},
            ],
        )
    with pytest.raises(ValidationError, match=r"\[0\]\.zones"):
        validator.validate("/3/configuration/timezones", [{"iso_3166_1": "US", "zones": "America/New_York"}])
