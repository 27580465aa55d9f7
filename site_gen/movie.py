"""Movie family: /3/movie/{movie_id} (details, en-US) and /3/movie/{movie_id}/credits.

Details are built entirely in SQL (site_gen/sql/movie_details.sql) from the lists marquee_build's
020_normalise.sql prepares. Credits are composites (marquee/packs.py): each credit is the person's
item, /_items/person/{id} (the person fields TMDB repeats on every credit), followed by the credit's
own fields, each serialised and checked once (documents.checked_items, checked_entries). At 100k
movies the credits' lists of person structs were the slowest film template (7.5 s) and 651 MB.
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents, checked_entries, checked_items, from_items, from_sql, load_sql

DETAILS = "/3/movie/{movie_id}"
CREDITS = "/3/movie/{movie_id}/credits"
PERSON_ITEM = "/_items/person/{person_id}"
# (entries table, also its SQL file's name; the credits' array property)
CREDIT_ENTRIES = (("movie_cast_entries", "cast"), ("movie_crew_entries", "crew"))


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    checked_items(con, "person_items", load_sql("person_items.sql"), (),
                  tuple((CREDITS, field) for _, field in CREDIT_ENTRIES))
    for table, field in CREDIT_ENTRIES:
        checked_entries(con, table, load_sql(table + ".sql"), "person_items", {"entry": ((CREDITS, field),)})
    return [
        from_items(con, PERSON_ITEM, "person_items"),
        from_sql(con, DETAILS, "movie_details.sql"),
        from_sql(con, CREDITS, "movie_credits.sql", {field: table for table, field in CREDIT_ENTRIES}),
    ]
