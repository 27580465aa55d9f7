"""Extract from TMDB's OpenAPI spec the 200-response schemas of the paths Marquee renders, and the
parameters of every keyed GET path (the ones a client needs only an API key for).

Run once when the set of rendered paths changes, and commit the output, so the repo never needs the
spec at build or test time:

    python site_gen/schemas/extract.py ../shared/reference/tmdb-v3-openapi.json

Only `type`, `properties` and `items` of a schema are kept, and only `name`, `in`, `required` and
the type, format and enum of a parameter: examples and descriptions are documentation, and
dropping them keeps the committed files small and their diffs meaningful. The parameters feed the
test suite's fuzzing (tests/e2e/test_fuzz.py) and, with them, the list of keyed paths.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "tmdb_v3_responses.json"
OPERATIONS_OUT = Path(__file__).resolve().parent / "tmdb_v3_operations.json"
# GET paths that need a user or guest session (../shared/reference/tmdb-endpoints.md: 18 of the 135),
# and the two that read user-made lists: the other 115 need only a key.
SESSION_PATHS = re.compile(r"^/3/(account|guest_session)/|^/3/authentication/.|/account_states$|^/3/list/")
_PARAMETER_KEEP = ("type", "format", "enum")

# Every path template site_gen renders; extend it together with the renderer that adds a path.
# fmt: off
RENDERED_PATHS: tuple[str, ...] = (
    "/3/authentication",
    "/3/certification/tv/list",
    "/3/company/{company_id}",
    "/3/company/{company_id}/alternative_names",
    "/3/company/{company_id}/images",
    "/3/network/{network_id}/alternative_names",
    "/3/network/{network_id}/images",
    "/3/configuration/countries",
    "/3/configuration/jobs",
    "/3/configuration/languages",
    "/3/configuration/primary_translations",
    "/3/configuration/timezones",
    "/3/person/{person_id}",
    "/3/person/{person_id}/combined_credits",
    "/3/person/{person_id}/external_ids",
    "/3/person/{person_id}/images",
    "/3/person/{person_id}/movie_credits",
    "/3/person/{person_id}/tv_credits",
    "/3/person/{person_id}/translations",
    "/3/collection/{collection_id}",
    "/3/collection/{collection_id}/images",
    "/3/configuration",
    "/3/genre/movie/list",
    "/3/movie/{movie_id}",
    "/3/movie/{movie_id}/credits",
    # tv (site_gen/tv.py, season.py, episode.py); marquee_tv.json corrects a few of these schemas
    "/3/genre/tv/list",
    "/3/network/{network_id}",
    "/3/watch/providers/tv",
    "/3/tv/{series_id}",
    "/3/tv/{series_id}/aggregate_credits",
    "/3/tv/{series_id}/alternative_titles",
    "/3/tv/{series_id}/content_ratings",
    "/3/tv/{series_id}/credits",
    "/3/tv/{series_id}/external_ids",
    "/3/tv/{series_id}/images",
    "/3/tv/{series_id}/keywords",
    "/3/tv/{series_id}/recommendations",
    "/3/tv/{series_id}/similar",
    "/3/tv/{series_id}/translations",
    "/3/tv/{series_id}/videos",
    "/3/tv/{series_id}/watch/providers",
    "/3/tv/{series_id}/season/{season_number}",
    "/3/tv/{series_id}/season/{season_number}/aggregate_credits",
    "/3/tv/{series_id}/season/{season_number}/credits",
    "/3/tv/{series_id}/season/{season_number}/external_ids",
    "/3/tv/{series_id}/season/{season_number}/images",
    "/3/tv/{series_id}/season/{season_number}/translations",
    "/3/tv/{series_id}/season/{season_number}/videos",
    "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}",
    "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}/credits",
    "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}/external_ids",
    "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}/images",
    "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}/translations",
    "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}/videos",
    # languages (site_gen/languages.py)
    "/3/movie/{movie_id}/translations",
    "/3/collection/{collection_id}/translations",
    # movie sub-resources (site_gen/templates.py); marquee_movie.json replaces recommendations (empty in
    # the spec), watch/providers and watch/providers/movie (their region keys are examples, not a list).
    "/3/movie/{movie_id}/alternative_titles",
    "/3/movie/{movie_id}/external_ids",
    "/3/movie/{movie_id}/images",
    "/3/movie/{movie_id}/keywords",
    "/3/movie/{movie_id}/recommendations",
    "/3/movie/{movie_id}/release_dates",
    "/3/movie/{movie_id}/similar",
    "/3/movie/{movie_id}/videos",
    "/3/movie/{movie_id}/watch/providers",
    "/3/keyword/{keyword_id}",
    "/3/keyword/{keyword_id}/movies",
    "/3/certification/movie/list",
    "/3/watch/providers/movie",
    "/3/watch/providers/regions",
    # search (edge/routes/search.py, answered from the release's search index); marquee_search.json
    # replaces person, multi and find, whose items are one of several shapes
    "/3/search/movie",
    "/3/search/tv",
    "/3/search/collection",
    "/3/search/company",
    "/3/search/keyword",
    # discover (edge/routes/discover.py, answered from the release's discover index)
    "/3/discover/movie",
    "/3/discover/tv",
    # title lists (edge/routes/lists.py, from the discover and search indexes; marquee_lists.json
    # corrects them); /3/{kind}/latest answers a details document and is checked as one
    "/3/movie/popular",
    "/3/movie/top_rated",
    "/3/movie/now_playing",
    "/3/movie/upcoming",
    "/3/tv/popular",
    "/3/tv/top_rated",
    "/3/tv/airing_today",
    "/3/tv/on_the_air",
    "/3/person/popular",
    # trending (edge/routes/trending.py; marquee_lists.json corrects them too)
    "/3/trending/all/{time_window}",
    "/3/trending/movie/{time_window}",
    "/3/trending/tv/{time_window}",
    "/3/trending/person/{time_window}",
    # changes (edge/routes/changes.py, from the release's change log)
    "/3/movie/changes",
    "/3/tv/changes",
    "/3/person/changes",
    "/3/movie/{movie_id}/changes",
    "/3/tv/{series_id}/changes",
    "/3/person/{person_id}/changes",
    "/3/tv/season/{season_id}/changes",
    "/3/tv/episode/{episode_id}/changes",
)
# fmt: on
_KEEP = ("type", "properties", "items")


def _strip(schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in _KEEP:
        if key not in schema:
            continue
        value = schema[key]
        if key == "properties":
            out[key] = {name: _strip(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = _strip(value)
        else:
            out[key] = value
    return out


def extract(spec: dict[str, Any], paths: tuple[str, ...] = RENDERED_PATHS) -> dict[str, Any]:
    """{path template: stripped 200 application/json schema} for each rendered path."""
    schemas = {}
    for path in paths:
        try:
            response = spec["paths"][path]["get"]["responses"]["200"]
            schema = response["content"]["application/json"]["schema"]
        except KeyError:
            raise SystemExit(f"{path}: no GET 200 application/json schema in the spec") from None
        if "$ref" in json.dumps(schema):
            raise SystemExit(f"{path}: schema uses $ref, which this extractor does not resolve")
        schemas[path] = _strip(schema)
    return schemas


def keyed_operations(spec: dict[str, Any]) -> dict[str, Any]:
    """{path template: {operationId, parameters}} for every GET path that needs only a key."""
    operations = {}
    for path, methods in sorted(spec["paths"].items()):
        if "get" not in methods or SESSION_PATHS.search(path):
            continue
        get = methods["get"]
        parameters = [
            {
                "name": p["name"],
                "in": p["in"],
                "required": bool(p.get("required")),
                "schema": {k: v for k, v in p.get("schema", {}).items() if k in _PARAMETER_KEEP},
            }
            for p in get.get("parameters", [])
        ]
        operations[path] = {"operationId": get.get("operationId", ""), "parameters": parameters}
    return operations


def render(schemas: dict[str, Any]) -> str:
    return json.dumps(schemas, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", type=Path, help="TMDB's OpenAPI 3.1 JSON file")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output file (default: {OUT})")
    parser.add_argument(
        "--operations-out",
        type=Path,
        default=OPERATIONS_OUT,
        help=f"keyed GET operations file (default: {OPERATIONS_OUT})",
    )
    args = parser.parse_args(argv)
    spec = json.loads(args.spec.read_text())
    args.out.write_text(render(extract(spec)))
    print(f"wrote {len(RENDERED_PATHS)} schemas to {args.out}")
    operations = keyed_operations(spec)
    args.operations_out.write_text(render(operations))
    print(f"wrote {len(operations)} keyed GET operations to {args.operations_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
