"""/compat/ (and /compat): the OMDb dialect on the same keys and window as /3 (../shared/reference/omdb.md).

OMDb has one path; the parameters choose, their names in any case (`Season=1` is `season=1`):
- `i` (an IMDb id): the title object the release precomputed for it (site_gen/compat.py): the
  pointer `compat/imdb/{id}` names the film, series or episode document; `plot=full` its `/full`
  variant when the plot has more than one sentence;
- `t` (a title, `y` its year, `type` movie, series or episode): the best match of the search index
  (site_gen/search_index.py; exact names first, then popularity) among titles with an IMDb id;
- `Season=N` (with `i` or `t` of a series): the season listing; with `Episode=M` the episode;
- `s` (a search, `y`, `type`, `page` 1 to 100): ten results a page, Title, Year, imdbID, Type, Poster;
- `r=xml` OMDb's XML, `callback` JSONP; `v`, `tomatoes` and anything else are ignored.
Errors are OMDb's texts with HTTP 200 and `"Response":"False"`, as OMDb answers them; the gate's
refusals (401, 429) are worded by nginx from marquee/omdb.py. nginx answers a plain `i` lookup
itself from the same documents (nginx/lua/marquee_compat.lua); everything else reaches this route.
"""

from __future__ import annotations

import orjson

from edge.routes.route import Context, Route
from edge.routes.search import index_of
from edge.search_index import PAGE_SIZE, Filters
from marquee import omdb
from marquee.search_text import is_cjk

SEARCH_PAGE = 10
MAX_SEARCH_PAGE = 100
MIN_SEARCH_LENGTH = 3  # shorter terms match too much: OMDb answers "Too many results."
KINDS = {"movie": ("movie",), "series": ("tv",), "episode": ("tv",), "": ("movie", "tv")}
DOCUMENT_KIND = {"movie": "movie", "tv": "series"}


class NotFound(Exception):
    """An OMDb error answer (HTTP 200, `"Response":"False"`)."""


def options(params: dict[str, str]) -> dict[str, str]:
    """Parameter names folded to lower case (the first of two spellings wins), values stripped."""
    folded: dict[str, str] = {}
    for name, value in params.items():
        folded.setdefault(name.lower(), value.strip())
    return folded


def document(context: Context, name: str) -> dict | None:
    body = context.documents.first([name + ".json"])
    return orjson.loads(body) if body is not None else None


def title_document(context: Context, name: str, full: bool) -> dict | None:
    """A title object (`compat/movie/603`), with the whole plot when asked and there is more of it."""
    return (full and document(context, name + "/full")) or document(context, name)


def by_imdb_id(context: Context, imdb_id: str) -> str:
    """The document name an IMDb id points at (`compat/movie/603`)."""
    if not omdb.IMDB_ID.fullmatch(imdb_id):
        raise NotFound(omdb.INCORRECT_ID)
    pointer = document(context, f"compat/imdb/{imdb_id}")
    if pointer is None:
        raise NotFound(omdb.INCORRECT_ID)
    return pointer["name"]


def search_filters(year: str) -> Filters:
    """Titles with an IMDb id (the `imdb` filter token: OMDb knows no others), of year `y` if given."""
    if year and not (year.isdigit() and len(year) == 4):
        raise NotFound(omdb.MOVIE_NOT_FOUND)
    return Filters(years=(f"y{year}",) if year else (), required=("imdb",))


def best_match(context: Context, title: str, year: str, kind: str) -> str:
    """The document name of the title `t` finds: the search index's first result with an IMDb id."""
    found, _ = index_of(context).page(KINDS.get(kind, ()), title, search_filters(year), 1)
    if not found:
        raise NotFound(omdb.SERIES_NOT_FOUND if kind in ("series", "episode") else omdb.MOVIE_NOT_FOUND)
    found_kind, entity = found[0]
    return f"compat/{DOCUMENT_KIND[found_kind]}/{entity}"


