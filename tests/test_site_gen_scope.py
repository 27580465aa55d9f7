"""site_gen/scope.py: an incremental rebuild renders only what its changed inputs reach, and its pack
still equals a full build's, row for row, whatever table the change is in."""

from __future__ import annotations

import contextlib
import gzip
import re
import shutil
import sqlite3
from pathlib import Path

import duckdb
import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from edge.assemble import OpenPacks
from marquee import manifests
from marquee.artefacts import CREDIT_INDEX, DISCOVER_COLUMNS, DISCOVER_INDEX, IMAGE_INDEX, SEARCH_INDEX
from marquee.manifests import MANIFEST_NAME, manifest_rows
from marquee.packs import Decoder, Pack, variantless
from marquee_build.catalogue import load_database
from marquee_build.state import NOTE, STATE_DIR
from site_gen import discover_index, images, plan, scope
from site_gen.documents import tables_read
from site_gen.exports import EXPORTS
from site_gen.release import render_release
from site_gen.templates import template_kind
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
               "series_alternative_titles"),
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


def recorded_discover(monkeypatch) -> list:
    """The DiscoverSummary of each build that follows, in order."""
    summaries = []
    build = discover_index.for_release

    def recorded(*args, **kwargs):
        summaries.append(build(*args, **kwargs))
        return summaries[-1]

    monkeypatch.setattr(discover_index, "for_release", recorded)
    return summaries


