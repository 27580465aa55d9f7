"""Language variants of movie, collection and genre documents, and the /translations documents."""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest

from marquee_datasets.languages import BY_CODE
from site_gen.languages import variant_rows
from site_gen.validate import Validator
from tests.release_files import UNTRANSLATED_LANGUAGE, assert_und_files_differ_from_default, served_bytes
from tests.release_files import served as served_doc

# fmt: off
LANGS = ["en-US", "es-ES", "fr-FR", "de-DE", "it-IT", "pt-BR", "ru-RU", "ja-JP", "ko-KR", "zh-CN", "hi-IN",
         "ar-SA", "tr-TR", "pl-PL"]
# fmt: on
TRANSLATED = ("title", "overview", "tagline", "homepage")


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in (
        "movies",
        "movie_translations",
        "collections",
        "collection_translations",
        "genre_translations",
        "genres",
        "movie_genres",
        "languages",
        "people",
        "cast",
        "crew",
    ):
        con.execute(f"CREATE VIEW \"{table}\" AS SELECT * FROM read_parquet('{catalogue_dir / table}.parquet')")
    yield con
    con.close()


def _doc(release: Path, uri: str) -> dict:
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


def _suffixes(folder: Path, stem: str) -> set[str]:
    return {p.name[len(stem) + 1 : -len(".json")] for p in folder.glob(f"{stem}.*.json")}


def test_the_release_is_rendered_for_the_fourteen_default_languages(release_settings):
    assert release_settings.languages == LANGS


def test_movie_variants_exist_exactly_for_available_translations(built_release: Path, db):
    served = {tuple(tag.split("-")) for tag in LANGS[1:]}
    rows = db.execute("SELECT movie_id, iso_639_1, iso_3166_1 FROM movie_translations").fetchall()
    expected: dict[int, set[str]] = {}
    for movie_id, code, country in rows:
        expected.setdefault(movie_id, set())
        if (code, country) in served:
            expected[movie_id].add(f"{code}-{country}")
    for (movie_id,) in db.execute("SELECT id FROM movies").fetchall():
        assert (built_release / f"3/movie/{movie_id}.json").is_file()
        assert _suffixes(built_release / "3/movie", str(movie_id)) - {"und"} == expected.get(movie_id, set()), movie_id
    assert assert_und_files_differ_from_default(built_release / "3/movie") > 0


def test_variant_text_comes_from_its_translation_with_tmdb_fallbacks(built_release: Path, db):
    rows = db.execute("""SELECT t.movie_id, t.iso_639_1 || '-' || t.iso_3166_1, t.title, t.overview, t.tagline,
                                m.original_title
                         FROM movie_translations t JOIN movies m ON m.id = t.movie_id
                         WHERE t.iso_639_1 IN ('de', 'ja', 'ar', 'ru') ORDER BY t.movie_id""").fetchall()
    assert any(title == "" for _, _, title, *_ in rows)  # the fallback below is exercised
    for movie_id, tag, title, overview, tagline, original_title in rows:
        doc = _doc(built_release, f"/3/movie/{movie_id}.{tag}")
        assert (doc["title"], doc["overview"], doc["tagline"]) == (title or original_title, overview, tagline)
        assert doc["original_title"] == original_title


def test_und_variant_is_the_default_without_translated_text(built_release: Path, db):
    for (movie_id,) in db.execute("SELECT id FROM movies ORDER BY id LIMIT 60").fetchall():
        default, und = (
            _doc(built_release, f"/3/movie/{movie_id}"),
            served_doc(built_release, f"/3/movie/{movie_id}", UNTRANSLATED_LANGUAGE),
        )
        assert list(und) == list(default)
        assert (und["title"], und["overview"], und["tagline"]) == (und["original_title"], "", "")
        assert {k: v for k, v in und.items() if k not in TRANSLATED} == {
            k: v for k, v in default.items() if k not in TRANSLATED
        }


def test_default_document_without_english_equals_und(built_release: Path, db):
    ids = [
        i
        for (i,) in db.execute("""SELECT id FROM movies m WHERE NOT EXISTS (SELECT 1 FROM movie_translations t
                                       WHERE t.movie_id = m.id AND t.iso_639_1 = 'en')""").fetchall()
    ]
    assert ids
    for movie_id in ids:
        default = (built_release / f"3/movie/{movie_id}.json").read_bytes()
        assert not (built_release / f"3/movie/{movie_id}.und.json").exists()  # equal to the default: not written
        assert served_bytes(built_release, f"/3/movie/{movie_id}", UNTRANSLATED_LANGUAGE) == default
        assert orjson.loads(default)["overview"] == ""


