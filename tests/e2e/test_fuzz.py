"""Fuzzing every keyed GET path of TMDB's OpenAPI through nginx, with Schemathesis, on a fixed budget.

Each of the 115 operations (site_gen/schemas/tmdb_v3_operations.json, extracted from TMDB's spec)
gets FUZZ_EXAMPLES generated requests, valid and invalid ones (wrong types, odd strings, NULs in
values, missing required parameters). About half of them have their path parameters replaced by
ids the release really has, so that 200s come back too. Every answer must be:
- no 5xx, and JSON;
- a 200 that validates against its path's schema (site_gen/validate.py, the rule the build checks
  every document with), or an error in TMDB's envelope.
The generation is deterministic (a fixed seed, no example database), so CI runs the same requests.

Our own document (control/openapi.py) is fuzzed the same way where it says more than TMDB's: our
paths (moods, showtimes, OMDb's /compat/, ...) and TMDB's paths with parameters of ours
(`fallback_language` aside, which every path with `language` takes through one rule).
"""

from __future__ import annotations

import zlib
from urllib.parse import urlsplit

import orjson
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings

from control.openapi import EXTENSION, OPERATIONS
from control.openapi import document as our_document
from marquee.settings import from_env
from site_gen.validate import ValidationError, Validator
from tests.release_files import real_parameters, unpacked

pytestmark = pytest.mark.e2e

FUZZ_EXAMPLES = 12
ENVELOPE = {"success", "status_code", "status_message", "message"}


def openapi(operations: dict) -> dict:
    """A minimal OpenAPI document of the operations: parameters only (answers are checked below,
    by our own rule), and no security scheme (the key is sent by the test, never generated)."""
    paths = {
        path: {
            "get": {
                "operationId": op["operationId"] or path,
                "parameters": op["parameters"],
                "responses": {"default": {"description": "any"}},
            }
        }
        for path, op in operations.items()
    }
    return {"openapi": "3.0.3", "info": {"title": "TMDB v3, keyed GET paths", "version": "3"}, "paths": paths}


def ours(document: dict) -> dict:
    """Our document's operations that TMDB's does not describe as they are (see the module's text),
    keyed ones only, without `apikey` (the test sends the key)."""
    operations = {}
    for path, item in document["paths"].items():
        operation = item["get"]
        extended = operation.get(EXTENSION) or any(
            p.get(EXTENSION) and p["name"] != "fallback_language" for p in operation.get("parameters", [])
        )
        if extended and operation.get("security") != []:
            parameters = [p for p in operation["parameters"] if p["name"] != "apikey"]
            operations[path] = {"operationId": operation["operationId"], "parameters": parameters}
    return openapi(operations)


def fuzzed(document: dict):
    schema = schemathesis.openapi.from_dict(document)
    schema.config.generation.update(
        modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
        max_examples=FUZZ_EXAMPLES,
        deterministic=True,
        allow_x00=True,
    )
    return schema


SCHEMA = fuzzed(openapi(orjson.loads(OPERATIONS.read_bytes())))
OURS = fuzzed(ours(our_document(from_env({}))))
VALIDATOR = Validator()
ANSWERS: dict[str, list[int]] = {}  # template -> statuses answered, for the coverage check at the end


@pytest.fixture(scope="module")
def fuzz_target(start_stack):
    """A stack whose plan admits the whole budget, a key on it, and the real parameters of each template."""
    stack = start_stack(MARQUEE_PLANS="free=5,standard=10,pro=30,fuzz=100000000")
    key = stack.account("fuzz", "fuzz")
    real = real_parameters(unpacked(stack.settings.current_link), orjson.loads(OPERATIONS.read_bytes()))
    session = requests.Session()
    yield stack.settings.api_base_url, key, real, session, stack.settings.log_dir
    session.close()


