from __future__ import annotations

from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from marquee.packs import PACK_NAME, Pack, etag_of
from site_gen.writer import MANIFEST_NAME, Writer, WriterError


BIG = {"id": 603, "title": "The Matrix", "overview": "x" * 2000}


def test_maps_uris_to_pack_rows_with_etags(tmp_path: Path):
    writer = Writer(tmp_path)
    assert writer.write("/3/movie/603", BIG) == "3/movie/603.json"
    credits = b'{"id":603,"cast":[' + b'{"name":"A"},' * 200 + b'{"name":"B"}]}'
    writer.write("/3/movie/603/credits", credits)
    writer.write("/3/movie/603.de-DE", {"id": 603, "title": "Matrix"})
    writer.finish()
    with Pack(tmp_path) as pack:
        assert orjson.loads(pack.get("3/movie/603.json")) == BIG
        assert pack.get("3/movie/603/credits.json") == credits  # bytes go in as given
        assert pack.etag("3/movie/603/credits.json") == etag_of(credits) != pack.etag("3/movie/603.json")
        assert orjson.loads(pack.get("3/movie/603.de-DE.json"))["title"] == "Matrix"
        assert pack.get("3/movie/604.json") is None
        assert pack.names("3/movie/603%") == ["3/movie/603.de-DE.json", "3/movie/603.json",
                                                "3/movie/603/credits.json"]


def test_summary_counts_documents_and_bytes(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/a", {"x": 1})
    writer.write("/b/c", BIG)
    writer.finish()
    summary = writer.summary()
    assert summary.documents == 2 and summary.files == 1
    assert summary.bytes == len(orjson.dumps({"x": 1})) + len(orjson.dumps(BIG))
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST_NAME, PACK_NAME]


def test_many_rows_span_batches(tmp_path: Path):
    writer = Writer(tmp_path)
    for n in range(12_345):
        writer.write(f"/3/movie/{n}", {"id": n})
    writer.finish()
    with Pack(tmp_path) as pack:
        assert pack.count() == 12_345 and orjson.loads(pack.get("3/movie/12344.json")) == {"id": 12344}


def test_refuses_the_same_uri_twice(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/1", {})
    writer.write("/3/movie/2", {})
    writer.write("/3/movie/1", {"other": True})
    with pytest.raises(WriterError, match="3/movie/1.json twice"):
        writer.finish()


def test_refuses_to_replace_an_existing_pack(tmp_path: Path):
    (tmp_path / PACK_NAME).write_text("")
    with pytest.raises(FileExistsError):
        Writer(tmp_path)


@pytest.mark.parametrize("uri", [
    "/3/../../etc/passwd", "/3/movie/..", "3/movie/1", "/3//movie", "/3/./x", "/3/movie/1?x=1",
    "/3/movie/ 1", "/3/movié", "/3/movie/1\x00", "", "/", "/3/movie/1/",
])
def test_refuses_unsafe_uris(tmp_path: Path, uri: str):
    writer = Writer(tmp_path)
    with pytest.raises(WriterError):
        writer.write(uri, {})
    writer.finish()
    with Pack(tmp_path) as pack:
        assert pack.count() == 0


def test_an_update_keeps_unchanged_rows_replaces_changed_ones_and_drops_vanished_ones(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/3/movie/1", BIG)
    first.write("/3/movie/2", {"id": 2, "title": "Two"})
    first.write("/3/movie/3", {"id": 3})
    first.finish()
    assert not first.updating
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    assert second.updating
    second.write("/3/movie/1", None, etag_of(orjson.dumps(BIG)))         # unchanged: only its name
    second.write("/3/movie/2", {"id": 2, "title": "Two, changed"})        # replaced
    second.write("/3/movie/4", {"id": 4})                                # new; 3 is no longer rendered
    second.finish()
    assert second.unchanged == 1 and second.summary().documents == 3
    assert second.summary().bytes == len(orjson.dumps({"id": 2, "title": "Two, changed"})) + len(b'{"id":4}')
    with Pack(tmp_path / "r1") as old, Pack(tmp_path / "r2") as new:
        assert new.names() == ["3/movie/1.json", "3/movie/2.json", "3/movie/4.json"]
        assert new.get("3/movie/1.json") == orjson.dumps(BIG) and new.etag("3/movie/1.json") == old.etag("3/movie/1.json")
        assert orjson.loads(new.get("3/movie/2.json"))["title"] == "Two, changed"
        assert new.etag("3/movie/2.json") == etag_of(new.get("3/movie/2.json")) != old.etag("3/movie/2.json")
        assert old.names() == ["3/movie/1.json", "3/movie/2.json", "3/movie/3.json"]  # the old pack is untouched
    manifest = pq.read_table(tmp_path / "r2" / MANIFEST_NAME).to_pylist()
    assert [row["name"] for row in manifest] == ["3/movie/1.json", "3/movie/2.json", "3/movie/4.json"]


def test_an_update_refuses_a_name_twice_and_a_missing_body_without_a_previous_release(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/a", {"x": 1})
    first.finish()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.write("/a", {"x": 2})
    second.write("/a", None, "0" * 32)
    with pytest.raises(WriterError, match="a.json twice"):
        second.finish()
    with pytest.raises(WriterError, match="no previous release"):
        Writer(tmp_path / "r3").write("/a", None, "0" * 32)


def test_a_full_build_beside_a_previous_pack_without_manifest_counts_unchanged(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/a", {"x": 1})
    first.write("/b", {"x": 2})
    first.finish()
    (tmp_path / "r1" / MANIFEST_NAME).unlink()
    assert not Writer(tmp_path / "r0", previous=tmp_path / "r1").updating
    # A manifest of an older layout (no template column) is not compared against either.
    pq.write_table(pa.table({"name": ["a.json"], "etag": ["x"]}), tmp_path / "r1" / MANIFEST_NAME)
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    assert not second.updating
    second.write("/a", {"x": 1})
    second.write("/b", {"x": 3})
    second.finish()
    assert second.unchanged == 1


def test_a_previous_release_without_a_pack_counts_nothing(tmp_path: Path):
    (tmp_path / "r1").mkdir()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.write("/a", {"x": 1})
    second.finish()
    assert second.unchanged == 0


def test_untranslated_variants_equal_to_their_default_are_dropped(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/1", {"id": 1, "title": "One"})
    writer.write("/3/movie/1.und", {"id": 1, "title": "One"})         # the same: dropped
    writer.write("/3/movie/2", {"id": 2, "title": "Two"})
    writer.write("/3/movie/2.und", {"id": 2, "title": "Deux"})        # differs: kept
    writer.write("/3/movie/3.und", {"id": 3})                         # no default: kept
    writer.finish()
    with Pack(tmp_path) as pack:
        assert pack.names() == ["3/movie/1.json", "3/movie/2.json", "3/movie/2.und.json", "3/movie/3.und.json"]
    assert writer.summary().documents == 4
    assert writer.summary().bytes == sum(len(orjson.dumps(d)) for d in (
        {"id": 1, "title": "One"}, {"id": 2, "title": "Two"}, {"id": 2, "title": "Deux"}, {"id": 3}))
