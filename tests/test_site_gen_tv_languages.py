"""Language variants of series, season, episode and person documents; their /translations and /images
documents; series moods and the TV provider list."""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest

from marquee_datasets.tv_translations import LOCAL
from tests.release_files import UNTRANSLATED_LANGUAGE, assert_und_files_differ_from_default, served

# fmt: off
LANGS = ["en-US", "es-ES", "fr-FR", "de-DE", "it-IT", "pt-BR", "ru-RU", "ja-JP", "ko-KR", "zh-CN", "hi-IN",
         "ar-SA", "tr-TR", "pl-PL"]
# fmt: on
# fmt: off
TABLES = ("tv_series", "tv_seasons", "tv_episodes", "series_translations", "season_translations",
          "episode_translations", "person_translations", "tv_genre_translations", "series_genres", "people",
          "series_images", "season_images", "episode_images", "collection_images", "collections", "languages")
# fmt: on


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in TABLES:
        con.execute(f"CREATE VIEW \"{table}\" AS SELECT * FROM read_parquet('{catalogue_dir / table}.parquet')")
    yield con
    con.close()


def _doc(release: Path, uri: str) -> dict:
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


def _variants(folder: Path, stem: str) -> set[str]:
    return {p.name[len(stem) + 1 : -len(".json")] for p in folder.glob(f"{stem}.*.json")}


def test_series_variants_exist_exactly_for_served_translations(built_release: Path, db):
    served = {tuple(tag.split("-")) for tag in LANGS[1:]}
    expected: dict[int, set[str]] = {}
    for series_id, code, country in db.execute(
        "SELECT series_id, iso_639_1, iso_3166_1 FROM series_translations"
    ).fetchall():
        expected.setdefault(series_id, set())
        if (code, country) in served:
            expected[series_id].add(f"{code}-{country}")
    for (series_id,) in db.execute("SELECT id FROM tv_series").fetchall():
        assert _variants(built_release / "3/tv", str(series_id)) - {"und"} == expected.get(series_id, set()), series_id
    assert_und_files_differ_from_default(built_release / "3/tv")


def test_series_text_follows_the_variant_with_tmdb_fallbacks(built_release: Path, db):
    rows = db.execute("""SELECT t.series_id, t.iso_639_1 || '-' || t.iso_3166_1, t.name, t.overview, t.tagline,
                                s.original_name, t.iso_639_1
                         FROM series_translations t JOIN tv_series s ON s.id = t.series_id
                         WHERE t.iso_639_1 IN ('ja', 'ar', 'de', 'ko')""").fetchall()
    assert {code for *_, code in rows} >= {"ja", "de"}
    genre_names = {
        (g, code): name
        for g, code, name in db.execute("SELECT genre_id, iso_639_1, name FROM tv_genre_translations").fetchall()
    }
    for series_id, tag, name, overview, tagline, original_name, code in rows:
        doc = _doc(built_release, f"/3/tv/{series_id}.{tag}")
        assert (doc["name"], doc["overview"], doc["tagline"]) == (name or original_name, overview, tagline)
        assert doc["original_name"] == original_name
        assert [g["name"] for g in doc["genres"]] == [genre_names[(g["id"], code)] for g in doc["genres"]]
        season_word = LOCAL[code][0].split("{n}")[0]
        translated = db.execute(
            "SELECT count(*) FROM season_translations st JOIN tv_seasons se ON se.id = st.season_id "
            "WHERE se.series_id = ? AND st.iso_639_1 = ? AND se.season_number > 0",
            [series_id, code],
        ).fetchone()[0]
        regular = [s for s in doc["seasons"] if s["season_number"] > 0]
        assert sum(s["name"].startswith(season_word) for s in regular) == translated


def test_und_series_is_the_original_name_with_empty_text(built_release: Path, db):
    for series_id, original_name in db.execute("SELECT id, original_name FROM tv_series").fetchall():
        und, default = (
            served(built_release, f"/3/tv/{series_id}", UNTRANSLATED_LANGUAGE),
            _doc(built_release, f"/3/tv/{series_id}"),
        )
        assert (und["name"], und["overview"], und["tagline"]) == (original_name, "", "")
        assert list(und) == list(default)
        assert und["number_of_episodes"] == default["number_of_episodes"]


