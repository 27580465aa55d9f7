"""Every path template a release renders, in one table, and what the steps that prepare their shared
tables make and read.

A row of TEMPLATES is one path template:
- `path`: `/3/movie/{movie_id}/credits`; its entity is its first placeholder's kind (`template_kind`),
  None for a fixed document (`/3/configuration`);
- `source`: how it is rendered: an SQL file under site_gen/sql (a SELECT of uri and doc), `items:T`
  (the checked items table T, one item document a row: documents.from_items), or `objects:M` (built
  in Python by site_gen/M.py's `documents(con, settings)`);
- `scoped`: its SQL keeps to in_scope(kind, id), so an update renders only the entities in scope
  and keeps its other documents by their hash (the Writer's OVER_PREVIOUS); an unscoped template of
  an entity kind is rendered whole when anything of its kind is in scope, else kept whole
  (KEPT_WHOLE). site_gen/scope.py's template_plan reads this flag; a test checks it against the SQL;
- `reads`: the prepared tables and macros its SQL reads (made by a Preparation); a row reading a
  name its preparation may leave unmade (`optional`: the TV tables of people's credits need a TV
  catalogue) is not rendered when that name was not made;
- `splices`: the properties its SQL splices as JSON already checked, and the checked items tables
  they come from (documents.from_sql's `checked`);
- `chunked`: a full build runs its SQL once per range of its entity's ids (documents.CHUNK_ENTITIES
  entities a range, fewer of a kind documents.CHUNK_WEIGHTS weighs, through in_scope, so only a
  `scoped` template can be): an ordered aggregate per
  entity over every credit (a person's credits pages) needed more memory than the box has at a
  million titles, and DuckDB does not spill it; the translations and release dates, ordered lists
  of long structs, cost a third less CPU in ranges at that size (docs/benchmarks.md, session 50),
  where a details page or a short list costs more (each range joins its tables again).

A Preparation (declared in the module whose SQL it runs: site_gen/movie.py, person.py, tv.py,
languages.py) makes temp tables and macros several templates read; site_gen/release.py runs them in
the order their `makes` and `reads` give (`preparation_order`), then renders the rows in table order.
Adding a template is one row here and its SQL file; tests check that every row has a schema, that
`scoped` and `reads` say what the SQL does, and that every preparation runs after what it reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from marquee.packs import path_shape

PLACEHOLDER = re.compile(r"\{(\w+)\}")  # a path template's placeholder
# A path's first placeholder names the entity its documents belong to.
# fmt: off
PLACEHOLDER_KINDS: dict[str, str] = {
    "movie_id": "movie", "series_id": "series", "person_id": "person", "collection_id": "collection",
    "company_id": "company", "keyword_id": "keyword", "network_id": "network", "list_id": "list",
}
# fmt: on


# Placeholders naming a part of another kind's entity whose id does not say whose part it is (an
# episode group's id is TMDB's hex string, not its series' id): their templates cannot keep to
# in_scope(), and follow their owner's kind whole (site_gen/scope.py template_plan): rendered when
# anything of that kind is in scope, else kept. At 1M films an update that changed only films
# rendered every episode group in every language again (~30 s of a 162 s rebuild, session 43).
PLACEHOLDER_OWNERS: dict[str, str] = {"tv_episode_group_id": "series"}


def template_owner(template: str) -> str | None:
    """The kind whose scope a template follows whole (PLACEHOLDER_OWNERS), else None."""
    match = PLACEHOLDER.search(template)
    return PLACEHOLDER_OWNERS.get(match.group(1)) if match is not None else None


def template_kind(template: str) -> tuple[str, int] | None:
    """(kind, path segment) of the entity a template's documents belong to, or None."""
    match = PLACEHOLDER.search(template)
    if match is None or match.group(1) not in PLACEHOLDER_KINDS:
        return None
    segment = template[: match.start()].count("/")  # '/3/movie/{movie_id}' -> 3 (1-based, name has no '/')
    return PLACEHOLDER_KINDS[match.group(1)], segment


