"""Movie family: /3/movie/{movie_id} (details, en-US) and /3/movie/{movie_id}/credits.

Both documents are built entirely in SQL (site_gen/sql/movie_details.sql, movie_credits.sql) from
the lists marquee_build's 020_normalise.sql prepares.
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents, from_sql

DETAILS = "/3/movie/{movie_id}"
CREDITS = "/3/movie/{movie_id}/credits"


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    return [
        from_sql(con, DETAILS, "movie_details.sql"),
        from_sql(con, CREDITS, "movie_credits.sql"),
    ]
