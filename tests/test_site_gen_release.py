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
