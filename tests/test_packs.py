"""marquee/packs.py: the read side of a release pack."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from marquee.packs import Pack, etag_of, open_pack
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
