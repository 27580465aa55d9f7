"""A walk over every keyed GET path of TMDB's OpenAPI (site_gen/schemas/tmdb_v3_operations.json: the
account, authentication-session, guest-session and rating paths are not in it), plus the public list
and the legacy `similar_movies` path, through nginx with ids of the sample: each must answer 200 with
a body valid against its schema. The paths that do not answer yet are named in NOT_YET, and the walk
fails when one of them starts answering (take it off) or another stops (coverage slipped back)."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from site_gen.validate import ValidationError, Validator
from tests.e2e.conftest import rotating_get

pytestmark = pytest.mark.e2e

OPERATIONS = Path(__file__).resolve().parents[2] / "site_gen" / "schemas" / "tmdb_v3_operations.json"
# TMDB's optional public reads; tmdbsimple's legacy call
EXTRA = ["/3/list/{list_id}", "/3/list/{list_id}/item_status", "/3/movie/{movie_id}/similar_movies"]
QUERY = {"query": "the", "external_source": "imdb_id"}  # the required parameters' values
# Paths that do not answer yet (404/34): none.
NOT_YET: set[str] = set()


def sample_ids(catalogue) -> dict[str, str]:
    """A value for each placeholder: the sample's most popular film, series (its first episode), person
    and what they link to."""
    one = lambda sql: str(catalogue.execute(sql).fetchone()[0])  # noqa: E731
    movie = one(
        "SELECT m.id FROM movies m WHERE NOT adult AND collection_id IS NOT NULL AND imdb_id LIKE 'tt%' "
        "AND id IN (SELECT media_id FROM reviews WHERE media_type = 'movie') "
        "AND id IN (SELECT media_id FROM list_items WHERE media_type = 'movie') "
        "AND id IN (SELECT movie_id FROM movie_keywords) AND id IN (SELECT movie_id FROM movie_companies) "
        "ORDER BY popularity DESC LIMIT 1"
    )
    series, season, episode, episode_id, season_id = catalogue.execute(
        "SELECT e.series_id, e.season_number, e.episode_number, e.id, s.id FROM tv_episodes e JOIN tv_seasons s "
        "ON s.series_id = e.series_id AND s.season_number = e.season_number JOIN tv_series t ON t.id = e.series_id "
        "WHERE e.season_number = 1 AND e.episode_number = 1 AND t.id IN (SELECT series_id FROM series_networks) "
        "AND t.id IN (SELECT series_id FROM episode_groups) "
        "ORDER BY t.popularity DESC LIMIT 1"
    ).fetchone()
    return {
        "movie_id": movie,
        "series_id": str(series),
        "season_number": str(season),
        "episode_number": str(episode),
        "season_id": str(season_id),
        "episode_id": str(episode_id),
        "person_id": one(f'SELECT person_id FROM "cast" WHERE movie_id = {movie} ORDER BY "order" LIMIT 1'),
        "credit_id": one(f'SELECT credit_id FROM "cast" WHERE movie_id = {movie} ORDER BY "order" LIMIT 1'),
        "external_id": one(f"SELECT imdb_id FROM movies WHERE id = {movie}"),
        "collection_id": one(f"SELECT collection_id FROM movies WHERE id = {movie}"),
        "company_id": one(f"SELECT company_id FROM movie_companies WHERE movie_id = {movie} ORDER BY ord LIMIT 1"),
        "keyword_id": one(f"SELECT keyword_id FROM movie_keywords WHERE movie_id = {movie} ORDER BY ord LIMIT 1"),
        "network_id": one(f"SELECT network_id FROM series_networks WHERE series_id = {series} ORDER BY ord LIMIT 1"),
        "review_id": one(f"SELECT id FROM reviews WHERE media_type = 'movie' AND media_id = {movie} LIMIT 1"),
        "list_id": one(f"SELECT list_id FROM list_items WHERE media_type = 'movie' AND media_id = {movie} LIMIT 1"),
        "time_window": "day",
        "tv_episode_group_id": one(f"SELECT id FROM episode_groups WHERE series_id = {series} LIMIT 1"),
    }


def test_every_keyed_path_answers_in_its_schema(api, catalogue):
    get = rotating_get(api, "coverage-")
    ids = sample_ids(catalogue)
    validator = Validator()
    operations = orjson.loads(OPERATIONS.read_bytes())
    templates = [*operations, *EXTRA]
    assert len(operations) == 115
    missing, wrong = set(), {}
    for template in templates:
        path = re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], template)
        required = [
            p["name"]
            for p in operations.get(template, {}).get("parameters", [])
            if p.get("required") and p["in"] == "query"
        ]
        response = get(path, **{name: QUERY[name] for name in required})
        if response.status_code == 404:
            missing.add(template)
            continue
        if response.status_code != 200:
            wrong[template] = f"{response.status_code}: {response.text[:200]}"
            continue
        try:
            validator.validate(path.replace("/similar_movies", "/similar"), response.json())
        except ValidationError as exc:
            wrong[template] = f"outside its schema: {exc}"
    assert wrong == {}
    assert missing - NOT_YET == set(), "these paths stopped answering"
    assert NOT_YET - missing == set(), "these paths answer now: take them off NOT_YET"
    print(f"{len(templates) - len(missing)} of {len(templates)} paths answer")


def test_the_legacy_similar_movies_path_is_similar(api, catalogue):
    get = rotating_get(api, "coverage-legacy-")
    movie = sample_ids(catalogue)["movie_id"]
    for params in ({}, {"page": "2"}, {"language": "de-DE"}):
        legacy, renamed = get(f"/3/movie/{movie}/similar_movies", **params), get(f"/3/movie/{movie}/similar", **params)
        assert legacy.status_code == renamed.status_code == 200 and legacy.json() == renamed.json()