def season_or_episode(context: Context, series: str, season: str, episode: str, full: bool) -> dict:
    """`Season=N`: the season listing of the series document `series`; with `Episode=M` that episode."""
    if not series.startswith("compat/series/") or not season.isdigit():
        raise NotFound(omdb.SERIES_NOT_FOUND)
    series_id = series.rsplit("/", 1)[1]
    listing = document(context, f"compat/season/{series_id}/{int(season)}")
    if listing is None:
        raise NotFound(omdb.SERIES_NOT_FOUND)
    if not episode:
        return listing
    ids = episode_ids(context, series_id, int(season))
    number = int(episode) if episode.isdigit() else -1
    found = title_document(context, f"compat/episode/{series_id}/{ids[number]}", full) if number in ids else None
    if found is None:
        raise NotFound(omdb.SERIES_NOT_FOUND)
    return found


def episode_ids(context: Context, series_id: str, season: int) -> dict[int, int]:
    """Episode number -> TMDB episode id, from the series' TMDB season document."""
    body = context.documents.first([f"3/tv/{series_id}/season/{season}.json"])
    if body is None:
        return {}
    return {e["episode_number"]: e["id"] for e in orjson.loads(body).get("episodes", [])}


def lookup(context: Context, given: dict[str, str]) -> dict:
    full = given.get("plot", "").lower() == "full"
    kind = given.get("type", "").lower()
    if kind not in KINDS:
        kind = ""
    season, episode = given.get("season", ""), given.get("episode", "")
    if given.get("i"):
        name = by_imdb_id(context, given["i"])
    elif given.get("t"):
        name = best_match(context, given["t"], given.get("y", ""), "series" if season else kind)
    elif given.get("s"):
        return search(context, given["s"], given.get("y", ""), kind, given.get("page", ""))
    else:
        raise NotFound(omdb.SOMETHING_WRONG)
    if season:
        return season_or_episode(context, name, season, episode, full)
    if kind == "episode" and not name.startswith("compat/episode/"):
        raise NotFound(omdb.SERIES_NOT_FOUND)  # an episode is asked for by its id, or by Season and Episode
    found = title_document(context, name, full)
    if found is None:
        raise NotFound(omdb.INCORRECT_ID if given.get("i") else omdb.MOVIE_NOT_FOUND)
    return found


def too_short(query: str) -> bool:
    """Under MIN_SEARCH_LENGTH characters, unless two of Han, kana or Hangul: a whole word in those
    scripts (王国, 약속), which /3/search finds as one."""
    return len(query) < MIN_SEARCH_LENGTH and not (len(query) == 2 and all(map(is_cjk, query)))


def search(context: Context, query: str, year: str, kind: str, page_value: str) -> dict:
    if too_short(query):
        raise NotFound(omdb.TOO_MANY)
    if page_value and not (page_value.isdigit() and 1 <= int(page_value) <= MAX_SEARCH_PAGE):
        raise NotFound(omdb.SOMETHING_WRONG)
    page = int(page_value or 1)
    if kind == "episode":  # episodes are not in the search index: OMDb finds films and series
        raise NotFound(omdb.MOVIE_NOT_FOUND)
    index = index_of(context)
    start = (page - 1) * SEARCH_PAGE
    index_page = start // PAGE_SIZE + 1
    found, total = index.page(KINDS[kind], query, search_filters(year), index_page)
    offset = start - (index_page - 1) * PAGE_SIZE
    chosen = found[offset : offset + SEARCH_PAGE]
    if not chosen:
        raise NotFound(omdb.MOVIE_NOT_FOUND)
    items = []
    for found_kind, entity in chosen:
        title = document(context, f"compat/{DOCUMENT_KIND[found_kind]}/{entity}")
        if title is not None:
            items.append({field: title[field] for field in omdb.SEARCH_ITEM_FIELDS})
    return {"Search": items, "totalResults": str(total), "Response": "True"}


def answer(context: Context, path: str, params: dict[str, str]) -> tuple[bytes, str]:
    given = options(params)
    form = "xml" if given.get("r", "").lower() == "xml" else "json"
    callback = given.get("callback", "")
    callback = callback if omdb.CALLBACK.fullmatch(callback) else None
    try:
        body = lookup(context, given)
    except NotFound as exc:
        body = omdb.error_body(str(exc))
    return omdb.render(body, form, callback)


# fmt: off
ROUTES = [Route("compat", r"^/compat/?$", answer, cacheable=True, apart=True, dialect="omdb",
                precomputed="marquee_compat.serve")]
# fmt: on
