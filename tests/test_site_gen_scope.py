"""site_gen/scope.py: an incremental rebuild renders only what its changed inputs reach, and its pack
still equals a full build's, row for row, whatever table the change is in."""

from __future__ import annotations

import contextlib
import re
import shutil
import sqlite3
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from marquee.artefacts import DISCOVER_COLUMNS, DISCOVER_INDEX, SEARCH_INDEX
from marquee.packs import Decoder, Pack, variantless
from marquee_build.catalogue import load_database
from site_gen import plan, scope
from site_gen.documents import tables_read
from site_gen.release import render_release
from site_gen.templates import template_kind, template_owner
from tests.test_edge_credit import credit_answers

# Text columns a change may touch without breaking a reference (paths must name image originals,
# codes must name languages and countries); then numbers. The first a table has is changed.
# fmt: off
TEXT_COLUMNS = ("title", "name", "overview", "biography", "character", "tagline", "homepage", "description",
                "headquarters", "note", "label", "place_of_birth", "meaning", "english_name", "wikidata_id")
# fmt: on
NUMBER_COLUMNS = ("popularity", "vote_count", "runtime", "budget", "revenue", "votes", "duration_ms", "ord")

# Changes by catalogue table, one row of each (and a credit removed, a film out of its collection,
# another far more popular): one rebuild of all of them must render every document as a full build
# does. A change reaching too little shows as a stale document; one reaching too much, in the plan
# tests below (a renamed film, a new release date, a reference table, nothing changed).
# fmt: off
CHANGED_TABLES: dict[str, tuple[str, ...]] = {
    "films": ("movies", "movie_translations", "movie_alternative_titles", "movie_videos", "movie_release_dates",
              "movie_ratings", "collections", "collection_translations", "companies", "keywords",
              "soundtracks", "soundtrack_tracks"),
    "people": ("people", "person_translations", "cast", "person_details"),
    "series": ("tv_series", "series_translations", "tv_seasons", "season_translations", "tv_episodes",
               "episode_translations", "networks", "series_cast", "episode_guest_stars",
               "series_alternative_titles", "episode_groups", "episode_group_episodes"),
    "lists": ("lists", "list_items"),  # a renamed list, an entry moved: the list and its titles' `lists` pages
}
# fmt: on


def change_one_row(catalogue: Path, table_name: str, row: int | None = None) -> str:
    """Change one row of a catalogue table (its middle one by default); returns the column changed."""
    path = catalogue / f"{table_name}.parquet"
    table = pq.read_table(path)
    row = len(table) // 2 if row is None else row
    picked = [
        name for name in TEXT_COLUMNS if name in table.column_names and pc.is_valid(table.column(name)[row]).as_py()
    ]
    picked += [name for name in NUMBER_COLUMNS if name in table.column_names]
    assert picked, f"{table_name}: no column to change"
    column = picked[0]
    values = table.column(column).to_pylist()
    values[row] = values[row] + " (changed)" if isinstance(values[row], str) else (values[row] or 0) * 2 + 1
    index = table.schema.get_field_index(column)
    pq.write_table(table.set_column(index, table.field(index), pa.array(values, table.field(index).type)), path)
    return column


def drop_row(catalogue: Path, table_name: str, row: int) -> None:
    path = catalogue / f"{table_name}.parquet"
    table = pq.read_table(path)
    pq.write_table(pa.concat_tables([table.slice(0, row), table.slice(row + 1)]), path)


def give_a_biography(catalogue: Path, release: Path) -> int:
    """An English biography for a person who has none in `release` (built from `catalogue`), whose
    untranslated variant the pack dropped as equal to the default one: it is a document again."""
    with Pack(release) as pack:
        person_id = next(
            int(name[len("3/person/") : -len(".json")])
            for name in pack.iter_names("3/person/%")
            if re.fullmatch(r"3/person/[0-9]+\.json", name)
            and pack.get(f"3/person/{name[len('3/person/') : -len('.json')]}.und.json") is None
        )
    people = pq.read_table(catalogue / "person_translations.parquet")
    added = pa.table(
        {"person_id": [person_id], "iso_639_1": ["en"], "iso_3166_1": ["US"], "biography": ["Now with a biography."]},
        schema=people.schema,
    )
    pq.write_table(pa.concat_tables([people, added]), catalogue / "person_translations.parquet")
    return person_id


