"""site_gen/compat.py: the OMDb documents of a release, against the catalogue it was built from."""

from __future__ import annotations

import shutil

import duckdb
import orjson
import pytest

from marquee import omdb
from marquee.packs import Pack
from site_gen import compat
from site_gen.documents import load_sql


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


def test_a_full_document_is_made_for_a_plot_of_more_than_one_sentence(built_pack, release_settings, tmp_path):
    # The sample's plots are one sentence (no /full document): give a film and an episode two, in the
    # build's own database, and the /full templates make documents for them alone, the short ones'
    # fields but for the plot.
    from site_gen import languages

    shutil.copy(built_pack.parent / ".build-state" / "catalogue.duckdb", tmp_path / "catalogue.duckdb")
    con = duckdb.connect(str(tmp_path / "catalogue.duckdb"))
    try:
        languages.prepare(con, release_settings)
        con.execute("CREATE TEMP MACRO in_scope(scope_kind, scope_id) AS true")
        con.execute("SET VARIABLE render_scoped = false")
        language, region = release_settings.languages[0].split("-")
        film = con.execute(
            "SELECT m.id FROM movies m JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = ? "
            "AND t.iso_3166_1 = ? WHERE m.imdb_id LIKE 'tt%' ORDER BY m.id LIMIT 1",
            [language, region],
        ).fetchone()[0]
        episode = con.execute(
            "SELECT e.id FROM tv_episodes e JOIN tv_series s ON s.id = e.series_id JOIN episode_translations t "
            "ON t.episode_id = e.id AND t.iso_639_1 = ? AND t.iso_3166_1 = ? WHERE s.imdb_id LIKE 'tt%' "
            "AND t.overview <> '' ORDER BY e.id LIMIT 1",
            [language, region],
        ).fetchone()[0]
        plot = "A man falls. He gets up again! Then what?"
        con.execute(
            "UPDATE movie_translations SET overview = ? WHERE movie_id = ? AND iso_639_1 = ? AND iso_3166_1 = ?",
            [plot, film, language, region],
        )
        con.execute(
            "UPDATE episode_translations SET overview = ? WHERE episode_id = ? AND iso_639_1 = ? AND iso_3166_1 = ?",
            [plot, episode, language, region],
        )
        compat.prepare(con, release_settings)
        series = con.execute("SELECT series_id FROM tv_episodes WHERE id = ?", [episode]).fetchone()[0]
        for kind, uri in (("movie", f"/compat/movie/{film}"), ("episode", f"/compat/episode/{series}/{episode}")):
            docs = {
                name: dict(con.execute(f"SELECT uri, to_json(doc) FROM ({load_sql(name)})").fetchall())
                for name in (f"compat_{kind}.sql", f"compat_{kind}_full.sql")
            }
            assert list(docs[f"compat_{kind}_full.sql"]) == [uri + "/full"], kind
            short, full = (
                orjson.loads(docs[f"compat_{kind}.sql"][uri]),
                orjson.loads(docs[f"compat_{kind}_full.sql"][uri + "/full"]),
            )
            assert short["Plot"] == "A man falls." and full == {**short, "Plot": plot}
        assert not con.execute(load_sql("compat_series_full.sql")).fetchall()
    finally:
        con.close()
