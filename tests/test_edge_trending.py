"""edge/routes/trending.py on the session's release, on a day with many releases: day and week
differ, and both hold exactly the recent titles, best score first (the e2e test can only ask today)."""

from __future__ import annotations

import orjson

from edge.routes import trending
from tests.test_edge_lists import catalogue, context  # noqa: F401 (fixtures)


def ranked(context, monkeypatch, path: str, day) -> list[tuple[str, int]]:
    monkeypatch.setattr(trending, "today", lambda: day)
    out, page = [], 1
    while True:
        body = orjson.loads(trending.answer(context, path, {"page": str(page)}))
        out.extend((r["media_type"], r["id"]) for r in body["results"])
        if page >= body["total_pages"]:
            return out
        page += 1


def test_day_and_week_rank_the_same_recent_titles_differently(context, catalogue, monkeypatch):
    # The day whose 120 days before hold the most visible films' releases.
    day = catalogue.execute(
        "WITH r AS (SELECT DISTINCT r.movie_id, CAST(r.release_date AS DATE) AS d FROM movie_release_dates r "
        "JOIN movies m ON m.id = r.movie_id WHERE NOT m.adult AND NOT m.video) "
        "SELECT days.d FROM (SELECT DISTINCT d FROM r) days JOIN r ON r.d BETWEEN days.d - 120 AND days.d "
        "GROUP BY days.d ORDER BY count(DISTINCT r.movie_id) DESC, days.d LIMIT 1").fetchone()[0]
    recent = {i for (i,) in catalogue.execute(
        "SELECT m.id FROM movies m JOIN movie_release_dates r ON r.movie_id = m.id WHERE NOT m.adult AND NOT m.video "
        "AND CAST(r.release_date AS DATE) BETWEEN CAST(? AS DATE) - 120 AND ?", [day, day]).fetchall()}
    daily = ranked(context, monkeypatch, "/3/trending/movie/day", day)
    weekly = ranked(context, monkeypatch, "/3/trending/movie/week", day)
    assert len(recent) >= 3
    assert {i for _, i in daily} == {i for _, i in weekly} == recent
    assert daily != weekly  # the same titles, ordered by a different half-life
    later = ranked(context, monkeypatch, "/3/trending/movie/day", day.replace(year=day.year + 200))
    assert later == []  # nothing released in the 120 days before: nothing trends
