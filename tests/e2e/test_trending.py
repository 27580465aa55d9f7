"""/3/trending/{all,movie,tv,person}/{day,week} through nginx, checked against the catalogue for
today by the fallback rule (edge/routes/trending.py): popularity halved every 7 (day) or 28
(week) days since a title's latest release or episode in the last 120 days."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.e2e.conftest import all_pages, assert_tmdb_error, rotating_json

pytestmark = pytest.mark.e2e

MOVIES = """SELECT 'movie' AS kind, m.id, m.popularity * pow(0.5, date_diff('day', max(CAST(r.release_date AS DATE)),
                   CAST(? AS DATE)) / ?) AS score
            FROM movies m JOIN movie_release_dates r ON r.movie_id = m.id
            WHERE NOT m.adult AND NOT m.video AND CAST(r.release_date AS DATE) BETWEEN CAST(? AS DATE) - 120 AND ?
            GROUP BY m.id, m.popularity"""
SERIES = """SELECT 'tv' AS kind, s.id, s.popularity * pow(0.5, date_diff('day', max(e.air_date), CAST(? AS DATE)) / ?) AS score
            FROM tv_series s JOIN tv_episodes e ON e.series_id = s.id
            WHERE NOT s.adult AND e.air_date BETWEEN CAST(? AS DATE) - 120 AND ? GROUP BY s.id, s.popularity"""


@pytest.fixture(scope="module")
def lists(api):
    return rotating_json(api, "trender")


def expected(catalogue, queries: list[str], half_life: float) -> list[tuple[str, int]]:
    day = datetime.now(UTC).date()
    union = " UNION ALL ".join(queries)
    args = [a for _ in queries for a in (day, half_life, day, day)]
    return [
        (kind, i)
        for kind, i in catalogue.execute(
            f"SELECT kind, id FROM ({union}) ORDER BY score DESC, kind, id", args
        ).fetchall()
    ]


@pytest.mark.parametrize("window, half_life", [("day", 7.0), ("week", 28.0)])
def test_films_and_series_trend_by_recent_popularity(lists, catalogue, window, half_life):
    for media_type, queries in (("movie", [MOVIES]), ("tv", [SERIES]), ("all", [MOVIES, SERIES])):
        got = all_pages(lists, f"/3/trending/{media_type}/{window}", language="fr-FR")
        assert [(r["media_type"], r["id"]) for r in got] == expected(catalogue, queries, half_life), media_type


def test_people_trend_by_popularity(lists, catalogue):
    people = [
        i
        for (i,) in catalogue.execute(
            "SELECT id FROM people WHERE NOT adult ORDER BY popularity DESC, id LIMIT 20"
        ).fetchall()
    ]
    page = lists("/3/trending/person/week")
    assert [r["id"] for r in page["results"]] == people
    assert all(r["media_type"] == "person" and "known_for" in r for r in page["results"])


def test_bad_paths_and_pages(api):
    key = api.account("trend-errors", "pro")
    assert_tmdb_error(api.client.get("/3/trending/movie/month", params={"api_key": key}), 404, 34)
    assert_tmdb_error(api.client.get("/3/trending/all/day", params={"api_key": key, "page": "0"}), 400, 22)
