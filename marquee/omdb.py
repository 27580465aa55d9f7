"""OMDb's conventions, the one place they are written: field orders, error texts, and the XML and
JSONP forms of a body (../shared/reference/omdb.md). site_gen renders the title documents in these
orders (site_gen/sql/compat_*.sql, checked against site_gen/schemas/marquee_omdb.json, which
`schemas()` writes), the edge answers /compat/ with them (edge/routes/compat.py) and nginx's Lua
serves the precomputed ones and words the gate's refusals from them (control/services.py).

Every value is a string ("N/A" when we have nothing) except `Ratings`, a list of {Source, Value}.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

import orjson

from marquee import jsonp

if TYPE_CHECKING:
    from marquee.settings import Settings

# OMDb's key order of each answer (../shared/reference/omdb.md)
# fmt: off
MOVIE_FIELDS = ("Title", "Year", "Rated", "Released", "Runtime", "Genre", "Director", "Writer", "Actors", "Plot",
                "Language", "Country", "Awards", "Poster", "Ratings", "Metascore", "imdbRating", "imdbVotes", "imdbID",
                "Type", "DVD", "BoxOffice", "Production", "Website", "Response")
# A series: no DVD, BoxOffice, Production or Website; totalSeasons after Type.
SERIES_FIELDS = (*MOVIE_FIELDS[: MOVIE_FIELDS.index("Type") + 1], "totalSeasons", "Response")
EPISODE_FIELDS = ("Title", "Year", "Rated", "Released", "Season", "Episode", "Runtime", "Genre", "Director", "Writer",
                  "Actors", "Plot", "Language", "Country", "Awards", "Poster", "Ratings", "Metascore", "imdbRating",
                  "imdbVotes", "imdbID", "seriesID", "Type", "Response")
SEASON_FIELDS = ("Title", "Season", "totalSeasons", "Episodes", "Response")
SEASON_EPISODE_FIELDS = ("Title", "Released", "Episode", "imdbRating", "imdbID")
SEARCH_FIELDS = ("Search", "totalResults", "Response")
SEARCH_ITEM_FIELDS = ("Title", "Year", "imdbID", "Type", "Poster")
RATING_FIELDS = ("Source", "Value")
# fmt: on
NOT_AVAILABLE = "N/A"
POSTER_SIZE = "w342"  # the poster size nearest OMDb's 300-pixel-wide posters
POSTER_KEY = b'"Poster":"'
NOT_AVAILABLE_BYTES = NOT_AVAILABLE.encode()

# Error texts, exactly OMDb's (and ours, in its style, for what OMDb has no word for).
NO_KEY = "No API key provided."
INVALID_KEY = "Invalid API key!"
RATE_LIMITED = "Request limit reached!"
SUSPENDED_KEY = "This API key is suspended."
PLAN_EXPIRED = "This API key's plan has expired."
SERVICE_OFFLINE = "Service temporarily unavailable."
MOVIE_NOT_FOUND = "Movie not found!"
SERIES_NOT_FOUND = "Series or episode not found!"
INCORRECT_ID = "Incorrect IMDb ID."
TOO_MANY = "Too many results."
SOMETHING_WRONG = "Something went wrong."

IMDB_ID = re.compile(r"tt\d{7,10}")
CALLBACK = jsonp.CALLBACK  # a JSONP name that cannot carry script
# fmt: off
CONTENT_TYPES = {"json": "application/json; charset=utf-8", "xml": "application/xml; charset=utf-8",
                 "jsonp": jsonp.CONTENT_TYPE}
# fmt: on
XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>'


def catch_all() -> bytes:
    """What OMDb's door answers for an error TMDB's dialect has a code for and OMDb no text (a method
    not served, a request past a limit): its catch-all, with the HTTP status of TMDB's error. The
    edge (content_listener.error_response) and nginx's refusals (control/services.py) send it."""
    return orjson.dumps(error_body(SOMETHING_WRONG))


def poster_base(settings: Settings) -> str:
    """What a node's Poster URLs start with: its own image host (settings.image_secure_base_url)."""
    return settings.image_secure_base_url + POSTER_SIZE


def with_poster_base(body: bytes, base: bytes) -> bytes:
    """A stored title document with its Poster on `base` (poster_base's bytes): the release names the
    image host of the host that built it, and a node serves the posters of its own, as it answers
    /3/configuration (marquee/configuration.py). The value is that base then the poster's path
    (`/abc.jpg`, no other slash), so everything before its last slash is replaced; "N/A" and a
    document without a Poster are kept. nginx/lua/marquee_compat.lua does the same to the same bytes."""
    start = body.find(POSTER_KEY)
    if start < 0:
        return body
    start += len(POSTER_KEY)
    end = body.index(b'"', start)
    cut = body.rfind(b"/", start, end)
    if cut < 0 or body[start:end] == NOT_AVAILABLE_BYTES or body[start:cut] == base:
        return body
    return body[:start] + base + body[cut:]


