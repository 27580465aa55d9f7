"""Fuzzing every keyed GET path of TMDB's OpenAPI through nginx, with Schemathesis, on a fixed budget.

Each of the 115 operations (site_gen/schemas/tmdb_v3_operations.json, extracted from TMDB's spec)
gets FUZZ_EXAMPLES generated requests, valid and invalid ones (wrong types, odd strings, NULs in
values, missing required parameters). About half of them have their path parameters replaced by
ids the release really has, so that 200s come back too. Every answer must be:
- no 5xx, and JSON;
- a 200 that validates against its path's schema (site_gen/validate.py, the rule the build checks
  every document with), or an error in TMDB's envelope.
The generation is deterministic (a fixed seed, no example database), so CI runs the same requests.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings

from site_gen.validate import ValidationError, Validator
from tests.release_files import unpacked

pytestmark = pytest.mark.e2e

OPERATIONS = Path(__file__).resolve().parents[2] / "site_gen" / "schemas" / "tmdb_v3_operations.json"
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


SCHEMA = schemathesis.openapi.from_dict(openapi(orjson.loads(OPERATIONS.read_bytes())))
SCHEMA.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    max_examples=FUZZ_EXAMPLES,
    deterministic=True,
    allow_x00=True,
)
VALIDATOR = Validator()
ANSWERS: dict[str, list[int]] = {}  # template -> statuses answered, for the coverage check at the end


def template_regex(template: str) -> re.Pattern[str]:
    """`/3/tv/{series_id}/season/{season_number}` -> a pattern naming each parameter, over release
    document names (`3/tv/1/season/2.de-DE.json` without `.json`: variant suffixes allowed)."""
    pattern = "".join(
        f"(?P<{part[1:-1]}>[^/.]+)" if part.startswith("{") else re.escape(part)
        for part in re.split(r"(\{[^}]+\})", template.lstrip("/"))
    )
    return re.compile(f"^{pattern}(?:\\.[A-Za-z0-9-]+)*$")


@pytest.fixture(scope="module")
def fuzz_target(start_stack):
    """A stack whose plan admits the whole budget, a key on it, and the real parameters of each template."""
    stack = start_stack(MARQUEE_PLANS="free=5,standard=10,pro=30,fuzz=100000000")
    key = stack.account("fuzz", "fuzz")
    release = unpacked(stack.settings.current_link)
    names = [str(p.relative_to(release))[: -len(".json")] for p in release.rglob("*.json")]
    real: dict[str, list[dict[str, str]]] = {}
    for template in orjson.loads(OPERATIONS.read_bytes()):
        if "{" in template:
            regex = template_regex(template)
            real[template] = sorted({tuple(sorted(m.groupdict().items())) for n in names if (m := regex.match(n))})
    session = requests.Session()
    yield stack.settings.api_base_url, key, {t: [dict(p) for p in found] for t, found in real.items()}, session
    session.close()


def with_real_ids(case, real: dict[str, list[dict[str, str]]]) -> None:
    """Every other case (by a stable hash of what was generated) asks for ids the release has."""
    found = real.get(case.operation.path)
    if not found or not case.path_parameters:
        return
    digest = zlib.crc32(repr(sorted(case.path_parameters.items())).encode())
    if digest % 2 == 0:
        case.path_parameters = dict(found[(digest // 2) % len(found)])


def assert_answer(path: str, status: int, content_type: str, body: bytes) -> None:
    assert status < 500, (path, status, body[:300])
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


@SCHEMA.parametrize()
@settings(
    deadline=None, database=None, derandomize=True, max_examples=FUZZ_EXAMPLES, suppress_health_check=list(HealthCheck)
)
def test_every_keyed_path_answers_in_schema_or_in_the_envelope(case, fuzz_target):
    base_url, key, real, session = fuzz_target
    with_real_ids(case, real)
    response = case.call(base_url=base_url, session=session, headers={"Authorization": f"Bearer {key}"})
    content_type = {name.lower(): values for name, values in response.headers.items()}.get("content-type", [""])
    ANSWERS.setdefault(case.operation.path, []).append(response.status_code)
    assert_answer(urlsplit(response.request.url).path, response.status_code, content_type[0], response.content)


def test_the_fuzz_reached_real_documents_and_real_errors():
    """The budget was spent on every operation, and on answers worth checking: most of the paths we
    serve answered 200 at least once, and errors of several kinds came back in the envelope."""
    assert len(ANSWERS) == 115 and all(len(statuses) >= FUZZ_EXAMPLES // 2 for statuses in ANSWERS.values())
    served = [template for template, statuses in ANSWERS.items() if 200 in statuses]
    assert len(served) >= 55, sorted(served)
    errors = {status for statuses in ANSWERS.values() for status in statuses if status != 200}
    assert {400, 404} <= errors, errors