def template_shape(template: str) -> str:
    """The shape (marquee/packs.py path_shape) of a template's request paths: each placeholder a number."""
    return path_shape(PLACEHOLDER.sub("0", template))


@dataclass(frozen=True)
class Template:
    path: str
    source: str
    scoped: bool = False
    reads: tuple[str, ...] = ()
    splices: dict[str, str | tuple[str, ...]] = field(default_factory=dict)
    chunked: bool = False

    @property
    def entity(self) -> str | None:
        found = template_kind(self.path)
        return found[0] if found else None

    @property
    def items_table(self) -> str | None:
        return self.source.removeprefix("items:") if self.source.startswith("items:") else None

    @property
    def objects_module(self) -> str | None:
        return self.source.removeprefix("objects:") if self.source.startswith("objects:") else None

    @property
    def needs(self) -> tuple[str, ...]:
        """Every prepared name it cannot be rendered without: what it reads, splices and lists."""
        spliced = [t for tables in self.splices.values() for t in ((tables,) if isinstance(tables, str) else tables)]
        return tuple(dict.fromkeys([*self.reads, *spliced, *filter(None, [self.items_table])]))


@dataclass(frozen=True)
class Preparation:
    name: str
    run: Callable  # (con, settings) -> None
    makes: tuple[str, ...]
    reads: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()  # of `makes`, those it leaves unmade when the catalogue lacks their tables
    sql: tuple[str, ...] = ()  # the SQL files it runs (the test of `reads` scans them)


def preparation_order(preparations: list[Preparation]) -> list[Preparation]:
    """The preparations, each after those making what it reads, otherwise in the order given (a
    name nobody makes, or a cycle, is an error, found before any runs)."""
    made_by = {name: p.name for p in preparations for name in p.makes}
    for p in preparations:
        unknown = [name for name in p.reads if name not in made_by]
        if unknown:
            raise ValueError(f"preparation {p.name} reads {unknown}, which no preparation makes")
    done: set[str] = set()
    ordered: list[Preparation] = []
    waiting = list(preparations)
    while waiting:
        ready = next((p for p in waiting if all(made_by[name] in done for name in p.reads)), None)
        if ready is None:
            raise ValueError(f"preparations read each other's tables in a cycle: {[p.name for p in waiting]}")
        ordered.append(ready)
        done.add(ready.name)
        waiting.remove(ready)
    return ordered


def uses_of(items: str) -> tuple[tuple[str, str], ...]:
    """(template, property) of every row splicing the checked items table `items` (checked_items' `uses`)."""
    return tuple(
        (t.path, prop)
        for t in TEMPLATES
        for prop, tables in t.splices.items()
        if items in ((tables,) if isinstance(tables, str) else tables)
    )


MOVIE = "/3/movie/{movie_id}"
MOVIE_CREDITS = MOVIE + "/credits"
MOVIE_RECOMMENDATIONS = MOVIE + "/recommendations"
MOVIE_SIMILAR = MOVIE + "/similar"
KEYWORD_MOVIES = "/3/keyword/{keyword_id}/movies"
MOVIE_LISTS = (MOVIE_RECOMMENDATIONS, MOVIE_SIMILAR, KEYWORD_MOVIES)  # of movie_list_results items
PERSON = "/3/person/{person_id}"
PERSON_MOVIE_CREDITS = PERSON + "/movie_credits"
PERSON_TV_CREDITS = PERSON + "/tv_credits"
PERSON_COMBINED_CREDITS = PERSON + "/combined_credits"
COLLECTION = "/3/collection/{collection_id}"
COMPANY = "/3/company/{company_id}"
TV = "/3/tv/{series_id}"
TV_SIMILAR = TV + "/similar"
TV_SEASON = TV + "/season/{season_number}"
TV_EPISODE = TV_SEASON + "/episode/{episode_number}"

