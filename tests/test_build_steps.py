"""marquee_build.steps and load_database with a kept database: a rebuild runs only the build steps a
changed Parquet file reaches, and ends with the same tables as a load from scratch."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from marquee_build.catalogue import build_steps, load_database
from marquee_build.state import kept_database
from marquee_build.steps import steps_to_run


def created_by_run(changed: set[str] | None) -> set[str]:
    steps = build_steps()
    run, _ = steps_to_run(steps, changed)
    return {step.creates for step, runs in zip(steps, run) if runs}


def test_steps_name_what_they_create_and_read():
    steps = {step.creates: step for step in build_steps()}
    assert steps["movies"].files == {"movies"} and not steps["movies"].temp
    assert steps["related_pairs"].temp and "related_pairs" in steps["movie_related"].reads
    assert "movies" in steps["build_problems"].reads and "cast" in steps["build_problems"].reads


def test_a_changed_file_runs_only_the_steps_it_reaches():
    everything = created_by_run(None)
    translations = created_by_run({"movie_translations"})
    assert {"movie_translations", "build_problems"} <= translations
    assert not translations & {"movies", "cast", "movie_related", "season_cast_lists", "image_lists"}
    assert len(translations) < len(everything) // 5
    # A film's popularity feeds the related lists: the temp tables they are derived from run too.
    films = created_by_run({"movies"})
    assert {"movie_features", "feature_positions", "related_pairs", "movie_related"} <= films
    assert created_by_run(set()) == set()


def test_an_updated_kept_database_equals_a_fresh_load(catalogue_dir: Path, tmp_path: Path):
    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    with kept_database(tmp_path / "releases", None, "code") as kept:
        first = load_database(catalogue_dir, kept.path)
        first.con.close()
        kept.keep("/releases/a", first.digests)
    table = pq.read_table(changed / "movie_translations.parquet")
    titles = table.column("title").to_pylist()
    titles[0] += " (Restored)"
    pq.write_table(
        table.set_column(table.schema.get_field_index("title"), "title", pa.array(titles)),
        changed / "movie_translations.parquet",
    )
    with kept_database(tmp_path / "releases", "/releases/a", "code") as kept:
        assert kept.digests == first.digests
        updated = load_database(changed, kept.path, kept.digests)
    fresh = load_database(changed, tmp_path / "fresh.duckdb")
    try:
        assert updated.steps_run < updated.steps // 5 and fresh.steps_run == fresh.steps
        assert updated.created == {"movie_translations", "language_checks", "build_problems"}
        fresh.con.close()
        updated.con.execute(f"ATTACH '{tmp_path / 'fresh.duckdb'}' AS fresh (READ_ONLY)")
        for name in updated.tables:
            differ = updated.con.execute(
                f'SELECT count(*) FROM (FROM "{name}" EXCEPT ALL FROM fresh."{name}") '
                f'UNION ALL SELECT count(*) FROM (FROM fresh."{name}" EXCEPT ALL FROM "{name}")'
            ).fetchall()
            assert differ == [(0,), (0,)], name
        title = updated.con.execute("SELECT title FROM movie_translations WHERE title LIKE '% (Restored)'").fetchall()
        assert title == [(titles[0],)]
    finally:
        updated.con.close()


def test_the_kept_database_is_used_only_for_its_own_release_and_code(catalogue_dir: Path, tmp_path: Path):
    releases = tmp_path / "releases"
    with kept_database(releases, None, "code") as kept:
        loaded = load_database(catalogue_dir, kept.path)
        loaded.con.close()
        kept.keep("/releases/a", loaded.digests)
    with kept_database(releases, "/releases/b", "code") as kept:  # another release: load from scratch
        assert kept.digests is None and not kept.path.exists()
    # That build kept nothing (it never finished), so even release a's database is gone now.
    with kept_database(releases, "/releases/a", "code") as kept:
        assert kept.digests is None
        loaded = load_database(catalogue_dir, kept.path)
        loaded.con.close()
        kept.keep("/releases/a", loaded.digests)
    with kept_database(releases, "/releases/a", "other code") as kept:
        assert kept.digests is None
    # While one build holds the kept database, another gets a private one.
    with kept_database(releases, "/releases/a", "code") as first:
        with kept_database(releases, "/releases/a", "code") as second:
            assert second.digests is None and second.path.parent != first.path.parent


def test_digests_follow_file_contents(catalogue_dir: Path, tmp_path: Path):
    from marquee_build.catalogue import file_digests

    copy = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, copy)
    before = file_digests(copy)
    table = pq.read_table(copy / "people.parquet")
    pq.write_table(table.filter(pc.not_equal(table.column("id"), table.column("id")[0])), copy / "people.parquet")
    after = file_digests(copy)
    assert {name for name in before if before[name] != after[name]} == {"people"}
