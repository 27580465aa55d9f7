"""Translations of series, seasons, episodes and people; TV genre names per language."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import duckdb
import pytest

from marquee_datasets.synthetic import generate
from marquee_datasets.tv_translations import LOCAL, TABLES

# Unicode name fragments of each language's letters (Japanese mixes kanji with kana).
# fmt: off
SCRIPTS = {"ru": ("CYRILLIC",), "ja": ("CJK", "HIRAGANA", "KATAKANA"), "ko": ("HANGUL",), "zh": ("CJK",),
           "hi": ("DEVANAGARI",), "ar": ("ARABIC",)}
# fmt: on


@pytest.fixture(scope="module")
def q(tmp_path_factory: pytest.TempPathFactory):
    """A catalogue with many series for few films: distributions need a few dozen series."""
    catalogue_dir = tmp_path_factory.mktemp("tv-catalogue")
    generate(catalogue_dir, 60, 11, series=120)
    con = duckdb.connect()
    for table in TABLES + ("tv_series", "tv_seasons", "tv_episodes", "people", "tv_genres"):
        con.execute(f"CREATE VIEW \"{table}\" AS SELECT * FROM read_parquet('{catalogue_dir / table}.parquet')")
    yield lambda sql: con.execute(sql).fetchall()
    con.close()


def test_same_seed_same_translations(tmp_path: Path):
    generate(tmp_path / "a", 40, 9, series=6)
    generate(tmp_path / "b", 40, 9, series=6)
    for table in TABLES:
        assert (tmp_path / "a" / f"{table}.parquet").read_bytes() == (tmp_path / "b" / f"{table}.parquet").read_bytes()


def test_one_row_per_entity_and_language_and_no_dangling_ids(q):
    for table, key, owner in (
        ("series_translations", "series_id", "tv_series"),
        ("season_translations", "season_id", "tv_seasons"),
        ("episode_translations", "episode_id", "tv_episodes"),
        ("person_translations", "person_id", "people"),
    ):
        assert q(f"SELECT count(*) - count(DISTINCT ({key}, iso_639_1, iso_3166_1)) FROM {table}") == [(0,)]
        assert q(f"SELECT count(*) FROM {table} WHERE {key} NOT IN (SELECT id FROM {owner})") == [(0,)]


def test_text_is_in_each_language_own_script(q):
    for code, script in SCRIPTS.items():
        names = [
            n
            for (n,) in q(
                f"SELECT s.name FROM series_translations s JOIN tv_series t ON t.id = s.series_id "
                f"WHERE iso_639_1 = '{code}' AND t.original_language <> '{code}'"
            )
        ]
        assert names, code
        letters = [unicodedata.name(ch, "") for name in names for ch in name if ch.isalpha()]
        assert sum(any(s in letter for s in script) for letter in letters) > 0.9 * len(letters), code


def test_original_language_row_carries_the_original_name(q):
    rows = q(
        "SELECT t.original_name, s.name FROM tv_series t JOIN series_translations s ON s.series_id = t.id "
        "AND s.iso_639_1 = t.original_language WHERE t.original_language <> 'en'"
    )
    assert rows and all(original == name for original, name in rows)


def test_seasons_and_episodes_are_translated_only_where_their_series_is(q):
    for table, join in (
        ("season_translations", "tv_seasons o ON o.id = x.season_id"),
        ("episode_translations", "tv_episodes o ON o.id = x.episode_id"),
    ):
        orphans = q(
            f"SELECT count(*) FROM {table} x JOIN {join} LEFT JOIN series_translations s "
            "ON s.series_id = o.series_id AND s.iso_639_1 = x.iso_639_1 WHERE s.series_id IS NULL"
        )
        assert orphans == [(0,)], table
    season_names = q(
        "SELECT x.name, o.season_number FROM season_translations x JOIN tv_seasons o ON o.id = x.season_id "
        "WHERE x.iso_639_1 = 'de' AND o.season_number > 0"
    )
    assert season_names and all(name == f"Staffel {n}" for name, n in season_names)


def test_some_series_have_no_english_and_popular_ones_have_more_languages(q):
    assert (
        q(
            "SELECT count(*) FROM tv_series WHERE id NOT IN "
            "(SELECT series_id FROM series_translations WHERE iso_639_1 = 'en')"
        )[0][0]
        > 0
    )
    (top, bottom) = q("""
        WITH n AS (SELECT t.id, t.popularity, count(s.series_id) AS langs FROM tv_series t
                   LEFT JOIN series_translations s ON s.series_id = t.id GROUP BY ALL),
             r AS (SELECT langs, ntile(4) OVER (ORDER BY popularity) AS quartile FROM n)
        SELECT avg(langs) FILTER (WHERE quartile = 4), avg(langs) FILTER (WHERE quartile = 1) FROM r""")[0]
    assert top > bottom


def test_person_biographies_keep_the_name_untranslated(q):
    rows = q(
        "SELECT p.name, t.biography, t.iso_639_1 FROM person_translations t JOIN people p ON p.id = t.person_id "
        "WHERE t.iso_639_1 <> 'en'"
    )
    assert rows and all(name in biography for name, biography, _ in rows)
    assert {code for _, _, code in rows} > {"es", "fr"}


def test_every_tv_genre_is_named_in_every_language(q):
    assert q("SELECT count(DISTINCT iso_639_1), count(*) FROM tv_genre_translations") == [(14, 14 * 16)]
    (name,) = q("SELECT name FROM tv_genre_translations WHERE genre_id = 10765 AND iso_639_1 = 'fr'")[0]
    assert name == LOCAL["fr"][4][4]
