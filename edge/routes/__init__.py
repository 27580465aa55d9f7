"""The edge's route table: which family answers which dynamic path, and how nginx reaches it.

A family is one module here (append, search, find, discover, lists, trending, showtimes, changes,
compat, list_item_status, credit) with
ROUTES rows whose `answer(context, path, params) -> bytes` raises ContentError for its dialect's
errors. A route with a location of its own gets an nginx location rendered from its row
(control/services.py): the same gate, its dialect's refusals, nginx's rate headers and, for a
cacheable route, nginx's cache of its 200 answers keyed by release, so a repeated query costs the
edge nothing until the next publish. `append` has no location: nginx sends it the /3 requests one
document cannot answer (appends, pages, filters).

Adding a family is one module and one line below.
"""

from __future__ import annotations

from edge import errors
from edge.content import ContentError
from edge.routes import (
    append,
    changes,
    compat,
    credit,
    discover,
    find,
    list_item_status,
    lists,
    search,
    showtimes,
    trending,
)
from edge.routes.route import Context, Route

# The most specific first: append takes whatever else reaches the edge under /3.
# fmt: off
ROUTES: list[Route] = [*compat.ROUTES, *search.ROUTES, *discover.ROUTES, *lists.ROUTES, *trending.ROUTES, *showtimes.ROUTES,
                       *changes.ROUTES, *find.ROUTES, *list_item_status.ROUTES, *credit.ROUTES, *append.ROUTES]
# fmt: on


def route_for(path: str) -> Route:
    """The route answering `path` (append takes whatever else starts with /3/)."""
    for route in ROUTES:
        if route.matches(path):
            return route
    return NOT_FOUND


def _not_found(context: Context, path: str, params: dict[str, str]) -> bytes:
    raise ContentError(errors.NOT_FOUND)


NOT_FOUND = Route("none", r"^$", _not_found, location=False)
