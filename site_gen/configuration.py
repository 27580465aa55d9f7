"""Fixed documents: /3/configuration (image host URLs from settings) and /3/authentication.

The image size lists and change keys are TMDB's, verbatim: clients build image URLs from them and
often cache the whole document, so they must match what TMDB sends.
"""

from __future__ import annotations

from typing import Any

import duckdb

from marquee.image_sizes import SIZES_BY_KIND
from marquee.settings import Settings

CONFIGURATION = "/3/configuration"
AUTHENTICATION = "/3/authentication"

# TMDB's lists, in its order: the sizes marquee/image_sizes.py lists for each kind, then "original".
IMAGE_SIZES: dict[str, list[str]] = {f"{kind}_sizes": [*sizes, "original"] for kind, sizes in SIZES_BY_KIND.items()}
# fmt: off
CHANGE_KEYS: list[str] = [
    "adult", "air_date", "also_known_as", "alternative_titles", "biography", "birthday", "budget",
    "cast", "certifications", "character_names", "created_by", "crew", "deathday", "episode",
    "episode_number", "episode_run_time", "freebase_id", "freebase_mid", "general", "genres",
    "guest_stars", "homepage", "images", "imdb_id", "languages", "name", "network", "origin_country",
    "original_name", "original_title", "overview", "parts", "place_of_birth", "plot_keywords",
    "production_code", "production_companies", "production_countries", "releases", "revenue",
    "runtime", "season", "season_number", "season_regular", "spoken_languages", "status", "tagline",
    "title", "translations", "tvdb_id", "tvrage_id", "type", "video", "videos",
]
# fmt: on
AUTHENTICATION_BODY: dict[str, Any] = {"success": True, "status_code": 1, "status_message": "Success."}


def configuration_document(settings: Settings) -> dict[str, Any]:
    return {
        "images": {
            "base_url": settings.image_base_url,
            "secure_base_url": settings.image_secure_base_url,
            **IMAGE_SIZES,
        },
        "change_keys": list(CHANGE_KEYS),
    }


def documents(con: duckdb.DuckDBPyConnection, settings: Settings) -> dict[str, dict[str, Any]]:
    """{template: {uri: document}} of this module's rows of site_gen/templates.py (`objects:configuration`)."""
    return {
        CONFIGURATION: {CONFIGURATION: configuration_document(settings)},
        AUTHENTICATION: {AUTHENTICATION: dict(AUTHENTICATION_BODY)},
    }
