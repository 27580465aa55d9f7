"""Collection family: /3/collection/{collection_id} with its parts in release order, and its images
(translations are rendered by site_gen.languages)."""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents, from_sql

DETAILS = "/3/collection/{collection_id}"


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    return [from_sql(con, DETAILS, "collection_details.sql"),
            from_sql(con, DETAILS + "/images", "collection_images.sql")]
