"""The OMDb dialect's precomputed documents: what the /compat templates of site_gen/templates.py
share (the table macros of site_gen/sql/compat_macros.sql).

A lookup by IMDb id (`/compat/?i=tt…`) is two documents nginx reads after the key check: the
pointer `/compat/imdb/{imdb_id}` naming the film, series or episode document, then that document
(short plot, or `/full`). They are named by TMDB id, not IMDb id, so a rebuild renders only what
changed (site_gen/scope.py), as for every other template. edge/routes/compat.py answers the rest
(`t`, `s`, seasons by number, XML, JSONP) from the same documents.
"""

from __future__ import annotations

import duckdb

from marquee import omdb
from marquee.settings import Settings
from site_gen.documents import load_sql
from site_gen.templates import Preparation


def prepare(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    # The build host's image host: a node serving the release puts its own in (omdb.with_poster_base).
    con.execute("SET VARIABLE omdb_poster_base = ?", [omdb.poster_base(settings)])
    # The SQL makes the series' parts once (the table omdb_series_parts, which five templates read;
    # a table macro evaluated by each was ~0.8 s of the sample's render), for the series this build
    # renders: all of them, or those an update's scope holds (each template keeps to its in_scope()).
    scoped = con.execute("SELECT getvariable('render_scoped')").fetchone()[0]
    wanted = "SELECT DISTINCT id FROM render_scope WHERE kind = 'series'" if scoped else "SELECT id FROM tv_series"
    con.execute(f"CREATE OR REPLACE TEMP TABLE omdb_series_wanted AS {wanted}")
    con.execute(load_sql("compat_macros.sql"))


# fmt: off
PREPARATIONS = (
    Preparation("omdb titles", prepare,
                makes=("omdb_text", "omdb_names", "omdb_date", "omdb_minutes", "omdb_plot", "omdb_poster",
                       "omdb_ratings", "omdb_movie_docs", "omdb_series_wanted", "omdb_series_parts",
                       "omdb_series_docs", "omdb_episode_docs"),
                reads=("render_variants",), sql=("compat_macros.sql",)),
)
# fmt: on
