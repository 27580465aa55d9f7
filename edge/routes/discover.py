"""/3/discover/movie and /3/discover/tv: the release's films or series that pass every filter, in the
order asked, 20 a page, as TMDB's list items in the requested language (edge/discover_index.py
finds them; the items come from the search index, as search's do).

Every parameter of TMDB's OpenAPI for these paths, and our `with_moods`:
- lists of ids or codes (`with_genres`, `with_cast`, ...): a comma means AND, a pipe OR (`28,12|16`
  is 28 and either 12 or 16); `without_*` leave out anything with any of theirs;
- ranges (`*.gte`, `*.lte`): dates as YYYY-MM-DD, numbers;
- `region` narrows `release_date.*` and `with_release_type` to that country's releases, and each
  film shows its release date there (TMDB's presentation filter), which a date order sorts by;
  `watch_region` does the same for providers and monetization types; `certification*` read
  `certification_country` (else `region`), and `.gte`/`.lte` go by that country's order;
- `include_adult`, `include_video` and `include_null_first_air_dates` are false unless asked.
  `screened_theatrically=true` finds nothing: the catalogue has no theatrical screenings of series.
Errors as TMDB words them, naming the parameter: 400/22 a page outside 1..500, 400/23 a bad date,
400/28 an unknown time zone, 422/5 any other value that is not one (`with_genres=abc`,
`vote_average.gte=x`, an unknown `sort_by`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

import orjson
from pyroaring import BitMap

from edge.content import list_page, page_number
from edge.discover_index import DiscoverIndex, show_regional_dates
from edge.routes.parameters import COUNTRY_CODE, country, day, invalid, zone
from edge.routes.route import Context, Route
from edge.routes.search import Localizer, index_of, result_items, variant_suffixes
from edge.search_index import PAGE_SIZE
from marquee.artefacts import DISCOVER_INDEX
from marquee.packs import UNTRANSLATED

# fmt: off
SORTS = {
    "movie": ("popularity", "revenue", "primary_release_date", "title", "original_title", "vote_average",
              "vote_count"),
    "tv": ("popularity", "first_air_date", "name", "original_name", "vote_average", "vote_count"),
}
# fmt: on
SORT_ALIASES = {"release_date": "primary_release_date"}  # what TMDB's older documentation named it
# TMDB's numbers for a series' status and type.
STATUSES = ("Returning Series", "Planned", "In Production", "Ended", "Canceled", "Pilot")
TYPES = ("Documentary", "News", "Miniseries", "Reality", "Scripted", "Talk Show", "Video")
MONETIZATIONS = ("flatrate", "free", "ads", "rent", "buy")
_INT = re.compile(r"^\d{1,12}$")
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}$")
_MOOD = re.compile(r"^[\w -]{1,40}$")
_YEAR = re.compile(r"^\d{4}$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
BOOLEANS = {"true": True, "1": True, "false": False, "0": False}
EPOCH = date(1970, 1, 1)


def integer(name: str, value: str) -> str:
    if not _INT.match(value):
        raise invalid(name, "ids separated by , (and) or | (or)")
    return str(int(value))


def coded(pattern: re.Pattern[str], what: str, transform: Callable[[str], str]) -> Callable[[str, str], str]:
    def parse(name: str, value: str) -> str:
        if not pattern.match(value):
            raise invalid(name, what)
        return transform(value)

    return parse


def numbered(names: tuple[str, ...]) -> Callable[[str, str], str]:
    def parse(name: str, value: str) -> str:
        if not _INT.match(value) or int(value) >= len(names):
            raise invalid(name, f"numbers from 0 to {len(names) - 1}")
        return names[int(value)]

    return parse


# parameter -> (kinds it applies to, facet prefix, value parser)
# fmt: off
LISTS: dict[str, tuple[tuple[str, ...], str, Callable[[str, str], str]]] = {
    "with_genres": (("movie", "tv"), "genre:", integer),
    "with_keywords": (("movie", "tv"), "keyword:", integer),
    "with_companies": (("movie", "tv"), "company:", integer),
    "with_cast": (("movie",), "cast:", integer),
    "with_crew": (("movie",), "crew:", integer),
    "with_networks": (("tv",), "network:", integer),
    "with_origin_country": (("movie", "tv"), "country:", coded(COUNTRY_CODE, "country codes (ISO 3166-1)", str.upper)),
    "with_original_language": (("movie", "tv"), "language:",
                               coded(_LANGUAGE, "language codes (ISO 639-1)", str.lower)),
    "with_moods": (("movie", "tv"), "mood:", coded(_MOOD, "mood names", str.lower)),
    "with_status": (("tv",), "status:", numbered(STATUSES)),
    "with_type": (("tv",), "type:", numbered(TYPES)),
}
# fmt: on
EXCLUDES = {"without_genres": "with_genres", "without_keywords": "with_keywords", "without_companies": "with_companies"}
# parameter stem -> (kinds, column, value parser): `stem.gte` and `stem.lte`
# fmt: off
RANGES = {
    "vote_average": (("movie", "tv"), "vote_average", "number"),
    "vote_count": (("movie", "tv"), "vote_count", "number"),
    "with_runtime": (("movie", "tv"), "runtime", "number"),
    "primary_release_date": (("movie",), "primary_release_date", "date"),
    "first_air_date": (("tv",), "first_air_date", "date"),
    "air_date": (("tv",), "air_date", "date"),
}
# fmt: on
# fmt: off
YEARS = {"primary_release_year": ("movie", "year:"), "year": ("movie", "release_year:"),
         "first_air_date_year": ("tv", "year:")}
# fmt: on


def groups(params: dict[str, str], name: str) -> list[list[str]]:
    """`a,b|c` -> [[a], [b, c]]: AND of ORs; empty parts are skipped."""
    value = params.get(name, "").strip()
    return [[v.strip() for v in part.split("|") if v.strip()] for part in value.split(",") if part.strip()]


def boolean(params: dict[str, str], name: str) -> bool | None:
    value = params.get(name, "").strip().lower()
    if value == "":
        return None
    if value not in BOOLEANS:
        raise invalid(name, "true or false")
    return BOOLEANS[value]


def bound(params: dict[str, str], name: str, kind: str) -> float | None:
    value = params.get(name, "").strip()
    if not value:
        return None
    if kind == "date":
        return float((day(params, name) - EPOCH).days)
    if not _NUMBER.match(value):
        raise invalid(name, "a number")
    return float(value)


class Query:
    """The bitmap of one discover request's matches, built a filter at a time."""

    def __init__(self, index: DiscoverIndex, kind: str) -> None:
        self.index, self.kind = index, kind
        self.matches = index.everything(kind)

    def require(self, bitmap: BitMap) -> None:
        self.matches = self.matches & bitmap

    def exclude(self, bitmap: BitMap) -> None:
        self.matches = self.matches - bitmap

    def any_of(self, facets: list[str]) -> BitMap:
        found = [self.index.facet(self.kind, f) for f in facets]
        return found[0] if len(found) == 1 else BitMap.union(*found)


