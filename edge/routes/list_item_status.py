"""/3/list/{list_id}/item_status?movie_id=…: whether a film is on a public list, as TMDB answers it
(`{"id": list id, "item_present": true|false}`).

The list's pages are release documents (site_gen/sql/list_details.sql, 20 titles a page); the
answer reads them in order until the film is found, from the edge's document cache, and nginx keeps
each answer for the release. An unknown list is 404/34; a `movie_id` that is not a number is 422/5
naming it; no `movie_id` at all is "not present", as at TMDB.
"""

from __future__ import annotations

import orjson

from edge import errors
from edge.content import ContentError, Query
from edge.routes.parameters import invalid
from edge.routes.route import Context, Route

DEFAULT = Query("")  # the items' ids are the same in every language: the default variant is read


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    list_id = path.strip("/").split("/")[2]
    movie = params.get("movie_id", "").strip()
    if movie and not movie.isdigit():
        raise invalid("movie_id", "a film's id")
    present, page, pages = False, 1, 1
    while page <= pages and not present:
        body = context.documents.page(f"/3/list/{list_id}", page, DEFAULT)
        if body is None:
            if page == 1:
                raise ContentError(errors.NOT_FOUND)
            break
        document = orjson.loads(body)
        pages = document.get("total_pages") or 1
        present = bool(movie) and any(
            item.get("media_type") == "movie" and item.get("id") == int(movie) for item in document.get("items") or ()
        )
        page += 1
    return orjson.dumps({"id": int(list_id) if list_id.isdigit() else list_id, "item_present": present})


ROUTES = [Route("list_item_status", r"^/3/list/[^/]+/item_status/?$", answer, cacheable=True)]
