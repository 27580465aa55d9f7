from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from site_gen.writer import GZIP_MIN_BYTES, Writer, WriterError


BIG = {"id": 603, "title": "The Matrix", "overview": "x" * GZIP_MIN_BYTES}


def test_maps_uris_to_json_files_with_gzip_twins(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/603", BIG)
    credits = b'{"id":603,"cast":[' + b'{"name":"A"},' * 200 + b'{"name":"B"}]}'
    writer.write("/3/movie/603/credits", credits)
    plain = tmp_path / "3/movie/603.json"
    credits_path = tmp_path / "3/movie/603/credits.json"
    assert orjson.loads(plain.read_bytes()) == BIG
    assert credits_path.read_bytes() == credits
    for path in (plain, credits_path):
        twin = path.with_name(path.name + ".gz")
        assert gzip.decompress(twin.read_bytes()) == path.read_bytes()
        assert twin.stat().st_mtime_ns == path.stat().st_mtime_ns


def test_documents_under_the_threshold_get_no_twin(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/603/external_ids", b'{"id":603,"imdb_id":"tt0133093"}')
    writer.write("/edge", b"x" * (GZIP_MIN_BYTES - 1))
    writer.write("/at", b"x" * GZIP_MIN_BYTES)
    assert not (tmp_path / "3/movie/603/external_ids.json.gz").exists()
    assert not (tmp_path / "edge.json.gz").exists()
    assert (tmp_path / "at.json.gz").exists()


def test_summary_counts_every_file(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/a", {"x": 1})
    writer.write("/b/c", BIG)
    summary = writer.summary()
    on_disk = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert summary.documents == 2 and summary.files == 3 == len(on_disk)
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


def test_unchanged_documents_are_linked_from_the_previous_release(tmp_path: Path):
    first = Writer(tmp_path / "r1", mtime=1_000_000)
    first.write("/3/movie/1", BIG)
    first.write("/3/movie/2", {"id": 2, "title": "Two"})
    first.write("/3/movie/3", {"id": 3})
    first.write_manifest()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.write("/3/movie/1", BIG)                              # same bytes: linked, with its twin
    second.write("/3/movie/2", {"id": 2, "title": "Two, changed"})  # new bytes: written
    second.write("/3/movie/4", {"id": 4})                        # new document: written
    second.write_manifest()
    old, new = tmp_path / "r1/3/movie", tmp_path / "r2/3/movie"
    assert second.linked == 1
    assert (new / "1.json").stat().st_ino == (old / "1.json").stat().st_ino
    assert (new / "1.json.gz").stat().st_ino == (old / "1.json.gz").stat().st_ino
    assert (new / "1.json").stat().st_mtime_ns == 1_000_000 * 10**9  # same file, same ETag
    assert (new / "2.json").stat().st_ino != (old / "2.json").stat().st_ino
    assert orjson.loads((new / "2.json").read_bytes())["title"] == "Two, changed"
    assert not (new / "3.json").exists()  # gone from the catalogue, gone from the release
    on_disk = [p for p in (tmp_path / "r2").rglob("*.json*")]
    assert second.summary().files == len(on_disk)
    assert second.summary().bytes == sum(p.stat().st_size for p in on_disk)
    from site_gen.writer import read_manifest
    assert set(read_manifest(tmp_path / "r2")) == {"/3/movie/1", "/3/movie/2", "/3/movie/4"}


def test_a_missing_previous_file_is_written_instead(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/a", {"x": 1})
    first.write_manifest()
    (tmp_path / "r1/a.json").unlink()  # e.g. a half-pruned release
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.write("/a", {"x": 1})
    assert second.linked == 0 and orjson.loads((tmp_path / "r2/a.json").read_bytes()) == {"x": 1}