def test_season_and_episode_variants_carry_their_translation(built_release: Path, db):
    rows = db.execute("""SELECT se.series_id, se.season_number, t.iso_639_1 || '-' || t.iso_3166_1, t.name, t.overview
                         FROM season_translations t JOIN tv_seasons se ON se.id = t.season_id
                         WHERE t.iso_639_1 = 'ru'""").fetchall()
    assert rows
    for series_id, number, tag, name, overview in rows:
        doc = _doc(built_release, f"/3/tv/{series_id}/season/{number}.{tag}")
        assert (doc["name"], doc["overview"]) == (name, overview)
        episode_names = dict(
            db.execute(
                "SELECT e.episode_number, coalesce(nullif(t.name, ''), e.name) FROM tv_episodes e "
                "LEFT JOIN episode_translations t ON t.episode_id = e.id AND t.iso_639_1 = 'ru' "
                "WHERE e.series_id = ? AND e.season_number = ?",
                [series_id, number],
            ).fetchall()
        )
        assert {e["episode_number"]: e["name"] for e in doc["episodes"]} == episode_names
    series_id, number, episode, name = db.execute(
        """SELECT e.series_id, e.season_number, e.episode_number, t.name FROM episode_translations t
           JOIN tv_episodes e ON e.id = t.episode_id WHERE t.iso_639_1 = 'hi' LIMIT 1"""
    ).fetchone()
    assert _doc(built_release, f"/3/tv/{series_id}/season/{number}/episode/{episode}.hi-IN")["name"] == name
    und = served(built_release, f"/3/tv/{series_id}/season/{number}/episode/{episode}", UNTRANSLATED_LANGUAGE)
    assert und["overview"] == ""


def test_person_variants_translate_the_biography_never_the_name(built_release: Path, db):
    rows = db.execute("""SELECT t.person_id, t.iso_639_1 || '-' || t.iso_3166_1, t.biography, p.name
                         FROM person_translations t JOIN people p ON p.id = t.person_id
                         WHERE t.iso_639_1 <> 'en'""").fetchall()
    checked = 0
    for person_id, tag, biography, name in rows:
        path = built_release / f"3/person/{person_id}.{tag}.json"
        if path.exists():  # only credited people have documents
            doc = orjson.loads(path.read_bytes())
            assert (doc["biography"], doc["name"]) == (biography, name)
            assert served(built_release, f"/3/person/{person_id}", UNTRANSLATED_LANGUAGE)["biography"] == ""
            translations = _doc(built_release, f"/3/person/{person_id}/translations")["translations"]
            assert tag.split("-")[0] in {t["iso_639_1"] for t in translations}
            assert all(t["data"]["name"] == name for t in translations)
            checked += 1
    assert checked


