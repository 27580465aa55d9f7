"""The validation rule compiled to SQL (site_gen/validate_sql.py) agrees with the Python validator."""

from __future__ import annotations

import copy
import fnmatch
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pytest

from marquee.packs import Pack, assemble
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


@pytest.mark.parametrize(
    "template,name_glob",
    [
        (DETAILS, "3/movie/*[0-9].json"),
        (CREDITS, "3/movie/*/credits.json"),
        (SEASON, "3/tv/*/season/1.json"),
    ],
)
def test_a_null_anywhere_gets_the_same_verdict_in_sql_and_python(con, built_pack: Path, template: str, name_glob: str):
    with Pack(built_pack) as pack:
        # As many path segments as the glob (GLOB's * crosses '/': 3/movie/*[0-9].json is also a review page 2).
        names = [
            name
            for name in pack.names(name_glob.split("*")[0] + "%")
            if fnmatch.fnmatchcase(name, name_glob) and name.count("/") == name_glob.count("/")
        ]
        body = max((pack.raw(name) for name in names), key=len)
        document = orjson.loads(assemble(body, pack.raw))  # as served: a season's episode credits are items
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
    item = (
        "{'adult': false, 'gender': 1, 'id': 1, 'known_for_department': 'Acting', 'name': 'A', "
        "'original_name': 'A', 'popularity': %s, 'profile_path': NULL, 'cast_id': 1, 'character': 'B', "
        "'credit_id': 'c', 'order': %s}"
    )
    assert sql_verdict(con, CREDITS, f"SELECT {{'id': 1, 'cast': [{item % ('3', '0')}], 'crew': []}} AS doc")
    with pytest.raises(ValidationError, match=r"cast\[\]\.order: expected integer"):
        sql_verdict(con, CREDITS, f"SELECT {{'id': 1, 'cast': [{item % ('3', '0.5')}], 'crew': []}} AS doc")
    nan = f"SELECT {{'id': 1, 'cast': [{item % ('(0.0 / 0.0)::DOUBLE', '0')}], 'crew': []}} AS doc"
    assert sql_verdict(con, CREDITS, nan) is False  # to_json would write NaN, which is not JSON


COMBINED = "/3/person/{person_id}/combined_credits"


def combined_item(**changes: Any) -> dict[str, Any]:
    item = {name: 1 for name in SCHEMAS[COMBINED]["properties"]["cast"]["items"]["properties"]}
    item.update(
        adult=False,
        backdrop_path=None,
        genre_ids=[18],
        original_language="en",
        overview="",
        popularity=1.5,
        poster_path="/p.jpg",
        character="C",
        credit_id="x",
        media_type="movie",
    )
    item.update(changes)
    return item


@pytest.mark.parametrize(
    "changes,valid",
    [
        ({}, True),
        ({"poster_path": None}, True),  # nullable everywhere TMDB has it
        ({"overview": None}, False),  # a JSON null where none is allowed
        ({"popularity": "high"}, False),  # a JSON string for a number
        ({"genre_ids": [18, None]}, False),  # a null array item
        ({"genre_ids": [18, 1.5]}, False),  # a float for an integer item
        ({"media_type": None, "title": "T"}, False),
    ],
)
def test_json_parts_are_checked_per_row_like_python(con, changes: dict, valid: bool):
    document = {"id": 1, "cast": [combined_item(), combined_item(**changes)], "crew": []}
    select = (
        "SELECT {'id': 1, 'cast': list_transform(json_extract($1, '$.cast[*]'), lambda j: j::JSON), "
        "'crew': []::JSON[]} AS doc"
    )
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


SIMILAR = "/3/movie/{movie_id}/similar"


def movie_item_sql(id_: int, title: str = "'T'", popularity: str = "1.5") -> str:
    return (
        f"SELECT {id_} AS id, {{'adult': false, 'backdrop_path': NULL, 'genre_ids': [18], 'id': {id_}, "
        f"'original_language': 'en', 'original_title': 'O', 'overview': '', 'popularity': {popularity}, "
        f"'poster_path': NULL, 'release_date': '2001-01-01', 'title': {title}, 'video': false, "
        f"'vote_average': 7.5, 'vote_count': 10}} AS item"
    )


def rendered_rows(con: duckdb.DuckDBPyConnection, template: str, query: str, checked: dict[str, str]) -> list[tuple]:
    """The batch rows (uri, body, etag, valid) documents.from_query renders for `query`."""
    from site_gen.documents import from_query

    documents = from_query(con, template, query, checked)
    return [row for batch in documents.batches() for row in zip(*(c.to_pylist() for c in batch.columns))]


