"""edge/routes/lists.py on the session's release, on days the catalogue has something for: the
date-dependent lists hold what their rule picks for that day, and nothing else (the e2e tests can
only ask for today)."""

from __future__ import annotations

from datetime import date, timedelta

import orjson
import pytest

from edge.assemble import DocumentCache
from edge.content_listener import ARTEFACT_READERS
from edge.routes import lists
from edge.routes.route import Context
from marquee.artefacts import OpenArtefacts
from tests.e2e.conftest import all_pages


@pytest.fixture(scope="module")
def context(built_pack, release_settings):
    return Context(str(built_pack), list(release_settings.languages), DocumentCache(), OpenArtefacts(ARTEFACT_READERS))


def listed(context, monkeypatch, path: str, day: date, **params) -> list[int]:
    monkeypatch.setattr(lists, "today_in", lambda params, zoned: day)
    return [
        r["id"]
        for r in all_pages(lambda target, **given: orjson.loads(lists.answer(context, target, given)), path, **params)
    ]


def test_now_playing_and_upcoming_on_a_busy_day(context, catalogue, monkeypatch):
    busiest = catalogue.execute(
        "SELECT CAST(release_date AS DATE) FROM movie_release_dates WHERE type IN (2, 3) "
        "GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchone()[0]
    # now_playing on that day: the 6 weeks up to it; upcoming the day before: the 4 weeks from it.
    for path, day, low, high in (
        ("/3/movie/now_playing", busiest, busiest - timedelta(days=42), busiest),
        ("/3/movie/upcoming", busiest - timedelta(days=1), busiest, busiest + timedelta(days=27)),
    ):
        expected = [
            i
            for (i,) in catalogue.execute(
                "SELECT m.id FROM movies m WHERE NOT m.adult AND NOT m.video AND m.id IN (SELECT movie_id FROM "
                "movie_release_dates WHERE type IN (2, 3) AND CAST(release_date AS DATE) BETWEEN ? AND ?) "
                "ORDER BY m.popularity DESC, m.id",
                [low, high],
            ).fetchall()
        ]
        assert expected, path
        assert listed(context, monkeypatch, path, day) == expected, path
    body = orjson.loads(lists.answer(context, "/3/movie/upcoming", {}))
    assert body["dates"] == {"minimum": busiest.isoformat(), "maximum": (busiest + timedelta(days=27)).isoformat()}


def test_airing_today_and_on_the_air_on_a_day_with_episodes(context, catalogue, monkeypatch):
    day = catalogue.execute(
        "SELECT air_date FROM tv_episodes e JOIN tv_series s ON s.id = e.series_id "
        "WHERE NOT s.adult AND s.first_air_date IS NOT NULL GROUP BY 1 "
        "ORDER BY count(DISTINCT series_id) DESC, 1 LIMIT 1"
    ).fetchone()[0]
    for path, days in (("/3/tv/airing_today", 1), ("/3/tv/on_the_air", 7)):
        expected = [
            i
            for (i,) in catalogue.execute(
                "SELECT s.id FROM tv_series s WHERE NOT s.adult AND s.first_air_date IS NOT NULL AND s.id IN "
                "(SELECT series_id FROM tv_episodes WHERE air_date BETWEEN ? AND ?) ORDER BY s.popularity DESC, s.id",
                [day, day + timedelta(days=days - 1)],
            ).fetchall()
        ]
        assert expected
        assert listed(context, monkeypatch, path, day) == expected, path
    quiet = day + timedelta(days=40_000)  # a day far past every episode: nothing airs
    assert listed(context, monkeypatch, "/3/tv/airing_today", quiet) == []
