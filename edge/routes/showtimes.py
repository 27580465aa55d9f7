"""/3/movie/{movie_id}/showtimes: where a film is on in cinemas over the next 7 days (our extension).

- With `country=XX`: the cinemas there showing it (id, name, address, city, coordinates, time zone),
  each with its showtimes, soonest first: `start` in ISO 8601 with the cinema's UTC offset, `format`
  (2D, 3D, IMAX), `audio_language` and `subtitle_language` (null when none).
- Without: a summary by country: how many cinemas and showtimes, and the next start.
A showtime that has begun is never listed; an unknown country is an empty list, not an error; an
unknown film is TMDB's 404. What is to come is decided per request (the current time), so nginx does
not keep these answers; clients may for a minute.
"""

from __future__ import annotations

import time
from datetime import datetime
from zoneinfo import ZoneInfo

import orjson

from edge import errors
from edge.content import ContentError
from edge.routes.parameters import MAX_ID, country
from edge.routes.route import Context, Route
from edge.routes.search import index_of
from edge.showtimes import ShowtimesIndex
from marquee.artefacts import SHOWTIMES

WEEK = 7 * 24 * 3600


def local(at: int, zone: str) -> str:
    return datetime.fromtimestamp(at, ZoneInfo(zone)).isoformat()


def now() -> int:
    return int(time.time())


def showtimes_of(context: Context) -> ShowtimesIndex:
    return context.required(SHOWTIMES)


def showtimes(context: Context, movie_id: int, params: dict[str, str]) -> dict:
    """The film's showtimes as the `showtimes` answer (and append) holds them."""
    wanted = country(params, "country")
    start = now()
    upcoming = showtimes_of(context).between(movie_id, start + 1, start + WEEK)
    if wanted:
        cinemas: dict[int, dict] = {}
        for at, cinema, fmt, audio, subtitles in upcoming:
            if cinema["country"] != wanted:
                continue
            entry = cinemas.setdefault(
                cinema["id"], {**{k: v for k, v in cinema.items() if k != "country"}, "showtimes": []}
            )
            entry["showtimes"].append(
                {
                    "start": local(at, cinema["timezone"]),
                    "format": fmt,
                    "audio_language": audio,
                    "subtitle_language": subtitles,
                }
            )
        return {"country": wanted, "cinemas": sorted(cinemas.values(), key=lambda c: (c["city"], c["name"], c["id"]))}
    countries: dict[str, dict] = {}
    for at, cinema, _, _, _ in upcoming:
        entry = countries.setdefault(
            cinema["country"],
            {
                "country": cinema["country"],
                "cinemas": set(),
                "showtimes": 0,
                "next_start": local(at, cinema["timezone"]),
            },
        )
        entry["cinemas"].add(cinema["id"])
        entry["showtimes"] += 1
    return {"countries": [dict(c, cinemas=len(c["cinemas"])) for _, c in sorted(countries.items())]}


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    movie_id = int(path.strip("/").split("/")[2])
    country(params, "country")  # a bad value is the answer whether or not the film exists
    if movie_id > MAX_ID or not index_of(context).items([("movie", movie_id)]):
        raise ContentError(errors.NOT_FOUND)
    return orjson.dumps({"id": movie_id, **showtimes(context, movie_id, params)})


ROUTES = [Route("showtimes", r"^/3/movie/[0-9]+/showtimes/?$", answer, apart=True, cache_control="showtimes")]
