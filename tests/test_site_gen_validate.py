from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from site_gen.validate import NULLABLE, SCHEMA_FILE, ValidationError, Validator

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO.parent / "shared/reference/tmdb-v3-openapi.json"


@pytest.fixture(scope="module")
def validator() -> Validator:
    return Validator()


@pytest.fixture(scope="module")
def credits(built_release: Path) -> tuple[str, dict]:
    path = next(
        p
        for p in sorted((built_release / "3/movie").glob("*/credits.json"))
        if len(orjson.loads(p.read_bytes())["cast"]) >= 4
    )
    return "/" + str(path.relative_to(built_release))[: -len(".json")], orjson.loads(path.read_bytes())


def test_every_rendered_file_validates(built_release: Path, validator: Validator):
    seen = set()
    for path in built_release.rglob("*.json"):
        if "/t/p/" in str(path):
            continue
        uri = "/" + str(path.relative_to(built_release))[: -len(".json")]
        validator.validate(uri, path.read_bytes())
        seen.add(validator.template_for(uri))
    # Search, find, discover, the lists, a list's item_status and credits are answered by the edge from
    # the release's indexes and documents (tests/e2e/test_search.py, test_discover.py, test_public_lists.py,
    # test_fuzz.py and tests/test_edge_credit.py validate those answers); every other schema's path is a
    # rendered document.
    answered = {
        t
        for t in validator.templates
        if t.startswith(("/3/search/", "/3/find/", "/3/discover/", "/3/trending/", "/3/credit/"))
        or t.rsplit("/", 1)[1]
        in ("popular", "top_rated", "now_playing", "upcoming", "airing_today", "on_the_air", "changes", "item_status")
    }
    # OMDb's full plots exist only for plots of more than one sentence, which the sample has none of
    # (tests/test_site_gen_compat.py tests the rule).
    full_plots = {t for t in validator.templates if t.startswith("/compat/") and t.endswith("/full")}
    assert answered and seen - full_plots == set(validator.templates) - answered - full_plots


def test_missing_property_is_reported_with_path(credits, validator: Validator):
    uri, doc = credits
    doc = copy.deepcopy(doc)
    del doc["cast"][3]["character"]
    with pytest.raises(ValidationError) as info:
        validator.validate(uri, doc)
    assert (info.value.uri, info.value.path, info.value.reason) == (uri, "cast[3].character", "missing property")
    assert uri in str(info.value) and "cast[3].character" in str(info.value)


def test_wrong_type_is_reported(credits, validator: Validator):
    uri, doc = credits
    doc = copy.deepcopy(doc)
    doc["cast"][3]["order"] = "3"
    with pytest.raises(ValidationError) as info:
        validator.validate(uri, doc)
    assert info.value.path == "cast[3].order" and info.value.reason == "expected integer, got string"


def test_bool_is_not_an_integer_but_int_is_a_number(credits, validator: Validator):
    uri, doc = credits
    doc = copy.deepcopy(doc)
    doc["cast"][0]["popularity"] = 3  # number accepts ints
    validator.validate(uri, doc)
    doc["cast"][0]["gender"] = True
    with pytest.raises(ValidationError, match=r"cast\[0\]\.gender: expected integer, got boolean"):
        validator.validate(uri, doc)


def test_unexpected_null_is_rejected_but_relaxed_null_is_fine(credits, validator: Validator):
    uri, doc = credits
    doc = copy.deepcopy(doc)
    doc["cast"][3]["profile_path"] = None
    validator.validate(uri, doc)
    doc["cast"][3]["name"] = None
    with pytest.raises(ValidationError) as info:
        validator.validate(uri, doc)
    assert info.value.path == "cast[3].name" and "null" in info.value.reason


def test_nested_object_and_top_level_errors(built_release: Path, validator: Validator):
    doc = orjson.loads(next((built_release / "3/movie").glob("*.json")).read_bytes())
    doc["genres"] = [{"id": 1}]
    with pytest.raises(ValidationError, match=r"genres\[0\]\.name: missing property"):
        validator.validate(f"/3/movie/{doc['id']}", doc)
    with pytest.raises(ValidationError, match="<document>: expected object, got array"):
        validator.validate("/3/movie/1", [])
    with pytest.raises(ValidationError, match="no schema"):
        validator.validate("/3/no_such_resource/1", {})  # (/3/tv/1 has a schema since TV is rendered)


def test_relaxation_list_is_short():
    assert len(NULLABLE) <= 10 and "title" not in NULLABLE and "id" not in NULLABLE


def test_committed_schemas_match_the_spec(tmp_path: Path):
    if not SPEC.is_file():
        pytest.skip(f"{SPEC} not available")
    out = tmp_path / "schemas.json"
    operations = tmp_path / "operations.json"
    subprocess.run(
        [
            sys.executable,
            str(REPO / "site_gen/schemas/extract.py"),
            str(SPEC),
            "--out",
            str(out),
            "--operations-out",
            str(operations),
        ],
        check=True,
        capture_output=True,
    )
    assert out.read_text() == SCHEMA_FILE.read_text()
    assert operations.read_text() == (SCHEMA_FILE.parent / "tmdb_v3_operations.json").read_text()
    # Our own schemas (marquee_*.json) may add paths TMDB does not have (e.g. /3/movie/{id}/moods).
    ours = set().union(*(json.loads(p.read_text()) for p in SCHEMA_FILE.parent.glob("marquee_*.json")))
    assert set(json.loads(out.read_text())) | ours == set(Validator().templates)
