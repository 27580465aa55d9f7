"""site_gen/changes.py and edge/routes/changes.py: a rebuild after a film's and a person's names
changed logs exactly those keys of exactly those entities, kept by the next build, and the
/changes paths answer them in TMDB's shape."""

from __future__ import annotations

import shutil
import sqlite3

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from edge.assemble import DocumentCache
from edge.content import ContentError
from edge.content_listener import ARTEFACT_READERS
from edge.routes import changes as routes
from edge.routes.route import Context
from marquee.artefacts import CHANGES, OpenArtefacts
from site_gen.release import render_release


def renamed(catalogue_dir, folder, table: str, column: str, suffix: str) -> tuple[int, str, str]:
    """A copy of the catalogue with one row's `column` changed; (its id, old value, new value)."""
    if not folder.exists():
        shutil.copytree(catalogue_dir, folder)
    rows = pq.read_table(folder / f"{table}.parquet")
    values = rows.column(column).to_pylist()
    row = len(values) // 3
    old = values[row]
    values[row] = old + suffix
    index = rows.schema.get_field_index(column)
    pq.write_table(
        rows.set_column(index, rows.field(index), pa.array(values, rows.field(index).type)), folder / f"{table}.parquet"
    )
    return rows.column("id")[row].as_py(), old, values[row]


@pytest.fixture(scope="module")
def rebuilt(catalogue_dir, release_settings, built_pack, tmp_path_factory):
    work = tmp_path_factory.mktemp("changes")
    changed = work / "catalogue"
    film = renamed(catalogue_dir, changed, "movies", "original_title", " Redux")
    person = renamed(catalogue_dir, changed, "people", "name", " Jr.")
    first = work / "first"
    render_release(release_settings, changed, first, echo=None, previous=built_pack)
    second = work / "second"  # a full build, continuing the log of the first
    render_release(release_settings, changed, second, echo=None, history=first)
    return film, person, first, second


def logged(release) -> list[tuple]:
    with sqlite3.connect(release / CHANGES) as con:
        return con.execute("SELECT kind, id, key, item FROM changes ORDER BY kind, id, key").fetchall()


def test_a_rebuild_logs_the_keys_that_changed_and_the_next_build_keeps_them(rebuilt):
    (film, old_title, new_title), (person, old_name, new_name), first, second = rebuilt
    rows = logged(first)
    assert {(kind, entity) for kind, entity, _, _ in rows} == {("movie", film), ("person", person)}
    items = {(kind, key): orjson.loads(item) for kind, _, key, item in rows}
    assert items[("movie", "original_title")]["value"] == new_title
    assert items[("movie", "original_title")]["original_value"] == old_title
    assert items[("movie", "original_title")]["action"] == "updated"
    assert items[("person", "name")]["value"] == new_name and items[("person", "name")]["original_value"] == old_name
    assert logged(second) == rows  # nothing changed since: the log is carried, not added to


def test_the_changes_paths_answer_in_tmdbs_shape(rebuilt):
    (film, _, new_title), (person, _, _), first, _ = rebuilt
    context = Context(str(first), ["en-US"], DocumentCache(), OpenArtefacts(ARTEFACT_READERS))
    listed = orjson.loads(routes.changed_ids(context, "/3/movie/changes", {}))
    assert listed["results"] == [{"id": film, "adult": False}] and listed["total_results"] == 1
    assert orjson.loads(routes.changed_ids(context, "/3/tv/changes", {}))["results"] == []
    item = orjson.loads(routes.item_changes(context, f"/3/movie/{film}/changes", {}))
    keys = {change["key"]: change["items"] for change in item["changes"]}
    assert keys["original_title"][0]["value"] == new_title
    assert orjson.loads(routes.item_changes(context, f"/3/person/{person}/changes", {}))["changes"]
    long_ago = {"start_date": "2001-01-01", "end_date": "2001-01-10"}
    assert orjson.loads(routes.item_changes(context, f"/3/movie/{film}/changes", long_ago)) == {"changes": []}
    for params, status, code in (
        ({"start_date": "2001-01-01", "end_date": "2001-02-01"}, 422, 20),
        ({"start_date": "2001-13-01"}, 400, 23),
    ):
        with pytest.raises(ContentError) as refused:
            routes.changed_ids(context, "/3/movie/changes", params)
        assert (refused.value.error.http_status, refused.value.error.status_code) == (status, code)
