"""Series, seasons and episodes: the tables their templates share (site_gen/templates.py lists
/3/tv/{series_id} and its sub-resources, seasons, episodes, /3/genre/tv/list and /3/network/{id}).

Every document is built in SQL (site_gen/sql/tv_*.sql) from the lists marquee_build's
041_tv_normalise.sql prepares. Details and the genre list are rendered per language variant
(site_gen/languages.py).
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen import templates
from site_gen.documents import checked_items, checked_lists, load_sql
from site_gen.templates import Preparation

# An episode's crew and guest stars: items serialised and checked once (documents.checked_items),
# then one JSON array per episode (tv_episode_credit_lists.sql), an item document of its own that
# the season, the episode and its credits reference in every language variant (composites,
# marquee/packs.py). (items table, its SQL file, the lists' property)
# fmt: off
EPISODE_CREDITS = (("episode_crew_items", "tv_episode_crew_items.sql", "crew"),
                   ("episode_guest_items", "tv_episode_guest_items.sql", "guest_stars"))
# fmt: on


def prepare_episode_credits(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    """The temp table episode_credit_json (episode_id, crew, guest_stars) the season and episode
    templates splice, and the lists their item documents are written from."""
    for table, sql, _ in EPISODE_CREDITS:
        checked_items(con, table, load_sql(sql), templates.uses_of(table))
    con.execute(load_sql("tv_episode_credit_lists.sql"))
    for table, _, field in EPISODE_CREDITS:
        lists = f"episode_{field}_lists"
        con.execute(
            f"CREATE OR REPLACE TEMP VIEW {lists} AS SELECT series_id, episode_id, {field} AS json "
            f"FROM episode_credit_lists WHERE {field} IS NOT NULL"
        )
        checked_lists(con, lists, table)
    con.execute(load_sql("tv_episode_credit_json.sql"))


def run_sql(name: str):
    """A preparation that runs one SQL file (CREATE ... statements)."""
    return lambda con, settings: con.execute(load_sql(name))


# fmt: off
PREPARATIONS = (
    Preparation("series neighbours", run_sql("tv_neighbours.sql"),
                makes=("series_features", "series_neighbours", "series_standing"),
                reads=("tv_series_listed",), sql=("tv_neighbours.sql",)),
    Preparation("episode credits", prepare_episode_credits,
                makes=("episode_crew_items", "episode_guest_items", "episode_credit_lists", "episode_crew_lists",
                       "episode_guest_stars_lists", "episode_credit_json"),
                reads=("item_ref", "ordered_values"),
                sql=(*(sql for _, sql, _ in EPISODE_CREDITS), "tv_episode_credit_lists.sql", "tv_episode_credit_json.sql")),
    Preparation("videos page", run_sql("tv_videos_page.sql"), makes=("tv_videos_page",), reads=("render_variants",),
                sql=("tv_videos_page.sql",)),
)
# fmt: on