def test_genre_and_collection_names_are_translated_in_movie_variants(built_release: Path, db):
    names = {
        (g, code): name
        for g, code, name in db.execute("SELECT genre_id, iso_639_1, name FROM genre_translations").fetchall()
    }
    checked = 0
    for path in sorted((built_release / "3/movie").glob("*.de-DE.json"))[:40]:
        doc = orjson.loads(path.read_bytes())
        default = _doc(built_release, f"/3/movie/{doc['id']}")
        assert [g["id"] for g in doc["genres"]] == [g["id"] for g in default["genres"]]
        assert [g["name"] for g in doc["genres"]] == [names[(g["id"], "de")] for g in doc["genres"]]
        if doc["belongs_to_collection"]:
            cid = doc["belongs_to_collection"]["id"]
            row = db.execute(
                "SELECT name FROM collection_translations WHERE collection_id = ? AND iso_639_1 = 'de'", [cid]
            ).fetchone()
            fallback = db.execute("SELECT name FROM collections WHERE id = ?", [cid]).fetchone()
            assert doc["belongs_to_collection"]["name"] == (row or fallback)[0]
        checked += 1
    assert checked


def test_credits_have_no_variants_and_untranslated_names(built_release: Path, db):
    assert not list((built_release / "3/movie").glob("*/credits.*.json"))
    people = dict(db.execute("SELECT id, name FROM people").fetchall())
    (movie_id,) = db.execute("""SELECT t.movie_id FROM movie_translations t WHERE t.iso_639_1 = 'ja'
                                ORDER BY t.movie_id LIMIT 1""").fetchone()
    credits = _doc(built_release, f"/3/movie/{movie_id}/credits")
    assert credits["cast"] and all(c["name"] == people[c["id"]] == c["original_name"] for c in credits["cast"])
    characters = [
        c
        for (c,) in db.execute(
            'SELECT "character" FROM "cast" WHERE movie_id = ? ORDER BY "order"', [movie_id]
        ).fetchall()
    ]
    assert [c["character"] for c in credits["cast"]] == characters


def test_collection_variants_and_parts_are_in_their_language(built_release: Path, db):
    served = {tuple(tag.split("-")) for tag in LANGS[1:]}
    for (cid,) in db.execute("SELECT id FROM collections").fetchall():
        rows = db.execute(
            "SELECT iso_639_1, iso_3166_1, name, overview FROM collection_translations WHERE collection_id = ?", [cid]
        ).fetchall()
        expected = {f"{c}-{r}" for c, r, _, _ in rows if (c, r) in served}
        assert _suffixes(built_release / "3/collection", str(cid)) - {"und"} == expected
        for code, country, name, overview in rows:
            if (code, country) not in served:
                continue
            doc = _doc(built_release, f"/3/collection/{cid}.{code}-{country}")
            assert (doc["name"], doc["overview"]) == (name, overview)
            titles = dict(
                db.execute(
                    """SELECT m.id, coalesce(nullif(t.title, ''), m.original_title) FROM movies m
                LEFT JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = ? AND t.iso_3166_1 = ?
                WHERE m.collection_id = ?""",
                    [code, country, cid],
                ).fetchall()
            )
            assert {p["id"]: p["title"] for p in doc["parts"]} == titles
            assert all(
                p["title"] == _doc(built_release, f"/3/movie/{p['id']}.{code}-{country}")["title"]
                for p in doc["parts"]
                if (built_release / f"3/movie/{p['id']}.{code}-{country}.json").is_file()
            )
        und = served_doc(built_release, f"/3/collection/{cid}", UNTRANSLATED_LANGUAGE)
        assert und["overview"] == "" and all(
            p["title"] == p["original_title"] and p["overview"] == "" for p in und["parts"]
        )


def test_genre_list_has_every_language_variant_sorted_by_translated_name(built_release: Path, db):
    assert _suffixes(built_release / "3/genre/movie", "list") == set(LANGS[1:])
    for tag in LANGS[1:]:
        genres = _doc(built_release, f"/3/genre/movie/list.{tag}")["genres"]
        expected = db.execute("SELECT genre_id, name FROM genre_translations WHERE iso_639_1 = ?", [tag[:2]]).fetchall()
        assert {(g["id"], g["name"]) for g in genres} == set(expected) and len(genres) == 19
        assert [g["name"] for g in genres] == sorted(g["name"] for g in genres)
        assert {g["name"] for g in genres} == set(BY_CODE[tag[:2]].genres)


