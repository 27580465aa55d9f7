from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from marquee.manifests import DIGEST_SQL, digest_of, digests_of, manifest_rows, other_digests, previous_manifest
from marquee.packs import BASE_NAME, PACK_NAME, Pack, block_documents, etag_of, is_delta, variantless
from site_gen import delta_writer
from site_gen.writer import MANIFEST_NAME, Writer, WriterError, manifest_file

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
        assert pack.names("3/movie/603%") == ["3/movie/603.de-DE.json", "3/movie/603.json", "3/movie/603/credits.json"]


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


def test_the_manifest_stores_each_name_by_its_shared_prefix_and_reads_back_whole(tmp_path: Path):
    writer = Writer(tmp_path)
    bodies = {f"3/movie/{n}{variant}.json": {"id": n, "v": variant} for n in range(3_000) for variant in ("", ".de-DE")}
    for name, body in bodies.items():
        writer.write("/" + name.removesuffix(".json"), body)
    writer.finish()
    (path,) = (tmp_path / MANIFEST_NAME).glob("*.parquet")
    column = pq.ParquetFile(path).metadata.row_group(0).column(1)
    assert column.path_in_schema == "name" and "DELTA_BYTE_ARRAY" in column.encodings
    assert _effective(tmp_path) == {name: digest_of(orjson.dumps(body)) for name, body in bodies.items()}