_MOVIE_LIST = {"results": "movie_list_results"}
_PERSON_MOVIE = {"cast": ("person_movie_cast_entries",), "crew": ("person_movie_crew_entries",)}
_PERSON_TV = {"cast": ("person_tv_cast_entries",), "crew": ("person_tv_crew_entries",)}
_PERSON_COMBINED = {field: _PERSON_MOVIE[field] + _PERSON_TV[field] for field in ("cast", "crew")}
_EPISODE_CREDITS = {"crew": "episode_crew_items", "guest_stars": "episode_guest_items"}
_SEASON_CREDITS = {f"episodes[].{name}": table for name, table in _EPISODE_CREDITS.items()}

# fmt: off
TEMPLATES: tuple[Template, ...] = (
    # films: details, credits (entries of /_items/person), sub-resources and lists of /_items/movie
    Template("/_items/person/{person_id}", "items:person_items", scoped=True),
    Template(MOVIE, "movie_details.sql", scoped=True, reads=("render_variants",)),
    Template(MOVIE_CREDITS, "movie_credits.sql", scoped=True, chunked=True,
             splices={"cast": "movie_cast_entries", "crew": "movie_crew_entries"}, reads=("ordered_values",)),
    Template("/_items/movie/{movie_id}", "items:movie_list_results", scoped=True),
    Template(MOVIE + "/alternative_titles", "movie_alternative_titles.sql", scoped=True, reads=("ordered_values",)),
    Template(MOVIE + "/external_ids", "movie_external_ids.sql", scoped=True),
    Template(MOVIE + "/images", "movie_images.sql", scoped=True),
    Template(MOVIE + "/keywords", "movie_keywords.sql", scoped=True, reads=("ordered_values",)),
    Template(MOVIE + "/release_dates", "movie_release_dates.sql", scoped=True, chunked=True, reads=("ordered_values",)),
    Template(MOVIE + "/videos", "movie_videos.sql", scoped=True, reads=("render_variants", "ordered_values")),
    Template(MOVIE_RECOMMENDATIONS, "movie_recommendations.sql", scoped=True, reads=("movie_related_page",),
             splices=_MOVIE_LIST),
    Template(MOVIE_SIMILAR, "movie_similar.sql", scoped=True, reads=("movie_related_page",), splices=_MOVIE_LIST),
    Template(MOVIE + "/watch/providers", "movie_watch_providers.sql", scoped=True),
    Template(MOVIE + "/soundtracks", "movie_soundtracks.sql", scoped=True),
    Template(MOVIE + "/moods", "movie_moods.sql", scoped=True),
    Template(MOVIE + "/ratings", "movie_ratings.sql", scoped=True),
    Template("/3/keyword/{keyword_id}", "movie_keyword_details.sql"),
    Template(KEYWORD_MOVIES, "movie_keyword_movies.sql", reads=("item_ref", "movie_related_page"), splices=_MOVIE_LIST),
    Template("/3/certification/movie/list", "movie_certification_list.sql"),
    Template("/3/watch/providers/movie", "watch_provider_list.sql"),
    Template("/3/watch/providers/regions", "movie_watch_provider_regions.sql"),
    Template(MOVIE + "/translations", "languages_movie_translations.sql", scoped=True, chunked=True, reads=("ordered_values",)),
    # collections, genres, fixed documents
    Template(COLLECTION, "collection_details.sql", scoped=True, reads=("render_variants",)),
    Template(COLLECTION + "/images", "collection_images.sql", scoped=True),
    Template(COLLECTION + "/translations", "languages_collection_translations.sql", scoped=True),
    Template("/3/genre/movie/list", "genre_movie_list.sql", reads=("render_variants",)),
    Template("/3/configuration", "objects:configuration"),
    Template("/3/authentication", "objects:configuration"),
    # people: details, credits (entries of the film and series items), the rest
    Template(PERSON, "person_details.sql", scoped=True, reads=("render_variants", "credited_people")),
    Template(PERSON_MOVIE_CREDITS, "person_movie_credits.sql", scoped=True, chunked=True, reads=("person_credits_page",),
             splices=_PERSON_MOVIE),
    Template(PERSON + "/external_ids", "person_external_ids.sql", scoped=True, reads=("credited_people",)),
    Template(PERSON + "/images", "person_images.sql", scoped=True, chunked=True, reads=("credited_people", "ordered_values")),
    Template(PERSON + "/translations", "person_translations.sql", scoped=True, chunked=True,
             reads=("credited_people", "ordered_values")),
    Template(PERSON + "/tagged_images", "person_tagged_images.sql", reads=("item_ref", "ordered_values")),
    Template("/_items/tv/{series_id}", "items:tv_credit_results", scoped=True),
    Template(PERSON_TV_CREDITS, "person_tv_credits.sql", scoped=True, chunked=True, reads=("person_credits_page",),
             splices=_PERSON_TV),
    Template(PERSON_COMBINED_CREDITS, "person_combined_credits.sql", scoped=True, chunked=True,
             reads=("person_credits_page",),
             splices=_PERSON_COMBINED),
    # reviews and public lists, in the language asked for
    Template(MOVIE + "/reviews", "movie_reviews.sql", scoped=True, reads=("title_pages",)),
    Template(TV + "/reviews", "tv_reviews.sql", reads=("title_pages",)),
    Template("/3/review/{review_id}", "review_details.sql", reads=("review_author", "tmdb_time", "tv_series_listed")),
    Template(MOVIE + "/lists", "movie_lists.sql", reads=("title_pages",)),
    Template(TV + "/lists", "tv_lists.sql", reads=("title_pages",)),
    Template("/3/list/{list_id}", "list_details.sql", reads=("item_ref",)),
    # (/3/credit/{credit_id} is no document: the edge answers it from the release's credit index,
    # site_gen/credit_index.py, with the items above, instead of a document per credit.)
    # companies, reference lists
    Template(COMPANY, "company_details.sql"),
    Template(COMPANY + "/alternative_names", "company_alternative_names.sql", reads=("organisation_names",)),
    Template(COMPANY + "/images", "company_images.sql", reads=("organisation_logos",)),
    *(Template(path, "objects:reference") for path in (
        "/3/configuration/countries", "/3/configuration/languages", "/3/configuration/jobs",
        "/3/configuration/primary_translations", "/3/configuration/timezones", "/3/certification/tv/list")),
    # series, their seasons and episodes (whose crew and guest lists are items of their own)
    Template("/_items/episode_crew/{series_id}/{episode_id}", "items:episode_crew_lists", scoped=True),
    Template("/_items/episode_guest_stars/{series_id}/{episode_id}", "items:episode_guest_stars_lists", scoped=True),
    Template(TV, "tv_details.sql", scoped=True, reads=("render_variants", "ordered_values")),
    Template(TV + "/aggregate_credits", "tv_aggregate_credits.sql", scoped=True, reads=("ordered_values",)),
    Template(TV + "/alternative_titles", "tv_alternative_titles.sql"),
    Template(TV + "/content_ratings", "tv_content_ratings.sql"),
    Template(TV + "/credits", "tv_credits.sql", scoped=True, reads=("ordered_values",)),
    Template(TV + "/external_ids", "tv_external_ids.sql"),
    Template(TV + "/images", "tv_images.sql"),
    Template(TV + "/keywords", "tv_keywords.sql"),
    Template(TV + "/moods", "tv_moods.sql"),
    Template(TV + "/recommendations", "tv_recommendations.sql",
             reads=("tv_series_listed", "series_features", "series_neighbours", "series_standing", "ordered_values")),
    Template(TV_SIMILAR, "tv_similar.sql", reads=("item_ref", "series_neighbours", "series_standing", "ordered_values"),
             splices={"results": "tv_credit_results"}),
    Template(TV + "/translations", "tv_translations.sql", scoped=True, reads=("ordered_values",)),
    Template(TV + "/episode_groups", "tv_episode_groups.sql"),
    Template("/3/tv/episode_group/{tv_episode_group_id}", "tv_episode_group_details.sql", reads=("render_variants", "ordered_values")),
    Template(TV + "/screened_theatrically", "tv_screened_theatrically.sql"),
    Template(TV + "/videos", "tv_videos.sql", reads=("tv_videos_page",)),
    Template(TV + "/watch/providers", "tv_watch_providers.sql"),
    Template("/3/genre/tv/list", "tv_genre_list.sql", reads=("render_variants",)),
    Template("/3/network/{network_id}", "tv_network_details.sql"),
    Template("/3/network/{network_id}/alternative_names", "tv_network_alternative_names.sql",
             reads=("organisation_names",)),
    Template("/3/network/{network_id}/images", "tv_network_images.sql", reads=("organisation_logos",)),
    Template("/3/watch/providers/tv", "watch_provider_list.sql"),
    Template(TV_SEASON, "tv_season_details.sql", scoped=True, reads=("render_variants", "episode_credit_json", "ordered_values"),
             splices=_SEASON_CREDITS),
    Template(TV_SEASON + "/aggregate_credits", "tv_season_aggregate_credits.sql", scoped=True, reads=("ordered_values",)),
    Template(TV_SEASON + "/credits", "tv_season_credits.sql", scoped=True),
    Template(TV_SEASON + "/external_ids", "tv_season_external_ids.sql"),
    Template(TV_SEASON + "/images", "tv_season_images.sql"),
    Template(TV_SEASON + "/translations", "tv_season_translations.sql", scoped=True),
    Template(TV_SEASON + "/videos", "tv_season_videos.sql", reads=("tv_videos_page",)),
    Template(TV_SEASON + "/watch/providers", "tv_season_watch_providers.sql"),
    Template(TV_EPISODE, "tv_episode_details.sql", scoped=True, reads=("render_variants", "episode_credit_json"),
             splices=_EPISODE_CREDITS),
    Template(TV_EPISODE + "/credits", "tv_episode_credits.sql", scoped=True, reads=("episode_credit_json",),
             splices=_EPISODE_CREDITS),
    Template(TV_EPISODE + "/external_ids", "tv_episode_external_ids.sql"),
    Template(TV_EPISODE + "/images", "tv_episode_images.sql"),
    Template(TV_EPISODE + "/translations", "tv_episode_translations.sql", scoped=True, chunked=True, reads=("ordered_values",)),
    Template(TV_EPISODE + "/videos", "tv_episode_videos.sql", reads=("tv_videos_page",)),
)
# fmt: on
# The OMDb dialect (site_gen/compat.py): title documents by TMDB id, and which one each IMDb id names.
_OMDB = ("omdb_text", "omdb_names", "omdb_date", "omdb_minutes", "omdb_plot", "omdb_poster", "omdb_ratings")
COMPAT_MOVIE = "/compat/movie/{movie_id}"
# fmt: off
COMPAT_TEMPLATES = (
    Template(COMPAT_MOVIE, "compat_movie.sql", scoped=True, reads=("omdb_movie_docs",)),
    Template(COMPAT_MOVIE + "/full", "compat_movie_full.sql", scoped=True, reads=("omdb_movie_docs",)),
    Template("/compat/series/{series_id}", "compat_series.sql", scoped=True, reads=("omdb_series_docs",)),
    Template("/compat/series/{series_id}/full", "compat_series_full.sql", scoped=True,
             reads=("omdb_series_docs",)),
    Template("/compat/episode/{series_id}/{episode_id}", "compat_episode.sql", scoped=True,
             reads=("omdb_episode_docs",)),
    Template("/compat/episode/{series_id}/{episode_id}/full", "compat_episode_full.sql", scoped=True,
             reads=("omdb_episode_docs",)),
    Template("/compat/season/{series_id}/{season_number}", "compat_season.sql", scoped=True,
             reads=("omdb_series_parts", "omdb_text")),
    Template("/compat/imdb/{imdb_id}", "compat_imdb.sql"),
)
# fmt: on
TEMPLATES += COMPAT_TEMPLATES
BY_PATH: dict[str, Template] = {template.path: template for template in TEMPLATES}
assert len(BY_PATH) == len(TEMPLATES), "a path template is listed twice"
