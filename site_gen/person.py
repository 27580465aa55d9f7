"""People: the tables their templates share (site_gen/templates.py lists /3/person/{person_id} and
its sub-resources; tv_credits and combined_credits need a TV catalogue).

Documents are rendered for every credited person. The three credits documents are composites
(marquee/packs.py): each credit is an entry, a reference to the film's item (movie_list_results,
site_gen/movie.py) or the series' item (tv_credit_results, made here and written as /_items/tv/{id},
which /3/tv/{id}/similar lists too)
followed by the credit's own fields (person_{movie,tv}_{cast,crew}_entries.sql, each serialised and
checked once by documents.checked_entries). A renamed film then rewrites its item, not the credits
of everyone in it. `credited_people` is derived from the entries; everything else is plain SQL over
the catalogue (site_gen/sql/person_*.sql).
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen import templates
from site_gen.documents import checked_entries, checked_items, load_sql
from site_gen.templates import Preparation

# The TV tables the TV entries read; without all of them TV credits are skipped.
# fmt: off
TV_TABLES: tuple[str, ...] = ("tv_series", "tv_episodes", "series_genres", "series_cast", "series_crew",
                              "episode_crew", "episode_guest_stars")
# fmt: on
# (entries table, also its SQL file's name; item table; the templates' array property) per kind of credit.
# fmt: off
MOVIE_ENTRIES = (("person_movie_cast_entries", "movie_list_results", "cast"),
                 ("person_movie_crew_entries", "movie_list_results", "crew"))
# fmt: on
# fmt: off
TV_ENTRIES = (("person_tv_cast_entries", "tv_credit_results", "cast"),
              ("person_tv_crew_entries", "tv_credit_results", "crew"))
# fmt: on
# Where the film and series items are parts of entries (checked_items' `parts`).
MOVIE_ITEM_PARTS = tuple(
    (template, field)
    for template in (templates.PERSON_MOVIE_CREDITS, templates.PERSON_COMBINED_CREDITS)
    for field in ("cast", "crew")
)
TV_ITEM_PARTS = tuple(
    (template, field)
    for template in (templates.PERSON_TV_CREDITS, templates.PERSON_COMBINED_CREDITS)
    for field in ("cast", "crew")
)


def has_tables(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> bool:
    """True when every table in names exists in the build database."""
    found = con.execute(
        "SELECT count(DISTINCT table_name) FROM duckdb_tables() WHERE table_name IN (SELECT unnest(?::VARCHAR[]))",
        [list(names)],
    ).fetchone()[0]
    return found == len(names)


def prepare_credits(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    """Create the entries tables, person_credit_items (all of them) and credited_people; with a TV
    catalogue, tv_credit_results holds the series' items and the TV entries are made too."""
    with_tv = has_tables(con, TV_TABLES)
    if with_tv:
        checked_items(
            con,
            "tv_credit_results",
            load_sql("person_tv_items.sql"),
            templates.uses_of("tv_credit_results"),
            TV_ITEM_PARTS,
        )
    kinds = (
        (templates.PERSON_MOVIE_CREDITS, MOVIE_ENTRIES),
        (templates.PERSON_TV_CREDITS, TV_ENTRIES if with_tv else ()),
    )
    for own, entries in kinds:
        for table, items, field in entries:
            checked_entries(
                con,
                table,
                load_sql(table + ".sql"),
                items,
                {"entry": ((own, field),), "combined_entry": ((templates.PERSON_COMBINED_CREDITS, field),)},
            )
    con.execute(
        "CREATE OR REPLACE TEMP VIEW person_credit_items AS "
        + " UNION ALL ".join(f"SELECT * FROM {table}" for _, entries in kinds for table, _, _ in entries)
    )
    con.execute(
        "CREATE OR REPLACE TEMP TABLE credited_people AS "
        "SELECT DISTINCT person_id AS id FROM person_credit_items ORDER BY id"
    )
    con.execute(load_sql("person_credits_page.sql"))


_TV = ("tv_credit_results", "person_tv_cast_entries", "person_tv_crew_entries")
# fmt: off
PREPARATIONS = (
    Preparation("person credits", prepare_credits,
                makes=(*_TV, "person_movie_cast_entries", "person_movie_crew_entries", "person_credit_items",
                       "credited_people", "person_credits_page"),
                reads=("movie_list_results", "tv_series_listed", "ordered_values"), optional=_TV,
                sql=("person_tv_items.sql", *(f"{table}.sql" for table, _, _ in MOVIE_ENTRIES + TV_ENTRIES),
                     "person_credits_page.sql")),
)
# fmt: on
