"""append_to_response, pages, image and video filters and title lists in a language: every /3
request nginx cannot answer from one document (edge/assemble.py does the work)."""

from __future__ import annotations

import re

import orjson

from edge.assemble import assemble
from edge.content import Query
from edge.routes.route import Context, Route
from edge.routes.showtimes import showtimes

_MOVIE = re.compile(r"^/3/movie/(\d+)/?$")


def with_showtimes(params: dict[str, str]) -> bool:
    return "showtimes" in {name.strip() for name in (params.get("append_to_response") or "").split(",")}


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    """The details and their appends; `showtimes` (a film's, from now: edge/routes/showtimes.py)
    after the documents' appends."""
    body = assembled(context, path, params)
    movie = _MOVIE.match(path)
    if movie is None or not with_showtimes(params):
        return body
    return body[:-1] + b',"showtimes":' + orjson.dumps(showtimes(context, int(movie.group(1)), params)) + b"}"


def assembled(context: Context, path: str, params: dict[str, str]) -> bytes:
    query = Query(
        path=path,
        language=params.get("language"),
        fallback_language=params.get("fallback_language"),
        append_to_response=params.get("append_to_response"),
        page=params.get("page"),
        include_image_language=params.get("include_image_language"),
        include_video_language=params.get("include_video_language"),
    )
    return assemble(context.root, query, context.languages, context.cache)


# No location: nginx's /3/ location hands these over (its $mq_dynamic map and the Lua splice).
# fmt: off
ROUTES = [Route("append", r"^/3/", answer, location=False,
                cache_policy=lambda params: "showtimes" if with_showtimes(params) else "catalogue")]
# fmt: on
