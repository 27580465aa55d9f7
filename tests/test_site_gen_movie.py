from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest

from marquee.packs import Pack

# fmt: off
MOVIE_KEYS = ["adult", "backdrop_path", "belongs_to_collection", "budget", "genres", "homepage", "id",
              "imdb_id", "origin_country", "original_language", "original_title", "overview", "popularity",
              "poster_path", "production_companies", "production_countries", "release_date", "revenue",
              "runtime", "spoken_languages", "status", "tagline", "title", "video", "vote_average",
              "vote_count"]
# fmt: on
# fmt: off
CAST_KEYS = ["adult", "gender", "id", "known_for_department", "name", "original_name", "popularity",
             "profile_path", "cast_id", "character", "credit_id", "order"]
# fmt: on


def _parquet(path: Path) -> str:
    """read_parquet('<path>') as SQL text (CREATE VIEW takes no prepared parameters)."""
    return "read_parquet('" + str(path).replace("'", "''") + "')"


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in ("movies", "movie_translations", "cast", "crew", "movie_genres", "genres", "collections"):
        con.execute(f'CREATE VIEW "{table}" AS SELECT * FROM ' + _parquet(catalogue_dir / f"{table}.parquet"))
    yield con
    con.close()


def _doc(release: Path, uri: str) -> dict:
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


def test_one_details_and_credits_file_per_movie(built_release: Path, db):
    ids = [i for (i,) in db.execute("SELECT id FROM movies").fetchall()]
    for movie_id in ids:
        assert (built_release / f"3/movie/{movie_id}.json").is_file()
        assert (built_release / f"3/movie/{movie_id}/credits.json").is_file()


def test_details_fields_in_tmdb_order_and_values(built_release: Path, db):
    row = db.execute("""SELECT m.id, t.title, m.original_title, m.release_date, m.collection_id, m.imdb_id,
                               m.budget, m.popularity
                        FROM movies m JOIN movie_translations t ON t.movie_id = m.id
                        WHERE m.collection_id IS NOT NULL AND m.release_date IS NOT NULL LIMIT 1""").fetchone()
    movie_id, title, original_title, release_date, collection_id, imdb_id, budget, popularity = row
    doc = _doc(built_release, f"/3/movie/{movie_id}")
    assert list(doc) == MOVIE_KEYS
    assert (doc["id"], doc["title"], doc["original_title"], doc["imdb_id"]) == (
        movie_id,
        title,
        original_title,
        imdb_id,
    )
    assert doc["release_date"] == release_date.isoformat()
    assert doc["budget"] == budget and doc["popularity"] == pytest.approx(popularity)
    assert list(doc["belongs_to_collection"]) == ["id", "name", "poster_path", "backdrop_path"]
    assert doc["belongs_to_collection"]["id"] == collection_id
    assert all(list(lang) == ["english_name", "iso_639_1", "name"] for lang in doc["spoken_languages"])
    assert doc["spoken_languages"][0]["iso_639_1"] == doc["original_language"]
    genres = db.execute(
        """SELECT g.id, g.name FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id
                           WHERE mg.movie_id = ? ORDER BY mg.ord""",
        [movie_id],
    ).fetchall()
    assert doc["genres"] == [{"id": i, "name": n} for i, n in genres]


def test_an_undated_film_has_tmdbs_empty_date_in_its_details_and_items(built_release: Path, built_pack: Path, db):
    undated = [i for (i,) in db.execute("SELECT id FROM movies WHERE release_date IS NULL").fetchall()]
    assert undated  # about 1% of the generated films
    with Pack(built_pack) as pack:
        for movie_id in undated[:5]:
            assert _doc(built_release, f"/3/movie/{movie_id}")["release_date"] == ""
            assert orjson.loads(pack.get(f"_items/movie/{movie_id}.json"))["release_date"] == ""


def test_movie_outside_a_collection_has_null_collection(built_release: Path, db):
    (movie_id,) = db.execute("SELECT id FROM movies WHERE collection_id IS NULL LIMIT 1").fetchone()
    assert _doc(built_release, f"/3/movie/{movie_id}")["belongs_to_collection"] is None


def test_credits_match_the_cast_and_crew_tables(built_release: Path, db):
    for (movie_id,) in db.execute("SELECT id FROM movies ORDER BY id LIMIT 25").fetchall():
        doc = _doc(built_release, f"/3/movie/{movie_id}/credits")
        assert doc["id"] == movie_id
        cast = db.execute(
            'SELECT person_id, "character", credit_id, cast_id, "order" FROM "cast" '
            'WHERE movie_id = ? ORDER BY "order"',
            [movie_id],
        ).fetchall()
        assert [(c["id"], c["character"], c["credit_id"], c["cast_id"], c["order"]) for c in doc["cast"]] == cast
        assert all(list(c) == CAST_KEYS for c in doc["cast"])
        crew = db.execute(
            "SELECT person_id, credit_id, department, job FROM crew WHERE movie_id = ?", [movie_id]
        ).fetchall()
        assert sorted((c["id"], c["credit_id"], c["department"], c["job"]) for c in doc["crew"]) == sorted(crew)
        assert all(c["original_name"] == c["name"] for c in doc["cast"] + doc["crew"])


def test_credits_hold_each_person_once_as_an_item(built_pack: Path, built_release: Path, db):
    """A film's credits are stored as references to the people's items, /_items/person/{id}, each
    followed by the credit's own fields: a renamed person rewrites one item, not every film's credits."""
    with Pack(built_pack) as pack:
        for (movie_id,) in db.execute("SELECT id FROM movies ORDER BY id LIMIT 25").fetchall():
            stored = pack.raw(f"3/movie/{movie_id}/credits.json")
            served = _doc(built_release, f"/3/movie/{movie_id}/credits")
            for credit in served["cast"] + served["crew"]:
                item = orjson.loads(pack.raw(f"_items/person/{credit['id']}.json"))
                assert list(item) == CAST_KEYS[:8] and item == {key: credit[key] for key in item}
                own = {key: value for key, value in credit.items() if key not in item}
                reference = b'{"\\u0001":"person/' + str(credit["id"]).encode() + b'",' + orjson.dumps(own)[1:-1]
                assert reference in stored
            assert b'"name"' not in stored and b'"profile_path"' not in stored
