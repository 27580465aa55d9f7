"""Person documents traced back to the catalogue: details, movie_credits, external_ids, images."""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest

from site_gen.validate import ValidationError, Validator

# fmt: off
PERSON_KEYS = ["adult", "also_known_as", "biography", "birthday", "deathday", "gender", "homepage", "id",
               "imdb_id", "known_for_department", "name", "place_of_birth", "popularity", "profile_path"]
# fmt: on
# fmt: off
MOVIE_ITEM_KEYS = ["adult", "backdrop_path", "genre_ids", "id", "original_language", "original_title",
                   "overview", "popularity", "poster_path", "release_date", "title", "video",
                   "vote_average", "vote_count"]
# fmt: on
# fmt: off
EXTERNAL_KEYS = ["id", "freebase_mid", "freebase_id", "imdb_id", "tvrage_id", "wikidata_id", "facebook_id",
                 "instagram_id", "tiktok_id", "twitter_id", "youtube_id"]
# fmt: on
TABLES = ("people", "cast", "crew", "movies", "movie_translations", "movie_genres", "person_details", "person_images")
# TV credit tables (marquee_datasets.tv); person documents include TV-only people when they exist.
TV_CREDIT_TABLES = ("series_cast", "series_crew", "episode_crew", "episode_guest_stars", "tv_series", "tv_episodes")


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in TABLES + TV_CREDIT_TABLES:
        if not (catalogue_dir / f"{table}.parquet").is_file():
            continue
        path = str(catalogue_dir / f"{table}.parquet").replace("'", "''")
        con.execute(f"CREATE VIEW \"{table}\" AS SELECT * FROM read_parquet('{path}')")
    yield con
    con.close()


def _doc(release: Path, uri: str):
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


def _busy_people(db, limit: int = 15) -> list[int]:
    """People with both cast and crew credits first (the richest documents), then the busiest."""
    return [
        i
        for (i,) in db.execute(
            """
        SELECT person_id FROM (SELECT person_id, 1 AS c FROM "cast" UNION ALL SELECT person_id, 2 FROM crew)
        GROUP BY person_id ORDER BY count(DISTINCT c) DESC, count(*) DESC, person_id LIMIT ?""",
            [limit],
        ).fetchall()
    ]


