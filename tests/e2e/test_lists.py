"""The title lists (/3/movie/popular, now_playing, ..., /3/person/popular) and /3/{kind}/latest
through nginx, checked against the catalogue for today's date."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from tests.e2e.conftest import all_pages, assert_tmdb_error, rotating_get, rotating_json
from tests.e2e.test_discover import ids, movie_ids

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def get(api):
    return rotating_get(api, "lister")


@pytest.fixture(scope="module")
def lists(api):
    return rotating_json(api, "lister-json")


def today() -> date:
    return datetime.now(UTC).date()


def test_popular_lists_are_the_catalogue_by_popularity(lists, catalogue, get):
    assert ids(lists("/3/movie/popular")["results"]) == movie_ids(catalogue)[:20]
    series = [
        i
        for (i,) in catalogue.execute(
            "SELECT id FROM tv_series WHERE NOT adult AND first_air_date IS NOT NULL ORDER BY popularity DESC, id"
        ).fetchall()
    ]
    assert ids(lists("/3/tv/popular")["results"]) == series[:20]
    people = [
        i for (i,) in catalogue.execute("SELECT id FROM people WHERE NOT adult ORDER BY popularity DESC, id").fetchall()
    ]
    page = lists("/3/person/popular", page="2")
    assert ids(page["results"]) == people[20:40] and page["total_results"] == len(people)
    assert all("known_for" in person for person in page["results"])
    region = catalogue.execute(
        "SELECT iso_3166_1 FROM movie_release_dates GROUP BY 1 ORDER BY count(*) LIMIT 1"
    ).fetchone()[0]
    there = movie_ids(
        catalogue, "m.id IN (SELECT movie_id FROM movie_release_dates WHERE iso_3166_1 = ?)", args=[region]
    )
    assert ids(all_pages(lists, "/3/movie/popular", region=region)) == there
    response = get("/3/movie/popular")
    assert response.headers["cache-control"] == "public, max-age=1800"


def test_top_rated_ranks_by_votes_among_well_voted_titles(lists, catalogue):
    counts = sorted(c for (c,) in catalogue.execute("SELECT vote_count FROM movies").fetchall())
    floor = min(300, counts[len(counts) - max(1, len(counts) // 10)])
    expected = movie_ids(catalogue, f"m.vote_count >= {floor}", "m.vote_average DESC, m.id DESC")
    assert expected and ids(all_pages(lists, "/3/movie/top_rated")) == expected


def test_now_playing_and_upcoming_follow_today(lists, catalogue):
    day = today()
    for path, first, last in (
        ("/3/movie/now_playing", day - timedelta(days=42), day),
        ("/3/movie/upcoming", day + timedelta(days=1), day + timedelta(days=28)),
    ):
        expected = movie_ids(
            catalogue,
            "m.id IN (SELECT movie_id FROM movie_release_dates WHERE type IN (2, 3) AND "
            "CAST(release_date AS DATE) BETWEEN ? AND ?)",
            args=[first, last],
        )
        answer = lists(path)
        assert answer["dates"] == {"maximum": last.isoformat(), "minimum": first.isoformat()}
        assert ids(all_pages(lists, path)) == expected, path


def test_airing_today_and_on_the_air_follow_today_in_the_time_zone_asked(lists, catalogue):
    for zone in ("", "Pacific/Kiritimati"):
        day = today() if not zone else datetime.now(timezone(timedelta(hours=14))).date()
        for path, days in (("/3/tv/airing_today", 1), ("/3/tv/on_the_air", 7)):
            expected = [
                i
                for (i,) in catalogue.execute(
                    "SELECT s.id FROM tv_series s WHERE NOT s.adult AND s.first_air_date IS NOT NULL AND s.id IN "
                    "(SELECT series_id FROM tv_episodes WHERE air_date BETWEEN ? AND ?) ORDER BY s.popularity DESC, s.id",
                    [day, day + timedelta(days=days - 1)],
                ).fetchall()
            ]
            params = {"timezone": zone} if zone else {}
            assert ids(all_pages(lists, path, **params)) == expected, (path, zone)


def test_latest_is_the_newest_ids_details(get, catalogue):
    for kind, table in (("movie", "movies"), ("tv", "tv_series"), ("person", "people")):
        newest = catalogue.execute(f"SELECT max(id) FROM {table}").fetchone()[0]
        latest = get(f"/3/{kind}/latest", language="de-DE")
        assert latest.status_code == 200 and latest.json()["id"] == newest
        assert latest.json() == get(f"/3/{kind}/{newest}", language="de-DE").json()


def test_bad_values_get_tmdb_errors(api):
    key = api.account("list-errors", "pro")
    assert_tmdb_error(api.client.get("/3/tv/airing_today", params={"api_key": key, "timezone": "Mars/Base"}), 400, 28)
    assert_tmdb_error(api.client.get("/3/movie/popular", params={"api_key": key, "page": "501"}), 400, 22)
    assert_tmdb_error(api.client.get("/3/movie/now_playing", params={"api_key": key, "region": "USA"}), 422, 5)
    assert_tmdb_error(api.client.get("/3/movie/popular", params={"api_key": "0" * 32}), 401, 7)
