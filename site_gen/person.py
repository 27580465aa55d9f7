"""Person family: /3/person/{person_id} and its sub-resources movie_credits, external_ids, images,
plus tv_credits and combined_credits once the TV catalogue is present.

Documents are rendered for every credited person. Their credits are first gathered into one table
of ready-serialised list items (person_credit_items.sql for movies, person_tv_credit_items.sql for
TV when every table in TV_TABLES exists), from which `credited_people` and the three credits
documents are derived; everything else is plain SQL over the catalogue (site_gen/sql/person_*.sql).
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents, from_sql, load_sql

DETAILS = "/3/person/{person_id}"
MOVIE_CREDITS = "/3/person/{person_id}/movie_credits"
EXTERNAL_IDS = "/3/person/{person_id}/external_ids"
IMAGES = "/3/person/{person_id}/images"
TRANSLATIONS = "/3/person/{person_id}/translations"
TV_CREDITS = "/3/person/{person_id}/tv_credits"
COMBINED_CREDITS = "/3/person/{person_id}/combined_credits"

# The TV tables person_tv_credit_items.sql reads; without all of them TV credits are skipped.
TV_TABLES: tuple[str, ...] = ("tv_series", "tv_episodes", "series_genres", "series_cast", "series_crew",
                              "episode_crew", "episode_guest_stars")


def has_tables(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> bool:
    """True when every table in names exists in the build database."""
    found = con.execute("SELECT count(DISTINCT table_name) FROM duckdb_tables() WHERE table_name IN "
                        "(SELECT unnest(?::VARCHAR[]))", [list(names)]).fetchone()[0]
    return found == len(names)


def prepare_credits(con: duckdb.DuckDBPyConnection) -> bool:
    """Create person_credit_items and credited_people; returns whether TV credits are included."""
    con.execute(load_sql("person_credit_items.sql"))
    with_tv = has_tables(con, TV_TABLES)
    if with_tv:
        con.execute(load_sql("person_tv_credit_items.sql"))
    con.execute("CREATE OR REPLACE TEMP TABLE credited_people AS "
                "SELECT DISTINCT person_id AS id FROM person_credit_items ORDER BY id")
    return with_tv


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    with_tv = prepare_credits(con)
    con.execute(load_sql("person_credits_page.sql"))
    documents = [
        from_sql(con, DETAILS, "person_details.sql"),
        from_sql(con, MOVIE_CREDITS, "person_movie_credits.sql"),
        from_sql(con, EXTERNAL_IDS, "person_external_ids.sql"),
        from_sql(con, IMAGES, "person_images.sql"),
        from_sql(con, TRANSLATIONS, "person_translations.sql"),
    ]
    if with_tv:
        documents += [
            from_sql(con, TV_CREDITS, "person_tv_credits.sql"),
            from_sql(con, COMBINED_CREDITS, "person_combined_credits.sql"),
        ]
    return documents
