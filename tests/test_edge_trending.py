"""edge/routes/trending.py on the session's release, on pinned days (the e2e test can only ask
today): inside the catalogue's activity, the most viewed of the day or the week; outside it, the
fallback on popularity and recency, where day and week rank the same recent titles differently."""

from __future__ import annotations

from datetime import date, timedelta

import duckdb
import orjson
import pytest

from edge.routes import trending
from marquee_datasets.synthetic import REFERENCE_DATE
from tests.e2e.conftest import all_pages
from tests.test_edge_lists import context  # noqa: F401 (a fixture)


def ranked(context, monkeypatch, path: str, day) -> list[tuple[str, int]]:
    monkeypatch.setattr(trending, "today", lambda: day)
    return [
        (r["media_type"], r["id"])
        for r in all_pages(lambda target, **given: orjson.loads(trending.answer(context, target, given)), path)
    ]


@pytest.fixture(scope="module")
def activity(catalogue_dir):
    con = duckdb.connect()
    for table in ("activity", "movies", "tv_series"):
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{catalogue_dir}/{table}.parquet')")
    yield con
    con.close()


def test_the_most_viewed_of_the_day_and_of_the_week(context, activity, monkeypatch):
    day = date.fromisoformat(str(REFERENCE_DATE))
    for window, days in (("day", 1), ("week", 7)):
        for media_type in ("movie", "tv"):
            table, visible = {"movie": ("movies", "NOT t.adult AND NOT t.video"), "tv": ("tv_series", "NOT t.adult")}[
                media_type
            ]
            expected = [
                (media_type, i)
                for (i,) in activity.execute(
                    f"SELECT a.id FROM activity a JOIN {table} t ON t.id = a.id WHERE a.kind = ? AND {visible} AND "
                    f"a.day BETWEEN ? AND ? GROUP BY a.id ORDER BY sum(a.views) DESC, a.id",
                    [media_type, day - timedelta(days=days - 1), day],
                ).fetchall()
            ]
            assert expected, (window, media_type)
            assert ranked(context, monkeypatch, f"/3/trending/{media_type}/{window}", day) == expected
    weekly = ranked(context, monkeypatch, "/3/trending/all/week", day)
    assert {kind for kind, _ in weekly} == {"movie", "tv", "person"}
    assert ranked(context, monkeypatch, "/3/trending/all/day", day) != weekly


def test_without_activity_day_and_week_rank_the_same_recent_titles_differently(context, catalogue, monkeypatch):
    # The day, outside the catalogue's activity, whose 120 days before hold the most visible films' releases.
    day = catalogue.execute(
        "WITH r AS (SELECT DISTINCT r.movie_id, CAST(r.release_date AS DATE) AS d FROM movie_release_dates r "
        "JOIN movies m ON m.id = r.movie_id WHERE NOT m.adult AND NOT m.video) "
        "SELECT days.d FROM (SELECT DISTINCT d FROM r) days JOIN r ON r.d BETWEEN days.d - 120 AND days.d "
        "WHERE days.d NOT BETWEEN ? - 30 AND ? + 30 "
        "GROUP BY days.d ORDER BY count(DISTINCT r.movie_id) DESC, days.d LIMIT 1",
        [date.fromisoformat(str(REFERENCE_DATE))] * 2,
    ).fetchone()[0]
    recent = {
        i
        for (i,) in catalogue.execute(
            "SELECT m.id FROM movies m JOIN movie_release_dates r ON r.movie_id = m.id WHERE NOT m.adult AND NOT m.video "
            "AND CAST(r.release_date AS DATE) BETWEEN CAST(? AS DATE) - 120 AND ?",
            [day, day],
        ).fetchall()
    }
    daily = ranked(context, monkeypatch, "/3/trending/movie/day", day)
    weekly = ranked(context, monkeypatch, "/3/trending/movie/week", day)
    assert len(recent) >= 3
    assert {i for _, i in daily} == {i for _, i in weekly} == recent
    assert daily != weekly  # the same titles, ordered by a different half-life
    later = ranked(context, monkeypatch, "/3/trending/movie/day", day.replace(year=day.year + 200))
    assert later == []  # nothing released in the 120 days before: nothing trends