def _has_tv(db) -> bool:
    names = {n for (n,) in db.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    return set(TV_CREDIT_TABLES) <= names


def test_every_credited_person_has_their_documents_and_no_one_else(built_release: Path, db):
    sources = ('"cast"', "crew") + (TV_CREDIT_TABLES[:4] if _has_tv(db) else ())
    credited = {i for (i,) in db.execute(" UNION ".join(f"SELECT person_id FROM {t}" for t in sources)).fetchall()}
    # Default-language files only: `7.de-DE.json` / `7.und.json` are language variants.
    rendered = {
        int(p.name.removesuffix(".json")) for p in (built_release / "3/person").glob("*.json") if p.name.count(".") == 1
    }
    assert rendered == credited
    for person_id in list(credited)[:50]:
        for sub in ("movie_credits", "external_ids", "images", "translations") + (
            ("tv_credits", "combined_credits") if _has_tv(db) else ()
        ):
            assert (built_release / f"3/person/{person_id}/{sub}.json").is_file()


def test_details_match_the_people_row(built_release: Path, db):
    rows = db.execute("""
        SELECT p.id, p.name, p.birthday, p.deathday, p.place_of_birth, p.also_known_as, p.imdb_id,
               p.known_for_department, p.gender, p.popularity, p.profile_path, p.biography, d.homepage
        FROM people p JOIN person_details d ON d.person_id = p.id
        WHERE p.id IN (SELECT person_id FROM "cast") ORDER BY p.deathday NULLS LAST, p.id LIMIT 40""").fetchall()
    assert any(r[3] is not None for r in rows)  # some dead people, so deathday is exercised
    for pid, name, birthday, deathday, place, aka, imdb, dept, gender, popularity, profile, bio, homepage in rows:
        doc = _doc(built_release, f"/3/person/{pid}")
        assert list(doc) == PERSON_KEYS
        assert (doc["id"], doc["name"], doc["imdb_id"], doc["known_for_department"], doc["gender"]) == (
            pid,
            name,
            imdb,
            dept,
            gender,
        )
        assert doc["birthday"] == (birthday.isoformat() if birthday else None)
        assert doc["deathday"] == (deathday.isoformat() if deathday else None)
        assert (doc["place_of_birth"], doc["also_known_as"], doc["profile_path"]) == (place, aka, profile)
        assert (doc["biography"], doc["homepage"]) == (bio, homepage)
        assert doc["popularity"] == pytest.approx(popularity)


def test_movie_credits_equal_the_cast_and_crew_rows(built_release: Path, db):
    for person_id in _busy_people(db):
        doc = _doc(built_release, f"/3/person/{person_id}/movie_credits")
        assert list(doc) == ["id", "cast", "crew"] and doc["id"] == person_id
        cast = db.execute(
            'SELECT movie_id, "character", credit_id, "order" FROM "cast" WHERE person_id = ?', [person_id]
        ).fetchall()
        assert sorted((c["id"], c["character"], c["credit_id"], c["order"]) for c in doc["cast"]) == sorted(cast)
        crew = db.execute(
            "SELECT movie_id, credit_id, department, job FROM crew WHERE person_id = ?", [person_id]
        ).fetchall()
        assert sorted((c["id"], c["credit_id"], c["department"], c["job"]) for c in doc["crew"]) == sorted(crew)
        assert all(list(c)[:14] == MOVIE_ITEM_KEYS for c in doc["cast"] + doc["crew"])
        assert all(list(c)[14:] == ["character", "credit_id", "order"] for c in doc["cast"])
        assert all(list(c)[14:] == ["credit_id", "department", "job"] for c in doc["crew"])
        dates = [c["release_date"] or "9999" for c in doc["cast"]]
        assert dates == sorted(dates, reverse=True)  # newest first, undated (announced) on top


def test_movie_credit_items_carry_the_movie_fields(built_release: Path, db):
    person_id = _busy_people(db, 1)[0]
    doc = _doc(built_release, f"/3/person/{person_id}/movie_credits")
    for item in doc["cast"] + doc["crew"]:
        # en-US title, falling back to the original title where the film has no English translation.
        title, original, release, popularity = db.execute(
            """
            SELECT coalesce(nullif(t.title, ''), m.original_title), m.original_title, m.release_date, m.popularity
            FROM movies m LEFT JOIN movie_translations t
                ON t.movie_id = m.id AND t.iso_639_1 = 'en' AND t.iso_3166_1 = 'US'
            WHERE m.id = ?""",
            [item["id"]],
        ).fetchone()
        assert (item["title"], item["original_title"]) == (title, original)
        assert item["release_date"] == (release.isoformat() if release else "")  # TMDB's "" for no date
        assert item["popularity"] == pytest.approx(popularity)
        genres = [
            g
            for (g,) in db.execute(
                "SELECT genre_id FROM movie_genres WHERE movie_id = ? ORDER BY ord", [item["id"]]
            ).fetchall()
        ]
        assert item["genre_ids"] == genres


def test_credit_ids_match_the_movie_credits_documents(built_release: Path, db):
    for person_id in _busy_people(db, 5):
        doc = _doc(built_release, f"/3/person/{person_id}/movie_credits")
        for item in doc["cast"]:
            movie = _doc(built_release, f"/3/movie/{item['id']}/credits")
            match = [c for c in movie["cast"] if c["credit_id"] == item["credit_id"]]
            assert len(match) == 1 and match[0]["id"] == person_id
            assert (match[0]["character"], match[0]["order"]) == (item["character"], item["order"])
        for item in doc["crew"]:
            movie = _doc(built_release, f"/3/movie/{item['id']}/credits")
            match = [c for c in movie["crew"] if c["credit_id"] == item["credit_id"]]
            assert len(match) == 1 and match[0]["id"] == person_id and match[0]["job"] == item["job"]


def test_external_ids_come_from_person_details(built_release: Path, db):
    rows = db.execute("""SELECT p.id, p.imdb_id, d.* EXCLUDE (person_id, homepage) FROM people p
                         JOIN person_details d ON d.person_id = p.id
                         WHERE p.id IN (SELECT person_id FROM "cast") ORDER BY p.id LIMIT 60""").fetchall()
    seen_wikidata = 0
    for pid, imdb, freebase_mid, freebase_id, tvrage, wikidata, facebook, instagram, tiktok, twitter, youtube in rows:
        doc = _doc(built_release, f"/3/person/{pid}/external_ids")
        assert list(doc) == EXTERNAL_KEYS
        assert list(doc.values()) == [
            pid,
            freebase_mid,
            freebase_id,
            imdb,
            tvrage,
            wikidata,
            facebook,
            instagram,
            tiktok,
            twitter,
            youtube,
        ]
        assert doc["imdb_id"].startswith("nm")
        if wikidata is not None:
            seen_wikidata += 1
            assert wikidata.startswith("Q") and wikidata[1:].isdigit()
    assert seen_wikidata > 0


def test_images_list_the_profile_first_and_every_file_exists(image_store: Path, built_release: Path, db):
    people = db.execute("""SELECT id, profile_path FROM people WHERE id IN (SELECT person_id FROM "cast")
                           ORDER BY id LIMIT 60""").fetchall()
    assert any(p is None for _, p in people) and any(p is not None for _, p in people)
    for pid, profile in people:
        doc = _doc(built_release, f"/3/person/{pid}/images")
        assert doc["id"] == pid and list(doc) == ["id", "profiles"]
        rows = db.execute(
            "SELECT file_path, width, height FROM person_images WHERE person_id = ? ORDER BY ord", [pid]
        ).fetchall()
        assert [(i["file_path"], i["width"], i["height"]) for i in doc["profiles"]] == rows
        if profile is None:
            assert doc["profiles"] == []
            continue
        assert doc["profiles"][0]["file_path"] == profile
        votes = [i["vote_average"] for i in doc["profiles"]]
        assert votes == sorted(votes, reverse=True)
        for image in doc["profiles"]:
            assert image["iso_639_1"] is None
            assert image["aspect_ratio"] == pytest.approx(image["width"] / image["height"], abs=1e-3)
            assert (image_store / "original" / image["file_path"].lstrip("/")).is_file()


def test_person_documents_validate_with_nulls_only_where_tmdb_sends_them(built_release: Path):
    validator = Validator()
    doc = _doc(built_release, "/3/person/" + next((built_release / "3/person").glob("*.json")).stem)
    validator.validate(f"/3/person/{doc['id']}", doc)
    with pytest.raises(ValidationError, match="name"):
        validator.validate(f"/3/person/{doc['id']}", {**doc, "name": None})


def _tv_people(db, limit: int = 10) -> list[int]:
    return [
        i
        for (i,) in db.execute(
            """
        SELECT person_id FROM (SELECT person_id FROM series_cast UNION ALL SELECT person_id FROM episode_guest_stars
                               UNION ALL SELECT person_id FROM series_crew UNION ALL SELECT person_id FROM episode_crew
                               UNION ALL SELECT person_id FROM "cast")
        GROUP BY person_id ORDER BY count(*) DESC, person_id LIMIT ?""",
            [limit],
        ).fetchall()
    ]


def test_tv_credits_equal_the_series_and_episode_rows(built_release: Path, db):
    if not _has_tv(db):
        pytest.skip("the catalogue has no TV tables")
    for person_id in _tv_people(db):
        doc = _doc(built_release, f"/3/person/{person_id}/tv_credits")
        assert list(doc) == ["id", "cast", "crew"] and doc["id"] == person_id
        cast = db.execute(
            """SELECT series_id, "character", credit_id FROM series_cast WHERE person_id = ?
                             UNION ALL SELECT series_id, "character", credit_id FROM episode_guest_stars
                             WHERE person_id = ?""",
            [person_id, person_id],
        ).fetchall()
        assert sorted((c["id"], c["character"], c["credit_id"]) for c in doc["cast"]) == sorted(cast)
        crew = db.execute(
            """SELECT series_id, credit_id, department, job FROM series_crew WHERE person_id = ?
                             UNION SELECT series_id, credit_id, department, job FROM episode_crew
                             WHERE person_id = ?""",
            [person_id, person_id],
        ).fetchall()
        assert sorted((c["id"], c["credit_id"], c["department"], c["job"]) for c in doc["crew"]) == sorted(crew)
        for item in doc["crew"]:
            episodes = db.execute(
                "SELECT count(*) FROM episode_crew WHERE credit_id = ?", [item["credit_id"]]
            ).fetchone()[0]
            if episodes:  # an episode crew credit counts the episodes it covers
                assert item["episode_count"] == episodes
        for item in doc["cast"]:
            name, original, first_air = db.execute(
                "SELECT name, original_name, first_air_date FROM tv_series WHERE id = ?", [item["id"]]
            ).fetchone()
            assert (item["name"], item["original_name"]) == (name, original)
            assert item["first_air_date"] == (first_air.isoformat() if first_air else "")
            regular = db.execute(
                """SELECT count(e.id) FROM series_cast c JOIN tv_episodes e
                                    ON e.series_id = c.series_id AND e.season_number BETWEEN c.first_season
                                                                                       AND c.last_season
                                    WHERE c.credit_id = ?""",
                [item["credit_id"]],
            ).fetchone()[0]
            guest = db.execute(
                "SELECT count(*) FROM episode_guest_stars WHERE credit_id = ?", [item["credit_id"]]
            ).fetchone()[0]
            assert item["episode_count"] == (1 if guest else regular)


def test_combined_credits_are_movie_and_tv_credits_with_media_type(built_release: Path, db):
    if not _has_tv(db):
        pytest.skip("the catalogue has no TV tables")
    for person_id in _tv_people(db):
        combined = _doc(built_release, f"/3/person/{person_id}/combined_credits")
        movie = _doc(built_release, f"/3/person/{person_id}/movie_credits")
        tv = _doc(built_release, f"/3/person/{person_id}/tv_credits")
        assert list(combined) == ["id", "cast", "crew"] and combined["id"] == person_id
        for role in ("cast", "crew"):
            expected = [{**i, "media_type": "movie"} for i in movie[role]] + [
                {**i, "media_type": "tv"} for i in tv[role]
            ]
            key = lambda i: i["credit_id"]  # noqa: E731
            assert sorted(combined[role], key=key) == sorted(expected, key=key)
            dates = [i.get("release_date", i.get("first_air_date")) or "9999" for i in combined[role]]
            assert dates == sorted(dates, reverse=True)


def test_detail_tables_cover_people_once_and_images_are_unique_files(image_store: Path, db):
    assert (
        db.execute("SELECT count(*), count(DISTINCT person_id) FROM person_details").fetchone()
        == db.execute("SELECT count(*), count(DISTINCT id) FROM people").fetchone()
    )
    assert (
        db.execute("SELECT count(*) FROM person_details WHERE person_id NOT IN (SELECT id FROM people)").fetchone()[0]
        == 0
    )
    paths = [p for (p,) in db.execute("SELECT file_path FROM person_images").fetchall()]
    assert len(paths) == len(set(paths))
    assert all((image_store / "original" / p.lstrip("/")).is_file() for p in paths)
    # ord 0 is exactly the profile_path, and only people with one have images.
    assert (
        db.execute("""SELECT count(*) FROM people p FULL JOIN (SELECT * FROM person_images WHERE ord = 0) i
                         ON i.person_id = p.id
                         WHERE p.profile_path IS DISTINCT FROM i.file_path""").fetchone()[0]
        == 0
    )
