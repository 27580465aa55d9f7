"""Our OpenAPI 3.1 document: both dialects as a release serves them, generated from the code's own
tables, never written by hand. `marquee build` writes it into the release (artefacts.OPENAPI, beside
the pack: render_release's `files`) and nginx serves the current release's at /3/openapi.json
without a key; the docs page renders it. It lives on the roof because it describes both rooms:
the renderer's templates and schemas, and the edge's routes, errors and appends.

What it is made of:
- TMDB's keyed GET operations and their parameters (site_gen/schemas/tmdb_v3_operations.json, from
  TMDB's OpenAPI) and the 200 schemas the build validates every document with (site_gen/validate.py
  load_schemas: TMDB's, with our corrections and our own paths), the properties the real API sends
  as null (validate.NULLABLE) typed as such, so that a generated client reads them;
- our paths (`x-marquee-extension`): the templates TMDB has no operation for (moods, ratings,
  soundtracks), the edge's routes that are not TMDB's (showtimes), and OMDb's `/compat/`;
- our parameters on TMDB's paths (`x-marquee-extension` on the parameter): `fallback_language`
  wherever `language` is taken, discover's filters TMDB lacks (edge/routes/discover.py), the lists'
  `with_showtimes`, the appends each details path takes (edge/content.py APPENDABLE);
- the error envelope with each status and `status_code` the gate and the edge answer
  (edge/errors.py), the rate-limit headers nginx sends, OMDb's error texts (marquee/omdb.py), and
  the image host's paths: images in their sizes (marquee/image_sizes.py), the daily ID exports;
- the release's settings: the languages it serves.
No `servers`: a client resolves the paths against the host that served the document (each node
answers for itself), and the image host is the one /3/configuration names.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from typing import Any

import orjson

from edge import errors
from edge.content import APPENDABLE, LEGACY_PATHS, MAX_APPEND, namespace_of
from edge.routes import ROUTES
from edge.routes import discover as discover_route
from marquee import omdb
from marquee.artefacts import OPENAPI_PATH
from marquee.image_sizes import ALL_SIZES
from marquee.settings import Settings
from site_gen.templates import TEMPLATES
from site_gen.validate import NULLABLE, SCHEMA_FILE, load_schemas

OPERATIONS = SCHEMA_FILE.with_name("tmdb_v3_operations.json")  # site_gen/schemas/extract.py writes it
EXTENSION = "x-marquee-extension"
NUMBERED = ("movie_id", "series_id", "person_id", "collection_id")  # placeholders the catalogue numbers
INTERNAL = ("/_items/", "/compat/")  # templates no client asks for by path (items, OMDb's documents)
# The routes' own paths that TMDB's OpenAPI lacks (or lists as needing a session), by route family,
# with their query parameters.
ROUTE_PATHS = {
    "showtimes": ("/3/movie/{movie_id}/showtimes", ("country",)),
    "list_item_status": ("/3/list/{list_id}/item_status", ("movie_id", "language")),
}
# TMDB's error answers every /3 operation may give (edge/errors.py), by HTTP status.
ERRORS = {
    "400": [errors.BAD_REQUEST],
    "401": [errors.INVALID_KEY, errors.SUSPENDED_KEY],
    "402": [errors.PLAN_EXPIRED],
    "404": [errors.NOT_FOUND],
    "422": [],  # a parameter's value: edge/routes/parameters.py `invalid` names it
    "429": [errors.rate_limited(0)],
    "503": [errors.SERVICE_OFFLINE],
}
RATE_HEADERS = {
    "X-RateLimit-Limit": "Requests the key's plan admits per window.",
    "X-RateLimit-Remaining": "Requests left in the current window.",
    "X-RateLimit-Reset": "Unix time at which the window has room again.",
}
OMDB_ERRORS = (omdb.NO_KEY, omdb.INVALID_KEY, omdb.RATE_LIMITED, omdb.MOVIE_NOT_FOUND, omdb.SERIES_NOT_FOUND,
               omdb.INCORRECT_ID, omdb.TOO_MANY, omdb.SOMETHING_WRONG)  # fmt: skip


def document(settings: Settings) -> dict[str, Any]:
    """The whole document for a release rendered with `settings`."""
    operations = orjson.loads(OPERATIONS.read_bytes())
    schemas = load_schemas()
    paths: dict[str, Any] = {}
    for path, operation in operations.items():
        paths[path] = {"get": path_operation(path, operation, schemas.get(path), extension=False)}
    for template in TEMPLATES:
        if template.path not in paths and not template.path.startswith(INTERNAL):
            paths[template.path] = {"get": our_operation(template.path, ("language",), schemas)}
    for family, (path, names) in ROUTE_PATHS.items():
        assert any(r.family == family for r in ROUTES), family
        paths[path] = {"get": our_operation(path, names, schemas)}
    for pattern, target in LEGACY_PATHS.items():  # TMDB's older names nginx still answers
        old, new = (re.sub(r"\(\?<\w+>\[0-9\]\+\)|\$\w+", "{movie_id}", p.strip("^$")) for p in (pattern, target))
        legacy = dict(paths[new]["get"], operationId=paths[new]["get"]["operationId"] + "-legacy", deprecated=True)
        paths[old] = {"get": dict(legacy, description=f"TMDB's older name for `{new}`, answered as it.")}
    paths["/compat/"] = {"get": compat_operation()}
    paths[OPENAPI_PATH] = {"get": self_operation()}
    paths["/t/p/{size}/{file_path}"] = {"get": image_operation(settings)}
    paths["/p/exports/{export_file}"] = {"get": exports_operation(settings)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Marquee",
            "version": version("marquee"),
            "summary": "TMDB API v3 and OMDb, self-hosted, from precomputed answers.",
            "description": description(settings),
        },
        "tags": [
            {"name": "tmdb", "description": "TMDB's API v3: its paths, parameters and JSON."},
            {"name": "omdb", "description": "OMDb's API at /compat/, on the same keys."},
            {"name": "marquee", "description": "What TMDB's API does not have (`x-marquee-extension`)."},
        ],  # fmt: skip
        "security": [{"api_key": []}, {"bearer": []}],
        "paths": paths,
        "components": components(),
    }


def our_operation(path: str, names: tuple[str, ...], schemas: dict[str, Any]) -> dict[str, Any]:
    """A path of ours: its placeholders (a number for an id the catalogue numbers) and query `names`."""
    parameters = [
        {"name": n, "in": "path", "required": True, "schema": {"type": "integer" if n in NUMBERED else "string"}}
        for n in re.findall(r"\{(\w+)\}", path)
    ]
    parameters += [{"name": n, "in": "query", "schema": {"type": "string"}} for n in names]
    operation = {"operationId": "marquee" + re.sub(r"[{}_/]+", "-", path[2:]).rstrip("-"), "parameters": parameters}
    return path_operation(path, operation, schemas.get(path), extension=True)


def description(settings: Settings) -> str:
    languages = ", ".join(settings.languages)
    return (
        "Any client of TMDB's API v3 or of OMDb's switches to Marquee by its base address. A key goes "
        "in `api_key` (or `Authorization: Bearer`), OMDb's in `apikey`; each key has a plan of so many "
        "requests a window, shared by both dialects (the `X-RateLimit-*` headers).\n\n"
        f"This release serves these languages: {languages}. `language` takes any of them (another "
        "code answers the untranslated text), and `fallback_language` (ours) names the language to "
        "try before the untranslated one. Parameters and paths marked `x-marquee-extension` are ours."
    )


def path_operation(path: str, operation: dict, schema: dict | None, extension: bool) -> dict[str, Any]:
    """A path's GET as we answer it: `operation`'s parameters (TMDB's extracted ones, or ours) with
    our own added, its 200 `schema`, and the error envelope's statuses."""
    parameters = [dict(p) for p in operation["parameters"]]
    names = {p["name"] for p in parameters}
    for parameter in parameters:
        if parameter["name"] == "append_to_response" and namespace_of(example(path)):
            parameter["description"] = appends(path)
    for name, why in extra_parameters(path, names).items():
        parameters.append({"name": name, "in": "query", "required": False, "schema": {"type": "string"},
                           "description": why, EXTENSION: True})  # fmt: skip
    responses: dict[str, Any] = {
        "200": {
            "description": "The answer, as TMDB's API gives it.",
            "headers": {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_HEADERS},
            "content": {"application/json": {"schema": nullable(schema or {"type": "object"})}},
        },
        **{status: {"$ref": f"#/components/responses/{status}"} for status in ERRORS},
    }
    found = {"tags": ["marquee" if extension else "tmdb"], "operationId": operation["operationId"],
             "parameters": parameters, "responses": responses}  # fmt: skip
    if extension:
        found[EXTENSION] = True
    return found


def example(path: str) -> str:
    """A path of the template, each placeholder a number (`/3/movie/1`)."""
    return re.sub(r"\{\w+\}", "1", path)


def appends(path: str) -> str:
    namespace = namespace_of(example(path))
    names = sorted(APPENDABLE.get(namespace, ()))
    return f"Up to {MAX_APPEND} of these, separated by commas, each answered as its own path would be: " + ", ".join(
        f"`{n}`" for n in names
    )


def extra_parameters(path: str, names: set[str]) -> dict[str, str]:
    """Our parameters on a path, with what each does: those its code reads that TMDB does not list."""
    found = {}
    if "language" in names:
        found["fallback_language"] = "A language to answer in when `language` has no translation (ours)."
    if path.startswith("/3/discover/"):
        kind = path.rsplit("/", 1)[1]
        for name, (kinds, *_) in discover_route.LISTS.items():
            if kind in kinds and name not in names:
                found[name] = "A list of values: a comma means and, a pipe or (ours)."
    if path in ("/3/movie/now_playing", "/3/movie/upcoming"):
        found["with_showtimes"] = "`true`: only films with showtimes in `region` this week, with their next three."
    return found


def nullable(schema: Any) -> Any:
    """A schema with the properties the real API sends as null (validate.NULLABLE, and our own schemas'
    `nullable: true`) typed as the type or null, as OpenAPI 3.1 writes it; an array TMDB's schema
    leaves without `items` gets any items (code generators require them)."""
    if isinstance(schema, list):
        return [nullable(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    copied = {k: nullable(v) for k, v in schema.items() if k != "nullable"}
    if schema.get("nullable") and isinstance(copied.get("type"), str):
        copied["type"] = [copied["type"], "null"]
    if copied.get("type") == "array" and "items" not in copied:
        copied["items"] = {}
    for name, inner in (copied.get("properties") or {}).items():
        if name in NULLABLE and isinstance(inner.get("type"), str):
            inner["type"] = [inner["type"], "null"]
    return copied


def compat_operation() -> dict[str, Any]:
    text = {"type": "string"}
    parameters = [
        ("apikey", "The key (OMDb's name for it)."),
        ("i", "An IMDb id (`tt0133093`): that title."),
        ("t", "A title: the best match (with `y`, its year; `type`, movie, series or episode)."),
        ("s", "A search: ten results a page (`page` 1 to 100), with `y` and `type`."),
        ("type", "movie, series or episode."),
        ("y", "A year."),
        ("plot", "`full` for the whole plot."),
        ("Season", "With `i` or `t` of a series: that season's episodes."),
        ("Episode", "With `Season`: that episode."),
        ("page", "The page of a search."),
        ("r", "`json` (the default) or `xml`."),
        ("callback", "JSONP: the function to call."),
    ]
    return {
        "tags": ["omdb"],
        "operationId": "omdb",
        "summary": "OMDb's API: a title by IMDb id or title, a season, an episode, or a search.",
        "description": 'Errors are OMDb\'s texts with HTTP 200 and `"Response":"False"`: '
        + "; ".join(f"`{e}`" for e in OMDB_ERRORS)
        + ". A missing or unknown key is 401, the window's limit 429, in the same envelope.",
        "security": [{"omdb_key": []}],
        "parameters": [{"name": n, "in": "query", "schema": text, "description": d} for n, d in parameters],
        "responses": {
            "200": {
                "description": "A title, a season, a search or an error, in OMDb's key order.",
                "headers": {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_HEADERS},
                "content": {
                    "application/json": {
                        "schema": {"anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in OMDB_ANSWERS]}
                    },
                    "application/xml": {"schema": text},
                },
            },
            **{status: {"$ref": "#/components/responses/Omdb"} for status in ("401", "429")},
        },
        EXTENSION: True,
    }


def self_operation() -> dict[str, Any]:
    return {
        "tags": ["marquee"],
        "operationId": "openapi",
        "summary": "This document: what the current release serves.",
        "security": [],
        "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {}}}}},
        EXTENSION: True,
    }


def image_operation(settings: Settings) -> dict[str, Any]:
    return {
        "tags": ["tmdb"],
        "operationId": "image",
        "summary": "An image in one of /3/configuration's sizes, on the image host it names (no key).",
        "servers": image_host(settings),
        "security": [],
        "parameters": [
            {
                "name": "size",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "enum": [*ALL_SIZES, "original"]},
            },
            {
                "name": "file_path",
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
                "description": "A `*_path` of a document, without its leading slash (`kqjL17yufvn9OVLyXYpvtyrFfak.jpg`).",
            },
        ],  # fmt: skip
        "responses": {
            "200": {
                "description": "The image, kept for a year.",
                "content": {
                    kind: {"schema": {"type": "string", "format": "binary"}} for kind in ("image/jpeg", "image/png")
                },
            },
            "404": {"description": "No such image, or a size the configuration does not list."},
        },
    }


def image_host(settings: Settings) -> list[dict[str, Any]]:
    """The image host as a server: its default the build's, the node's in /3/configuration."""
    variables = {"images": {"default": settings.image_base_url.rstrip("/").removesuffix("/t/p")}}
    description = "The image host: `images.base_url` of /3/configuration, without `/t/p/`."
    return [{"url": "{images}", "variables": variables, "description": description}]


def exports_operation(settings: Settings) -> dict[str, Any]:
    binary = {"type": "string", "format": "binary"}
    return {
        "tags": ["tmdb"],
        "operationId": "daily-id-export",
        "summary": "A daily ID export as TMDB publishes them (`movie_ids_MM_DD_YYYY.json.gz`, ...), no key.",
        "servers": image_host(settings),
        "security": [],
        "parameters": [
            {
                "name": "export_file",
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
                "description": "`{kind}_ids_MM_DD_YYYY.json.gz`: one JSON object a line.",
            },
        ],  # fmt: skip
        "responses": {
            "200": {"description": "Gzipped JSON lines.", "content": {"application/gzip": {"schema": binary}}},
            "404": {"description": "No such export in the current release."},
        },
    }


def components() -> dict[str, Any]:
    envelope = {
        "type": "object",
        "properties": {"success": {"type": "boolean"}, "status_code": {"type": "integer"},
                       "status_message": {"type": "string"}, "message": {"type": "string"}},
        "required": ["success", "status_code", "status_message", "message"],
    }  # fmt: skip
    responses = {}
    for status, known in ERRORS.items():
        examples = {f"status_code {e.status_code}": {"value": orjson.loads(e.body())} for e in known}
        responses[status] = {
            "description": "TMDB's error envelope; `status_code` says which error."
            + (" A parameter's value that is not one: `status_code` 5, naming it." if status == "422" else ""),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}, "examples": examples}},
        }
        if status == "429":
            responses[status]["headers"] = {"Retry-After": {"schema": {"type": "integer"},
                                                            "description": "Seconds until the window has room."}}  # fmt: skip
    responses["Omdb"] = {
        "description": "OMDb's error",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OmdbError"}}},
    }
    return {
        "securitySchemes": {
            "api_key": {"type": "apiKey", "in": "query", "name": "api_key"},
            "bearer": {"type": "http", "scheme": "bearer", "description": "The same key, as TMDB's read access token."},
            "omdb_key": {"type": "apiKey", "in": "query", "name": "apikey"},
        },
        "headers": {name: {"schema": {"type": "integer"}, "description": d} for name, d in RATE_HEADERS.items()},
        "responses": responses,
        "schemas": {
            "Error": envelope,
            **omdb_schemas(),
        },
    }