def similar_doc(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple]:
    query = (
        f"SELECT '/3/movie/1/similar' AS uri, {{'id': 1, 'page': 1, "
        f"'results': CAST('[' || (SELECT string_agg(json, ',' ORDER BY id) FROM {table}) || ']' AS JSON), "
        f"'total_pages': 1, 'total_results': 2}} AS doc"
    )
    return rendered_rows(con, SIMILAR, query, {"results": table})


def test_checked_items_are_serialised_once_and_spliced_without_a_check_per_row():
    from site_gen.documents import checked_items

    con = duckdb.connect()
    checked_items(
        con, "items_ok", f"{movie_item_sql(1)} UNION ALL {movie_item_sql(2, popularity='3')}", ((SIMILAR, "results"),)
    )
    assert [name for name, *_ in con.execute("DESCRIBE items_ok").fetchall()] == ["id", "json"]
    [(uri, body, _, valid)] = similar_doc(con, "items_ok")
    parsed = orjson.loads(body)
    assert uri == "/3/movie/1/similar" and valid is True and [r["id"] for r in parsed["results"]] == [1, 2]
    assert python_verdict(SIMILAR, parsed)
    con.close()


@pytest.mark.parametrize(
    "item,reason",
    [
        (movie_item_sql(1, title="NULL::VARCHAR"), r"results\[\]\.title: null is not allowed here"),
        (movie_item_sql(1, popularity="'0.0'::DOUBLE / 0.0"), r"results\[\]: a non-finite number"),
    ],
)
def test_one_invalid_item_stops_the_build_with_its_path(item: str, reason: str):
    from site_gen.documents import checked_items

    con = duckdb.connect()
    with pytest.raises(ValidationError, match=reason):
        checked_items(con, "items_bad", f"{movie_item_sql(2)} UNION ALL {item}", ((SIMILAR, "results"),))
    con.close()


def test_an_item_of_the_wrong_type_is_refused_when_bound():
    from site_gen.documents import checked_items

    con = duckdb.connect()
    with pytest.raises(ValidationError, match=r"results\[\]\.vote_count: expected integer"):
        checked_items(
            con,
            "items_bad",
            movie_item_sql(1).replace("'vote_count': 10", "'vote_count': 'ten'"),
            ((SIMILAR, "results"),),
        )
    con.close()


def test_a_property_spliced_from_a_table_not_checked_for_it_is_refused():
    from site_gen.documents import checked_items

    con = duckdb.connect()
    con.execute(f"CREATE TEMP TABLE unchecked AS SELECT id, to_json(item)::VARCHAR AS json FROM ({movie_item_sql(1)})")
    with pytest.raises(ValidationError, match="unchecked was not checked"):
        similar_doc(con, "unchecked")
    checked_items(con, "other_use", movie_item_sql(1), (("/3/movie/{movie_id}/recommendations", "results"),))
    with pytest.raises(ValidationError, match="other_use was not checked"):  # checked, but for another template
        similar_doc(con, "other_use")
    con.close()


MOVIE_CREDITS = "/3/person/{person_id}/movie_credits"


def cast_entry_sql(movie: int, character: str = "'Neo'", credit_id: str = "'c1'", extra: str = "") -> str:
    return (
        f"SELECT {movie} AS movie_id, 'movie/{movie}' AS ref, "
        f"{{'character': {character}, 'credit_id': {credit_id}, 'order': 0{extra}}} AS entry"
    )


def film_items(con: duckdb.DuckDBPyConnection) -> None:
    from site_gen.documents import checked_items

    checked_items(con, "films", f"{movie_item_sql(1)} UNION ALL {movie_item_sql(2)}", (), ((MOVIE_CREDITS, "cast"),))


def credits_rows(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple]:
    query = (
        f"SELECT '/3/person/5/movie_credits' AS uri, {{'id': 5, 'cast': CAST('[' || "
        f"(SELECT string_agg(entry, ',' ORDER BY movie_id) FROM {table}) || ']' AS JSON), "
        f"'crew': CAST('[]' AS JSON)}} AS doc"
    )
    return rendered_rows(con, MOVIE_CREDITS, query, {"cast": table})


def test_credit_entries_are_checked_once_and_assembled_with_their_items():
    from site_gen.documents import checked_entries

    con = duckdb.connect()
    film_items(con)
    second = cast_entry_sql(2, credit_id="'c2'")
    checked_entries(
        con, "entries", f"{cast_entry_sql(1)} UNION ALL {second}", "films", {"entry": ((MOVIE_CREDITS, "cast"),)}
    )
    [(uri, body, _, valid)] = credits_rows(con, "entries")
    assert uri == "/3/person/5/movie_credits" and valid is True
    assert b'"title"' not in body  # the stored document holds references, not the films
    items = {
        f"_items/movie/{i}.json": json.encode() for i, json in con.execute("SELECT id, json FROM films").fetchall()
    }
    served = orjson.loads(assemble(body, items.get))
    assert [(c["id"], c["title"], c["credit_id"], c["character"]) for c in served["cast"]] == [
        (1, "T", "c1", "Neo"),
        (2, "T", "c2", "Neo"),
    ]
    assert list(served["cast"][0])[-3:] == [
        "character",
        "credit_id",
        "order",
    ]  # TMDB's order: the film's, then the credit's
    assert python_verdict(MOVIE_CREDITS, served)
    con.close()