def test_a_rebuild_updates_the_kept_database_and_copies_the_indexes_its_change_does_not_reach(
    catalogue_dir: Path, release_settings, tmp_path: Path, monkeypatch
):
    releases = tmp_path / "releases"
    first = render_release(release_settings, catalogue_dir, releases / "a", echo=None)  # keeps its database
    assert first.steps_run == first.steps > 50
    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    assert change_one_row(changed, "movie_translations") == "title"
    summaries = recorded_discover(monkeypatch)
    image_indexes: list[str] = []  # the releases whose build wrote its image index
    write_index = images.write_index
    monkeypatch.setattr(
        images, "write_index", lambda con, path: image_indexes.append(Path(path).parent.name) or write_index(con, path)
    )
    # Every row alike, over the database kept from `a` (loaded again only where the change reaches).
    updated, _ = rebuild_equals_full_build(changed, release_settings, releases / "a", releases)
    assert updated.scoped and updated.steps_run < updated.steps // 4
    # No table of image paths changed, nor any a credit reads (a title is an item of the pack): the
    # image and credit indexes are the previous release's files, linked (the full build wrote its own).
    assert image_indexes == ["fresh"] and updated.images == first.images
    for index in (IMAGE_INDEX, CREDIT_INDEX):
        assert (releases / "again" / index).stat().st_ino == (releases / "a" / index).stat().st_ino, index

    # Entity hashes: the tables loaded again are hashed again, the others' files are links.
    def entity_file(release: str, table: str) -> Path:
        [path] = (releases / release / scope.ENTITIES_NAME / f"tbl={table}").iterdir()
        return path

    for table, linked in (("countries", True), ("movies", True), ("movie_translations", False)):
        assert (entity_file("again", table).stat().st_ino == entity_file("a", table).stat().st_ino) == linked, table
    rebuilt, full = summaries
    assert not full.copied
    # A new title: the title columns are written, and tv's name (tv_series_listed is not a table
    # the load tracks); no other query reads movie_translations.
    titles = {name for name in rebuilt.written if name.startswith("columns:movie:title")}
    assert "columns:movie:title" in titles and len(titles) == len(release_settings.languages)
    assert "columns:tv:name" in rebuilt.written
    assert {
        "facets:movie",
        "facets:tv",
        "columns:movie:popularity",
        "columns:movie:release:*:*",
        "columns:tv:popularity",
        "columns:tv:name.de-DE",
        "regional_releases",
        "activity",
        "meta:certifications",
    } <= rebuilt.copied
    # Any other part written is a column the previous index has no row for: one without values.
    with contextlib.closing(sqlite3.connect(releases / "a" / DISCOVER_INDEX)) as previous:
        held = {f"columns:{kind}:{name}" for kind, name in previous.execute("SELECT kind, name FROM columns")}
    assert not (rebuilt.written - titles - {"columns:tv:name"}) & held
    assert any(name.startswith("columns:movie:release:") for name in rebuilt.copied)
    # No export reads a translation: each is the previous release's file, linked, and what a full build writes.
    linked, before = exported(releases / "again"), exported(releases / "a")
    assert {stem: lines for stem, (lines, _) in linked.items()} == {
        stem: lines for stem, (lines, _) in exported(releases / "fresh").items()
    }
    assert len(linked) == 7 and all(inode == before[stem][1] for stem, (_, inode) in linked.items())

    # A film far more popular: every film's rank after it moves, so no part of the films' ranks is
    # copied, even one whose query reads no table the change reloaded (release dates). In the same
    # update a film shows another's poster, and a character is renamed.
    movies = pq.read_table(changed / "movies.parquet")
    popularity = movies.column("popularity").to_pylist()
    popularity[len(popularity) // 2] = max(popularity) * 3
    posters = movies.column("poster_path").to_pylist()
    posters[0] = posters[1]
    movies = movies.set_column(
        movies.schema.get_field_index("popularity"), "popularity", pa.array(popularity, pa.float64())
    )
    pq.write_table(
        movies.set_column(movies.schema.get_field_index("poster_path"), "poster_path", pa.array(posters)),
        changed / "movies.parquet",
    )
    cast = pq.read_table(changed / "cast.parquet")
    characters = cast.column("character").to_pylist()
    characters[0] = "Someone Else Entirely"
    pq.write_table(
        cast.set_column(cast.schema.get_field_index("character"), "character", pa.array(characters)),
        changed / "cast.parquet",
    )
    summaries.clear()
    image_indexes.clear()
    render_release(release_settings, changed, releases / "b", echo=None, previous=releases / "fresh")
    # An image path changed: the image index is written again; a credit's character: the credit index.
    assert image_indexes == ["b"]
    assert (releases / "b" / CREDIT_INDEX).stat().st_ino != (releases / "fresh" / CREDIT_INDEX).stat().st_ino
    credit = OpenPacks().read(str(releases / "b"), f"3/credit/{cast.column('credit_id')[0].as_py()}.json")
    assert orjson.loads(credit)["media"]["character"] == "Someone Else Entirely"
    render_release(release_settings, changed, tmp_path / "full" / "b", echo=None)
    discover_equals_full_build(releases / "b" / DISCOVER_INDEX, tmp_path / "full" / "b" / DISCOVER_INDEX)
    rebuilt, _ = summaries
    assert not any(name.startswith(("facets:movie", "columns:movie:")) for name in rebuilt.copied)
    assert {"facets:tv", "columns:tv:popularity", "regional_releases", "meta:certifications"} <= rebuilt.copied
    assert "activity" in rebuilt.written  # it reads movies (adult, video)
    # The films' export is written again; the people's is linked.
    again, before = exported(releases / "b"), exported(releases / "fresh")
    assert again["movie_ids"][1] != before["movie_ids"][1] and again["person_ids"][1] == before["person_ids"][1]
    assert {stem: lines for stem, (lines, _) in again.items()} == {
        stem: lines for stem, (lines, _) in exported(tmp_path / "full" / "b").items()
    }

    # The kept database now belongs to the last build in `releases` (b): a build after `a` loads from
    # scratch (test_build_steps: the kept database is used only for its own release).
    kept = orjson.loads((releases / STATE_DIR / NOTE).read_bytes())
    assert kept["release"] == str((releases / "b").resolve())


def exported(release: Path) -> dict[str, tuple[bytes, int]]:
    """Each export file of a release by stem: its lines and its inode."""
    return {
        path.name.rsplit("_", 3)[0]: (gzip.decompress(path.read_bytes()), path.stat().st_ino)
        for path in (release / EXPORTS).iterdir()
    }


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
    assert all((template_kind(template) is None) == (way == plan.WHOLE) for template, way in again.plan.items())


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


def manifest_of(release: Path, template: str) -> tuple[Path, Path]:
    from marquee.manifests import delta_file, manifest_file

    return release / MANIFEST_NAME / manifest_file(template), release / MANIFEST_NAME / delta_file(template)


EPISODE = "/3/tv/{series_id}/season/{season_number}/episode/{episode_number}"


def test_updates_over_updates_write_deltas_and_equal_full_builds(
    catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path, monkeypatch
):
    """A renamed film and a removed episode, then another renamed film and the episode back: each
    update writes the templates it reaches as a delta over the first build's manifest files (the
    episode's names removed, then restored), and the second's pack equals a full build's (the first's
    changes are among test_a_scoped_rebuild_equals_a_full_build's). A delta past its share of the
    base is written whole again."""
    first, second = tmp_path / "c1", tmp_path / "c2"
    shutil.copytree(catalogue_dir, first)
    change_one_row(first, "movie_translations")
    drop_episode(first)
    render_release(release_settings, first, tmp_path / "r1" / "again", echo=None, previous=built_pack)
    base, delta = manifest_of(again_dir := tmp_path / "r1" / "again", "/3/movie/{movie_id}")
    assert base.stat().st_ino == manifest_of(built_pack, "/3/movie/{movie_id}")[0].stat().st_ino
    changes = pq.read_table(delta).to_pylist()
    assert 0 < len(changes) < pq.ParquetFile(base).metadata.num_rows // 10 and all(
        row["digest"] is not None for row in changes
    )
    removed = [
        row["name"] for row in pq.read_table(manifest_of(again_dir, EPISODE)[1]).to_pylist() if row["digest"] is None
    ]
    assert removed and all("/episode/" in name for name in removed)

    shutil.copytree(catalogue_dir, second)
    shutil.copy(first / "movie_translations.parquet", second / "movie_translations.parquet")  # kept
    change_one_row(second, "movie_translations", 0)  # and another film renamed
    rebuild_equals_full_build(second, release_settings, again_dir, tmp_path / "r2")
    base2, delta2 = manifest_of(tmp_path / "r2" / "again", "/3/movie/{movie_id}")
    assert base2.stat().st_ino == base.stat().st_ino  # still the first build's rows, never rewritten
    names = {row["name"] for row in pq.read_table(delta2).to_pylist()}
    assert {row["name"] for row in changes} < names  # the first update's changes carried over
    restored = dict(
        duckdb.sql(f"SELECT name, digest FROM {manifest_rows(tmp_path / 'r2' / 'again' / MANIFEST_NAME)}").fetchall()
    )
    assert all(restored[name] for name in removed)

    # The second update again, with any delta past its share: the films' manifest written whole.
    monkeypatch.setattr(manifests, "DELTA_FRACTION", 0.0)
    render_release(release_settings, second, tmp_path / "r3" / "again", echo=None, previous=again_dir)
    whole, delta3 = manifest_of(tmp_path / "r3" / "again", "/3/movie/{movie_id}")
    assert not delta3.exists() and whole.stat().st_nlink == 1
    assert pq.ParquetFile(whole).metadata.num_rows == pq.ParquetFile(base).metadata.num_rows

    def rows(release: Path) -> list[tuple]:
        return sorted(duckdb.sql(f"SELECT name, digest FROM {manifest_rows(release / MANIFEST_NAME)}").fetchall())

    assert rows(tmp_path / "r3" / "again") == rows(tmp_path / "r2" / "fresh")  # as a full build lists them
