from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from site_gen.release import ReleaseBuildError, render_release
from site_gen.writer import GZIP_MIN_BYTES


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


def test_release_layout(image_store: Path, built_release: Path):
    assert (built_release / "BUILD").read_text().strip() == built_release.name
    for name in ("3/configuration.json", "3/authentication.json", "3/genre/movie/list.json"):
        path = built_release / name
        # Every document, and a gzip twin exactly for those worth compressing (site_gen/writer.py).
        assert path.is_file()
        assert (built_release / (name + ".gz")).is_file() == (path.stat().st_size >= GZIP_MIN_BYTES)
    assert any((image_store / "original").iterdir())


def test_every_referenced_image_exists(image_store: Path, built_release: Path):
    found: set[str] = set()
    for path in (built_release / "3").rglob("*.json"):
        _image_paths(orjson.loads(path.read_bytes()), found)
    assert len(found) > 100
    missing = [p for p in found if not (image_store / "original" / p.lstrip("/")).is_file()]
    assert missing == []


def test_missing_image_originals_fail_and_leave_nothing(catalogue_dir: Path, release_settings, tmp_path: Path):
    partial = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, partial)
    victim = next((partial / "images").glob("*.jpg"))
    victim.unlink()
    target = tmp_path / "releases" / "20260101T000001Z"
    with pytest.raises(ReleaseBuildError, match="have no original"):
        render_release(release_settings, partial, target, echo=None)
    assert not target.exists()


def test_summary_line(catalogue_dir: Path, release_settings, tmp_path: Path):
    lines: list[str] = []
    summary = render_release(release_settings, catalogue_dir, tmp_path / "r" / "20260101T000002Z", echo=lines.append)
    on_disk = [p for p in (tmp_path / "r" / "20260101T000002Z").rglob("*.json*")]
    assert summary.files == len(on_disk) and summary.documents < summary.files < 2 * summary.documents
    assert summary.bytes == sum(p.stat().st_size for p in on_disk)
    assert len(lines) == 1 and f"{summary.files} files" in lines[0] and " s (" in lines[0]


def test_incremental_build_links_unchanged_documents_and_equals_a_full_build(catalogue_dir: Path, release_settings,
                                                                           built_release: Path, tmp_path: Path):
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    changed = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir, changed)
    table = pq.read_table(changed / "movie_translations.parquet")
    english = pc.equal(table.column("iso_639_1"), "en").to_numpy(zero_copy_only=False)
    movie_ids = sorted(set(table.column("movie_id").filter(pa.array(english)).to_pylist()))[:2]  # ~1% of 150
    renamed = pc.if_else(pc.and_(pa.array(english), pc.is_in(table.column("movie_id"), pa.array(movie_ids))),
                         pc.binary_join_element_wise(table.column("title"), " (Restored)", ""), table.column("title"))
    pq.write_table(table.set_column(table.schema.get_field_index("title"), "title", renamed),
                   changed / "movie_translations.parquet")

    incremental = render_release(release_settings, changed, tmp_path / "r" / "incremental", echo=None,
                                 previous=built_release)
    full = render_release(release_settings, changed, tmp_path / "r" / "full", echo=None)
    assert 0.9 * incremental.documents < incremental.reused < incremental.documents
    for movie_id in movie_ids:
        doc = orjson.loads((tmp_path / "r/incremental" / f"3/movie/{movie_id}.json").read_bytes())
        assert doc["title"].endswith(" (Restored)")
        assert (tmp_path / "r/incremental" / f"3/movie/{movie_id}.json").stat().st_ino != \
            (built_release / f"3/movie/{movie_id}.json").stat().st_ino
    files = {p.relative_to(tmp_path / "r/full") for p in (tmp_path / "r/full").rglob("*.json*")}
    assert files == {p.relative_to(tmp_path / "r/incremental") for p in (tmp_path / "r/incremental").rglob("*.json*")}
    for relative in files:
        assert (tmp_path / "r/incremental" / relative).read_bytes() == (tmp_path / "r/full" / relative).read_bytes()
