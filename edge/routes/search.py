"""/3/search/{movie,tv,person,collection,company,keyword,multi}: pages of the release's search index
(edge/search_index.py ranks them), as TMDB's list items in the requested language.

Parameters as TMDB's OpenAPI lists them. A missing or empty `query` is an empty first page, as at
TMDB; `page` outside 1..500 is 400/22; a year that is not one, or an `include_adult` that is not
a boolean, is 422/5 naming the parameter. `region` on search/movie shows each film's release date
in that country where it has one (TMDB's presentation filter; edge/routes/discover.py `regional`).
Titles, names and overviews come in `language` with the details' fallbacks: the translation, else
(with our opt-in `fallback_language`) that language's, else the original title and an empty overview.
"""

from __future__ import annotations

import re

import orjson

from edge.content import list_page, page_number
from edge.discover_index import show_regional_dates
from edge.languages import candidates
from edge.routes.parameters import country, invalid
from edge.routes.route import Context, Route
from edge.search_index import PAGE_SIZE, Filters, SearchIndex
from marquee.artefacts import DISCOVER_INDEX, SEARCH_INDEX, MissingArtefact
from marquee.packs import UNTRANSLATED

# fmt: off
KINDS = {"movie": ("movie",), "tv": ("tv",), "person": ("person",), "collection": ("collection",),
         "company": ("company",), "keyword": ("keyword",), "multi": ("movie", "tv", "person")}
# fmt: on
# The year parameters of each path and the filter token each becomes (site_gen/search_index.py).
YEARS = {"movie": {"primary_release_year": "y", "year": "r"}, "tv": {"first_air_date_year": "y", "year": "r"}}
ADULT = frozenset({"movie", "tv", "person", "collection", "multi"})  # the paths that take include_adult
# The translatable text of each kind's item: (title field, original field), and its overview.
# fmt: off
TEXT_FIELDS = {"movie": ("title", "original_title"), "tv": ("name", "original_name"),
               "collection": ("name", "original_name")}
# fmt: on
_YEAR = re.compile(r"^\d{4}$")


def filters_for(path_kind: str, params: dict[str, str]) -> Filters:
    years = []
    for name, prefix in YEARS.get(path_kind, {}).items():
        value = params.get(name, "").strip()
        if value:
            if not _YEAR.match(value) or int(value) < 1000:
                raise invalid(name, "a year from 1000 to 9999")
            years.append(prefix + value)
    adult = params.get("include_adult", "").strip().lower() if path_kind in ADULT else ""
    if adult not in ("", "true", "false", "1", "0"):
        raise invalid("include_adult", "true or false")
    return Filters(tuple(years), adult in ("true", "1"))


def index_of(context: Context) -> SearchIndex:
    return context.required(SEARCH_INDEX)


def variant_suffixes(context: Context, params: dict[str, str]) -> list[str]:
    """The variants a document would be read from for these `language` and `fallback_language`, in
    order (edge/languages.py's candidates, whose names are `x<suffix>.json`)."""
    names = candidates("/x", params.get("language"), params.get("fallback_language"), context.languages)
    return [name[1 : -len(".json")] for name in names]


class Localizer:
    """Items' titles and overviews in a language, by the details' rule: the first variant the
    details would be read from that the title has (a translation), `.und` being the original title
    and no overview, and the default variant the item's own text."""

    def __init__(self, index: SearchIndex, suffixes: list[str]) -> None:
        self.index = index
        self.suffixes = suffixes

    def apply(self, items: list[tuple[str, int, dict]]) -> None:
        """Rewrite, in place, the text of each (kind, id, item) of a translatable kind."""
        if self.suffixes == [""]:
            return  # the default language: items are rendered in it
        by_kind: dict[str, dict[int, list[dict]]] = {}
        for kind, entity, item in items:
            if kind in TEXT_FIELDS:
                by_kind.setdefault(kind, {}).setdefault(entity, []).append(item)
        for kind, pending in by_kind.items():
            title_field, original_field = TEXT_FIELDS[kind]
            for suffix in self.suffixes:
                if not pending or suffix == "":
                    break  # what is left keeps the default variant's text, its own
                if suffix == UNTRANSLATED:
                    for same in pending.values():
                        for item in same:
                            item[title_field], item["overview"] = item[original_field], ""
                    break
                for entity, (title, overview) in self.index.texts(kind, list(pending), suffix).items():
                    for item in pending.pop(entity):
                        item[title_field], item["overview"] = title, overview


def refs(known_for: str | None) -> list[tuple[str, int]]:
    """The titles a person is known for, `movie:603,tv:1` in the index, as (kind, id)."""
    return (
        [(kind, int(entity)) for kind, _, entity in (ref.partition(":") for ref in known_for.split(","))]
        if known_for
        else []
    )


def result_items(
    index: SearchIndex, found: list[tuple[str, int]], localizer: Localizer, media_type: bool
) -> list[dict]:
    """Each (kind, id) as its result object, people with their `known_for`, in the language asked."""
    bodies = index.items(found)
    titles = {found_kind: refs(known_for) for found_kind, (_, known_for) in bodies.items() if found_kind[0] == "person"}
    wanted = [ref for listed in titles.values() for ref in listed]
    known = index.items(wanted) if wanted else {}
    items, translatable = [], []
    for kind, entity in found:
        item = orjson.loads(bodies[(kind, entity)][0])
        if media_type:
            item["media_type"] = kind
        translatable.append((kind, entity, item))
        if kind == "person":
            item["known_for"] = []
            for ref_kind, ref_id in titles[(kind, entity)]:
                entry = orjson.loads(known[(ref_kind, ref_id)][0]) | {"media_type": ref_kind}
                item["known_for"].append(entry)
                translatable.append((ref_kind, ref_id, entry))
        items.append(item)
    localizer.apply(translatable)
    return items


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    path_kind = path.rstrip("/").rsplit("/", 1)[1]
    page = page_number(params.get("page"))
    filters = filters_for(path_kind, params)
    query = params.get("query", "")
    if not query.strip():
        return orjson.dumps(list_page(page, [], 0, PAGE_SIZE))
    index = index_of(context)
    found, total = index.page(KINDS[path_kind], query, filters, page)
    localizer = Localizer(index, variant_suffixes(context, params))
    items = result_items(index, found, localizer, media_type=path_kind == "multi")
    region = country(params, "region") if path_kind == "movie" else ""
    if region:
        try:
            show_regional_dates(context.artefact(DISCOVER_INDEX), items, region)
        except MissingArtefact:
            pass  # a release without a discover index: the primary dates
    return orjson.dumps(list_page(page, items, total, PAGE_SIZE))


# fmt: off
ROUTES = [Route("search", r"^/3/search/(movie|tv|person|collection|company|keyword|multi)/?$", answer,
                cacheable=True, apart=True)]
# fmt: on
