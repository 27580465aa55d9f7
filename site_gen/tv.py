"""TV series family: /3/tv/{series_id} and its sub-resources, /3/genre/tv/list and /3/network/{id}.

Every document is built in SQL (site_gen/sql/tv_*.sql) from the lists marquee_build's
041_tv_normalise.sql prepares; seasons and episodes are the site_gen.season and site_gen.episode
families. Details and the genre list are rendered per language variant (site_gen/languages.py).
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents, checked_items, checked_lists, from_items, from_sql, load_sql

DETAILS = "/3/tv/{series_id}"
SIMILAR = DETAILS + "/similar"
# (path template, SQL file) of every series document, details first.
DOCUMENTS: tuple[tuple[str, str], ...] = (
    (DETAILS, "tv_details.sql"),
    (DETAILS + "/aggregate_credits", "tv_aggregate_credits.sql"),
    (DETAILS + "/alternative_titles", "tv_alternative_titles.sql"),
    (DETAILS + "/content_ratings", "tv_content_ratings.sql"),
    (DETAILS + "/credits", "tv_credits.sql"),
    (DETAILS + "/external_ids", "tv_external_ids.sql"),
    (DETAILS + "/images", "tv_images.sql"),
    (DETAILS + "/keywords", "tv_keywords.sql"),
    (DETAILS + "/moods", "tv_moods.sql"),
    (DETAILS + "/recommendations", "tv_recommendations.sql"),
    (SIMILAR, "tv_similar.sql"),
    (DETAILS + "/translations", "tv_translations.sql"),
    (DETAILS + "/videos", "tv_videos.sql"),
    (DETAILS + "/watch/providers", "tv_watch_providers.sql"),
    ("/3/genre/tv/list", "tv_genre_list.sql"),
    ("/3/network/{network_id}", "tv_network_details.sql"),
    ("/3/watch/providers/tv", "tv_watch_provider_list.sql"),
)


SEASON = DETAILS + "/season/{season_number}"
EPISODE = SEASON + "/episode/{episode_number}"
# An episode's crew and guest stars: items serialised and checked once (documents.checked_items),
# then one JSON array per episode (tv_episode_credit_lists.sql), an item document of its own that
# the season, the episode and its credits reference in every language variant (composites,
# marquee/packs.py). (items table, its SQL file, the documents' property, the lists' item template)
EPISODE_CREDITS = (("episode_crew_items", "tv_episode_crew_items.sql", "crew",
                    "/_items/episode_crew/{series_id}/{episode_id}"),
                   ("episode_guest_items", "tv_episode_guest_items.sql", "guest_stars",
                    "/_items/episode_guest_stars/{series_id}/{episode_id}"))
EPISODE_CREDIT_USES = {SEASON: "episodes[].", EPISODE: "", EPISODE + "/credits": ""}  # template: path prefix
# What each of those templates splices (from_sql's `checked`): property path -> items table.
EPISODE_CREDIT_SPLICES = {template: {prefix + field: table for table, _, field, _ in EPISODE_CREDITS}
                          for template, prefix in EPISODE_CREDIT_USES.items()}
# The series' items (person_tv_items.sql, checked once by site_gen.person for these uses too, written
# as /_items/tv/{series_id}) that similar pages list.
ITEM_USES = ((SIMILAR, "results"),)
SPLICES = {SIMILAR: {"results": "tv_credit_results"}, **EPISODE_CREDIT_SPLICES}


def prepare_episode_credits(con: duckdb.DuckDBPyConnection) -> list[Documents]:
    """The temp table episode_credit_json (episode_id, crew, guest_stars) the TV families splice;
    returns the lists' item documents."""
    for table, sql, field, _ in EPISODE_CREDITS:
        checked_items(con, table, load_sql(sql),
                      tuple((template, prefix + field) for template, prefix in EPISODE_CREDIT_USES.items()))
    con.execute(load_sql("tv_episode_credit_lists.sql"))
    items = []
    for table, _, field, template in EPISODE_CREDITS:
        lists = f"episode_{field}_lists"
        con.execute(f"CREATE OR REPLACE TEMP VIEW {lists} AS SELECT series_id, episode_id, {field} AS json "
                    f"FROM episode_credit_lists WHERE {field} IS NOT NULL")
        checked_lists(con, lists, table)
        items.append(from_items(con, template, lists))
    con.execute(load_sql("tv_episode_credit_json.sql"))
    return items


def collect_documents(con: duckdb.DuckDBPyConnection, documents: tuple[tuple[str, str], ...]) -> list[Documents]:
    """The TV families' documents (series, season, episode), with the macros their SQL shares."""
    con.execute(load_sql("tv_videos_page.sql"))
    return [from_sql(con, template, sql, SPLICES.get(template)) for template, sql in documents]


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    con.execute(load_sql("tv_neighbours.sql"))  # similar and recommendations
    items = prepare_episode_credits(con)  # for the season and episode families, which follow
    return items + collect_documents(con, DOCUMENTS)
