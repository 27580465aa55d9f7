"""The validation rule compiled to SQL (site_gen/validate_sql.py) agrees with the Python validator."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Iterator

import duckdb
import orjson
import pytest

from marquee.packs import Pack
from site_gen.validate import ValidationError, Validator, load_schemas
from site_gen.validate_sql import check_type, null_check

SCHEMAS = load_schemas()


@pytest.fixture(scope="module")
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    yield connection
    connection.close()


def sql_verdict(con: duckdb.DuckDBPyConnection, template: str, select: str, params: list | None = None) -> bool:
    """Type-check `select` (one column, doc) against template's schema and evaluate the null check."""
    relation = con.sql(select, params=params)
    doc_type = relation.types[0]
    check_type(template, SCHEMAS[template], doc_type)
    return con.sql(f"SELECT {null_check(SCHEMAS[template], doc_type)} FROM ({select})", params=params).fetchall()[0][0]


def python_verdict(template: str, document: Any) -> bool:
    try:
        Validator().validate("/x", document, template)
    except ValidationError:
        return False
    return True


def leaf_paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every property path (dict keys and list indexes) in a document, parents before children."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,)
            yield from leaf_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            yield path + (index,)
            yield from leaf_paths(item, path + (index,))


def with_null(document: Any, path: tuple) -> Any:
    changed = copy.deepcopy(document)
    target = changed
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = None
    return changed


CREDITS = "/3/movie/{movie_id}/credits"
DETAILS = "/3/movie/{movie_id}"
SEASON = "/3/tv/{series_id}/season/{season_number}"


@pytest.mark.parametrize("template,name_glob", [
    (DETAILS, "3/movie/*[0-9].json"),
    (CREDITS, "3/movie/*/credits.json"),
    (SEASON, "3/tv/*/season/1.json"),
])
def test_a_null_anywhere_gets_the_same_verdict_in_sql_and_python(con, built_pack: Path, template: str,
                                                                   name_glob: str):
    with Pack(built_pack) as pack:
        body = pack.con.execute("SELECT body FROM docs WHERE name GLOB ? ORDER BY length(body) DESC LIMIT 1",
                                (name_glob,)).fetchone()[0]
    document = orjson.loads(body)
    assert sql_verdict(con, template, "SELECT $1 AS doc", [document]) is True
    verdicts = {True: 0, False: 0}
    for path in leaf_paths(document):
        if isinstance(path[-1], str) and path[-1].startswith("_"):
            continue  # our own private keys, not in TMDB's schema
        nulled = with_null(document, path)
        expected = python_verdict(template, nulled)
        assert sql_verdict(con, template, "SELECT $1 AS doc", [nulled]) is expected, path
        verdicts[expected] += 1
    assert verdicts[True] and verdicts[False] > 20  # both kinds of null were tried


def test_a_missing_property_or_wrong_type_is_refused_before_any_row(con):
    with pytest.raises(ValidationError, match=r"cast\[\]\.id: missing property"):
        sql_verdict(con, CREDITS, "SELECT {'id': 1, 'cast': [{'adult': false, 'gender': 1}], 'crew': []} AS doc")
    with pytest.raises(ValidationError, match=r"^/3/movie/\{movie_id\}: budget: expected integer, the query gives"):
        document = {name: None for name in SCHEMAS[DETAILS]["properties"]}
        sql_verdict(con, DETAILS, "SELECT struct_update($1, budget := 'a lot') AS doc", [document])


def test_numbers_take_integers_but_integers_take_no_floats(con):
    item = "{'adult': false, 'gender': 1, 'id': 1, 'known_for_department': 'Acting', 'name': 'A', " \
           "'original_name': 'A', 'popularity': %s, 'profile_path': NULL, 'cast_id': 1, 'character': 'B', " \
           "'credit_id': 'c', 'order': %s}"
    assert sql_verdict(con, CREDITS, f"SELECT {{'id': 1, 'cast': [{item % ('3', '0')}], 'crew': []}} AS doc")
    with pytest.raises(ValidationError, match=r"cast\[\]\.order: expected integer"):
        sql_verdict(con, CREDITS, f"SELECT {{'id': 1, 'cast': [{item % ('3', '0.5')}], 'crew': []}} AS doc")
    nan = f"SELECT {{'id': 1, 'cast': [{item % ('(0.0 / 0.0)::DOUBLE', '0')}], 'crew': []}} AS doc"
    assert sql_verdict(con, CREDITS, nan) is False  # to_json would write NaN, which is not JSON


COMBINED = "/3/person/{person_id}/combined_credits"


def combined_item(**changes: Any) -> dict[str, Any]:
    item = {name: 1 for name in SCHEMAS[COMBINED]["properties"]["cast"]["items"]["properties"]}
    item.update(adult=False, backdrop_path=None, genre_ids=[18], original_language="en", overview="",
                popularity=1.5, poster_path="/p.jpg", character="C", credit_id="x", media_type="movie")
    item.update(changes)
    return item


@pytest.mark.parametrize("changes,valid", [
    ({}, True),
    ({"poster_path": None}, True),                 # nullable everywhere TMDB has it
    ({"overview": None}, False),                   # a JSON null where none is allowed
    ({"popularity": "high"}, False),               # a JSON string for a number
    ({"genre_ids": [18, None]}, False),            # a null array item
    ({"genre_ids": [18, 1.5]}, False),             # a float for an integer item
    ({"media_type": None, "title": "T"}, False),
])
def test_json_parts_are_checked_per_row_like_python(con, changes: dict, valid: bool):
    document = {"id": 1, "cast": [combined_item(), combined_item(**changes)], "crew": []}
    select = ("SELECT {'id': 1, 'cast': list_transform(json_extract($1, '$.cast[*]'), lambda j: j::JSON), "
              "'crew': []::JSON[]} AS doc")
    assert python_verdict(COMBINED, document) is valid
    assert sql_verdict(con, COMBINED, select, [orjson.dumps(document).decode()]) is valid


def test_a_missing_json_property_is_refused(con):
    item = combined_item()
    del item["credit_id"]
    select = "SELECT {'id': 1, 'cast': [$1::JSON], 'crew': []::JSON[]} AS doc"
    assert sql_verdict(con, COMBINED, select, [orjson.dumps(item).decode()]) is False


def test_a_map_with_listed_keys_needs_every_key(con):
    template = "/3/certification/movie/list"
    countries = list(SCHEMAS[template]["properties"]["certifications"]["properties"])
    entry = "[{'certification': 'PG', 'meaning': 'm', 'order': 1}]"
    full = "MAP {" + ", ".join(f"'{c}': {entry}" for c in countries) + "}"
    assert sql_verdict(con, template, f"SELECT {{'certifications': {full}}} AS doc") is True
    fewer = "MAP {" + ", ".join(f"'{c}': {entry}" for c in countries[1:]) + "}"
    assert sql_verdict(con, template, f"SELECT {{'certifications': {fewer}}} AS doc") is False