def error_body(message: str) -> dict[str, str]:
    return {"Response": "False", "Error": message}


def _quoted(value: str) -> str:
    return '"' + escape(value, {'"': "&quot;"}) + '"'


def _attributes(values: dict[str, Any]) -> str:
    """`name="value"` for each string value, names lower-cased as OMDb's XML has them (imdbID kept)."""
    return "".join(f" {_xml_name(k)}={_quoted(v)}" for k, v in values.items() if isinstance(v, str) and k != "Response")


def _xml_name(name: str) -> str:
    return name if name.startswith(("imdb", "total", "series")) else name.lower()


def xml(body: dict[str, Any]) -> str:
    """OMDb's XML for a JSON body: `<root response="True"><movie .../></root>`, search results as
    `<result .../>` items with totalResults on the root, a season's episodes likewise, an error as
    `<root response="False"><error>…</error></root>`."""
    response = body.get("Response", "True")
    if response == "False":
        return f'{XML_HEAD}<root response="False"><error>{escape(body.get("Error", SOMETHING_WRONG))}</error></root>'
    if "Search" in body:
        items = "".join(f"<result{_attributes(item)}/>" for item in body["Search"])
        return f'{XML_HEAD}<root totalResults={_quoted(body["totalResults"])} response="True">{items}</root>'
    if "Episodes" in body:
        items = "".join(f"<result{_attributes(item)}/>" for item in body["Episodes"])
        return f'{XML_HEAD}<root{_attributes(body)} response="True">{items}</root>'
    return f'{XML_HEAD}<root response="True"><movie{_attributes(body)}/></root>'


def render(body: dict[str, Any] | bytes, form: str, callback: str | None = None) -> tuple[bytes, str]:
    """(bytes, content type) of a body (a dict, or JSON bytes as stored) in `form` (json or xml),
    wrapped for JSONP when `callback` names a function."""
    if form == "xml":
        parsed = orjson.loads(body) if isinstance(body, bytes) else body
        return xml(parsed).encode(), CONTENT_TYPES["xml"]
    data = body if isinstance(body, bytes) else orjson.dumps(body)
    if callback:
        return jsonp.wrap(data, callback), CONTENT_TYPES["jsonp"]
    return data, CONTENT_TYPES["json"]


# The gate's refusals (edge/gate.py names them): HTTP status and text. OMDb answers key problems with
# 401; a suspended key and an expired plan keep the statuses /3 gives them.
# fmt: off
REFUSALS = {"no_key": (401, NO_KEY), "invalid_key": (401, INVALID_KEY), "suspended_key": (401, SUSPENDED_KEY),
            "plan_expired": (402, PLAN_EXPIRED), "rate_limited": (429, RATE_LIMITED),
            "service_offline": (503, SERVICE_OFFLINE)}
# fmt: on


def refusal_answers() -> dict[str, dict[str, object]]:
    """Every refusal as nginx's gate answers it in this dialect (as edge/errors.py's for TMDB): JSON,
    which nginx/lua/marquee_compat.lua words again as XML or JSONP when the request asks."""
    return {
        name: {"status": status, "body": orjson.dumps(error_body(text)).decode()}
        for name, (status, text) in REFUSALS.items()
    }


def schemas() -> dict[str, Any]:
    """Our schemas of the precomputed /compat documents (site_gen/schemas/marquee_omdb.json)."""

    def strings(fields: tuple[str, ...], **extra: Any) -> dict[str, Any]:
        properties = {name: extra.get(name, {"type": "string"}) for name in fields}
        return {"type": "object", "properties": properties, "required": list(fields)}

    ratings = {"type": "array", "items": strings(RATING_FIELDS)}
    episodes = {"type": "array", "items": strings(SEASON_EPISODE_FIELDS)}
    movie, series, episode = (
        strings(MOVIE_FIELDS, Ratings=ratings),
        strings(SERIES_FIELDS, Ratings=ratings),
        strings(EPISODE_FIELDS, Ratings=ratings),
    )
    return {
        "/compat/movie/{movie_id}": movie,
        "/compat/movie/{movie_id}/full": movie,
        "/compat/series/{series_id}": series,
        "/compat/series/{series_id}/full": series,
        "/compat/episode/{series_id}/{episode_id}": episode,
        "/compat/episode/{series_id}/{episode_id}/full": episode,
        "/compat/season/{series_id}/{season_number}": strings(SEASON_FIELDS, Episodes=episodes),
        "/compat/imdb/{imdb_id}": strings(("name",)),
    }