def test_refuses_the_same_uri_twice(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/1", {})
    writer.write("/3/movie/2", {})
    writer.write("/3/movie/1", {"other": True})
    with pytest.raises(WriterError, match="3/movie/1.json twice"):
        writer.finish()


@pytest.mark.parametrize("twin", [True, False])
def test_refuses_an_untranslated_variant_twice_whether_or_not_it_is_a_twin(tmp_path: Path, twin: bool):
    writer = Writer(tmp_path)  # a twin never reaches the pack: the index cannot be what refuses it
    writer.write("/3/movie/1", {"a": 1})
    writer.write("/3/movie/1.und", {"a": 1} if twin else {"a": 2})
    writer.write("/3/movie/1.und", {"a": 1} if twin else {"a": 2})
    with pytest.raises(WriterError, match="3/movie/1.und.json twice"):
        writer.finish()


def test_refuses_to_replace_an_existing_pack(tmp_path: Path):
    (tmp_path / PACK_NAME).write_text("")
    with pytest.raises(FileExistsError):
        Writer(tmp_path)


@pytest.mark.parametrize(
    "uri",
    [
        "/3/../../etc/passwd",
        "/3/movie/..",
        "3/movie/1",
        "/3//movie",
        "/3/./x",
        "/3/movie/1?x=1",
        "/3/movie/ 1",
        "/3/movié",
        "/3/movie/1\x00",
        "",
        "/",
        "/3/movie/1/",
    ],
)
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
    second.write("/3/movie/1", None, digest_of(orjson.dumps(BIG)))  # unchanged: only its name
    second.write("/3/movie/2", {"id": 2, "title": "Two, changed"})  # replaced
    second.write("/3/movie/4", {"id": 4})  # new; 3 is no longer rendered
    second.finish()
    assert second.unchanged == 1 and second.summary().documents == 3
    assert second.summary().bytes == len(orjson.dumps({"id": 2, "title": "Two, changed"})) + len(b'{"id":4}')
    with Pack(tmp_path / "r1") as old, Pack(tmp_path / "r2") as new:
        assert new.names() == ["3/movie/1.json", "3/movie/2.json", "3/movie/4.json"]
        assert new.get("3/movie/1.json") == orjson.dumps(BIG) and new.etag("3/movie/1.json") == old.etag(
            "3/movie/1.json"
        )
        assert orjson.loads(new.get("3/movie/2.json"))["title"] == "Two, changed"
        assert new.etag("3/movie/2.json") == etag_of(new.get("3/movie/2.json")) != old.etag("3/movie/2.json")
        assert old.names() == ["3/movie/1.json", "3/movie/2.json", "3/movie/3.json"]  # the old pack is untouched
    manifest = pq.read_table(tmp_path / "r2" / MANIFEST_NAME / manifest_file("")).to_pylist()
    assert [row["name"] for row in manifest] == ["3/movie/1.json", "3/movie/2.json", "3/movie/4.json"]


def test_an_update_refuses_a_name_twice_and_a_missing_body_without_a_previous_release(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/a", {"x": 1})
    first.finish()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.write("/a", {"x": 2})
    second.write("/a", None, 0)
    with pytest.raises(WriterError, match="a.json twice"):
        second.finish()
    with pytest.raises(WriterError, match="no previous release"):
        Writer(tmp_path / "r3").write("/a", None, 0)


def test_a_full_build_beside_a_previous_pack_without_manifest_counts_unchanged(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/a", {"x": 1})
    first.write("/b", {"x": 2})
    first.finish()
    shutil.rmtree(tmp_path / "r1" / MANIFEST_NAME)
    assert not Writer(tmp_path / "r0", previous=tmp_path / "r1").updating
    # Manifests of older layouts (one file; no template column) are not compared against either.
    pq.write_table(
        pa.table({"template": [""], "name": ["a.json"], "etag": ["x"]}), tmp_path / "r1" / "MANIFEST.parquet"
    )
    assert not Writer(tmp_path / "r00", previous=tmp_path / "r1").updating
    (tmp_path / "r1" / MANIFEST_NAME).mkdir()
    pq.write_table(pa.table({"name": ["a.json"], "etag": ["x"]}), tmp_path / "r1" / MANIFEST_NAME / "x.parquet")
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


def test_digests_are_duckdbs_hash_of_the_json_in_python_and_sql():
    bodies = [b'{"id":1}', None, b"", b'{"title":"\xc3\xa9t\xc3\xa9"}' * 50]
    with duckdb.connect() as con:
        expected = [con.execute(f"SELECT {DIGEST_SQL}(?::BLOB)", [b]).fetchall()[0][0] for b in bodies if b is not None]
    assert digests_of(pa.array(bodies, pa.binary())).to_pylist() == [expected[0], None, expected[1], expected[2]]
    assert [digest_of(b) for b in bodies if b is not None] == expected
    assert len(set(expected)) == 3


def test_a_previous_manifest_of_another_digest_function_is_not_compared(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/a", {"x": 1})
    first.finish()
    # the same rows, the digests an older build kept (MD5's first 8 bytes), no function named
    for file in (tmp_path / "r1" / MANIFEST_NAME).glob("*.parquet"):
        table = pq.read_table(file)
        md5 = [int.from_bytes(hashlib.md5(b'{"x":1}').digest()[:8], "little")] * len(table)
        pq.write_table(table.set_column(2, "digest", pa.array(md5, pa.uint64())).replace_schema_metadata(None), file)
    assert previous_manifest(tmp_path / "r1") is None and other_digests(tmp_path / "r1")
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    assert not second.updating  # a full pack, not a delta over digests it cannot compare
    second.write("/a", {"x": 1})
    second.finish()
    assert second.unchanged == 0  # not counted: that would read every document of the previous pack
    assert previous_manifest(tmp_path / "r2") is not None and not other_digests(tmp_path / "r2")


def test_untranslated_variants_equal_to_their_default_are_dropped(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/1", {"id": 1, "title": "One"})
    writer.write("/3/movie/1.und", {"id": 1, "title": "One"})  # the same: dropped
    writer.write("/3/movie/2", {"id": 2, "title": "Two"})
    writer.write("/3/movie/2.und", {"id": 2, "title": "Deux"})  # differs: kept
    writer.write("/3/movie/3.und", {"id": 3})  # no default: kept
    writer.finish()
    with Pack(tmp_path) as pack:
        assert pack.names() == ["3/movie/1.json", "3/movie/2.json", "3/movie/2.und.json", "3/movie/3.und.json"]
    assert writer.summary().documents == 4
    assert writer.summary().bytes == sum(
        len(orjson.dumps(d))
        for d in ({"id": 1, "title": "One"}, {"id": 2, "title": "Two"}, {"id": 2, "title": "Deux"}, {"id": 3})
    )


def test_untranslated_twins_are_found_across_batches(tmp_path: Path):
    """Rendered batches: a twin and its default may arrive in different batches, in either order."""
    from site_gen.documents import BATCH_SCHEMA

    def batch(documents: dict[str, Any]) -> pa.RecordBatch:
        bodies = [orjson.dumps(d) for d in documents.values()]
        return pa.RecordBatch.from_arrays(
            [
                pa.array(list(documents)),
                pa.array(bodies, pa.binary()),
                pa.array([digest_of(b) for b in bodies], pa.uint64()),
                pa.array([True] * len(bodies)),
            ],
            schema=BATCH_SCHEMA,
        )

    writer = Writer(tmp_path)
    writer.write_batch(
        "/3/movie/{id}",
        batch(
            {"/3/movie/1.und": {"id": 1}, "/3/movie/2": {"id": 2, "t": "Two"}, "/3/movie/3.und": {"id": 3, "t": "x"}}
        ),
    )
    writer.write_batch(
        "/3/movie/{id}",
        batch(
            {
                "/3/movie/1": {"id": 1},
                "/3/movie/2.und": {"id": 2, "t": "Two"},
                "/3/movie/3": {"id": 3},
                "/3/movie/4.und": {"id": 4},
            }
        ),
    )
    writer.finish()
    with Pack(tmp_path) as pack:
        assert pack.names() == [
            "3/movie/1.json",
            "3/movie/2.json",
            "3/movie/3.json",
            "3/movie/3.und.json",
            "3/movie/4.und.json",
        ]
    kept = [{"id": 1}, {"id": 2, "t": "Two"}, {"id": 3}, {"id": 3, "t": "x"}, {"id": 4}]
    assert writer.summary().documents == 5
    assert writer.summary().bytes == sum(len(orjson.dumps(d)) for d in kept)


def _build(folder: Path, documents: dict[str, Any], previous: Path | None = None) -> Writer:
    """Write `documents` (uri: document) as an update of `previous` would receive them: a document
    with the etag it has in the previous manifest arrives as None."""
    before = {}
    if previous is not None:
        before = {row["name"]: row["digest"] for row in pq.read_table(previous / MANIFEST_NAME).to_pylist()}
    writer = Writer(folder, previous=previous)
    for uri, document in documents.items():
        etag = digest_of(orjson.dumps(document))
        writer.write(uri, None if before.get(uri[1:] + ".json") == etag else document, etag)
    writer.finish()
    return writer


def _rows(release: Path) -> list[tuple]:
    with Pack(release) as pack:
        rows = list(pack.rows())
        assert pack.count() == len(rows) == len(pack.names())
        return rows


def _fingerprint(release: Path) -> tuple:
    pack = release / PACK_NAME
    return os.stat(pack).st_ino, hashlib.md5(pack.read_bytes()).hexdigest()


def _check_like_a_full_build(tmp_path: Path, release: Path, writer: Writer, documents: dict[str, Any]) -> None:
    full = _build(tmp_path / f"{release.name}-full", documents)
    assert _rows(release) == _rows(tmp_path / f"{release.name}-full")
    assert writer.summary().documents == full.summary().documents


V1 = {"/3/movie/1": {"id": 1, "t": "One"}, "/3/movie/2": {"id": 2}, "/3/movie/3": {"id": 3}, "/3/movie/4": {"id": 4}}


def test_an_update_writes_a_delta_over_a_hard_link_and_a_second_one_stays_one_deep(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 100.0)  # tiny packs: a delta is as big as its base
    _build(tmp_path / "r1", V1)
    r1 = _fingerprint(tmp_path / "r1")
    v2 = {**V1, "/3/movie/2": {"id": 2, "t": "Two"}, "/3/movie/5": {"id": 5}}
    del v2["/3/movie/3"]
    second = _build(tmp_path / "r2", v2, previous=tmp_path / "r1")
    assert second.delta and second.summary().files == 2
    assert (second.unchanged, second.summary().documents) == (2, 4)
    assert os.stat(tmp_path / "r2" / BASE_NAME).st_ino == r1[0]
    _check_like_a_full_build(tmp_path, tmp_path / "r2", second, v2)
    r2 = _fingerprint(tmp_path / "r2")
    # On top of a delta: a copy of that delta over the same base, never a delta of a delta.
    v3 = {**v2, "/3/movie/3": {"id": 3}, "/3/movie/1": {"id": 1, "t": "Uno"}}
    del v3["/3/movie/5"], v3["/3/movie/4"]
    third = _build(tmp_path / "r3", v3, previous=tmp_path / "r2")
    assert (third.unchanged, third.summary().documents) == (1, 3)
    assert os.stat(tmp_path / "r3" / BASE_NAME).st_ino == r1[0] and is_delta(tmp_path / "r3" / PACK_NAME)
    assert sorted(p.name for p in (tmp_path / "r3").iterdir()) == sorted([BASE_NAME, MANIFEST_NAME, PACK_NAME])
    _check_like_a_full_build(tmp_path, tmp_path / "r3", third, v3)
    assert _fingerprint(tmp_path / "r1") == r1 and _fingerprint(tmp_path / "r2") == r2
    assert _rows(tmp_path / "r2") == _rows(tmp_path / "r2-full")  # the releases below still read as before
    with Pack(tmp_path / "r3") as pack:
        assert pack.get("3/movie/4.json") is None  # deleted in r3, though the base has it
        assert (
            pack.con.execute("SELECT body FROM base.docs WHERE key = ?", (pack.key("3/movie/4.json"),)).fetchone()
            is not None
        )
        assert pack.get("3/movie/3.json") == b'{"id":3}'  # gone in r2, back in r3


def test_a_delta_past_the_threshold_is_compacted_into_a_full_pack(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 100.0)
    _build(tmp_path / "r1", V1)
    v2 = {**V1, "/3/movie/2": {"id": 2, "t": "Two"}}
    del v2["/3/movie/3"]
    _build(tmp_path / "r2", v2, previous=tmp_path / "r1")
    r1, r2 = _fingerprint(tmp_path / "r1"), _fingerprint(tmp_path / "r2")
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 0.0)
    v3 = {**v2, "/3/movie/1": {"id": 1, "t": "Uno"}, "/3/movie/6": {"id": 6}}
    third = _build(tmp_path / "r3", v3, previous=tmp_path / "r2")
    assert not third.delta and third.updating and third.summary().files == 1
    assert sorted(p.name for p in (tmp_path / "r3").iterdir()) == [MANIFEST_NAME, PACK_NAME]
    assert not is_delta(tmp_path / "r3" / PACK_NAME)
    assert (third.unchanged, third.summary().documents) == (2, 4)
    _check_like_a_full_build(tmp_path, tmp_path / "r3", third, v3)
    assert _fingerprint(tmp_path / "r1") == r1 and _fingerprint(tmp_path / "r2") == r2
    # The compacted pack is the next update's base.
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 100.0)
    fourth = _build(tmp_path / "r4", {**v3, "/3/movie/6": {"id": 6, "t": "Six"}}, previous=tmp_path / "r3")
    assert fourth.delta and os.stat(tmp_path / "r4" / BASE_NAME).st_ino == _fingerprint(tmp_path / "r3")[0]


def test_untranslated_twins_are_dropped_and_restored_across_a_delta(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 100.0)
    one, deux = {"id": 1, "title": "One"}, {"id": 1, "title": "Un"}
    v1 = {
        "/3/movie/1": one,
        "/3/movie/1.und": deux,  # differs: kept
        "/3/movie/2": {"id": 2},
        "/3/movie/2.und": {"id": 2},
    }  # a twin: dropped
    _build(tmp_path / "r1", v1)
    assert [name for name, _, _ in _rows(tmp_path / "r1")] == ["3/movie/1.json", "3/movie/1.und.json", "3/movie/2.json"]
    v2 = {
        "/3/movie/1": one,
        "/3/movie/1.und": one,  # becomes a twin: hidden in the base
        "/3/movie/2": {"id": 2, "x": 1},
        "/3/movie/2.und": {"id": 2},  # stops being one: restored
        "/3/movie/3": {"id": 3},
        "/3/movie/3.und": {"id": 3},
    }  # new twin: never stored
    second = _build(tmp_path / "r2", v2, previous=tmp_path / "r1")
    assert second.delta
    _check_like_a_full_build(tmp_path, tmp_path / "r2", second, v2)
    assert second.unchanged == 2  # 1 and the restored 2.und
    with Pack(tmp_path / "r2") as pack:
        assert pack.get("3/movie/1.und.json") is None and pack.get("3/movie/3.und.json") is None
        assert pack.get("3/movie/2.und.json") == b'{"id":2}'
        (block,) = pack.con.execute(
            "SELECT body FROM main.docs WHERE key = ?", (pack.key("3/movie/1.und.json"),)
        ).fetchone()
        assert list(block_documents(pack.decode(block))) == [".json"]  # the film's block again, without the twin
    # And back, on top of the delta: 1.und differs again (over its own tombstone), 2.und is a twin again.
    v3 = {**v1, "/3/movie/3": {"id": 3}, "/3/movie/3.und": {"id": 3, "t": "Trois"}}
    third = _build(tmp_path / "r3", v3, previous=tmp_path / "r2")
    assert third.delta
    _check_like_a_full_build(tmp_path, tmp_path / "r3", third, v3)
    with Pack(tmp_path / "r3") as pack:
        assert pack.get("3/movie/1.und.json") == orjson.dumps(deux) and pack.get("3/movie/2.und.json") is None


def test_unchanged_batches_reach_only_the_manifest_in_order(tmp_path: Path):
    from site_gen.documents import BATCH_SCHEMA

    def batch(uris, bodies, etags):
        return pa.RecordBatch.from_arrays(
            [
                pa.array(uris, pa.string()),
                pa.array(bodies, pa.binary()),
                pa.array(etags, pa.uint64()),
                pa.nulls(len(uris), pa.bool_()),
            ],
            schema=BATCH_SCHEMA,
        )

    first = Writer(tmp_path / "r1")
    first.write_batch(
        "/3/movie/{id}",
        batch([f"/3/movie/{n}" for n in range(7_000)], [b'{"n":%d}' % n for n in range(7_000)], [None] * 7_000),
    )
    first.finish()
    etags = [digest_of(b'{"n":%d}' % n) for n in range(7_000)]
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.write("/3/a", {"a": 1}, template="/3/a")
    second.write_batch("/3/movie/{id}", batch([f"/3/movie/{n}" for n in range(6_000)], [None] * 6_000, etags[:6_000]))
    second.write("/3/b", {"b": 1}, template="/3/b")
    second.write_batch(
        "/3/movie/{id}",
        batch(
            [f"/3/movie/{n}" for n in range(6_000, 7_000)],
            [None, b'{"n":"changed"}'] * 500,
            [etags[n] if n % 2 == 0 else None for n in range(6_000, 7_000)],
        ),
    )
    second.finish()
    folder = tmp_path / "r2" / MANIFEST_NAME
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        manifest_file(t) for t in ("/3/a", "/3/b", "/3/movie/{id}")
    )
    manifest = pq.read_table(folder / manifest_file("/3/movie/{id}")).to_pydict()  # one file per template
    assert manifest["name"] == [f"3/movie/{n}.json" for n in range(7_000)] and set(manifest["template"]) == {
        "/3/movie/{id}"
    }
    assert manifest["digest"][:6_000] == etags[:6_000] and manifest["digest"][6_001] == digest_of(b'{"n":"changed"}')
    assert manifest["digest"][6_000] == etags[6_000]
    assert pq.read_table(folder / manifest_file("/3/b")).to_pydict() == {
        "template": ["/3/b"],
        "name": ["3/b.json"],
        "digest": [digest_of(b'{"b":1}')],
    }
    assert (second.unchanged, second.summary().documents) == (6_500, 7_002)
    assert second.summary().bytes == len(b'{"a":1}') + len(b'{"b":1}') + 500 * len(b'{"n":"changed"}')
    with Pack(tmp_path / "r2") as pack:
        assert pack.con.execute("SELECT count(*) FROM main.docs").fetchone()[0] == 502  # only what changed
        assert pack.get("3/movie/6001.json") == b'{"n":"changed"}' and pack.get("3/movie/5999.json") == b'{"n":5999}'


def test_a_full_build_beside_a_delta_release_without_manifest_counts_unchanged_through_its_base(tmp_path: Path):
    _build(tmp_path / "r1", {"/a": {"x": 1}, "/b": {"x": 2}, "/c": {"x": 3}})
    _build(tmp_path / "r2", {"/a": {"x": 1}, "/b": {"x": 20}}, previous=tmp_path / "r1")
    shutil.rmtree(tmp_path / "r2" / MANIFEST_NAME)
    third = Writer(tmp_path / "r3", previous=tmp_path / "r2")
    assert not third.updating
    for uri, document in {"/a": {"x": 1}, "/b": {"x": 20}, "/c": {"x": 3}}.items():
        third.write(uri, document)
    third.finish()
    assert third.unchanged == 2  # a from the base, b from the delta; c is gone in r2, though the base has it


def test_a_template_kept_whole_is_a_link_to_the_previous_manifest_file_and_no_row_passes(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    for n in range(3):
        first.write(f"/3/movie/{n}", {"n": n}, template="/3/movie/{id}")
    first.write("/3/a", {"a": 1}, template="/3/a")
    first.finish()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.keep_template("/3/movie/{id}")
    second.write("/3/a", {"a": 2}, template="/3/a")
    with pytest.raises(WriterError, match="kept whole"):
        second.write("/3/movie/9", {"n": 9}, template="/3/movie/{id}")
    with pytest.raises(WriterError, match="kept whole after"):
        second.keep_template("/3/a")
    second.finish()
    kept = manifest_file("/3/movie/{id}")
    assert (
        os.stat(tmp_path / "r2" / MANIFEST_NAME / kept).st_ino == os.stat(tmp_path / "r1" / MANIFEST_NAME / kept).st_ino
    )
    assert (second.unchanged, second.summary().documents) == (3, 4)
    with Pack(tmp_path / "r2") as pack:
        assert pack.get("3/movie/2.json") == b'{"n":2}' and pack.get("3/a.json") == b'{"a":2}'
        assert pack.con.execute("SELECT count(*) FROM main.docs").fetchone()[0] == 1
    with pytest.raises(WriterError, match="without a previous release"):
        Writer(tmp_path / "r3").keep_template("/3/a")


def test_a_name_written_under_another_template_than_the_one_kept_whole_is_refused(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/3/a", {"a": 1}, template="/3/a")
    first.write("/3/b", {"b": 1}, template="/3/b")
    first.finish()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.keep_template("/3/a")
    second.write("/3/b", {"b": 1}, template="/3/b")
    second.write("/3/a", {"a": 2}, template="/3/other")  # the kept template's name, from another template
    with pytest.raises(WriterError, match="3/a.json twice"):
        second.finish()


def _batch(uris: list[str], bodies: list[bytes | None], etags: list[int | None]) -> pa.RecordBatch:
    from site_gen.documents import BATCH_SCHEMA

    return pa.RecordBatch.from_arrays(
        [
            pa.array(uris, pa.string()),
            pa.array(bodies, pa.binary()),
            pa.array(etags, pa.uint64()),
            pa.nulls(len(uris), pa.bool_()),
        ],
        schema=BATCH_SCHEMA,
    )


def _effective(release: Path) -> dict[str, int]:
    return dict(duckdb.sql(f"SELECT name, digest FROM {manifest_rows(release / MANIFEST_NAME)}").fetchall())


def test_changes_over_the_previous_manifest_are_a_delta_beside_a_link_to_its_file(tmp_path: Path):
    from marquee.manifests import delta_file

    movie = "/3/movie/{id}"
    first = Writer(tmp_path / "r1")
    for n in range(10):
        first.write(f"/3/movie/{n}", {"n": n}, template=movie)
    first.write("/3/a", {"a": 1}, template="/3/a")
    first.finish()
    etags = [digest_of(orjson.dumps({"n": n})) for n in range(10)]
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    with pytest.raises(WriterError, match="no manifest of it"):
        second.over_previous("/3/new/{id}")
    with pytest.raises(WriterError, match="no document"):  # a removal outside a delta
        second.write_batch("/3/b", _batch(["/3/b"], [None], [None]))
    second.keep_template("/3/a")
    second.over_previous(movie)
    # 3 changed, 4 unchanged, 5 removed, 10 new
    second.write_batch(
        movie,
        _batch(
            ["/3/movie/3", "/3/movie/4", "/3/movie/5", "/3/movie/10"],
            [b'{"n":"three"}', None, None, b'{"n":10}'],
            [None, etags[4], None, None],
        ),
    )
    with pytest.raises(WriterError, match="after documents were written"):
        second.over_previous(movie)
    second.finish()
    folder = tmp_path / "r2" / MANIFEST_NAME
    assert (
        os.stat(folder / manifest_file(movie)).st_ino
        == os.stat(tmp_path / "r1" / MANIFEST_NAME / manifest_file(movie)).st_ino
    )
    assert [row["name"] for row in pq.read_table(folder / delta_file(movie)).to_pylist()] == [
        "3/movie/3.json",
        "3/movie/4.json",
        "3/movie/5.json",
        "3/movie/10.json",
    ]
    expected = {f"3/movie/{n}.json": etags[n] for n in range(10) if n != 5}
    expected |= {
        "3/movie/3.json": digest_of(b'{"n":"three"}'),
        "3/movie/10.json": digest_of(b'{"n":10}'),
        "3/a.json": digest_of(b'{"a":1}'),
    }
    assert _effective(tmp_path / "r2") == expected
    with Pack(tmp_path / "r2") as pack:
        assert pack.get("3/movie/5.json") is None and pack.get("3/movie/3.json") == b'{"n":"three"}'
        assert pack.get("3/movie/9.json") == b'{"n":9}' and pack.get("3/movie/10.json") == b'{"n":10}'
        assert pack.count() == 11
    assert second.unchanged == 9  # 8 films and /3/a

    # On top of it: the removed name back, and the earlier changes carried as unchanged rows.
    third = Writer(tmp_path / "r3", previous=tmp_path / "r2")
    third.over_previous(movie)
    third.write_batch(
        movie,
        _batch(
            ["/3/movie/3", "/3/movie/10", "/3/movie/5"],
            [None, None, b'{"n":5}'],
            [digest_of(b'{"n":"three"}'), digest_of(b'{"n":10}'), None],
        ),
    )
    third.keep_template("/3/a")
    third.finish()
    assert _effective(tmp_path / "r3") == expected | {"3/movie/5.json": etags[5]}
    with Pack(tmp_path / "r3") as pack:
        assert pack.get("3/movie/5.json") == b'{"n":5}' and pack.count() == 12


def test_a_name_a_delta_writes_that_another_template_holds_is_refused(tmp_path: Path):
    first = Writer(tmp_path / "r1")
    first.write("/3/movie/1", {"n": 1}, template="/3/movie/{id}")
    first.write("/3/movie/2", {"n": 2}, template="/3/other/{id}")  # a rendering bug, unseen until now
    first.finish()
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.over_previous("/3/movie/{id}")
    second.write_batch("/3/movie/{id}", _batch(["/3/movie/2"], [b'{"n":"two"}'], [None]))
    second.keep_template("/3/other/{id}")
    with pytest.raises(WriterError, match="3/movie/2.json twice"):
        second.finish()


def test_the_pack_names_the_templates_without_language_variants(tmp_path: Path, monkeypatch):
    """VARIANTLESS: a full build's from its names; an update's from what it wrote and, for the
    templates it kept or wrote in part, what the previous release said."""
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 100.0)
    details, credits, videos = "/3/movie/{movie_id}", "/3/movie/{movie_id}/credits", "/3/movie/{movie_id}/videos"
    first = Writer(tmp_path / "r1")
    first.write("/3/movie/1", {"id": 1}, template=details)
    first.write("/3/movie/1.de-DE", {"id": 1, "title": "Eins"}, template=details)
    first.write("/3/movie/1/credits", {"id": 1, "cast": []}, template=credits)
    first.write("/3/movie/1/videos", {"id": 1, "results": []}, template=videos)
    first.finish()
    with Pack(tmp_path / "r1") as pack:
        assert variantless(pack.con) == {"/#/movie/#/credits", "/#/movie/#/videos"}
    second = Writer(tmp_path / "r2", previous=tmp_path / "r1")
    second.keep_template(credits)  # kept: the previous release's word for it stands
    second.write("/3/movie/1", None, digest_of(b'{"id":1}'), template=details)
    second.write("/3/movie/1.de-DE", {"id": 1, "title": "Eins!"}, template=details)
    second.write("/3/movie/1/videos", None, digest_of(b'{"id":1,"results":[]}'), template=videos)
    second.write("/3/movie/1/videos.und", {"id": 1, "results": [1]}, template=videos)  # videos gain a variant
    second.finish()
    with Pack(tmp_path / "r2") as pack:
        assert variantless(pack.con) == {"/#/movie/#/credits"}


def test_a_large_pack_s_blocks_are_written_apart_the_same_and_still_refuse_a_name_twice(tmp_path: Path, monkeypatch):
    """Past APART_BYTES staged, a full pack's blocks are written by a process of its own: the same
    rows as on the writer's thread, twins left out and counted, a name written twice refused."""
    from site_gen import writer as writer_module

    def write(root: Path, twice: bool = False) -> list[tuple]:
        writer = Writer(root)
        for n in range(300):
            writer.write(f"/3/movie/{n}", {"id": n, "title": f"Film {n}"})
            writer.write(f"/3/movie/{n}.und", {"id": n, "title": f"Film {n}" if n % 3 else "Untitled"})
            writer.write(f"/_items/movie/{n}", {"id": n})
        if twice:
            writer.write("/3/movie/7", {"id": 7})
        writer.finish()
        assert writer.summary().documents == 300 * 3 - 200  # 200 twins
        with Pack(root) as pack:
            assert pack.count() == 700
            return [pack.get(name) for name in pack.names()]

    on_thread = write(tmp_path / "thread")
    monkeypatch.setattr(writer_module, "APART_BYTES", 0)
    assert write(tmp_path / "apart") == on_thread
    with pytest.raises(WriterError, match="3/movie/7.json twice"):
        write(tmp_path / "twice", twice=True)
    assert not (tmp_path / "twice" / ".staging").exists()