@pytest.mark.parametrize(
    "entry,reason",
    [
        (
            f"{cast_entry_sql(2)} UNION ALL {cast_entry_sql(1, credit_id='NULL::VARCHAR')}",
            r"cast\[\]\.credit_id: null is not allowed here",
        ),
        (cast_entry_sql(1).replace(", 'order': 0", ""), r"cast\[\]\.order: missing property"),
        (cast_entry_sql(1, extra=", 'title': 'Twice'"), r"cast\[\]: \['title'\] both in films and the entry"),
    ],
)
def test_an_invalid_entry_stops_the_build_with_its_path(entry: str, reason: str):
    from site_gen.documents import checked_entries

    con = duckdb.connect()
    film_items(con)
    with pytest.raises(ValidationError, match=reason):
        checked_entries(con, "entries", entry, "films", {"entry": ((MOVIE_CREDITS, "cast"),)})
    con.close()


def test_entries_need_items_checked_as_their_part_and_a_part_alone_is_not_a_document():
    from site_gen.documents import checked_entries, checked_items

    con = duckdb.connect()
    checked_items(con, "whole_films", movie_item_sql(1), ((SIMILAR, "results"),))  # checked whole, for a list
    with pytest.raises(ValidationError, match="whole_films was not checked as a part of these entries"):
        checked_entries(con, "entries", cast_entry_sql(1), "whole_films", {"entry": ((MOVIE_CREDITS, "cast"),)})
    film_items(con)
    con.execute("CREATE TEMP TABLE films_only AS SELECT id AS movie_id, json AS entry FROM films")
    con.execute(
        "INSERT INTO checked_parts SELECT 'films_only', template, field, covers, whole FROM checked_parts "
        "WHERE tbl = 'films'"
    )  # items that cover only part of a credit are not credits
    with pytest.raises(ValidationError, match="films_only was not checked for this property"):
        credits_rows(con, "films_only")
    con.close()


def test_a_nested_checked_path_is_only_required_present():
    from site_gen.validate_sql import null_check

    con = duckdb.connect()
    schema = {
        "type": "object",
        "properties": {
            "episodes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "crew": {
                            "type": "array",
                            "items": {"type": "object", "properties": {"job": {"type": "string"}}},
                        },
                    },
                },
            }
        },
    }
    doc = "SELECT {'episodes': [{'name': %s, 'crew': CAST(%s AS JSON)}]} AS doc"
    doc_type = con.sql(doc % ("'Pilot'", "'[]'")).types[0]

    def verdict(name: str, crew: str, checked: frozenset[str]) -> bool:
        return con.sql(
            f"SELECT {null_check(schema, doc_type, checked=checked)} FROM ({doc % (name, crew)})"
        ).fetchall()[0][0]

    bad_crew = """'[{"job": null}]'"""
    assert verdict("'Pilot'", bad_crew, frozenset()) is False  # parsed and checked per row
    assert verdict("'Pilot'", bad_crew, frozenset({"episodes[].crew"})) is True  # checked when serialised
    assert verdict("NULL", "'[]'", frozenset({"episodes[].crew"})) is False  # the rest still checked
    assert verdict("'Pilot'", "NULL", frozenset({"episodes[].crew"})) is False  # and the spliced one present
    con.close()


def test_items_for_a_nested_property_are_checked_against_its_item_schema():
    from site_gen.documents import checked_items

    season = "/3/tv/{series_id}/season/{season_number}"
    crew = (
        "SELECT 1 AS episode_id, {'department': 'Writing', 'job': %s, 'credit_id': 'c1', 'adult': false, "
        "'gender': 1, 'id': 7, 'known_for_department': 'Writing', 'name': 'A', 'original_name': 'A', "
        "'popularity': 1.5, 'profile_path': NULL} AS item"
    )
    con = duckdb.connect()
    checked_items(con, "crew_ok", crew % "'Writer'", ((season, "episodes[].crew"),))
    assert con.execute("SELECT covers FROM checked_parts WHERE tbl = 'crew_ok'").fetchall()[0][0][:2] == [
        "adult",
        "credit_id",
    ]
    with pytest.raises(ValidationError, match=r"episodes\[\]\.crew\[\]\.job: null is not allowed here"):
        checked_items(con, "crew_bad", crew % "NULL::VARCHAR", ((season, "episodes[].crew"),))
    con.close()
