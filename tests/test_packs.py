"""marquee/packs.py: the read side of a release pack."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from marquee.packs import BASE_NAME, PACK_NAME, Pack, etag_of, is_delta, open_pack
from site_gen.writer import Writer


def test_a_release_without_a_pack_is_a_clear_error(tmp_path: Path):
    with pytest.raises(FileNotFoundError, match="no document pack"):
        open_pack(tmp_path)


def test_packs_are_opened_read_only(tmp_path: Path):
    writer = Writer(tmp_path)
    writer.write("/3/movie/1", {"id": 1})
    writer.finish()
    with Pack(tmp_path) as pack:
        assert pack.get("3/movie/1.json") == b'{"id":1}' and pack.etag("3/movie/1.json") == etag_of(b'{"id":1}')
        with pytest.raises(sqlite3.OperationalError):
            pack.con.execute("DELETE FROM docs")
        assert pack.count() == 1 and pack.names("%/1.json") == ["3/movie/1.json"]


def _release(folder: Path, documents: dict[str, bytes | None], previous: Path | None = None) -> Path:
    """A pack of `documents` (uri: body; None: unchanged since `previous`, by its etag there)."""
    writer = Writer(folder, previous=previous)
    etags = {}
    if previous is not None:
        with Pack(previous) as old:
            etags = {uri: old.etag(uri[1:] + ".json") for uri, body in documents.items() if body is None}
    for uri, body in documents.items():
        writer.write(uri, body, etags.get(uri))
    writer.finish()
    return folder


def _rows(pack: Pack) -> list[tuple]:
    return list(pack.con.execute("SELECT name, body, etag FROM docs ORDER BY name"))


def test_a_delta_pack_reads_its_own_rows_then_its_base_and_tombstones_hide_base_rows(tmp_path: Path):
    r1 = _release(tmp_path / "r1", {"/a": b'{"a":1}', "/b": b'{"b":1}', "/c": b'{"c":1}'})
    before = (r1 / PACK_NAME).read_bytes()
    r2 = _release(tmp_path / "r2", {"/a": None, "/b": b'{"b":2}', "/d": b'{"d":2}'}, previous=r1)  # c is gone
    assert is_delta(r2 / PACK_NAME) and not is_delta(r1 / PACK_NAME)
    assert os.stat(r2 / BASE_NAME).st_ino == os.stat(r1 / PACK_NAME).st_ino  # a hard link, no copy
    assert (r1 / PACK_NAME).read_bytes() == before  # a published release never changes
    with Pack(r2) as pack:
        # The tombstone is there, and the base still holds c: only the combined view says it is gone.
        assert pack.con.execute("SELECT body, etag FROM main.docs WHERE name = 'c.json'").fetchall() == [(None, None)]
        assert pack.con.execute("SELECT body FROM base.docs WHERE name = 'c.json'").fetchall() == [(b'{"c":1}',)]
        assert pack.get("c.json") is None and pack.etag("c.json") is None
        assert [pack.get(name) for name in ("a.json", "b.json", "d.json")] == [b'{"a":1}', b'{"b":2}', b'{"d":2}']
        assert pack.etag("b.json") == etag_of(b'{"b":2}')
        assert pack.names() == ["a.json", "b.json", "d.json"] and pack.count() == 3
        assert pack.con.execute("SELECT count(*) FROM main.docs").fetchone()[0] == 3  # b, c's tombstone, d
        with pytest.raises(sqlite3.OperationalError):
            pack.con.execute("DELETE FROM main.docs")
    with Pack(r1) as old:
        assert old.get("c.json") == b'{"c":1}' and old.get("b.json") == b'{"b":1}' and old.count() == 3
    full = _release(tmp_path / "full", {"/a": b'{"a":1}', "/b": b'{"b":2}', "/d": b'{"d":2}'})
    with Pack(r2) as delta, Pack(full) as fresh:
        assert _rows(delta) == _rows(fresh)
    shutil.rmtree(r1)  # pruned: the base's inode lives on through the link
    with Pack(r2) as pack:
        assert pack.get("a.json") == b'{"a":1}' and pack.count() == 3


def test_both_lookups_of_a_delta_search_the_name_index(tmp_path: Path):
    r1 = _release(tmp_path / "r1", {"/a": b"1", "/b": b"2"})
    r2 = _release(tmp_path / "r2", {"/a": b"3"}, previous=r1)
    with Pack(r2) as pack:
        for sql in (pack._body, pack._etag):
            plan = [row[3] for row in pack.con.execute("EXPLAIN QUERY PLAN " + sql, ("a.json",))]
            assert [step for step in plan if step.startswith(("SEARCH", "SCAN"))] == \
                ["SEARCH main.docs USING INDEX docs_name (name=?)", "SEARCH base.docs USING INDEX docs_name (name=?)"]
    with Pack(r1) as pack:  # a full pack keeps its single lookup
        assert pack._body == "SELECT body FROM main.docs WHERE name = ?1"


def test_a_delta_without_its_base_is_refused(tmp_path: Path):
    r1 = _release(tmp_path / "r1", {"/a": b"1"})
    r2 = _release(tmp_path / "r2", {"/a": b"2"}, previous=r1)
    (r2 / BASE_NAME).unlink()
    with pytest.raises(FileNotFoundError, match="base of the delta pack"):
        open_pack(r2)
