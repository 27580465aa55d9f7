"""/3/find/{external_id}?external_source=…: a title, person, season or episode by an id from elsewhere,
and /3/movie/{imdb_id}…, TMDB's hidden way to ask for a film by its IMDb id.

/3/find answers TMDB's five arrays, always all five, each item a list object with `media_type`, in
the requested language. Films, series and people come from the search index's items (as search
shows them); seasons and episodes from their details documents in that language. A missing or
unknown `external_source` is 422/5 naming it; an unknown id is the five empty arrays.
"""

from __future__ import annotations

import orjson

from edge import errors
from edge.content import ContentError, Query
from edge.routes import append
from edge.routes.route import Context, Route
from edge.routes.search import Localizer, index_of, invalid, result_items, variant_suffixes

# TMDB's external_source values (its spec's enum and the older ones its docs listed), and ours.
# fmt: off
SOURCES = ("imdb_id", "facebook_id", "instagram_id", "tvdb_id", "tiktok_id", "twitter_id", "wikidata_id",
           "youtube_id", "freebase_mid", "freebase_id", "tvrage_id", "kinopoisk_id")
# fmt: on
# fmt: off
ARRAYS = {"movie": "movie_results", "person": "person_results", "tv": "tv_results",
          "episode": "tv_episode_results", "season": "tv_season_results"}
# fmt: on
SEASON_FIELDS = ("air_date", "episode_count", "id", "name", "overview", "poster_path", "season_number", "vote_average")
# fmt: off
EPISODE_FIELDS = ("air_date", "episode_number", "episode_type", "id", "name", "overview", "production_code",
                  "runtime", "season_number", "still_path", "vote_average", "vote_count")
# fmt: on


def season_item(document: dict, series_id: int) -> dict:
    item = {name: document.get(name) for name in SEASON_FIELDS}
    item["episode_count"] = len(document.get("episodes") or ())
    return item | {"media_type": "tv_season", "show_id": series_id}


def episode_item(document: dict, series_id: int) -> dict:
    return {name: document.get(name) for name in EPISODE_FIELDS} | {"media_type": "tv_episode", "show_id": series_id}


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    source = params.get("external_source", "")
    if source not in SOURCES:
        raise invalid("external_source", "one of " + ", ".join(SOURCES))
    external_id = path[len("/3/find/") :].rstrip("/")
    if source.startswith("freebase") and not external_id.startswith("/"):
        # Freebase ids are paths (`/m/0dl9sf`): `/3/find//m/0dl9sf` reaches here with its slashes merged.
        external_id = "/" + external_id
    index = index_of(context)
    found = index.external(source, external_id)
    out: dict[str, list] = {name: [] for name in ARRAYS.values()}
    listed = [(kind, entity) for kind, entity, *_ in found if kind in ("movie", "tv", "person")]
    localizer = Localizer(index, variant_suffixes(context, params))
    for item, (kind, _) in zip(result_items(index, listed, localizer, media_type=True), listed):
        out[ARRAYS[kind]].append(item)
    query = Query("", language=params.get("language"), fallback_language=params.get("fallback_language"))
    for kind, _, series_id, season, episode in found:
        if kind not in ("season", "episode"):
            continue
        uri = f"/3/tv/{series_id}/season/{season}" + (f"/episode/{episode}" if kind == "episode" else "")
        body = context.documents.document(uri, query)
        if body is not None:
            make = season_item if kind == "season" else episode_item
            out[ARRAYS[kind]].append(make(orjson.loads(body), series_id))
    return orjson.dumps(out)


def by_imdb_id(context: Context, path: str, params: dict[str, str]) -> bytes:
    """/3/movie/tt0133093[/…]: the film's own answer, found by its IMDb id (TMDB does this for films only)."""
    _, _, _, imdb_id, *rest = path.split("/")
    found = [entity for kind, entity, *_ in index_of(context).external("imdb_id", imdb_id) if kind == "movie"]
    if not found:
        raise ContentError(errors.NOT_FOUND)
    return append.answer(context, "/".join(["", "3", "movie", str(found[0]), *rest]), params)


# fmt: off
ROUTES = [
    Route("find", r"^/3/find/.+$", answer, cacheable=True, apart=True),
    Route("find", r"^/3/movie/tt[0-9]+(/[a-z_/]+)?/?$", by_imdb_id),
]
# fmt: on
