"""Films: the tables their templates share (site_gen/templates.py lists the templates).

- Credits are composites (marquee/packs.py): each credit is the person's item, /_items/person/{id}
  (the person fields TMDB repeats on every credit), followed by the credit's own fields, each
  serialised and checked once (documents.checked_items, checked_entries). At 100k movies the
  credits' lists of person structs were the slowest film template (7.5 s) and 651 MB.
- The list-item form of every film (movie_list_results), in the default language, is the item
  /_items/movie/{id} of similar, recommendations and keyword pages and of people's credits: a
  renamed film rewrites its item, not the ~40 lists that show it. movie_related_page pages them.

Details are built entirely in SQL (site_gen/sql/movie_details.sql) from the lists marquee_build's
020_normalise.sql prepares. Every per-movie document starts with "id" (the edge splices
append_to_response from these bytes).
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen import person, templates
from site_gen.documents import checked_entries, checked_items, load_sql
from site_gen.templates import Preparation

# (entries table, also its SQL file's name; the credits' array property)
CREDIT_ENTRIES = (("movie_cast_entries", "cast"), ("movie_crew_entries", "crew"))


def prepare_credits(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    checked_items(
        con,
        "person_items",
        load_sql("person_items.sql"),
        (),
        tuple((templates.MOVIE_CREDITS, field) for _, field in CREDIT_ENTRIES),
    )
    for table, field in CREDIT_ENTRIES:
        checked_entries(
            con, table, load_sql(table + ".sql"), "person_items", {"entry": ((templates.MOVIE_CREDITS, field),)}
        )


def prepare_list_items(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    checked_items(
        con,
        "movie_list_results",
        load_sql("movie_list_results.sql"),
        templates.uses_of("movie_list_results"),
        person.MOVIE_ITEM_PARTS,
    )
    con.execute(load_sql("movie_related_page.sql"))


# fmt: off
PREPARATIONS = (
    Preparation("movie credits", prepare_credits, makes=("person_items", "movie_cast_entries", "movie_crew_entries"),
                sql=("person_items.sql", "movie_cast_entries.sql", "movie_crew_entries.sql")),
    Preparation("movie list items", prepare_list_items, makes=("movie_list_results", "movie_related_page"),
                reads=("item_ref", "ordered_values"), sql=("movie_list_results.sql", "movie_related_page.sql")),
)
# fmt: on
