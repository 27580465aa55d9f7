"""Answers nginx cannot give from one file: append_to_response, image/video language filters, pages.

Everything starts from the release's own files, chosen by the same language rule as nginx
(edge/languages.py). append_to_response splices bytes: every sub-resource document is rendered
with `"id"` as its first key, so appending it is dropping that key and pasting the rest after the
details document, with no JSON parsing of the large parts.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import orjson

from edge import errors

MAX_APPEND = 20  # https://developer.themoviedb.org/docs/append-to-response
MAX_PAGE = 500

# Detail paths that take append_to_response, by namespace, and the names each accepts; nginx's
# splice gets both (control/services.py), the patterns as PCRE, tried in this order.
# fmt: off
DETAIL_PATHS = (
    ("movie", re.compile(r"^/3/movie/\d+$")),
    ("episode", re.compile(r"^/3/tv/\d+/season/\d+/episode/\d+$")),
    ("season", re.compile(r"^/3/tv/\d+/season/\d+$")),
    ("tv", re.compile(r"^/3/tv/\d+$")),
    ("person", re.compile(r"^/3/person/\d+$")),
)
# fmt: on
# fmt: off
APPENDABLE = {
    "movie": frozenset({"alternative_titles", "changes", "credits", "external_ids", "images", "keywords", "lists",
                        "recommendations", "release_dates", "reviews", "similar", "translations", "videos",
                        "watch/providers", "soundtracks", "moods", "ratings", "showtimes"}),
    "tv": frozenset({"aggregate_credits", "alternative_titles", "changes", "content_ratings", "credits",
                     "episode_groups", "external_ids", "images", "keywords", "lists", "recommendations", "reviews",
                     "screened_theatrically", "similar", "translations", "videos", "watch/providers", "moods"}),
    "season": frozenset({"aggregate_credits", "credits", "external_ids", "images", "translations", "videos",
                         "watch/providers"}),
    "episode": frozenset({"credits", "external_ids", "images", "translations", "videos"}),
    "person": frozenset({"changes", "combined_credits", "external_ids", "images", "movie_credits", "tv_credits",
                         "translations", "tagged_images"}),
}
# fmt: on
# Names real clients still send; the answer keeps the name they asked for.
LEGACY = {"casts": "credits", "trailers": "videos", "similar_movies": "similar"}
# Paths real clients still call (tmdbsimple's similar_movies()): nginx answers each as the path it was
# renamed to, its query kept (control/services.py renders a location each).
LEGACY_PATHS = {"^/3/movie/(?<mq_legacy_id>[0-9]+)/similar_movies$": "/3/movie/$mq_legacy_id/similar"}

# A sub-resource's leading id (`{"id":603,` or `{"id":"tt1",`), cut off when it is appended. A PCRE
# pattern too: nginx's splice (nginx/lua/marquee_append.lua) matches with this very string.
ID_PREFIX = re.compile(rb'^\{"id":(?:-?\d+|"[^"]*")(,|\})')
_PAGE = re.compile(r"^[1-9]\d{0,2}$")


class ContentError(Exception):
    def __init__(self, error: errors.TmdbError) -> None:
        super().__init__(error.message)
        self.error = error

    def __reduce__(self):  # raised in a worker process, it comes back whole
        return ContentError, (self.error,)


INVALID_PAGE = errors.TmdbError(
    400, 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."
)
TOO_MANY_APPENDS = errors.TmdbError(
    400, 27, "Too many append to response objects: The maximum number of remote calls is 20."
)


@dataclass(frozen=True)
class Query:
    path: str
    language: str | None = None
    fallback_language: str | None = None
    append_to_response: str | None = None
    page: str | None = None
    include_image_language: str | None = None
    include_video_language: str | None = None


def namespace_of(path: str) -> str | None:
    for namespace, pattern in DETAIL_PATHS:
        if pattern.match(path):
            return namespace
    return None


def without_id(document: bytes) -> bytes:
    """`{"id":1,"cast":[]}` -> `{"cast":[]}`: an appended part carries no id (as at TMDB)."""
    match = ID_PREFIX.match(document)
    if match is None:
        return document
    return b"{}" if match.group(1) == b"}" else b"{" + document[match.end() :]


def append_names(value: str) -> list[str]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    if len(names) > MAX_APPEND:
        raise ContentError(TOO_MANY_APPENDS)
    return list(dict.fromkeys(names))


def page_number(value: str | None) -> int:
    if value is None or value == "":
        return 1
    if not _PAGE.match(value) or int(value) > MAX_PAGE:
        raise ContentError(INVALID_PAGE)
    return int(value)


def list_page(page: int, results: list, total: int, size: int) -> dict:
    """TMDB's paginated list: page `page` of `total` results, `size` a page."""
    return {"page": page, "results": results, "total_pages": max(1, math.ceil(total / size)), "total_results": total}


def legacy_trailers(videos: bytes) -> bytes:
    """The pre-2014 `trailers` shape some clients still ask for: YouTube trailers only."""
    results = orjson.loads(videos).get("results", [])
    youtube = [
        {
            "name": v.get("name"),
            "size": "HD" if (v.get("size") or 0) >= 720 else "Standard",
            "source": v.get("key"),
            "type": v.get("type"),
        }
        for v in results
        if v.get("site") == "YouTube" and v.get("type") == "Trailer"
    ]
    return orjson.dumps({"quicktime": [], "youtube": youtube})


def language_filter(document: bytes, language: str | None, include: str | None, lists: tuple[str, ...]) -> bytes:
    """TMDB's /images filter: `language` plus `include_image_language` (`null`/`xx` = no language)."""
    allowed: set[str | None] = set()
    if language:
        allowed.add(language.split("-")[0].lower())
    for code in (include or "").split(","):
        code = code.strip().lower()
        if code in ("null", "xx"):
            allowed.add(None)
        elif code:
            allowed.add(code.split("-")[0])
    if not allowed:
        return document
    doc = orjson.loads(document)
    for key in lists:
        if isinstance(doc.get(key), list):
            doc[key] = [
                item
                for item in doc[key]
                if (None if item.get("iso_639_1") in (None, "", "xx") else item["iso_639_1"]) in allowed
            ]
    return orjson.dumps(doc)


def empty_page(first_page: bytes, page: int) -> bytes:
    """A page past the last one: TMDB answers it with no results and the real totals."""
    doc = orjson.loads(first_page)
    doc["page"] = page
    doc["results"] = []
    return orjson.dumps(doc)