# OMDb's answers (marquee/omdb.py schemas), named, with their rating and episode items named once.
OMDB_ANSWERS = {"OmdbMovie": "/compat/movie/{movie_id}", "OmdbSeries": "/compat/series/{series_id}",
                "OmdbEpisode": "/compat/episode/{series_id}/{episode_id}",
                "OmdbSeason": "/compat/season/{series_id}/{season_number}", "OmdbError": None}  # fmt: skip


def omdb_schemas() -> dict[str, Any]:
    precomputed = omdb.schemas()
    named: dict[str, Any] = {}
    for name, path in OMDB_ANSWERS.items():
        if path is None:
            named[name] = {"type": "object", "properties": {"Response": {"type": "string"}, "Error": {"type": "string"}},
                           "required": ["Response", "Error"]}  # fmt: skip
            continue
        schema = orjson.loads(orjson.dumps(precomputed[path]))
        for field, item in (("Ratings", "OmdbRating"), ("Episodes", "OmdbSeasonEpisode")):
            if field in schema["properties"]:
                named[item] = schema["properties"][field]["items"]
                schema["properties"][field]["items"] = {"$ref": f"#/components/schemas/{item}"}
        named[name] = schema
    return named


def body(settings: Settings) -> bytes:
    return orjson.dumps(document(settings))
