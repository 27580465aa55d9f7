"""/3/configuration: what a node tells clients about itself (where its images are) and TMDB's fixed
lists. One definition for the build, which renders it into each release's pack with the build
host's settings (site_gen/configuration.py), and for every node serving a release, which answers it
from its own settings: nginx (control/services.py docs_conf, marquee_docs.lua) and the edge
(edge/assemble.py OpenPacks.node). So a release built once and copied to nodes, or a second front
end on other ports (docs/deployment.md), names the image host of the node that answers.

The image size lists and change keys are TMDB's, verbatim: clients build image URLs from them and
often cache the whole document, so they must match what TMDB sends.
"""

from __future__ import annotations

from typing import Any

import orjson

from marquee.image_sizes import SIZES_BY_KIND
from marquee.settings import Settings

CONFIGURATION = "/3/configuration"
CONFIGURATION_NAME = CONFIGURATION[1:] + ".json"  # its row in a pack (site_gen/writer.py name_for)

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


def configuration_document(settings: Settings) -> dict[str, Any]:
    return {
        "images": {
            "base_url": settings.image_base_url,
            "secure_base_url": settings.image_secure_base_url,
            **IMAGE_SIZES,
        },
        "change_keys": list(CHANGE_KEYS),
    }


def configuration_body(settings: Settings) -> bytes:
    """The document's bytes as the build writes them (site_gen/documents.py from_objects)."""
    return orjson.dumps(configuration_document(settings))
