"""Reviews: the macros their templates share (site_gen/templates.py lists /3/movie/{movie_id}/reviews,
/3/tv/{series_id}/reviews and /3/review/{review_id}; the SQL is site_gen/sql/review_pages.sql)."""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import load_sql
from site_gen.templates import Preparation


def prepare(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    con.execute(load_sql("review_pages.sql"))


PREPARATIONS = (
    Preparation("reviews", prepare, makes=("review_pages", "review_author", "tmdb_time"), reads=("render_variants",),
                sql=("review_pages.sql",)),
)
