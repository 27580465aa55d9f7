from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from marquee.packs import PACK_NAME, Pack, etag_of
from site_gen.writer import Writer, WriterError


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
    assert [p.name for p in tmp_path.iterdir()] == [PACK_NAME]


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


def test_unchanged_documents_are_counted_against_the_previous_release(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/3/movie/1", BIG)
    first.write("/3/movie/2", {"id": 2, "title": "Two"})
    first.write("/3/movie/3", {"id": 3})
    first.finish()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.write("/3/movie/1", BIG)                              # same bytes
    second.write("/3/movie/2", {"id": 2, "title": "Two, changed"})  # new bytes
    second.write("/3/movie/4", {"id": 4})                        # new document
    second.finish()
    assert second.unchanged == 1
    with Pack(tmp_path / "r1") as old, Pack(tmp_path / "r2") as new:
        assert new.etag("3/movie/1.json") == old.etag("3/movie/1.json")
        assert new.etag("3/movie/2.json") != old.etag("3/movie/2.json")
        assert new.names() == ["3/movie/1.json", "3/movie/2.json", "3/movie/4.json"]  # 3 is gone


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