def test_every_variant_validates(built_release: Path):
    validator = Validator()
    templates = {
        "3/movie": "/3/movie/{movie_id}",
        "3/collection": "/3/collection/{collection_id}",
        "3/genre/movie": "/3/genre/movie/list",
    }
    count = 0
    for folder, template in templates.items():
        for path in (built_release / folder).glob("*.*.json"):  # `603.de-DE.json`, `list.ja-JP.json`
            uri = "/" + str(path.relative_to(built_release))[: -len(".json")]
            validator.validate(uri, path.read_bytes(), template)
            count += 1
    assert count > 500


def test_translations_documents_list_exactly_the_catalogue_rows(built_release: Path, db):
    languages = {
        code: (name, english)
        for code, english, name in db.execute("SELECT iso_639_1, english_name, name FROM languages").fetchall()
    }
    validator = Validator()
    for movie_id, runtime, original_language in db.execute(
        "SELECT id, runtime, original_language FROM movies"
    ).fetchall():
        raw = (built_release / f"3/movie/{movie_id}/translations.json").read_bytes()
        assert raw.startswith(b'{"id":%d,' % movie_id)
        validator.validate(f"/3/movie/{movie_id}/translations", raw, "/3/movie/{movie_id}/translations")
        doc = orjson.loads(raw)
        rows = db.execute(
            """SELECT iso_3166_1, iso_639_1, homepage, overview, tagline, title FROM movie_translations
                             WHERE movie_id = ? ORDER BY iso_639_1, iso_3166_1""",
            [movie_id],
        ).fetchall()
        assert [
            (
                t["iso_3166_1"],
                t["iso_639_1"],
                t["data"]["homepage"],
                t["data"]["overview"],
                t["data"]["tagline"],
                t["data"]["title"],
            )
            for t in doc["translations"]
        ] == rows
        for t in doc["translations"]:
            assert list(t) == ["iso_3166_1", "iso_639_1", "name", "english_name", "data"]
            assert (t["name"], t["english_name"]) == languages[t["iso_639_1"]]
            own = t["iso_639_1"] in (original_language, "en")
            assert t["data"]["runtime"] == (runtime if own else 0)


def test_collection_translations_documents_list_exactly_the_catalogue_rows(built_release: Path, db):
    for (cid,) in db.execute("SELECT id FROM collections").fetchall():
        raw = (built_release / f"3/collection/{cid}/translations.json").read_bytes()
        assert raw.startswith(b'{"id":%d,' % cid)
        doc = orjson.loads(raw)
        rows = db.execute(
            """SELECT iso_3166_1, iso_639_1, name, overview FROM collection_translations
                             WHERE collection_id = ? ORDER BY iso_639_1, iso_3166_1""",
            [cid],
        ).fetchall()
        assert [
            (t["iso_3166_1"], t["iso_639_1"], t["data"]["title"], t["data"]["overview"]) for t in doc["translations"]
        ] == rows
        assert all(list(t["data"]) == ["title", "overview", "homepage"] for t in doc["translations"])


def test_variant_rows_follow_the_configured_languages():
    rows = variant_rows(["de-DE", "en-US", "sv-SE"], {"de", "en"})
    assert rows == [
        ("", "de", "DE", "default", "de"),
        (".en-US", "en", "US", "other", "en"),
        (".sv-SE", "sv", "SE", "other", "de"),
        (".und", None, None, "und", "de"),
    ]


def test_videos_are_rendered_per_language(built_release: Path, catalogue_dir: Path):
    videos = duckdb.sql(
        f'SELECT movie_id, iso_639_1, list("key" ORDER BY published_at DESC, id) FROM '
        f"'{catalogue_dir}/movie_videos.parquet' GROUP BY ALL"
    ).fetchall()
    by_movie: dict[int, dict[str, list[str]]] = {}
    for movie_id, code, keys in videos:
        by_movie.setdefault(movie_id, {})[code] = keys
    checked = 0
    for movie_id, codes in by_movie.items():
        for tag in LANGS[1:]:
            path = built_release / f"3/movie/{movie_id}/videos.{tag}.json"
            code = tag.split("-")[0]
            assert path.exists() == (code in codes), (movie_id, tag)
            if path.exists():
                assert [v["key"] for v in orjson.loads(path.read_bytes())["results"]] == codes[code]
                checked += 1
        default = [v["key"] for v in _doc(built_release, f"/3/movie/{movie_id}/videos")["results"]]
        assert default == codes.get("en", [])
        # A language without videos gets none, not the English ones.
        assert served_doc(built_release, f"/3/movie/{movie_id}/videos", UNTRANSLATED_LANGUAGE)["results"] == []
    assert checked