def with_real_ids(case, real: dict[str, list[dict[str, str]]]) -> None:
    """Every other case (by a stable hash of what was generated) asks for ids the release has."""
    found = real.get(case.operation.path)
    if not found or not case.path_parameters:
        return
    digest = zlib.crc32(repr(sorted(case.path_parameters.items())).encode())
    if digest % 2 == 0:
        case.path_parameters = dict(found[(digest // 2) % len(found)])


def assert_answer(path: str, status: int, content_type: str, body: bytes, url: str = "") -> None:
    assert status < 500, (url or path, status, body[:300])
    assert content_type.startswith("application/json"), (path, status, content_type, body[:300])
    doc = orjson.loads(body)
    if status == 200:
        try:
            VALIDATOR.validate(path, doc)
        except ValidationError as exc:
            raise AssertionError(f"{path}: 200 outside its schema: {exc}") from None
    else:
        assert set(doc) == ENVELOPE and doc["success"] is False, (path, status, doc)
        assert isinstance(doc["status_code"], int) and doc["message"] == doc["status_message"], doc


def called(case, fuzz_target):
    """The case sent through nginx with the fuzz key (half of them on real ids): (response, its path,
    its content type). A 5xx fails at once with the request and the end of the edge's log, where its
    traceback is (a 500 seen once on /3/discover/movie left nothing else to go on)."""
    base_url, key, real, session, log_dir = fuzz_target
    with_real_ids(case, real)
    response = case.call(base_url=base_url, session=session, headers={"Authorization": f"Bearer {key}"})
    if response.status_code >= 500:
        log = (log_dir / "edge.log").read_text(errors="replace")[-4000:] if (log_dir / "edge.log").exists() else ""
        pytest.fail(f"{response.status_code} for {response.request.url}: {response.content[:300]!r}\n{log}")
    content_type = {name.lower(): values for name, values in response.headers.items()}.get("content-type", [""])[0]
    return response, urlsplit(response.request.url).path, content_type


FUZZ_SETTINGS = settings(
    deadline=None, database=None, derandomize=True, max_examples=FUZZ_EXAMPLES, suppress_health_check=list(HealthCheck)
)


@SCHEMA.parametrize()
@FUZZ_SETTINGS
def test_every_keyed_path_answers_in_schema_or_in_the_envelope(case, fuzz_target):
    response, path, content_type = called(case, fuzz_target)
    ANSWERS.setdefault(case.operation.path, []).append(response.status_code)
    assert_answer(path, response.status_code, content_type, response.content)


@OURS.parametrize()
@FUZZ_SETTINGS
def test_our_paths_answer_in_schema_or_in_their_envelope(case, fuzz_target):
    response, path, content_type = called(case, fuzz_target)
    if case.operation.path != "/compat/":
        if response.status_code == 200 and not VALIDATOR.knows(path):  # showtimes: its own test checks it
            assert content_type.startswith("application/json") and isinstance(orjson.loads(response.content), dict)
        else:
            assert_answer(path, response.status_code, content_type, response.content, response.request.url)
        return
    # OMDb's errors are 200s; what the gate or nginx refuses keeps its HTTP status, in OMDb's envelope.
    assert response.status_code < 500, (response.status_code, response.content[:300])
    if response.status_code != 200:
        assert set(orjson.loads(response.content)) == {"Response", "Error"}, response.content[:300]
    elif content_type.startswith("application/json"):
        assert orjson.loads(response.content)["Response"] in ("True", "False"), response.content[:300]
    elif content_type.startswith("application/xml"):
        assert response.content.startswith(b"<?xml"), response.content[:300]
    else:
        assert content_type.startswith("text/javascript"), content_type  # JSONP


def test_the_fuzz_reached_real_documents_and_real_errors():
    """The budget was spent on every operation, and on answers worth checking: most of the paths we
    serve answered 200 at least once, and errors of several kinds came back in the envelope."""
    assert len(ANSWERS) == 115 and all(len(statuses) >= FUZZ_EXAMPLES // 2 for statuses in ANSWERS.values())
    served = [template for template, statuses in ANSWERS.items() if 200 in statuses]
    assert len(served) >= 55, sorted(served)
    errors = {status for statuses in ANSWERS.values() for status in statuses if status != 200}
    assert {400, 404} <= errors, errors