def matches_for(index: DiscoverIndex, kind: str, params: dict[str, str]) -> BitMap:
    query = Query(index, kind)
    for name, (kinds, prefix, parse) in LISTS.items():
        if kind in kinds:
            for options in groups(params, name):
                query.require(query.any_of([prefix + parse(name, v) for v in options]))
    for name, listed in EXCLUDES.items():
        _, prefix, parse = LISTS[listed]
        values = [prefix + parse(name, v) for options in groups(params, name) for v in options]
        if values:
            query.exclude(query.any_of(values))
    if kind == "movie":
        for options in groups(params, "with_people"):
            people = [integer("with_people", v) for v in options]
            query.require(query.any_of([f"{role}:{p}" for p in people for role in ("cast", "crew")]))
    for name, (year_kind, prefix) in YEARS.items():
        value = params.get(name, "").strip()
        if kind == year_kind and value:
            if not _YEAR.match(value):
                raise invalid(name, "a year from 1000 to 9999")
            query.require(index.facet(kind, prefix + value))
    for stem, (kinds, column, parse) in RANGES.items():
        if kind in kinds:
            low, high = bound(params, f"{stem}.gte", parse), bound(params, f"{stem}.lte", parse)
            if low is not None or high is not None:
                query.require(index.between(kind, column, low, high))
    if kind == "movie":
        releases(query, params)
        certifications(query, params)
    providers(query, params)
    if not boolean(params, "include_adult"):
        query.exclude(index.facet(kind, "adult"))
    if kind == "movie" and not boolean(params, "include_video"):
        query.exclude(index.facet(kind, "video"))
    if kind == "tv":
        if not boolean(params, "include_null_first_air_dates"):
            query.exclude(index.facet(kind, "no_first_air_date"))
        if boolean(params, "screened_theatrically"):
            query.require(BitMap())
        zone(params)  # a time zone that does not exist is TMDB's 400/28, even where it changes nothing
    return query.matches


def region_of(params: dict[str, str], name: str) -> str:
    """The country `name` gives, or `*` (any: the facets' and columns' name for anywhere)."""
    return country(params, name) or "*"


