"""Genre family: /3/genre/movie/list."""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents, from_sql

MOVIE_LIST = "/3/genre/movie/list"


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    return [from_sql(con, MOVIE_LIST, "genre_movie_list.sql")]
