"""Updates (render_release over a previous release): over the database kept beside the releases,
what they copy and link from the previous release's indexes and exports; over earlier updates, their
manifests as deltas over the first full build's, written whole once past their share; each equal
to a full build of the same catalogue."""

from __future__ import annotations

import contextlib
import gzip
import shutil
import sqlite3
from pathlib import Path

import duckdb
import numpy
import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from edge.assemble import OpenPacks
from marquee import manifests
from marquee.artefacts import CREDIT_INDEX, CREDIT_ROWS, DISCOVER_INDEX, IMAGE_INDEX
from marquee.manifests import MANIFEST_NAME, manifest_rows
from marquee.packs import first
from marquee_build.state import NOTE, STATE_DIR
from site_gen import discover_index, images, scope
from site_gen.delta_writer import PreviousBlocks
from site_gen.exports import EXPORTS
from site_gen.release import render_release
from site_gen.writer import attach_release
from tests.test_site_gen_scope import (
    change_one_row,
    discover_equals_full_build,
    drop_episode,
    rebuild_equals_full_build,
)


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
    for index in (IMAGE_INDEX, CREDIT_INDEX, CREDIT_ROWS):
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
    # Nothing else is written, not even a column the previous index has no row for (one without
    # values, a country without theatrical releases): it was empty there too.
    assert rebuilt.written == titles | {"columns:tv:name"}
    with contextlib.closing(sqlite3.connect(releases / "a" / DISCOVER_INDEX)) as previous:
        held = {f"columns:{kind}:{name}" for kind, name in previous.execute("SELECT kind, name FROM columns")}
    assert rebuilt.copied - held - {"facets:movie", "facets:tv", "regional_releases", "activity", "meta:certifications"}
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
    for index in (CREDIT_INDEX, CREDIT_ROWS):
        assert (releases / "b" / index).stat().st_ino != (releases / "fresh" / index).stat().st_ino
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


def previous_blocks_are_first_rows(release: Path) -> None:
    """An update over `release` (a delta) reads its blocks many at a time (PreviousBlocks): the
    delta's rows, tombstones among them, and the base's under them, as a lookup of each key finds
    them; a key of neither is left out."""
    with contextlib.closing(sqlite3.connect(":memory:")) as con:
        layers = attach_release(con, "r", release)
        assert len(layers) == 2
        keys = [key for (key,) in con.execute(f"SELECT key FROM {layers[0]}.docs")]
        assert any(body is None for (body,) in con.execute(f"SELECT body FROM {layers[0]}.docs"))  # a tombstone
        keys += [key for (key,) in con.execute(f"SELECT key FROM {layers[1]}.docs ORDER BY key LIMIT 500")]
        keys = sorted({*keys, 12345})
        expected = {}
        for key in keys:
            row = con.execute(first(layers, "body"), (key,)).fetchone()
            if row is not None:
                expected[key] = row[0]
    assert 12345 not in expected
    with PreviousBlocks(release) as blocks:
        assert blocks.read(numpy.array(keys, dtype=numpy.int64)) == expected


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
    previous_blocks_are_first_rows(again_dir)

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
