"""TV episode family: /3/tv/{series_id}/season/{season_number}/episode/{episode_number} and its
credits (season regulars as cast, crew, guest stars), external_ids and videos. Sub-resources carry
the episode's own id as their leading "id", as TMDB's do."""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents
from site_gen.tv import collect_documents

DETAILS = "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}"
DOCUMENTS: tuple[tuple[str, str], ...] = (
    (DETAILS, "tv_episode_details.sql"),
    (DETAILS + "/credits", "tv_episode_credits.sql"),
    (DETAILS + "/external_ids", "tv_episode_external_ids.sql"),
    (DETAILS + "/images", "tv_episode_images.sql"),
    (DETAILS + "/translations", "tv_episode_translations.sql"),
    (DETAILS + "/videos", "tv_episode_videos.sql"),
)


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    return collect_documents(con, DOCUMENTS)