def rebuild_equals_full_build(catalogue: Path, settings, previous: Path, work: Path) -> tuple:
    again = render_release(settings, catalogue, work / "again", echo=None, previous=previous)
    fresh = render_release(settings, catalogue, work / "fresh", echo=None)
    with Pack(work / "again") as new, Pack(work / "fresh") as full:
        rebuilt = list(new.rows())
        expected = list(full.rows())
        assert variantless(new.con) == variantless(full.con)
    if rebuilt != expected:
        stale = sorted(
            {row[0] for row in rebuilt} ^ {row[0] for row in expected}
            | {a[0] for a, b in zip(rebuilt, expected) if a != b}
        )
        pytest.fail(f"the rebuild differs from a full build in {len(stale)} documents, e.g. {stale[:5]}")
    index_equals_full_build(work / "again" / SEARCH_INDEX, work / "fresh" / SEARCH_INDEX)
    discover_equals_full_build(work / "again" / DISCOVER_INDEX, work / "fresh" / DISCOVER_INDEX)
    # Credits (no documents: the credit index, rebuilt whole) answer what a full build's do.
    assert credit_answers(work / "again") == credit_answers(work / "fresh")
    return again, fresh


def index_equals_full_build(updated: Path, built: Path) -> None:
    """Every table of the two search indexes holds the same rows (postings as the same bitmaps);
    an update may keep words no name has any more (they find nothing)."""
    with contextlib.closing(sqlite3.connect(updated)) as new, contextlib.closing(sqlite3.connect(built)) as full:
        for table in ("entities", "ranks", "postings", "exact", "items", "texts", "external_ids", "meta"):
            query = f"SELECT * FROM {table}"
            a, b = (sorted(con.execute(query).fetchall(), key=repr) for con in (new, full))
            if table == "items":  # bodies as served: each index compresses with its own dictionaries
                a, b = (
                    [(kind, i, Decoder(con)(body), known) for kind, i, body, known in rows]
                    for con, rows in ((new, a), (full, b))
                )
            assert a == b, f"{table}: {sorted(set(a) ^ set(b), key=repr)[:3]}"
        assert {t for (t,) in full.execute("SELECT term FROM terms")} <= {
            t for (t,) in new.execute("SELECT term FROM terms")
        }


