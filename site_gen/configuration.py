"""Fixed documents: /3/configuration (marquee/configuration.py: the build host's image URLs here;
each node answers it from its own settings) and /3/authentication."""

from __future__ import annotations

from typing import Any

import duckdb

from marquee.configuration import CONFIGURATION, configuration_document
from marquee.settings import Settings

AUTHENTICATION = "/3/authentication"
AUTHENTICATION_BODY: dict[str, Any] = {"success": True, "status_code": 1, "status_message": "Success."}


def documents(con: duckdb.DuckDBPyConnection, settings: Settings) -> dict[str, dict[str, Any]]:
    """{template: {uri: document}} of this module's rows of site_gen/templates.py (`objects:configuration`)."""
    return {
        CONFIGURATION: {CONFIGURATION: configuration_document(settings)},
        AUTHENTICATION: {AUTHENTICATION: dict(AUTHENTICATION_BODY)},
    }
