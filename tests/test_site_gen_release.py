from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import orjson
import pytest

from marquee.artefacts import ARTEFACTS, IMAGE_INDEX, OPENAPI, ORIGINALS
from marquee.packs import BASE_NAME, PACK_NAME, VARIANT_NAME, Pack, document_bytes, etag_of, variantless
from site_gen import delta_writer
from site_gen.documents import load_sql
from site_gen.exports import EXPORTS
from site_gen.release import ReleaseBuildError, render_release
from site_gen.scope import ENTITIES_NAME
from site_gen.templates import template_shape
from site_gen.writer import MANIFEST_NAME
from tests.test_site_gen_scope import give_a_biography


def _image_paths(value, found: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key.endswith("_path") and isinstance(item, str):
                found.add(item)
            else:
                _image_paths(item, found)
    elif isinstance(value, list):
        for item in value:
            _image_paths(item, found)


def test_release_layout(built_pack: Path):
    assert (built_pack / "BUILD").read_text().strip() == built_pack.name
    # The release is its BUILD file, one pack (no file per document), its artefacts (the generated
    # catalogue's image index among them), the ID export files beside it and our OpenAPI document (the
    # build's `files`, as `marquee build` passes it). No image: the catalogue has no image folder to link.
    assert sorted(p.name for p in built_pack.iterdir()) == sorted(
        ["BUILD", ENTITIES_NAME, MANIFEST_NAME, PACK_NAME, *ARTEFACTS, EXPORTS, OPENAPI]
    )
    with Pack(built_pack) as pack:
        for name in ("3/configuration.json", "3/authentication.json", "3/genre/movie/list.json"):
            body = pack.get(name)
            assert body is not None and orjson.loads(body)
            assert pack.etag(name) == etag_of(body)


def test_the_pack_names_exactly_the_templates_whose_documents_have_no_language_variant(built_pack: Path):
    """What nginx takes as `?language=` needing one lookup (marquee/packs.py VARIANTLESS), against
    the names the build wrote."""
    varies = dict(
        duckdb.sql(
            f"SELECT template, bool_or(regexp_matches(name, '{VARIANT_NAME}')) FROM "
            f"read_parquet('{built_pack / MANIFEST_NAME}/*.parquet') GROUP BY template"
        ).fetchall()
    )
    with Pack(built_pack) as pack:
        recorded = variantless(pack.con)
    assert recorded == {template_shape(template) for template, varied in varies.items() if not varied}
    assert {"/#/movie/#/credits", "/#/movie/#/release_dates", "/#/person/#/combined_credits"} <= recorded
    assert not {"/#/movie/#", "/#/person/#", "/#/tv/#/season/#/episode/#"} & recorded


def test_every_referenced_image_is_in_the_index_and_made_ahead(
    image_store: Path, built_pack: Path, built_release: Path
):
    from marquee.image_index import ImageIndex

    found: set[str] = set()
    for path in (built_release / "3").rglob("*.json"):
        _image_paths(orjson.loads(path.read_bytes()), found)
    assert len(found) > 100
    index = ImageIndex(built_pack / IMAGE_INDEX)  # what the edge draws
    assert [p for p in found if index.kind(p.lstrip("/")) is None] == []
    assert index.kind("not-a-path-of-the-catalogue.jpg") is None
    # ...and what `marquee images` makes ahead: every one of them.
    assert [p for p in found if not (image_store / "original" / p.lstrip("/")).is_file()] == []


def catalogue_with_image_files(folder: Path) -> Path:
    """A small generated catalogue (20 films: ~420 originals to draw, the session's has ~2,700) as a
    real one is: each original a file under images/, and no word of generated images."""
    from marquee_build.contract import FACTS_FILE
    from marquee_datasets.images import draw
    from marquee_datasets.synthetic import generate
    from site_gen.image_job import catalogue_images

    generate(folder, 20, 7)
    (folder / FACTS_FILE).unlink()
    (folder / "images").mkdir()
    images = catalogue_images(folder)
    for name, kind in zip(images["name"].to_pylist(), images["kind"].to_pylist()):
        (folder / "images" / name).write_bytes(draw(name, kind))
    return folder


def test_a_catalogue_with_files_is_linked_not_copied(tmp_path: Path):
    from marquee.settings import from_env

    settings = from_env({"MARQUEE_HOME": str(tmp_path / "home"), "MARQUEE_IMAGE_SIZES": "build"})
    real = catalogue_with_image_files(tmp_path / "catalogue")
    target = settings.releases_dir / "20260101T000003Z"
    summary = render_release(settings, real, target, echo=None)
    assert os.readlink(target / ORIGINALS) == str((real / "images").resolve())
    assert not (target / IMAGE_INDEX).exists() and summary.images > 100
    assert not settings.image_dir.exists()  # no image made or placed, even with `build` sizes


def test_missing_image_originals_fail_and_leave_nothing(release_settings, tmp_path: Path):
    partial = catalogue_with_image_files(tmp_path / "catalogue")
    victim = next((partial / "images").glob("*.jpg"))
    victim.unlink()
    target = tmp_path / "releases" / "20260101T000001Z"
    with pytest.raises(ReleaseBuildError, match=rf"^1 image paths have no original in .*, e\.g\. /{victim.name}$"):
        render_release(release_settings, partial, target, echo=None)
    assert not target.exists()


def test_summary_line(built):
    lines, heard, summary, target = built.lines, built.heard, built.summary, built.release
    # Each phase is heard beginning and ending, in order, and the templates one by one to the last.
    from site_gen.release import PHASES

    ended = [phase for phase, done, total in heard if done == total == 1]
    assert ended == list(PHASES)
    templates = [(done, total) for phase, done, total in heard if phase == "templates"]
    assert templates[-1][0] == templates[-1][1] > 70 and [d for d, _ in templates] == sorted(d for d, _ in templates)
    from site_gen.release import ARTEFACT_STEPS  # and each artefact as it begins, for bench-build's log

    steps = len(ARTEFACT_STEPS)
    assert [(done, total) for phase, done, total in heard if phase == "artefacts"] == [
        (0, 1),
        *((done, steps) for done in range(steps)),
        (1, 1),
    ]
    with Pack(target) as pack:
        bodies = [body for _, body, _ in pack.rows()]
    assert summary.documents == len(bodies) > 1000 and summary.files == 1
    assert summary.bytes == sum(len(body) for body in bodies)
    assert len(lines) == 1 and f"{summary.documents} documents" in lines[0] and " s (" in lines[0]


def test_a_rebuild_counts_unchanged_documents_and_one_back_equals_the_first_build(
    catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path, monkeypatch
):
    """(That a rebuild over these changes equals a full build of them: test_site_gen_scope's
    test_a_scoped_rebuild_equals_a_full_build, whose changes include them.)"""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    table = pq.read_table(changed / "movie_translations.parquet")
    english = pc.equal(table.column("iso_639_1"), "en").to_numpy(zero_copy_only=False)
    movie_ids = sorted(set(table.column("movie_id").filter(pa.array(english)).to_pylist()))[:2]  # ~1% of 150
    renamed = pc.if_else(
        pc.and_(pa.array(english), pc.is_in(table.column("movie_id"), pa.array(movie_ids))),
        pc.binary_join_element_wise(table.column("title"), " (Restored)", ""),
        table.column("title"),
    )
    pq.write_table(
        table.set_column(table.schema.get_field_index("title"), "title", renamed),
        changed / "movie_translations.parquet",
    )
    # A person with no English biography had an untranslated variant equal to the default one, so
    # the pack dropped it; with a biography it is a document of its own again, though unchanged.
    person_id = give_a_biography(changed, built_pack)

    pack_before = (built_pack / PACK_NAME).read_bytes()
    again = render_release(release_settings, changed, tmp_path / "r" / "again", echo=None, previous=built_pack)
    # A delta over a hard link to the previous pack, which is left as it was.
    assert os.stat(tmp_path / "r/again" / BASE_NAME).st_ino == os.stat(built_pack / PACK_NAME).st_ino
    assert (built_pack / PACK_NAME).read_bytes() == pack_before
    # Small enough for the next rebuild to copy it rather than compact (below, `back`).
    assert document_bytes(tmp_path / "r/again" / PACK_NAME) < delta_writer.COMPACT_FRACTION * document_bytes(
        built_pack / PACK_NAME
    )
    assert 0.9 * again.documents < again.unchanged < again.documents
    with Pack(tmp_path / "r/again") as new, Pack(built_pack) as old:
        for movie_id in movie_ids:
            name = f"3/movie/{movie_id}.json"
            assert orjson.loads(new.get(name))["title"].endswith(" (Restored)")
            assert new.etag(name) != old.etag(name)
        assert orjson.loads(new.get(f"3/person/{person_id}.json"))["biography"] == "Now with a biography."
        assert orjson.loads(new.get(f"3/person/{person_id}.und.json"))["biography"] == ""
        same = f"3/movie/{movie_ids[0]}/external_ids.json"  # carries no title
        assert new.etag(same) == old.etag(same) is not None  # same bytes, same ETag across releases
        assert new.count() == again.documents == old.count() + 1  # the person's untranslated variant

    # Back to the first catalogue, on top of the delta: a copy of it over the same base, whose
    # documents are the first build's again (the person's untranslated twin dropped once more).
    back = render_release(
        release_settings, catalogue_dir, tmp_path / "r" / "back", echo=None, previous=tmp_path / "r/again"
    )
    assert os.stat(tmp_path / "r/back" / BASE_NAME).st_ino == os.stat(built_pack / PACK_NAME).st_ino
    with Pack(tmp_path / "r/back") as chained, Pack(built_pack) as first:
        assert chained.delta and chained.get(f"3/person/{person_id}.und.json") is None
        assert chained.count() == back.documents == first.count()
        assert list(chained.rows()) == list(first.rows())


def test_an_invalid_document_stops_the_build_and_leaves_nothing(
    catalogue_dir: Path, release_settings, tmp_path: Path, monkeypatch
):
    from site_gen import release
    from site_gen.documents import from_objects
    from site_gen.validate import ValidationError

    good = {f"/3/genre/movie/list.x{n}": {"genres": []} for n in range(12_000)}  # batches before the bad one
    monkeypatch.setattr(
        release,
        "collect",
        lambda con, settings: [
            release.prepare(con, settings) and from_objects("/3/genre/movie/list", good),
            from_objects("/3/movie/{movie_id}", {"/3/movie/1": {"id": 1, "title": 7}}),
        ],
    )
    target = tmp_path / "releases" / "20260101T000009Z"
    with pytest.raises(ValidationError, match="/3/movie/1: "):
        render_release(release_settings, catalogue_dir, target, echo=None)
    assert not target.exists()


def test_a_forbidden_null_in_sql_stops_the_build_with_its_path(
    catalogue_dir: Path, release_settings, tmp_path: Path, monkeypatch
):
    from site_gen import release
    from site_gen.documents import from_query
    from site_gen.validate import ValidationError

    # Real credits of every series, one of which loses its first cast member's name.
    query = (
        'SELECT uri, CASE WHEN uri = (SELECT max(uri) FROM docs) THEN struct_update(doc, "cast" := '
        'list_transform(doc."cast", lambda c, i: CASE WHEN i = 1 THEN struct_update(c, name := NULL) '
        "ELSE c END)) ELSE doc END AS doc FROM docs"
    )
    monkeypatch.setattr(
        release,
        "collect",
        lambda con, settings: [
            release.prepare(con, settings)
            and con.execute("CREATE TEMP TABLE docs AS " + load_sql("tv_credits.sql"))
            and from_query(con, "/3/tv/{series_id}/credits", query)
        ],
    )
    target = tmp_path / "releases" / "20260101T000010Z"
    with pytest.raises(ValidationError, match=r"/3/tv/\d+/credits: cast\[0\]\.name: null is not allowed"):
        render_release(release_settings, catalogue_dir, target, echo=None)
    assert not target.exists()


def test_a_template_rendered_in_ranges_of_ids_equals_it_rendered_whole(
    catalogue_dir: Path, release_settings, built_pack: Path, tmp_path: Path, monkeypatch
):
    """The templates rendered in ranges (`chunked` in site_gen/templates.py: the credits pages, the
    translations, …) in ranges of a few entities each: the same documents as the session's build,
    which renders each in one query at this size."""
    from site_gen import documents
    from site_gen.templates import PLACEHOLDER, TEMPLATES

    ranges: list[int] = []
    chunk_ranges = documents.chunk_ranges
    monkeypatch.setattr(documents, "CHUNK_ENTITIES", 40)
    monkeypatch.setattr(
        documents, "chunk_ranges", lambda con, kind: ranges.append(len(found := chunk_ranges(con, kind))) or found
    )
    render_release(release_settings, catalogue_dir, tmp_path / "ranged", echo=None)
    chunked = [template.path for template in TEMPLATES if template.chunked]
    assert len(chunked) >= 9 and len(ranges) == len(chunked) and min(ranges) >= 3  # each in several ranges
    with Pack(built_pack) as whole, Pack(tmp_path / "ranged") as ranged:
        for template in chunked:
            like = PLACEHOLDER.sub("%", template[1:]) + "%"  # its documents and their language variants
            expected = list(whole.rows(like))
            assert expected and list(ranged.rows(like)) == expected, template
