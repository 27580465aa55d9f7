"""control/openapi.py: our OpenAPI document is valid OpenAPI 3.1 and lists what the code serves: every
TMDB operation, every template a client asks for, every edge route, our extensions marked as ours."""

from __future__ import annotations

import re

import orjson
import pytest
from openapi_spec_validator import validate

from control import openapi
from edge.routes import ROUTES
from marquee.settings import from_env
from site_gen.templates import TEMPLATES

SETTINGS = from_env({"MARQUEE_LANGUAGES": "en-US,de-DE,ja-JP"})
# What a placeholder may be in a request each route answers (the find route takes IMDb ids as movie ids).
EXAMPLES = ("603", "tt0133093", "day", "5b0e6000bf87a6d156a38623")


@pytest.fixture(scope="module")
def document() -> dict:
    return openapi.document(SETTINGS)


def filled(path: str) -> list[str]:
    """`path` with every placeholder one example value, for each example."""
    return [re.sub(r"\{\w+\}", value, path) for value in EXAMPLES]


def test_it_is_valid_openapi_3_1_and_json(document):
    validate(document)
    assert orjson.loads(openapi.body(SETTINGS)) == document
    assert document["openapi"] == "3.1.0" and "de-DE" in document["info"]["description"]


def test_every_tmdb_operation_template_and_route_is_in_it(document):
    paths = document["paths"]
    assert set(orjson.loads(openapi.OPERATIONS.read_bytes())) <= set(paths)
    served = [t.path for t in TEMPLATES if not t.path.startswith(openapi.INTERNAL)]
    assert served and set(served) <= set(paths)
    assert paths["/3/movie/{movie_id}/similar_movies"]["get"]["deprecated"]  # edge/content.py LEGACY_PATHS
    for route in ROUTES:
        found = [p for p in paths if any(route.matches(example) for example in filled(p))]
        assert found, f"route {route.family} ({route.pattern}) answers no path of the document"


def test_ours_are_marked_and_theirs_are_not(document):
    paths = document["paths"]
    for path in ("/3/movie/{movie_id}/moods", "/3/movie/{movie_id}/showtimes", "/compat/"):
        assert paths[path]["get"][openapi.EXTENSION] is True, path
    assert openapi.EXTENSION not in paths["/3/movie/{movie_id}"]["get"]
    discover = {p["name"]: p for p in paths["/3/discover/movie"]["get"]["parameters"]}
    assert discover["with_moods"][openapi.EXTENSION] and openapi.EXTENSION not in discover["with_genres"]
    details = {p["name"]: p for p in paths["/3/movie/{movie_id}"]["get"]["parameters"]}
    assert details["fallback_language"][openapi.EXTENSION]
    assert "`moods`" in details["append_to_response"]["description"]  # edge/content.py APPENDABLE


def test_errors_name_tmdbs_status_codes_and_the_rate_headers(document):
    responses = document["components"]["responses"]
    assert responses["401"]["content"]["application/json"]["examples"]["status_code 7"]["value"]["status_code"] == 7
    assert responses["404"]["content"]["application/json"]["examples"]["status_code 34"]["value"]["success"] is False
    assert "Retry-After" in responses["429"]["headers"]
    details = document["paths"]["/3/movie/{movie_id}"]["get"]["responses"]
    assert set(details["200"]["headers"]) == set(openapi.RATE_HEADERS) and "429" in details


def test_nulls_the_real_api_sends_are_typed_as_such(document):
    schema = document["paths"]["/3/movie/{movie_id}"]["get"]["responses"]["200"]["content"]["application/json"]
    properties = schema["schema"]["properties"]
    assert properties["belongs_to_collection"]["type"] == ["object", "null"]
    assert properties["title"]["type"] == "string"
    assert "nullable" not in orjson.dumps(document).decode()
