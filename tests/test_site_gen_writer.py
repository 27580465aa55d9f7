from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from site_gen.writer import Writer, WriterError


def test_maps_uris_to_json_files_with_gzip_twins(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/603", {"id": 603, "title": "The Matrix"})
    writer.write("/3/movie/603/credits", b'{"id":603,"cast":[]}')
    plain = tmp_path / "3/movie/603.json"
    credits = tmp_path / "3/movie/603/credits.json"
    assert orjson.loads(plain.read_bytes()) == {"id": 603, "title": "The Matrix"}
    assert credits.read_bytes() == b'{"id":603,"cast":[]}'
    for path in (plain, credits):
        twin = path.with_name(path.name + ".gz")
        assert gzip.decompress(twin.read_bytes()) == path.read_bytes()
        assert twin.stat().st_mtime_ns == path.stat().st_mtime_ns


def test_summary_counts_both_twins(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/a", {"x": 1})
    writer.write("/b/c", {"x": 2})
    summary = writer.summary()
    on_disk = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert summary.documents == 2 and summary.files == 4 == len(on_disk)
    assert summary.bytes == sum(p.stat().st_size for p in on_disk)


def test_refuses_the_same_uri_twice(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/1", {})
    with pytest.raises(WriterError, match="twice"):
        writer.write("/3/movie/1", {"other": True})
    assert orjson.loads((tmp_path / "3/movie/1.json").read_bytes()) == {}


def test_refuses_to_overwrite_an_existing_file(tmp_path: Path):
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(FileExistsError):
        Writer(tmp_path).write("/x", {})


@pytest.mark.parametrize("uri", [
    "/3/../../etc/passwd", "/3/movie/..", "3/movie/1", "/3//movie", "/3/./x", "/3/movie/1?x=1",
    "/3/movie/ 1", "/3/movié", "/3/movie/1\x00", "", "/", "/3/movie/1/",
])
def test_refuses_unsafe_uris(tmp_path: Path, uri: str):
    with pytest.raises(WriterError):
        Writer(tmp_path).write(uri, {})
    assert not any(p.is_file() for p in tmp_path.rglob("*"))
