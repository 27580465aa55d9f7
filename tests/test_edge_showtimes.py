"""edge/routes/showtimes.py on the session's release, at a moment inside the catalogue's schedule
(the e2e tests can only ask now): every showtime listed is still to come and within the week, in its
cinema's time zone, in the country asked, and none that qualifies is left out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb
import orjson
import pytest

from edge.content import ContentError
from edge.routes import showtimes
from marquee_datasets.synthetic import REFERENCE_DATE
from tests.test_edge_lists import context  # noqa: F401 (fixture)

MOMENT = datetime.fromisoformat(str(REFERENCE_DATE)).replace(hour=15, tzinfo=UTC)


@pytest.fixture(scope="module")
def catalogue(catalogue_dir):
    con = duckdb.connect()
    con.execute(f"CREATE VIEW showtimes AS SELECT * FROM read_parquet('{catalogue_dir}/showtimes.parquet')")
    con.execute(f"CREATE VIEW cinemas AS SELECT * FROM read_parquet('{catalogue_dir}/cinemas.parquet')")
    yield con
    con.close()


def answer(context, monkeypatch, movie_id: int, **params) -> dict:
    monkeypatch.setattr(showtimes, "now", lambda: int(MOMENT.timestamp()))
    return orjson.loads(showtimes.answer(context, f"/3/movie/{movie_id}/showtimes", params))


def test_a_countrys_cinemas_and_their_coming_showtimes(context, catalogue, monkeypatch):
    movie_id, country = catalogue.execute(
        "SELECT s.movie_id, c.iso_3166_1 FROM showtimes s JOIN cinemas c ON c.id = s.cinema_id WHERE s.starts_at > ? "
        "GROUP BY ALL ORDER BY count(*) DESC, 1, 2 LIMIT 1",
        [MOMENT],
    ).fetchone()
    expected = catalogue.execute(
        "SELECT c.id, epoch(s.starts_at)::BIGINT FROM showtimes s JOIN cinemas c ON c.id = s.cinema_id "
        "WHERE s.movie_id = ? AND c.iso_3166_1 = ? AND s.starts_at > ? AND s.starts_at < ? ORDER BY 2, 1",
        [movie_id, country, MOMENT, MOMENT + timedelta(days=7)],
    ).fetchall()
    body = answer(context, monkeypatch, movie_id, country=country.lower())
    assert body["id"] == movie_id and body["country"] == country and expected
    listed = []
    for cinema in body["cinemas"]:
        zone = ZoneInfo(cinema["timezone"])
        assert {"name", "address", "city", "latitude", "longitude"} <= set(cinema)
        starts = [datetime.fromisoformat(s["start"]) for s in cinema["showtimes"]]
        assert starts == sorted(starts)
        for start, show in zip(starts, cinema["showtimes"]):
            assert start.utcoffset() == start.astimezone(zone).utcoffset()  # the cinema's own offset
            assert MOMENT < start < MOMENT + timedelta(days=7)
            assert show["format"] in ("2D", "3D", "IMAX") and show["audio_language"]
            listed.append((cinema["id"], int(start.timestamp())))
    assert sorted(listed, key=lambda r: (r[1], r[0])) == expected
    assert answer(context, monkeypatch, movie_id, country="ZZ") == {"id": movie_id, "country": "ZZ", "cinemas": []}


def test_without_a_country_a_summary_by_country(context, catalogue, monkeypatch):
    movie_id = catalogue.execute(
        "SELECT movie_id FROM showtimes WHERE starts_at > ? GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1", [MOMENT]
    ).fetchone()[0]
    rows = catalogue.execute(
        "SELECT c.iso_3166_1, count(DISTINCT c.id), count(*), min(s.starts_at) FROM showtimes s JOIN cinemas c "
        "ON c.id = s.cinema_id WHERE s.movie_id = ? AND s.starts_at > ? AND s.starts_at < ? GROUP BY 1 ORDER BY 1",
        [movie_id, MOMENT, MOMENT + timedelta(days=7)],
    ).fetchall()
    body = answer(context, monkeypatch, movie_id)
    assert [(c["country"], c["cinemas"], c["showtimes"]) for c in body["countries"]] == [r[:3] for r in rows]
    assert [datetime.fromisoformat(c["next_start"]) for c in body["countries"]] == [r[3] for r in rows]


def test_past_showtimes_never_appear_and_unknown_films_are_404(context, catalogue, monkeypatch):
    movie_id = catalogue.execute("SELECT movie_id FROM showtimes LIMIT 1").fetchone()[0]
    monkeypatch.setattr(showtimes, "now", lambda: int((MOMENT + timedelta(days=30)).timestamp()))
    assert orjson.loads(showtimes.answer(context, f"/3/movie/{movie_id}/showtimes", {})) == {
        "id": movie_id,
        "countries": [],
    }
    with pytest.raises(ContentError) as refused:
        showtimes.answer(context, "/3/movie/999999999/showtimes", {})
    assert refused.value.error.http_status == 404


@pytest.fixture(scope="module")
def sample(tmp_path_factory, release_settings):
    """A 2,000-film catalogue dated around MOMENT (the sample's size: the session's 150 films have
    too few releases for cinemas to show films in now_playing) and the artefacts lists read."""
    from edge.assemble import DocumentCache
    from edge.content_listener import ARTEFACT_READERS
    from edge.routes.route import Context
    from marquee.artefacts import DISCOVER_INDEX, SEARCH_INDEX, OpenArtefacts
    from marquee_build.catalogue import load_database
    from marquee_datasets.synthetic import generate
    from site_gen import discover_index, languages, search_index
    from site_gen import showtimes as showtimes_artefact

    folder = tmp_path_factory.mktemp("showtimes-sample")
    catalogue_dir, root = folder / "catalogue", folder / "release"
    root.mkdir()
    generate(catalogue_dir, 2000, 42, today=MOMENT.date())
    loaded = load_database(catalogue_dir, folder / "database.duckdb")
    try:
        languages.prepare(loaded.con, release_settings)
        search_index.build(loaded.con, list(release_settings.languages), root / SEARCH_INDEX)
        discover_index.build(loaded.con, root / DISCOVER_INDEX)
        showtimes_artefact.for_release(loaded.con, catalogue_dir, root)
    finally:
        loaded.con.close()
    con = duckdb.connect()
    for table in ("showtimes", "cinemas", "movies", "movie_release_dates"):
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{catalogue_dir}/{table}.parquet')")
    yield Context(str(root), list(release_settings.languages), DocumentCache(), OpenArtefacts(ARTEFACT_READERS)), con
    con.close()


def test_now_playing_with_showtimes_keeps_the_films_on_in_that_country(sample, monkeypatch):
    from edge.routes import lists

    context, catalogue = sample
    day = MOMENT.date()
    on = (
        "SELECT DISTINCT s.movie_id FROM showtimes s JOIN cinemas c ON c.id = s.cinema_id WHERE c.iso_3166_1 = $1 "
        "AND s.starts_at > $2 AND s.starts_at < $3"
    )
    playing = (
        "SELECT DISTINCT movie_id FROM movie_release_dates WHERE iso_3166_1 = $1 AND type IN (2, 3) AND "
        "CAST(release_date AS DATE) BETWEEN $4 AND $5"
    )
    week = [MOMENT, MOMENT + timedelta(days=7), day - timedelta(days=42), day]
    found = {}
    for (country,) in catalogue.execute("SELECT DISTINCT iso_3166_1 FROM cinemas ORDER BY 1").fetchall():
        found[country] = [
            i
            for (i,) in catalogue.execute(
                f"SELECT m.id FROM movies m WHERE NOT m.adult AND NOT m.video AND m.id IN ({on}) AND m.id IN ({playing}) "
                f"ORDER BY m.popularity DESC, m.id",
                [country, *week],
            ).fetchall()
        ]
    country = max(found, key=lambda c: (len(found[c]), c))
    assert found[country], found
    monkeypatch.setattr(showtimes, "now", lambda: int(MOMENT.timestamp()))
    monkeypatch.setattr(lists, "today_in", lambda params, zoned: day)
    body = orjson.loads(lists.answer(context, "/3/movie/now_playing", {"region": country, "with_showtimes": "true"}))
    assert [r["id"] for r in body["results"]] == found[country][:20] and body["total_results"] == len(found[country])
    for film in body["results"]:
        starts = [datetime.fromisoformat(s["start"]) for s in film["showtimes"]]
        assert 1 <= len(starts) <= 3 and starts == sorted(starts) and all(s > MOMENT for s in starts)
    plain = orjson.loads(lists.answer(context, "/3/movie/now_playing", {"region": country}))
    assert "showtimes" not in plain["results"][0] and plain["total_results"] >= body["total_results"]