def releases(query: Query, params: dict[str, str]) -> None:
    """`with_release_type` and `release_date.*`, in `region`'s releases (else anywhere's)."""
    region = region_of(params, "region")
    types = [[integer("with_release_type", t) for t in options] for options in groups(params, "with_release_type")]
    if any(int(t) not in range(1, 7) for options in types for t in options):
        raise invalid("with_release_type", "release types from 1 to 6")
    for options in types:
        query.require(query.any_of([f"release_type:{region}:{t}" for t in options]))
    low, high = bound(params, "release_date.gte", "date"), bound(params, "release_date.lte", "date")
    if low is not None or high is not None:
        wanted = sorted({t for options in types for t in options}) or ["*"]
        found = [query.index.between(query.kind, f"release:{region}:{t}", low, high) for t in wanted]
        query.require(BitMap.union(*found))


def certifications(query: Query, params: dict[str, str]) -> None:
    names = ("certification", "certification.gte", "certification.lte")
    if not any(params.get(n, "").strip() for n in names):
        return
    country = region_of(params, "certification_country")
    if country == "*":
        country = region_of(params, "region")
    if country == "*":
        raise invalid("certification_country", "given with certification (a country code)")
    prefix = f"certification:{country}:"
    order = {c: n for n, c in enumerate(query.index.certifications.get(country, []))}
    exact = params.get("certification", "").strip()
    if exact:
        query.require(query.any_of([prefix + c.strip() for c in exact.split("|") if c.strip()] or ["-"]))
    low, high = params.get("certification.gte", "").strip(), params.get("certification.lte", "").strip()
    if low or high:
        lowest = order.get(low, -1) if low else 0
        highest = order.get(high, -1) if high else len(order) - 1
        if (low and low not in order) or (high and high not in order):
            query.require(BitMap())
        else:
            query.require(query.any_of([prefix + c for c, n in order.items() if lowest <= n <= highest] or ["-"]))


def providers(query: Query, params: dict[str, str]) -> None:
    region = region_of(params, "watch_region")
    kinds = [m.lower() for options in groups(params, "with_watch_monetization_types") for m in options]
    if any(m not in MONETIZATIONS for m in kinds):
        raise invalid("with_watch_monetization_types", "of " + ", ".join(MONETIZATIONS))
    offered = kinds or list(MONETIZATIONS)
    for options in groups(params, "with_watch_providers"):
        ids = [integer("with_watch_providers", p) for p in options]
        query.require(query.any_of([f"provider:{region}:{p}:{m}" for p in ids for m in offered]))
    if kinds and not params.get("with_watch_providers", "").strip():
        query.require(query.any_of([f"monetization:{region}:{m}" for m in kinds]))
    left_out = [integer("without_watch_providers", p) for o in groups(params, "without_watch_providers") for p in o]
    if left_out:
        query.exclude(query.any_of([f"provider:{region}:{p}:{m}" for p in left_out for m in MONETIZATIONS]))


def sort_of(kind: str, params: dict[str, str]) -> tuple[str, bool]:
    value = params.get("sort_by", "").strip() or "popularity.desc"
    field, _, direction = value.rpartition(".")
    field = SORT_ALIASES.get(field, field) if kind == "movie" else field
    if field not in SORTS[kind] or direction not in ("asc", "desc"):
        raise invalid("sort_by", "one of " + ", ".join(f"{s}.asc|desc" for s in SORTS[kind]))
    return field, direction == "desc"


def discover_index_of(context: Context) -> DiscoverIndex:
    return context.required(DISCOVER_INDEX)


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    kind = path.rstrip("/").rsplit("/", 1)[1]
    page = page_number(params.get("page"))
    return orjson.dumps(discovered(context, discover_index_of(context), kind, params, page))


def discovered(context: Context, index: DiscoverIndex, kind: str, params: dict[str, str], page: int) -> dict:
    """The page of the films or series `params` asks for, as TMDB's paginated list (a dict)."""
    order, descending = sort_of(kind, params)
    if order in ("title", "name"):  # in the language the items come in: the first variant they are read from
        suffix = variant_suffixes(context, params)[0]
        order = ("original_" + order) if suffix == UNTRANSLATED else order + suffix
        if index.column(kind, order) is None:
            order = "title" if kind == "movie" else "name"
    matches = matches_for(index, kind, params)
    region = region_of(params, "region")
    start = (page - 1) * PAGE_SIZE
    ranks = None
    if kind == "movie" and order == "primary_release_date" and region != "*":  # by the dates shown (below)
        ranks = index.shown_page(matches, region, descending, start, PAGE_SIZE)
    if ranks is None:
        ranks = index.page(kind, matches, order, descending, start, PAGE_SIZE)
    found = [(kind, entity) for entity in index.ids(kind, ranks)]
    search = index_of(context)
    items = result_items(search, found, Localizer(search, variant_suffixes(context, params)), media_type=False)
    if kind == "movie" and region != "*":
        show_regional_dates(index, items, region)
    total = len(matches)
    return list_page(page, items, total, PAGE_SIZE)


ROUTES = [Route("discover", r"^/3/discover/(movie|tv)/?$", answer, cacheable=True, apart=True)]
