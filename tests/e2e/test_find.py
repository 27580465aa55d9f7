"""/3/find/{external_id} and /3/movie/{imdb_id} through nginx, checked against the catalogue."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_tmdb_error, rotating_get

pytestmark = pytest.mark.e2e

ARRAYS = ("movie_results", "person_results", "tv_results", "tv_episode_results", "tv_season_results")
# (source, catalogue table, column, id column, the array it lands in)
# fmt: off
KNOWN = [
    ("imdb_id", "movies", "imdb_id", "id", "movie_results"),
    ("wikidata_id", "movie_external_ids", "wikidata_id", "movie_id", "movie_results"),
    ("kinopoisk_id", "movie_external_ids", "kinopoisk_id", "movie_id", "movie_results"),
    ("instagram_id", "movie_external_ids", "instagram_id", "movie_id", "movie_results"),
    ("imdb_id", "people", "imdb_id", "id", "person_results"),
    ("wikidata_id", "person_details", "wikidata_id", "person_id", "person_results"),
    ("freebase_mid", "person_details", "freebase_mid", "person_id", "person_results"),
    ("imdb_id", "tv_series", "imdb_id", "id", "tv_results"),
    ("tvdb_id", "tv_series", "tvdb_id", "id", "tv_results"),
    ("tvdb_id", "tv_seasons", "tvdb_id", "id", "tv_season_results"),
    ("imdb_id", "tv_episodes", "imdb_id", "id", "tv_episode_results"),
    ("tvdb_id", "tv_episodes", "tvdb_id", "id", "tv_episode_results"),
]
# fmt: on


@pytest.fixture(scope="module")
def find(api):
    return rotating_get(api, "finder")


@pytest.mark.parametrize("source, table, column, id_column, array", KNOWN, ids=[f"{k[0]}-{k[1]}" for k in KNOWN])
def test_every_source_resolves_a_known_id(find, catalogue, source, table, column, id_column, array):
    rows = catalogue.execute(
        f"SELECT {column}::VARCHAR, {id_column} FROM {table} WHERE {column} IS NOT NULL "
        f"AND {column}::VARCHAR <> '' ORDER BY {id_column} LIMIT 3"
    ).fetchall()
    assert rows, f"the catalogue has no {source} in {table}"
    for value, entity in rows:
        response = find(f"/3/find/{value}", external_source=source)
        assert response.status_code == 200
        body = response.json()
        assert set(body) == set(ARRAYS)
        assert entity in [item["id"] for item in body[array]], (value, body)
        assert all(item["media_type"] for items in body.values() for item in items)


def test_find_speaks_the_language_asked(find, catalogue):
    movie_id, imdb_id, title = catalogue.execute(
        "SELECT m.id, m.imdb_id, t.title FROM movies m JOIN movie_translations t ON t.movie_id = m.id "
        "WHERE t.iso_639_1 = 'de' AND t.title <> '' ORDER BY m.id LIMIT 1"
    ).fetchone()
    body = find(f"/3/find/{imdb_id}", external_source="imdb_id", language="de-DE").json()
    assert body["movie_results"][0]["id"] == movie_id and body["movie_results"][0]["title"] == title


def test_unknown_ids_and_bad_sources(find):
    body = find("/3/find/tt0000000000", external_source="imdb_id").json()
    assert body == {name: [] for name in ARRAYS}
    for params in ({}, {"external_source": "myspace_id"}, {"external_source": ""}):
        error = assert_tmdb_error(find("/3/find/tt0133093", **params), 422, 5)
        assert "external_source" in error["status_message"]


def test_a_film_by_its_imdb_id_where_its_id_goes(find, catalogue):
    movie_id, imdb_id = catalogue.execute(
        "SELECT id, imdb_id FROM movies WHERE imdb_id IS NOT NULL ORDER BY id LIMIT 1"
    ).fetchone()
    by_id = find(f"/3/movie/{movie_id}", append_to_response="credits", language="ja-JP")
    by_imdb = find(f"/3/movie/{imdb_id}", append_to_response="credits", language="ja-JP")
    assert by_imdb.status_code == by_id.status_code == 200 and by_imdb.json() == by_id.json()
    assert find(f"/3/movie/{imdb_id}/external_ids").json()["imdb_id"] == imdb_id
    assert_tmdb_error(find("/3/movie/tt9999999999"), 404, 34)
