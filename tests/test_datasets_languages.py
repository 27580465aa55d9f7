"""The 14 languages' vocabulary (own scripts, determinism) and the translation tables built from it."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import duckdb
import numpy as np
import pyarrow.parquet as pq
import pytest

from marquee.settings import from_env
from marquee_datasets import languages, synthetic, vocab
from marquee_datasets.columns import rng_for

# Letters (and combining marks) of each non-Latin language must all fall in these code point ranges.
# fmt: off
SCRIPTS: dict[str, tuple[tuple[int, int], ...]] = {
    "ru": ((0x0400, 0x04FF),),
    "ja": ((0x3040, 0x309F), (0x30A0, 0x30FF), (0x4E00, 0x9FFF)),
    "ko": ((0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F)),
    "zh": ((0x4E00, 0x9FFF),),
    "hi": ((0x0900, 0x097F),),
    "ar": ((0x0600, 0x06FF),),
}
# fmt: on
LATIN = ("es", "fr", "de", "it", "pt", "tr", "pl")
N = 400


def _letters(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch)[0] in "LM"]


def _texts(lang: languages.Language, seed: int = 5) -> list[str]:
    """Generated titles, overviews, taglines and collection names/overviews in lang."""
    rng = rng_for(seed, lang.tag)
    titles = languages.titles(lang, rng, N)
    return (
        titles.to_pylist()
        + languages.overviews(lang, rng, N).to_pylist()
        + languages.taglines(lang, rng, N).to_pylist()
        + languages.collection_names(lang, titles).to_pylist()
        + languages.collection_overviews(lang, titles).to_pylist()
    )


def test_the_fourteen_languages_match_the_default_setting_and_tmdb_codes():
    assert [lang.tag for lang in languages.LANGUAGES] == from_env({}).languages
    english_names = {code: english for code, english, _ in vocab.LANGUAGES}
    for lang in languages.LANGUAGES:
        assert english_names[lang.iso_639_1] == lang.english_name
        assert lang.native_name and len(lang.genres) == len(vocab.GENRES)


@pytest.mark.parametrize("code", sorted(SCRIPTS))
def test_non_latin_languages_are_written_in_their_own_script(code: str):
    lang = languages.BY_CODE[code]
    ranges = SCRIPTS[code]
    for text in _texts(lang):
        letters = _letters(text)
        assert letters, text
        outside = [ch for ch in letters if not any(lo <= ord(ch) <= hi for lo, hi in ranges)]
        assert outside == [], (text, outside)
    # Genre names are TMDB's: Korean keeps the Latin "SF" and "TV", the rest is all in the script.
    native = [g for g in lang.genres if all(any(lo <= ord(c) <= hi for lo, hi in ranges) for c in _letters(g))]
    assert len(native) >= len(lang.genres) - 2


def test_japanese_uses_kana_and_chinese_does_not():
    kana = lambda text: any(0x3040 <= ord(c) <= 0x30FF for c in text)  # noqa: E731
    assert all(kana(t) for t in languages.overviews(languages.BY_CODE["ja"], rng_for(1, "ja"), 50).to_pylist())
    assert not any(kana(t) for t in _texts(languages.BY_CODE["zh"]))


@pytest.mark.parametrize("code", LATIN)
def test_latin_languages_use_latin_letters_with_their_diacritics(code: str):
    texts = _texts(languages.BY_CODE[code])
    letters = {ch for text in texts for ch in _letters(text)}
    assert all(ord(ch) < 0x250 for ch in letters), sorted(ch for ch in letters if ord(ch) >= 0x250)
    assert any(ord(ch) > 0x7F for ch in letters)  # é, ß, ç, ñ, ğ, ł, ...
    assert all(t == t.strip() and "  " not in t for t in texts)


def test_composition_is_deterministic_and_seeded():
    for lang in languages.LANGUAGES:
        assert _texts(lang, 5) == _texts(lang, 5)
        assert _texts(lang, 5) != _texts(lang, 6)


def test_titles_never_repeat_a_noun():
    lang = languages.BY_CODE["de"]
    for title in languages.titles(lang, rng_for(3, "t"), 2000).to_pylist():
        left, _, right = title.partition(" und ")
        assert left.lower() != right.lower()


# --- the catalogue tables (session catalogue: 150 movies, seed 7) ---------------------------------


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in (
        "movies",
        "movie_translations",
        "collections",
        "collection_translations",
        "genre_translations",
        "languages",
    ):
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{catalogue_dir / table}.parquet')")
    yield con
    con.close()


def test_original_language_always_has_the_original_title(db):
    missing = db.execute("""SELECT count(*) FROM movies m WHERE NOT EXISTS (SELECT 1 FROM movie_translations t
        WHERE t.movie_id = m.id AND t.iso_639_1 = m.original_language AND t.title = m.original_title)""").fetchone()
    assert missing == (0,)
    assert db.execute(
        "SELECT count(*) FROM movie_translations t WHERE iso_639_1 NOT IN (SELECT iso_639_1 FROM languages)"
    ).fetchone() == (0,)


def test_english_exists_for_every_english_film_and_most_but_not_all_others(db):
    rows = db.execute("""SELECT m.original_language = 'en', count(*), count(t.movie_id) FROM movies m
        LEFT JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = 'en' AND t.iso_3166_1 = 'US'
        GROUP BY 1""").fetchall()
    by_kind = {english: (total, translated) for english, total, translated in rows}
    assert by_kind[True][0] == by_kind[True][1]
    total, translated = by_kind[False]
    assert total * 0.5 < translated < total


def test_english_rows_are_the_ones_synthetic_generates(catalogue_dir: Path):
    from tests.conftest import CATALOGUE_MOVIES, CATALOGUE_SEED

    before = synthetic._movie_tables(CATALOGUE_MOVIES, CATALOGUE_SEED)["movie_translations"]
    after = pq.read_table(catalogue_dir / "movie_translations.parquet")
    kept = {row["movie_id"]: row for row in after.to_pylist() if row["iso_639_1"] == "en"}
    assert kept
    for row in before.to_pylist():
        if row["movie_id"] in kept:
            assert kept[row["movie_id"]] == row


def test_popular_films_have_many_translations_and_the_tail_few(db):
    counts = np.array(
        [
            n
            for (n,) in db.execute("""SELECT count(t.movie_id) FROM movies m
        LEFT JOIN movie_translations t ON t.movie_id = m.id GROUP BY m.id, m.popularity ORDER BY m.popularity""").fetchall()
        ]
    )
    tail, top = counts[: len(counts) // 2], counts[-len(counts) // 10 :]
    assert counts.min() >= 1 and top.mean() > 2 * tail.mean() and top.max() >= 10
    assert db.execute(
        "SELECT count(*) FROM (SELECT 1 FROM movie_translations "
        "GROUP BY movie_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)"
    ).fetchone() == (0,)


def test_genre_translations_cover_every_language_with_tmdb_names(db):
    rows = db.execute("SELECT iso_639_1, genre_id, name FROM genre_translations").fetchall()
    assert len(rows) == len(languages.LANGUAGES) * len(vocab.GENRES)
    names = {(code, genre): name for code, genre, name in rows}
    assert {g: names[("en", g)] for g, _ in vocab.GENRES} == dict(vocab.GENRES)
    assert (names[("de", 35)], names[("fr", 18)], names[("ja", 27)], names[("ru", 878)]) == (
        "Komödie",
        "Drame",
        "ホラー",
        "фантастика",
    )


def test_collection_translations_follow_their_first_part(db):
    english = db.execute("""SELECT count(*) FROM collections c JOIN collection_translations t
        ON t.collection_id = c.id AND t.iso_639_1 = 'en' AND t.name = c.name AND t.overview = c.overview""").fetchone()
    assert english == db.execute("SELECT count(*) FROM collections").fetchone()
    # Every other translation of a collection exists exactly where its first part has one.
    mismatched = db.execute("""
        WITH heads AS (SELECT collection_id, arg_min(id, (coalesce(release_date, DATE '9999-12-31'), id)) AS head
                       FROM movies WHERE collection_id IS NOT NULL GROUP BY collection_id),
             expected AS (SELECT h.collection_id, t.iso_639_1 FROM heads h JOIN movie_translations t ON t.movie_id = h.head
                          WHERE t.iso_639_1 IN (SELECT iso_639_1 FROM genre_translations) AND t.iso_639_1 <> 'en')
        SELECT count(*) FROM (SELECT * FROM expected
                              EXCEPT SELECT collection_id, iso_639_1 FROM collection_translations WHERE iso_639_1 <> 'en')""").fetchone()
    assert mismatched == (0,)
