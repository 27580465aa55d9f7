"""Reviews and public lists: the view and macros their templates share (site_gen/templates.py lists
/3/movie/{movie_id}/reviews, /lists, the same of /3/tv/{series_id}, /3/review/{review_id} and
/3/list/{list_id}; the SQL is site_gen/sql/title_pages.sql)."""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import load_sql
from site_gen.templates import Preparation


def prepare(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    con.execute(load_sql("title_pages.sql"))


# fmt: off
PREPARATIONS = (
    Preparation("reviews and lists", prepare, makes=("title_pages", "title_language_items", "review_author", "tmdb_time"),
                reads=("render_variants",), sql=("title_pages.sql",)),
)
# fmt: on
