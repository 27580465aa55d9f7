"""The title lists of a home screen: /3/movie/{popular,top_rated,now_playing,upcoming},
/3/tv/{popular,top_rated,airing_today,on_the_air} and /3/person/popular, and the newest entry,
/3/{movie,tv,person}/latest.

A title list is a discover query (edge/routes/discover.py) with the dates of the day it is asked:
the rules are the table LISTS below, so a list and the discover request that means the same agree
by construction. They depend on today's date, so nginx keeps their answers for 30 minutes
(CACHE_CONTROL["lists"]), as clients are told to. Dates are UTC; `timezone` moves the day of the
tv lists, as at TMDB.

- popular: every title by popularity (with `region`, those released there);
- top_rated: by vote average, among the titles with at least MIN_VOTES votes, or, in a catalogue
  where fewer than a tenth have that many, as many as the tenth most voted has;
- now_playing: theatrical releases (types 2 and 3) in the 6 weeks up to today, in `region` or
  anywhere, with TMDB's `dates` (minimum, maximum); with our `with_showtimes=true`, only those with
  showtimes in `region` (or anywhere) in the coming week, each with its next three;
  upcoming: those of the next 4 weeks;
- airing_today: series with an episode that airs today; on_the_air: in the next 7 days.
- person/popular: people by popularity (the search index's order), with their `known_for`.
- latest: the details of the highest id, as the release renders them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import orjson

from edge import errors
from edge.content import ContentError, list_page, page_number
from edge.routes import append, discover, showtimes
from edge.routes.parameters import zone
from edge.routes.route import Context, Route
from edge.routes.search import Localizer, index_of, result_items, variant_suffixes
from edge.search_index import PAGE_SIZE, SearchIndex
from marquee import search_text

MIN_VOTES = 300
NOW_PLAYING_DAYS = 42
UPCOMING_DAYS = 28
ON_THE_AIR_DAYS = 7
THEATRICAL = "2|3"
NEXT_SHOWTIMES = 3


def today_in(params: dict[str, str], zoned: bool) -> date:
    return datetime.now((zone(params) if zoned else None) or UTC).date()


def min_votes(index, kind: str) -> int:
    """MIN_VOTES, or the votes of the title at the top tenth by votes when that is fewer."""
    column = index.column(kind, "vote_count")
    if column is None or not column.valued:
        return 0
    tenth = column.values[max(0, column.valued - max(1, column.valued // 10))]
    return int(min(MIN_VOTES, tenth))


def released_in(region: str) -> dict[str, str]:
    return {"region": region, "with_release_type": "1|2|3|4|5|6"} if region else {}


# path -> (kind, the discover parameters for (today, region, index), whether it answers `dates`)
# fmt: off
LISTS = {
    "/3/movie/popular": ("movie", lambda day, region, index: released_in(region), None),
    "/3/movie/top_rated": ("movie", lambda day, region, index: {
        **released_in(region), "sort_by": "vote_average.desc", "vote_count.gte": str(min_votes(index, "movie"))}, None),
    "/3/movie/now_playing": ("movie", lambda day, region, index: {
        "region": region, "with_release_type": THEATRICAL}, (-NOW_PLAYING_DAYS, 0)),
    "/3/movie/upcoming": ("movie", lambda day, region, index: {
        "region": region, "with_release_type": THEATRICAL}, (1, UPCOMING_DAYS)),
    "/3/tv/popular": ("tv", lambda day, region, index: {}, None),
    "/3/tv/top_rated": ("tv", lambda day, region, index: {
        "sort_by": "vote_average.desc", "vote_count.gte": str(min_votes(index, "tv"))}, None),
    "/3/tv/airing_today": ("tv", lambda day, region, index: {
        "air_date.gte": day.isoformat(), "air_date.lte": day.isoformat()}, None),
    "/3/tv/on_the_air": ("tv", lambda day, region, index: {
        "air_date.gte": day.isoformat(), "air_date.lte": (day + timedelta(days=ON_THE_AIR_DAYS - 1)).isoformat()},
        None),
}
# fmt: on


def title_list(context: Context, path: str, params: dict[str, str]) -> bytes:
    kind, rule, window = LISTS[path]
    page = page_number(params.get("page"))
    day = today_in(params, zoned=kind == "tv")
    region = discover.region_of(params, "region") if kind == "movie" else "*"
    region = "" if region == "*" else region
    index = discover.discover_index_of(context)
    query = rule(day, region, index)
    dates = None
    if window is not None:
        first, last = (day + timedelta(days=d) for d in window)
        query.update({"release_date.gte": first.isoformat(), "release_date.lte": last.isoformat()})
        dates = {"maximum": last.isoformat(), "minimum": first.isoformat()}
    query = {k: v for k, v in query.items() if v}
    query.update(language=params.get("language", ""), fallback_language=params.get("fallback_language", ""))
    if path == "/3/movie/now_playing" and discover.boolean(params, "with_showtimes"):
        body = playing_with_showtimes(context, index, query, region or None, page)
    else:
        body = discover.discovered(context, index, kind, query, page)
    return orjson.dumps({"dates": dates, **body} if dates else body)


def playing_with_showtimes(context: Context, index, query: dict[str, str], region: str | None, page: int) -> dict:
    """now_playing?with_showtimes=true: only the films with showtimes in `region` (or anywhere) in the
    coming week, each with its next NEXT_SHOWTIMES there (edge/routes/showtimes.py)."""
    start = showtimes.now()
    listings = showtimes.showtimes_of(context)
    on = listings.films(start + 1, start + showtimes.WEEK, region)
    ranks = list(discover.matches_for(index, "movie", query))
    films = [film for film in index.ids("movie", ranks) if film in on]  # in popularity order
    shown = films[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    search = index_of(context)
    items = result_items(
        search,
        [("movie", film) for film in shown],
        Localizer(search, variant_suffixes(context, query)),
        media_type=False,
    )
    for item in items:
        coming = [
            s
            for s in listings.between(item["id"], start + 1, start + showtimes.WEEK)
            if region is None or s[1]["country"] == region
        ][:NEXT_SHOWTIMES]
        item["showtimes"] = [
            {
                "start": showtimes.local(at, cinema["timezone"]),
                "cinema_id": cinema["id"],
                "cinema": cinema["name"],
                "city": cinema["city"],
                "format": fmt,
            }
            for at, cinema, fmt, _, _ in coming
        ]
    return list_page(page, items, len(films), PAGE_SIZE)


def popular_people_page(search: SearchIndex, start: int) -> tuple[list[tuple[str, int]], int]:
    """(("person", id) of the PAGE_SIZE people from `start` in popularity order, how many there are),
    people of adult films left out: person/popular, and trending people without activity."""
    everyone = search.everyone("person") - search.posting("person", search_text.FILTER_MARK + "adult")
    ranks = list(everyone[start : start + PAGE_SIZE]) if start < len(everyone) else []
    return [("person", entity) for _, entity, _ in search.ranked("person", ranks)], len(everyone)


def popular_people(context: Context, path: str, params: dict[str, str]) -> bytes:
    page = page_number(params.get("page"))
    search = index_of(context)
    found, total = popular_people_page(search, (page - 1) * PAGE_SIZE)
    items = result_items(search, found, Localizer(search, variant_suffixes(context, params)), media_type=False)
    return orjson.dumps(list_page(page, items, total, PAGE_SIZE))


def latest(context: Context, path: str, params: dict[str, str]) -> bytes:
    kind = path.strip("/").split("/")[1]
    newest = index_of(context).newest(kind)
    if newest is None:
        raise ContentError(errors.NOT_FOUND)
    return append.answer(context, f"/3/{kind}/{newest}", params)


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    path = path.rstrip("/")
    if path.endswith("/latest"):
        return latest(context, path, params)
    if path == "/3/person/popular":
        return popular_people(context, path, params)
    return title_list(context, path, params)


# fmt: off
ROUTES = [
    Route("lists", r"^/3/(movie/(popular|top_rated|now_playing|upcoming)|tv/(popular|top_rated|airing_today|on_the_air)"
                   r"|person/popular)/?$", answer, cacheable=True, apart=True, cache_control="lists",
          precomputed="marquee_docs.serve_list"),
    Route("latest", r"^/3/(movie|tv|person)/latest/?$", answer, cacheable=True, apart=True),
]
# fmt: on
