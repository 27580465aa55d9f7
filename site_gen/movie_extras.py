"""Movie sub-resources and the lists around them, rendered in SQL (site_gen/sql/movie_*.sql).

TMDB paths: /3/movie/{id}/alternative_titles, external_ids, images, keywords, release_dates, videos,
recommendations, similar, watch/providers; /3/keyword/{id} and its /movies pages;
/3/certification/movie/list; /3/watch/providers/movie and /regions. Ours (schemas in
schemas/marquee_movie.json): /3/movie/{id}/soundtracks, /moods, /ratings. Every per-movie document
starts with "id" (the edge splices append_to_response from these bytes).
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen import person
from site_gen.documents import Documents, checked_items, from_items, from_sql, load_sql

MOVIE = "/3/movie/{movie_id}"
# (path template, SQL file) in rendering order.
DOCUMENTS: tuple[tuple[str, str], ...] = (
    (MOVIE + "/alternative_titles", "movie_alternative_titles.sql"),
    (MOVIE + "/external_ids", "movie_external_ids.sql"),
    (MOVIE + "/images", "movie_images.sql"),
    (MOVIE + "/keywords", "movie_keywords.sql"),
    (MOVIE + "/release_dates", "movie_release_dates.sql"),
    (MOVIE + "/videos", "movie_videos.sql"),
    (MOVIE + "/recommendations", "movie_recommendations.sql"),
    (MOVIE + "/similar", "movie_similar.sql"),
    (MOVIE + "/watch/providers", "movie_watch_providers.sql"),
    (MOVIE + "/soundtracks", "movie_soundtracks.sql"),
    (MOVIE + "/moods", "movie_moods.sql"),
    (MOVIE + "/ratings", "movie_ratings.sql"),
    ("/3/keyword/{keyword_id}", "movie_keyword_details.sql"),
    ("/3/keyword/{keyword_id}/movies", "movie_keyword_movies.sql"),
    ("/3/certification/movie/list", "movie_certification_list.sql"),
    ("/3/watch/providers/movie", "movie_watch_provider_list.sql"),
    ("/3/watch/providers/regions", "movie_watch_provider_regions.sql"),
)

# Lists of movie_list_results items (documents.checked_items), stored as composite documents: each
# item is the document ITEM, referenced with item_ref('movie', id) and spliced when served
# (marquee/packs.py). A renamed film rewrites its item, not the ~40 lists that show it.
LISTS = (MOVIE + "/recommendations", MOVIE + "/similar", "/3/keyword/{keyword_id}/movies")
ITEM = "/_items/movie/{movie_id}"


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    # The list-item form of every movie, in the current language, shared by similar, recommendations
    # and keyword pages (computed once instead of once per document query).
    checked_items(con, "movie_list_results", load_sql("movie_list_results.sql"),
                  tuple((template, "results") for template in LISTS), person.MOVIE_ITEM_PARTS)
    con.execute(load_sql("movie_related_page.sql"))
    return [from_items(con, ITEM, "movie_list_results")] + [from_sql(con, template, sql, {"results": "movie_list_results"} if template in LISTS else None)
                      for template, sql in DOCUMENTS]
