"""Person family: /3/person/{person_id} and its sub-resources movie_credits, external_ids, images,
plus tv_credits and combined_credits once the TV catalogue is present.

Documents are rendered for every credited person. The three credits documents are composites
(marquee/packs.py): each credit is an entry, a reference to the film's item (movie_list_results,
site_gen/movie_extras.py) or the series' item (tv_credit_results, written here as /_items/tv/{id},
which /3/tv/{id}/similar lists too)
followed by the credit's own fields (person_{movie,tv}_{cast,crew}_entries.sql, each serialised and
checked once by documents.checked_entries). A renamed film then rewrites its item, not the credits
of everyone in it. `credited_people` is derived from the entries; everything else is plain SQL over
the catalogue (site_gen/sql/person_*.sql).
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen import tv
from site_gen.documents import Documents, checked_entries, checked_items, from_items, from_sql, load_sql

DETAILS = "/3/person/{person_id}"
MOVIE_CREDITS = "/3/person/{person_id}/movie_credits"
EXTERNAL_IDS = "/3/person/{person_id}/external_ids"
IMAGES = "/3/person/{person_id}/images"
TRANSLATIONS = "/3/person/{person_id}/translations"
TV_CREDITS = "/3/person/{person_id}/tv_credits"
COMBINED_CREDITS = "/3/person/{person_id}/combined_credits"

# The TV tables the TV entries read; without all of them TV credits are skipped.
TV_TABLES: tuple[str, ...] = ("tv_series", "tv_episodes", "series_genres", "series_cast", "series_crew",
                              "episode_crew", "episode_guest_stars")
TV_ITEM = "/_items/tv/{series_id}"
# (entries table, also its SQL file's name; item table; the templates' array property) per kind of credit.
MOVIE_ENTRIES = (("person_movie_cast_entries", "movie_list_results", "cast"),
                 ("person_movie_crew_entries", "movie_list_results", "crew"))
TV_ENTRIES = (("person_tv_cast_entries", "tv_credit_results", "cast"),
              ("person_tv_crew_entries", "tv_credit_results", "crew"))
# Where the film and series items are parts of entries (checked_items' `parts`).
MOVIE_ITEM_PARTS = ((MOVIE_CREDITS, "cast"), (MOVIE_CREDITS, "crew"), (COMBINED_CREDITS, "cast"),
                    (COMBINED_CREDITS, "crew"))
TV_ITEM_PARTS = ((TV_CREDITS, "cast"), (TV_CREDITS, "crew"), (COMBINED_CREDITS, "cast"), (COMBINED_CREDITS, "crew"))


def has_tables(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> bool:
    """True when every table in names exists in the build database."""
    found = con.execute("SELECT count(DISTINCT table_name) FROM duckdb_tables() WHERE table_name IN "
                        "(SELECT unnest(?::VARCHAR[]))", [list(names)]).fetchone()[0]
    return found == len(names)


def prepare_credits(con: duckdb.DuckDBPyConnection) -> bool:
    """Create the entries tables, person_credit_items (all of them) and credited_people; returns
    whether TV credits are included (then tv_credit_results holds the series' items too)."""
    with_tv = has_tables(con, TV_TABLES)
    if with_tv:
        checked_items(con, "tv_credit_results", load_sql("person_tv_items.sql"), tv.ITEM_USES, TV_ITEM_PARTS)
    kinds = ((MOVIE_CREDITS, MOVIE_ENTRIES), (TV_CREDITS, TV_ENTRIES if with_tv else ()))
    for own, entries in kinds:
        for table, items, field in entries:
            checked_entries(con, table, load_sql(table + ".sql"), items,
                            {"entry": ((own, field),), "combined_entry": ((COMBINED_CREDITS, field),)})
    con.execute("CREATE OR REPLACE TEMP VIEW person_credit_items AS " + " UNION ALL ".join(
        f"SELECT * FROM {table}" for _, entries in kinds for table, _, _ in entries))
    con.execute("CREATE OR REPLACE TEMP TABLE credited_people AS "
                "SELECT DISTINCT person_id AS id FROM person_credit_items ORDER BY id")
    return with_tv


def _checked(template: str, with_tv: bool) -> dict[str, tuple[str, ...]]:
    """The entries tables a credits template splices, by property."""
    kinds = {MOVIE_CREDITS: MOVIE_ENTRIES, TV_CREDITS: TV_ENTRIES,
             COMBINED_CREDITS: MOVIE_ENTRIES + (TV_ENTRIES if with_tv else ())}[template]
    return {field: tuple(table for table, _, f in kinds if f == field) for field in ("cast", "crew")}


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    with_tv = prepare_credits(con)
    con.execute(load_sql("person_credits_page.sql"))
    documents = [
        from_sql(con, DETAILS, "person_details.sql"),
        from_sql(con, MOVIE_CREDITS, "person_movie_credits.sql", _checked(MOVIE_CREDITS, with_tv)),
        from_sql(con, EXTERNAL_IDS, "person_external_ids.sql"),
        from_sql(con, IMAGES, "person_images.sql"),
        from_sql(con, TRANSLATIONS, "person_translations.sql"),
    ]
    if with_tv:
        documents += [
            from_items(con, TV_ITEM, "tv_credit_results"),
            from_sql(con, TV_CREDITS, "person_tv_credits.sql", _checked(TV_CREDITS, with_tv)),
            from_sql(con, COMBINED_CREDITS, "person_combined_credits.sql", _checked(COMBINED_CREDITS, with_tv)),
        ]
    return documents
