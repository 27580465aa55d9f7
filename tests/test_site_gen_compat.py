"""site_gen/compat.py: the OMDb documents of a release, against the catalogue it was built from."""

from __future__ import annotations

import shutil

import duckdb
import orjson
import pytest

from marquee import omdb
from marquee.packs import Pack
from site_gen import compat


@pytest.fixture(scope="module")
def pack(built_pack):
    with Pack(built_pack) as opened:
        yield opened


def test_every_title_with_an_imdb_id_has_its_document_and_pointer(pack, catalogue):
    movies = catalogue.execute("SELECT id, imdb_id FROM movies WHERE imdb_id LIKE 'tt%'").fetchall()
    series = catalogue.execute("SELECT id, imdb_id FROM tv_series WHERE imdb_id LIKE 'tt%'").fetchall()
    assert movies and series
    for kind, rows, fields in (("movie", movies, omdb.MOVIE_FIELDS), ("series", series, omdb.SERIES_FIELDS)):
        for entity, imdb_id in rows[:50]:
            assert orjson.loads(pack.get(f"compat/imdb/{imdb_id}.json")) == {"name": f"compat/{kind}/{entity}"}
            found = orjson.loads(pack.get(f"compat/{kind}/{entity}.json"))
            assert tuple(found) == fields and found["imdbID"] == imdb_id
    assert len(pack.names("compat/movie/%")) == len(movies) + len(pack.names("compat/movie/%/full.json"))
    without = catalogue.execute(
        "SELECT id FROM movies WHERE imdb_id IS NULL OR imdb_id NOT LIKE 'tt%' LIMIT 1"
    ).fetchone()
    if without:
        assert pack.get(f"compat/movie/{without[0]}.json") is None


def test_season_listings_hold_the_catalogues_episodes(pack, catalogue):
    rows = catalogue.execute(
        "SELECT s.series_id, s.season_number, count(e.id) FROM tv_seasons s JOIN tv_series x ON x.id = "
        "s.series_id LEFT JOIN tv_episodes e ON e.series_id = s.series_id AND e.season_number = "
        "s.season_number WHERE x.imdb_id LIKE 'tt%' GROUP BY ALL LIMIT 40"
    ).fetchall()
    for series_id, season, episodes in rows:
        listing = orjson.loads(pack.get(f"compat/season/{series_id}/{season}.json"))
        assert listing["Season"] == str(season) and len(listing["Episodes"]) == episodes
        assert [int(e["Episode"]) for e in listing["Episodes"]] == sorted(
            int(e["Episode"]) for e in listing["Episodes"]
        )


def test_a_short_plot_is_the_first_sentence(built_pack, release_settings, tmp_path):
    # The build's own database, with the macros of site_gen/sql/compat_macros.sql (its preparation's).
    kept = built_pack.parent / ".build-state" / "catalogue.duckdb"
    shutil.copy(kept, tmp_path / "catalogue.duckdb")
    con = duckdb.connect(str(tmp_path / "catalogue.duckdb"))
    try:
        con.execute(
            "CREATE TEMP TABLE render_variants (suffix VARCHAR, iso_639_1 VARCHAR, iso_3166_1 VARCHAR, "
            "kind VARCHAR, genre_language VARCHAR)"
        )
        con.execute("CREATE TEMP MACRO in_scope(scope_kind, scope_id) AS true")  # scope.plan_scope's, made first
        compat.prepare(con, release_settings)
        plot = "A man falls. He gets up again! Then what?"
        assert con.execute(
            "SELECT omdb_plot(?, false), omdb_plot(?, true), omdb_plot('', false), omdb_plot('One', false)",
            [plot, plot],
        ).fetchone() == ("A man falls.", plot, "N/A", "One")
    finally:
        con.close()
