"""/3/trending/{all,movie,tv,person}/{day,week}: what is trending today, as TMDB's list items with
their `media_type`, 20 a page.

TMDB ranks by its users' activity over the last day or week, and so does this: the views of
films, series and people (the discover index's `activity`, from the catalogue's) today (`day`) or
in the 7 days up to today (`week`), the most viewed first, ties by id; `all` merges films, series
and people by views. A catalogue without activity for those days (an import without it, or a
sample generated more than two weeks ago) falls back on popularity and recency:
- a film trends while it has a release (any country, any type) in the last CANDIDATE_DAYS days, a
  series while it has an episode that aired in them;
- its score is its popularity halved for every HALF_LIFE[window] days since that latest release or
  episode: `day` favours what came out in the last days, `week` keeps a month's titles in view;
- `all` merges films and series by that score; people trend in popularity order (person/popular).
Ties go by id. Like the title lists, the answers depend on today's date and are kept 30 minutes.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime

import numpy as np
import orjson

from edge.content import list_page, page_number
from edge.discover_index import DiscoverIndex
from edge.routes import discover, lists
from edge.routes.route import Context, Route
from edge.routes.search import Localizer, index_of, result_items, variant_suffixes
from edge.search_index import PAGE_SIZE

WINDOW_DAYS = {"day": 1, "week": 7}
CANDIDATE_DAYS = 120
HALF_LIFE = {"day": 7.0, "week": 28.0}
RECENT = {"movie": "release:*:*", "tv": "air_date"}  # the discover index's column of a title's dates
EPOCH = date(1970, 1, 1)
_SCORES: dict[tuple, list[tuple[float, str, int]]] = {}  # (release root, kind, window, day) -> ranked


def scored(index: DiscoverIndex, kind: str, window: str, today: int) -> list[tuple[float, str, int]]:
    """(-score, kind, id) of every title trending on day `today` (days since 1970), best first."""
    recent = index.column(kind, RECENT[kind])
    popularity = index.column(kind, "popularity")
    if recent is None or popularity is None or recent.values is None:
        return []
    start = int(np.searchsorted(recent.values, today - CANDIDATE_DAYS, "left"))
    end = int(np.searchsorted(recent.values, today, "right"))
    # ascending dates: the last one seen is the latest
    latest: dict[int, float] = dict(zip(recent.ranks[start:end].tolist(), recent.values[start:end].tolist()))
    excluded = index.facet(kind, "adult")
    if kind == "movie":
        excluded = excluded | index.facet(kind, "video")
    ids = index.column(kind, "id").values
    half_life = HALF_LIFE[window]
    out = []
    for rank, day in latest.items():
        if rank in excluded:
            continue
        place = int(popularity.positions[rank])
        value = float(popularity.values[place]) if place < popularity.valued else 0.0
        out.append((-value * math.pow(0.5, (today - day) / half_life), kind, int(ids[rank])))
    out.sort()
    return out


def viewed(index: DiscoverIndex, kind: str, window: str, today: int) -> list[tuple[float, str, int]]:
    """(-views, kind, id) of the `kind` viewed in the window up to day `today`, the most viewed first."""
    first = today - (WINDOW_DAYS[window] - 1)
    return [(-views, kind, entity) for entity, views in index.activity(kind, first, today)]


def trending(context: Context, index: DiscoverIndex, kinds: tuple[str, ...], window: str, day: date) -> list:
    key = (context.root, kinds, window, day)
    if key not in _SCORES:
        if len(_SCORES) > 64:
            _SCORES.clear()
        today = (day - EPOCH).days
        merged = [entry for kind in kinds for entry in viewed(index, kind, window, today)]
        if not merged:  # no activity for these days: popularity and recency
            merged = [entry for kind in kinds if kind != "person" for entry in scored(index, kind, window, today)]
        merged.sort()
        _SCORES[key] = merged
    return _SCORES[key]


def today() -> date:
    return datetime.now(UTC).date()


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    _, _, media_type, window = path.strip("/").split("/")
    page = page_number(params.get("page"))
    start = (page - 1) * PAGE_SIZE
    search = index_of(context)
    kinds = {"all": ("movie", "tv", "person"), "person": ("person",)}.get(media_type, (media_type,))
    ranked = trending(context, discover.discover_index_of(context), kinds, window, today())
    if ranked or media_type != "person":
        total = len(ranked)
        found = [(kind, entity) for _, kind, entity in ranked[start : start + PAGE_SIZE]]
    else:  # people without activity: in popularity order (person/popular)
        found, total = lists.popular_people_page(search, start)
    items = result_items(search, found, Localizer(search, variant_suffixes(context, params)), media_type=True)
    return orjson.dumps(list_page(page, items, total, PAGE_SIZE))


# fmt: off
ROUTES = [Route("trending", r"^/3/trending/(all|movie|tv|person)/(day|week)/?$", answer, cacheable=True,
                apart=True, cache_control="lists", precomputed="marquee_docs.serve_list")]
# fmt: on