def test_translations_documents_list_every_catalogue_translation(built_release: Path, db):
    (series_id,) = db.execute(
        "SELECT series_id FROM series_translations GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()
    doc = _doc(built_release, f"/3/tv/{series_id}/translations")
    expected = db.execute(
        "SELECT iso_639_1, iso_3166_1, name FROM series_translations WHERE series_id = ? "
        "ORDER BY iso_639_1, iso_3166_1",
        [series_id],
    ).fetchall()
    assert [(t["iso_639_1"], t["iso_3166_1"], t["data"]["name"]) for t in doc["translations"]] == expected
    assert doc["id"] == series_id and all(t["english_name"] for t in doc["translations"])
    season_id, number = db.execute(
        "SELECT id, season_number FROM tv_seasons WHERE series_id = ? LIMIT 1", [series_id]
    ).fetchone()
    season_doc = _doc(built_release, f"/3/tv/{series_id}/season/{number}/translations")
    assert season_doc["id"] == season_id
    assert (
        len(season_doc["translations"])
        == db.execute("SELECT count(*) FROM season_translations WHERE season_id = ?", [season_id]).fetchone()[0]
    )


@pytest.mark.parametrize(
    "table, owner, uri, kinds",
    [
        ("series_images", "SELECT id, '/3/tv/' || id FROM tv_series", None, ("backdrops", "logos", "posters")),
        (
            "season_images",
            "SELECT id, '/3/tv/' || series_id || '/season/' || season_number FROM tv_seasons",
            None,
            ("posters",),
        ),
        (
            "episode_images",
            "SELECT id, '/3/tv/' || series_id || '/season/' || season_number || '/episode/' || "
            "episode_number FROM tv_episodes",
            None,
            ("stills",),
        ),
        ("collection_images", "SELECT id, '/3/collection/' || id FROM collections", None, ("backdrops", "posters")),
    ],
)
def test_images_documents_hold_every_image_best_first(
    built_release: Path, image_store: Path, db, table, owner, uri, kinds
):
    key = {
        "series_images": "series_id",
        "season_images": "season_id",
        "episode_images": "episode_id",
        "collection_images": "collection_id",
    }[table]
    for owner_id, base in db.execute(owner + " ORDER BY id LIMIT 40").fetchall():
        doc = _doc(built_release, f"{base}/images")
        assert doc["id"] == owner_id and sorted(k for k in doc if k != "id") == sorted(kinds)
        paths = {p for (p,) in db.execute(f"SELECT file_path FROM {table} WHERE {key} = ?", [owner_id]).fetchall()}
        listed = [image for kind in kinds for image in doc[kind]]
        assert {i["file_path"] for i in listed} == paths
        for kind in kinds:
            votes = [i["vote_average"] for i in doc[kind]]
            assert votes == sorted(votes, reverse=True)
        for image in listed:
            assert (image_store / "original" / image["file_path"].lstrip("/")).is_file()


def test_series_own_poster_ranks_first(built_release: Path, db):
    for series_id, poster in db.execute(
        "SELECT id, poster_path FROM tv_series WHERE poster_path IS NOT NULL"
    ).fetchall():
        assert _doc(built_release, f"/3/tv/{series_id}/images")["posters"][0]["file_path"] == poster


def test_series_moods_follow_the_rules(built_release: Path, db):
    moods = [
        _doc(built_release, f"/3/tv/{i}/moods")["moods"] for (i,) in db.execute("SELECT id FROM tv_series").fetchall()
    ]
    assert any(moods)
    for listed in moods:
        scores = [m["score"] for m in listed]
        assert scores == sorted(scores, reverse=True) and all(s >= 3 for s in scores) and len(listed) <= 5
    drama = db.execute("SELECT series_id FROM series_genres WHERE genre_id = 10765 LIMIT 1").fetchone()
    if drama:  # Sci-Fi & Fantasy gives at least Mind-bending 2 (+ keywords may add more)
        names = {m["name"] for m in _doc(built_release, f"/3/tv/{drama[0]}/moods")["moods"]}
        assert names <= {
            "Mind-bending",
            "Epic",
            "Whimsical",
            "Exciting",
            "Tense",
            "Dark",
            "Funny",
            "Feel-good",
            "Heartwarming",
            "Melancholic",
            "Thought-provoking",
            "Mysterious",
            "Romantic",
            "Scary",
            "Inspiring",
            "Nostalgic",
        }


def test_tv_genre_list_is_translated(built_release: Path):
    default = _doc(built_release, "/3/genre/tv/list")["genres"]
    japanese = _doc(built_release, "/3/genre/tv/list.ja-JP")["genres"]
    assert {g["id"] for g in default} == {g["id"] for g in japanese}
    assert {g["id"]: g["name"] for g in japanese}[10765] == LOCAL["ja"][4][4]
    assert [g["name"] for g in japanese] == sorted(g["name"] for g in japanese)


def test_tv_provider_list_holds_only_providers_with_series(built_release: Path, catalogue_dir: Path):
    offered = {
        p
        for (p,) in duckdb.sql(
            f"SELECT DISTINCT provider_id FROM '{catalogue_dir}/series_watch_providers.parquet'"
        ).fetchall()
    }
    listed = {p["provider_id"] for p in _doc(built_release, "/3/watch/providers/tv")["results"]}
    assert listed == offered


def test_series_in_lists_carry_their_default_document_name(built_release: Path, db):
    checked = 0
    for (series_id,) in db.execute("SELECT id FROM tv_series ORDER BY id LIMIT 30").fetchall():
        for item in _doc(built_release, f"/3/tv/{series_id}/similar")["results"]:
            default = _doc(built_release, f"/3/tv/{item['id']}")
            assert (item["name"], item["overview"]) == (default["name"], default["overview"])
            checked += 1
    assert checked