def discover_equals_full_build(updated: Path, built: Path) -> None:
    """Every table of the two discover indexes holds the same rows (what an update copied from the
    previous release's and what it wrote)."""
    with contextlib.closing(sqlite3.connect(updated)) as new, contextlib.closing(sqlite3.connect(built)) as full:
        tables = [t for (t,) in full.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")]
        assert tables == [t for (t,) in new.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")]
        for table in tables:
            a, b = (sorted(con.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for con in (new, full))
            assert a == b, f"discover {table}: {sorted(set(a) ^ set(b), key=repr)[:3]}"
    # The columns' arrays: copied or written, each where a full build puts it.
    assert updated.with_name(DISCOVER_COLUMNS).read_bytes() == built.with_name(DISCOVER_COLUMNS).read_bytes()


def test_template_kinds():
    assert scope.template_kind("/3/movie/{movie_id}") == ("movie", 3)
    assert scope.template_kind("/3/person/{person_id}/combined_credits") == ("person", 3)
    assert scope.template_kind("/3/tv/{series_id}/season/{season_number}/episode/{episode_number}") == ("series", 3)
    assert scope.template_kind("/3/keyword/{keyword_id}/movies") == ("keyword", 3)
    assert scope.template_kind("/3/configuration/countries") is None
    assert scope.template_kind("/3/genre/movie/list") is None


def test_the_tables_a_query_reads_leave_out_its_common_table_expressions():
    con = duckdb.connect()
    assert tables_read(
        con,
        "WITH a AS (SELECT * FROM movies), b AS (SELECT * FROM a) SELECT * FROM b "
        "JOIN (WITH c AS (SELECT 1 AS id) SELECT * FROM c) USING (id) JOIN c USING (id)",
        "q",
    ) == {"movies", "c"}  # the last `c` is out of its CTE's reach: a table
    # A CTE named like the table it reads: the table counts, and so does a qualified name.
    assert tables_read(con, "WITH movies AS (SELECT * FROM movies) SELECT * FROM movies", "q") == {"movies"}
    assert tables_read(con, "WITH people AS (SELECT 1) SELECT * FROM main.people, people", "q") == {"people"}


def test_every_table_names_its_entities_or_is_hashed_whole(catalogue_dir: Path, tmp_path: Path):
    loaded = load_database(catalogue_dir, tmp_path / "catalogue.duckdb")
    con = loaded.con
    try:
        tables = scope.key_columns(con, loaded.tables)
        assert set(tables) == set(loaded.tables) and "related_pairs" not in tables  # temp: derived again
        assert ("movie_id", "movie") in tables["cast"] and ("person_id", "person") in tables["cast"]
        assert tables["movies"] == [("id", "movie"), ("collection_id", "collection")]
        assert ("other_id", "movie") in tables["movie_related"]
        assert tables["image_lists"] == [("owner_id", "owner")]
        # Only reference tables name no entity: a change to any of them renders everything again.
        whole = {name for name, columns in tables.items() if not columns}
        assert {"countries", "languages", "certifications", "genre_name_maps"} <= whole
        assert not whole & {"movie_translations", "episode_crew", "tv_episodes", "people", "credit_people"}
        scope.hash_entities(con, ["en-US", "de-DE"], loaded.tables)
        movies = con.execute("SELECT count(*) FROM entity_hashes WHERE tbl = 'movies' AND kind = 'movie'").fetchall()
        assert movies == con.execute("SELECT count(*) FROM movies").fetchall()
        assert con.execute("SELECT count(*) FROM entity_hashes WHERE tbl = 'countries'").fetchall() == [(1,)]
        # The languages served are part of what renders: another list hashes differently.
        code = f"SELECT hash FROM entity_hashes WHERE tbl = '' AND kind = '{scope.WHOLE}'"
        before = con.execute(code).fetchall()
        scope.hash_entities(con, ["en-US"], loaded.tables)
        assert con.execute(code).fetchall() != before
    finally:
        con.close()


def test_a_scoped_rebuild_equals_a_full_build(catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path):
    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    for table_name in (name for names in CHANGED_TABLES.values() for name in names):
        change_one_row(changed, table_name)
    drop_row(changed, "cast", 3)  # a credit removed: the film and the person both lose it
    give_a_biography(changed, built_pack)  # a variant the previous release dropped, back
    drop_episode(changed)  # an episode gone: its season, its series' groups and credits without it
    movies = pq.read_table(changed / "movies.parquet")
    # A film leaves its collection: the collection no longer lists it.
    row = pc.index(pc.is_valid(movies.column("collection_id")), True).as_py()
    ids = movies.column("collection_id").to_pylist()
    ids[row] = None
    movies = movies.set_column(
        movies.schema.get_field_index("collection_id"), "collection_id", pa.array(ids, pa.int64())
    )
    # Another film becomes far more popular: it moves in the lists similar films are drawn from.
    popularity = movies.column("popularity").to_pylist()
    popularity[row + 1] = max(popularity) * 3
    movies = movies.set_column(
        movies.schema.get_field_index("popularity"), "popularity", pa.array(popularity, pa.float64())
    )
    pq.write_table(movies, changed / "movies.parquet")
    again, fresh = rebuild_equals_full_build(changed, release_settings, built_pack, tmp_path / "r")
    assert again.scoped and again.updated
    assert 0 < fresh.documents - again.unchanged < fresh.documents // 2
    assert plan.DELTA in set(again.plan.values())  # the films' templates: written over the previous manifest


class Planned(Exception):
    """Raised by planned() once the update is planned."""


def planned(settings, catalogue: Path, previous: Path, target: Path, monkeypatch) -> dict:
    """What an update of `previous` decides before it renders anything, the build stopped there:
    `updated` (over the previous manifest), `scoped` and `ways` (each template's, site_gen/plan.py)."""
    made: dict = {}
    plan_build = plan.plan_build

    def recorded(con, templates, previous_manifest):
        ways = plan_build(con, templates, previous_manifest)
        made.update(updated=previous_manifest is not None, scoped=scope.scoped(con), ways=ways)
        raise Planned

    monkeypatch.setattr(plan, "plan_build", recorded)
    with pytest.raises(Planned):
        render_release(settings, catalogue, target, echo=None, previous=previous)
    monkeypatch.setattr(plan, "plan_build", plan_build)
    assert not target.exists()  # a build stopped leaves nothing behind
    return made


def test_a_change_to_a_reference_table_renders_everything(
    catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path, monkeypatch
):
    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    change_one_row(changed, "countries", 0)  # a country's name appears in films of every kind
    # The plan says it before anything renders (and test_a_scoped_rebuild_equals_a_full_build renders
    # whole templates to a full build's bytes): no scope, every template written whole.
    made = planned(release_settings, changed, built_pack, tmp_path / "again", monkeypatch)
    assert made["updated"] and not made["scoped"]
    assert set(made["ways"].values()) == {plan.WHOLE}


def test_nothing_changed_renders_nothing(catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path):
    again = render_release(release_settings, catalogue_dir, tmp_path / "again", echo=None, previous=built_pack)
    # Only the few documents built in Python (configuration, reference lists) are written again.
    assert again.scoped and again.documents - 10 <= again.unchanged < again.documents
    # The plan, made before anything rendered: every template naming an entity keeps all its
    # documents without running its query; only those naming none are written whole.
    assert set(again.plan.values()) == {plan.KEPT, plan.WHOLE}
    assert sum(way == plan.KEPT for way in again.plan.values()) > 40
    # An episode group's documents follow their series' scope (PLACEHOLDER_OWNERS): kept too.
    assert all(
        (template_kind(template) is None and template_owner(template) is None) == (way == plan.WHOLE)
        for template, way in again.plan.items()
    )
    assert again.plan["/3/tv/episode_group/{tv_episode_group_id}"] == plan.KEPT


def recorded_scopes(monkeypatch) -> dict[tuple[str, int], list | None]:
    """render_scope of the next scoped build, (kind, id) -> templates (None: all of its kind)."""
    scopes: dict[tuple[str, int], list | None] = {}
    plan = scope.plan_scope

    def recorded(con, previous):
        result = plan(con, previous)
        if result:  # the rebuild, not the full build it is compared with
            scopes.update(
                {
                    (kind, id_): templates
                    for kind, id_, templates in con.execute("SELECT kind, id, templates FROM render_scope").fetchall()
                }
            )
        return result

    monkeypatch.setattr(scope, "plan_scope", recorded)
    return scopes


def credited_in(catalogue: Path, film: int) -> set[int]:
    return set(
        pq.read_table(catalogue / "cast.parquet", filters=[("movie_id", "=", film)]).column("person_id").to_pylist()
    ) | set(
        pq.read_table(catalogue / "crew.parquet", filters=[("movie_id", "=", film)]).column("person_id").to_pylist()
    )


def test_a_renamed_film_reaches_no_person_its_item_carries_the_title(
    catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path, monkeypatch
):
    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    translations = pq.read_table(changed / "movie_translations.parquet")
    film = translations.column("movie_id")[len(translations) // 2].as_py()
    assert change_one_row(changed, "movie_translations") == "title"
    assert credited_in(changed, film)
    scopes = recorded_scopes(monkeypatch)
    # The scope and the plan, from the update alone: a title changed in place renders to a full
    # build's bytes in test_a_scoped_rebuild_equals_a_full_build.
    again = render_release(release_settings, changed, tmp_path / "again", echo=None, previous=built_pack)
    assert again.scoped
    # Its new title moves no rank: the index keeps every kind's ranks and changes the film's terms in place.
    assert "ranks derived again: none" in again.search
    # Nor is any person or company written again into the search index: none shows a title's name.
    assert ", 0 person, " in again.search and ", 0 company, " in again.search
    assert scopes[("movie", film)] is None  # the film itself: every one of its documents, its item too
    assert not any(kind == "person" for kind, _ in scopes)  # their credits reference the item
    # The plan says as much before rendering: the film's templates are rendered in part (as deltas
    # over the previous manifest), people's are kept whole.
    ways = again.plan
    assert ways["/3/movie/{movie_id}"] == ways["/_items/movie/{movie_id}"] == plan.DELTA
    assert all(way == plan.KEPT for template, way in ways.items() if template.startswith("/3/person/"))
    assert ways["/3/list/{list_id}"] == plan.KEPT  # a public list references the film's item


def test_a_film_s_new_release_date_reaches_its_people_s_credits_only(
    catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path, monkeypatch
):
    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    movies = pq.read_table(changed / "movies.parquet")
    row = len(movies) // 2
    film = movies.column("id")[row].as_py()
    dates = movies.column("release_date").to_pylist()
    dates[row] = type(dates[row])(1900, 1, 2) if dates[row] is not None else None  # first of its people's credits
    index = movies.schema.get_field_index("release_date")
    pq.write_table(
        movies.set_column(index, movies.field(index), pa.array(dates, movies.field(index).type)),
        changed / "movies.parquet",
    )
    credited = credited_in(changed, film)
    assert credited and dates[row] is not None
    scopes = recorded_scopes(monkeypatch)
    assert planned(release_settings, changed, built_pack, tmp_path / "again", monkeypatch)["scoped"]
    people = {id_: templates for (kind, id_), templates in scopes.items() if kind == "person"}
    assert credited <= set(people)
    assert all(templates and set(templates) <= set(scope.LINK_TEMPLATES["cast"]) for templates in people.values())


def drop_episode(catalogue: Path) -> int:
    """Remove the last episode of the middle series' first season, and every row naming it."""
    episodes = pq.read_table(catalogue / "tv_episodes.parquet").to_pylist()
    series = sorted({row["series_id"] for row in episodes})[len({row["series_id"] for row in episodes}) // 2]
    season = min(row["season_number"] for row in episodes if row["series_id"] == series)
    last = max(
        (row for row in episodes if row["series_id"] == series and row["season_number"] == season),
        key=lambda row: row["episode_number"],
    )
    for table_name, column in (
        ("tv_episodes", "id"),
        ("episode_crew", "episode_id"),
        ("episode_guest_stars", "episode_id"),
        ("episode_images", "episode_id"),
        ("episode_translations", "episode_id"),
    ):
        path = catalogue / f"{table_name}.parquet"
        table = pq.read_table(path)
        pq.write_table(table.filter(pc.not_equal(table.column(column), last["id"])), path)
    return last["id"]
