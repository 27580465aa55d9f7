"""TMDB's query parameters as the routes read them, with TMDB's errors naming the parameter: one
parse of a country code, a date and a time zone for search, discover, the lists, showtimes and
changes."""

from __future__ import annotations

import re
import zoneinfo
from datetime import date

from edge import errors
from edge.content import ContentError

COUNTRY_CODE = re.compile(r"^[A-Za-z]{2}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_ID = 2**63 - 1  # an id in a path past this is no entity's (the indexes' integers are SQLite's 64 bits)
INVALID_TIMEZONE = errors.TmdbError(400, 28, "Invalid timezone: Please consult the documentation for a valid timezone.")


def invalid(parameter: str, expected: str) -> ContentError:
    return ContentError(errors.TmdbError(422, 5, f"Invalid parameters: `{parameter}` must be {expected}."))


def country(params: dict[str, str], name: str) -> str:
    """The ISO 3166-1 code `name` gives, upper case, or "" when it gives none (422/5 if not a code)."""
    value = params.get(name, "").strip()
    if value and not COUNTRY_CODE.match(value):
        raise invalid(name, "a country code (ISO 3166-1)")
    return value.upper()


def day(params: dict[str, str], name: str) -> date | None:
    """The YYYY-MM-DD date `name` gives, or None (400/23 if not a date)."""
    value = params.get(name, "").strip()
    if not value:
        return None
    try:
        if not _DATE.match(value):
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError:
        raise ContentError(errors.TmdbError(400, 23, f"Invalid date: `{name}` needs to be YYYY-MM-DD.")) from None


def zone(params: dict[str, str], name: str = "timezone") -> zoneinfo.ZoneInfo | None:
    """The IANA time zone `name` gives, or None (400/28 if there is no such zone)."""
    value = params.get(name, "").strip()
    if not value:
        return None
    try:
        return zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ContentError(INVALID_TIMEZONE) from None
