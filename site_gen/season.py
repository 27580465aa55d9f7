"""TV season family: /3/tv/{series_id}/season/{season_number} (episodes with crew and guest stars
embedded) and its aggregate_credits, credits, external_ids and videos. Sub-resources carry the
season's own id as their leading "id", as TMDB's do."""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents
from site_gen.tv import collect_documents

DETAILS = "/3/tv/{series_id}/season/{season_number}"
DOCUMENTS: tuple[tuple[str, str], ...] = (
    (DETAILS, "tv_season_details.sql"),
    (DETAILS + "/aggregate_credits", "tv_season_aggregate_credits.sql"),
    (DETAILS + "/credits", "tv_season_credits.sql"),
    (DETAILS + "/external_ids", "tv_season_external_ids.sql"),
    (DETAILS + "/images", "tv_season_images.sql"),
    (DETAILS + "/translations", "tv_season_translations.sql"),
    (DETAILS + "/videos", "tv_season_videos.sql"),
)


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    return collect_documents(con, DOCUMENTS)
