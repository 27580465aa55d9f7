"""marquee/packs.py: the read side of a release pack."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import numpy
import orjson
import pytest
import zstandard

from marquee.manifests import digest_of
from marquee.packs import (
    BASE_NAME,
    PACK_NAME,
    ZSTD_MAGIC,
    Pack,
    block_documents,
    block_of,
    etag_of,
    is_delta,
    key_of,
    open_pack,
)
from site_gen.writer import Writer, WriterError


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
    """A pack of `documents` (uri: body; None: unchanged since `previous`, by its digest there)."""
    writer = Writer(folder, previous=previous)
    digests = {}
    if previous is not None:
        with Pack(previous) as old:
            digests = {uri: digest_of(old.raw(uri[1:] + ".json")) for uri, body in documents.items() if body is None}
    for uri, body in documents.items():
        writer.write(uri, body, digests.get(uri))
    writer.finish()
    return folder


def _rows(pack: Pack) -> list[tuple]:
    return list(pack.rows())


def test_a_delta_pack_reads_its_own_rows_then_its_base_and_tombstones_hide_base_rows(tmp_path: Path):
    r1 = _release(tmp_path / "r1", {"/a": b'{"a":1}', "/b": b'{"b":1}', "/c": b'{"c":1}'})
    before = (r1 / PACK_NAME).read_bytes()
    r2 = _release(tmp_path / "r2", {"/a": None, "/b": b'{"b":2}', "/d": b'{"d":2}'}, previous=r1)  # c is gone
    assert is_delta(r2 / PACK_NAME) and not is_delta(r1 / PACK_NAME)
    assert os.stat(r2 / BASE_NAME).st_ino == os.stat(r1 / PACK_NAME).st_ino  # a hard link, no copy
    assert (r1 / PACK_NAME).read_bytes() == before  # a published release never changes
    with Pack(r2) as pack:
        # The tombstone is there, and the base still holds c: only the combined view says it is gone.
        c = pack.key("c.json")  # a lone document: its group is its name
        assert pack.con.execute("SELECT body FROM main.docs WHERE key = ?", (c,)).fetchall() == [(None,)]
        (block,) = pack.con.execute("SELECT body FROM base.docs WHERE key = ?", (c,)).fetchone()
        assert block_documents(pack.decode(block)) == {"": b'{"c":1}'}
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


def test_a_pack_by_name_from_before_keys_still_reads_and_an_update_over_it_writes_a_full_pack(tmp_path: Path):
    old = tmp_path / "old"
    old.mkdir()
    with sqlite3.connect(old / PACK_NAME) as con:  # the format before PACK_FORMAT: names, JSON, hex ETags
        con.execute("CREATE TABLE docs (name TEXT NOT NULL, body BLOB NOT NULL, etag TEXT NOT NULL)")
        con.executemany(
            "INSERT INTO docs VALUES (?, ?, ?)",
            [("a.json", b'{"a":1}', etag_of(b'{"a":1}')), ("b.json", b'{"b":1}', etag_of(b'{"b":1}'))],
        )
        con.execute("CREATE UNIQUE INDEX docs_name ON docs (name)")
    con.close()
    with Pack(old) as pack:
        assert not pack.keyed and pack.names() == ["a.json", "b.json"] and pack.count() == 2
        assert (
            pack.get("b.json") == b'{"b":1}'
            and pack.etag("b.json") == etag_of(b'{"b":1}')
            and pack.get("c.json") is None
        )
    (old / "MANIFEST").mkdir()  # as if it had a manifest to update: still not a base for a delta of keys
    new = _release(tmp_path / "new", {"/a": b'{"a":1}', "/b": b'{"b":2}'}, previous=old)
    assert not is_delta(new / PACK_NAME)
    with Pack(new) as pack:
        assert pack.keyed and [row[:2] for row in pack.rows()] == [("a.json", b'{"a":1}'), ("b.json", b'{"b":2}')]


def test_two_names_of_one_key_are_refused_like_a_name_written_twice(tmp_path: Path, monkeypatch):
    from site_gen import blocks

    monkeypatch.setattr(blocks, "keys_of", lambda groups, items: numpy.full(len(groups), 7))  # a collision
    writer = Writer(tmp_path)
    writer.write("/a", b"1")
    writer.write("/b", b"2")
    with pytest.raises(WriterError, match="refusing to write key 7 twice"):
        writer.finish()


def test_two_groups_of_one_key_with_different_suffixes_are_refused(tmp_path: Path, monkeypatch):
    from site_gen import blocks

    monkeypatch.setattr(blocks, "keys_of", lambda groups, items: numpy.full(len(groups), -3))  # a film and an item
    writer = Writer(tmp_path)
    writer.write("/3/movie/1", b"1")
    writer.write("/_items/movie/1", b"2")
    with pytest.raises(WriterError, match="refusing to write key -3 twice"):
        writer.finish()


def test_both_lookups_of_a_delta_search_by_rowid(tmp_path: Path):
    r1 = _release(tmp_path / "r1", {"/a": b"1", "/b": b"2"})
    r2 = _release(tmp_path / "r2", {"/a": b"3"}, previous=r1)
    with Pack(r2) as pack:
        plan = [row[3] for row in pack.con.execute("EXPLAIN QUERY PLAN " + pack._body, (pack.key("a.json"),))]
        assert [step for step in plan if step.startswith(("SEARCH", "SCAN"))] == [
            "SEARCH main.docs USING INTEGER PRIMARY KEY (rowid=?)",
            "SEARCH base.docs USING INTEGER PRIMARY KEY (rowid=?)",
        ]
    with Pack(r1) as pack:  # a full pack keeps its single lookup
        assert pack._body == "SELECT body FROM main.docs WHERE key = ?1"


def test_a_delta_without_its_base_is_refused(tmp_path: Path):
    r1 = _release(tmp_path / "r1", {"/a": b"1"})
    r2 = _release(tmp_path / "r2", {"/a": b"2"}, previous=r1)
    (r2 / BASE_NAME).unlink()
    with pytest.raises(FileNotFoundError, match="base of the delta pack"):
        open_pack(r2)


WORDS = "a story of love loss and the sea told by an old captain to his granddaughter one winter".split()
FILMS, PEOPLE, REVIEWS = "/3/movie/{movie_id}", "/3/person/{person_id}", "/3/review/{review_id}"


def _documents(template: str, count: int, title: str = "Film") -> dict[str, bytes]:
    """`count` documents alike as a template's are (same keys, varied text), by URI."""
    prefix = template.split("{")[0]
    return {
        f"{prefix}{n}": orjson.dumps(
            {
                "id": n,
                "title": f"{title} {n}",
                "genres": [{"id": 18, "name": "Drama"}],
                "overview": " ".join(WORDS[(n * k) % len(WORDS)] for k in range(40)),
                "vote_average": n % 10,
                "adult": False,
            }
        )
        for n in range(count)
    }


def _write(folder: Path, templates: dict[str, dict[str, bytes | None]], previous: Path | None = None) -> Path:
    writer = Writer(folder, previous=previous)
    old = Pack(previous) if previous is not None else None
    for template, documents in templates.items():
        for uri, body in documents.items():
            writer.write(uri, body, digest_of(old.raw(uri[1:] + ".json")) if body is None else None, template=template)
    writer.finish()
    if old is not None:
        old.close()
    return folder


def _dictionaries(release: Path) -> dict[str, int]:
    with Pack(release) as pack:
        return dict(pack.con.execute("SELECT template, id FROM dicts"))


def test_a_kind_of_many_groups_is_stored_as_frames_of_a_dictionary_of_its_own(tmp_path: Path):
    films, people = _documents(FILMS, 300), _documents(PEOPLE, 300, "Person")
    credits = {uri + "/credits": orjson.dumps({"id": n, "cast": []}) for n, uri in enumerate(films)}
    release = _write(
        tmp_path / "r1",
        {
            FILMS: films,
            PEOPLE: people,
            FILMS + "/credits": credits,
            "/3/configuration": {"/3/configuration": b'{"a":1}'},
        },
    )
    dictionaries = _dictionaries(release)
    assert set(dictionaries) == {"3/movie/#", "3/person/#"}  # one configuration document trains nothing
    with Pack(release) as pack:
        stored = {
            group: bytes(pack.con.execute("SELECT body FROM docs WHERE key = ?", (key_of(group),)).fetchone()[0])
            for group in ("3/configuration.json", "3/movie/7", "3/person/7")
        }
        assert stored["3/configuration.json"] == block_of([("", b'{"a":1}')])  # no shorter as a frame: kept as is
        frame = stored["3/movie/7"]  # the film's details and credits, one frame
        assert frame[:4] == ZSTD_MAGIC and zstandard.get_frame_parameters(frame).dict_id == dictionaries["3/movie/#"]
        assert block_documents(pack.decode(frame)) == {
            ".json": films["/3/movie/7"],
            "/credits.json": credits["/3/movie/7/credits"],
        }
        assert zstandard.get_frame_parameters(stored["3/person/7"]).dict_id == dictionaries["3/person/#"]
        film_rows = sum(len(row[0]) for row in pack.con.execute("SELECT body FROM docs"))
        assert 3 * film_rows < sum(map(len, [*films.values(), *people.values(), *credits.values()]))
        for uri, body in {**films, **people, **credits}.items():
            assert pack.get(uri[1:] + ".json") == body and pack.etag(uri[1:] + ".json") == etag_of(body)


def test_an_update_encodes_with_the_dictionaries_it_builds_on_and_holds_copies_of_them(tmp_path: Path):
    films = _documents(FILMS, 300)
    r1 = _write(tmp_path / "r1", {FILMS: films})
    changed = {uri: (_documents(FILMS, 300, "Renamed")[uri] if n < 10 else None) for n, uri in enumerate(films)}
    reviews = _documents(REVIEWS, 200, "Review")
    r2 = _write(tmp_path / "r2", {FILMS: changed, REVIEWS: reviews}, previous=r1)
    assert is_delta(r2 / PACK_NAME)
    first, second = _dictionaries(r1), _dictionaries(r2)
    assert second["3/movie/#"] == first["3/movie/#"] and set(second) == {
        "3/movie/#",
        "3/review/#",
    }  # a new kind trains its own
    with Pack(r2) as pack:
        frame = bytes(
            pack.con.execute("SELECT body FROM main.docs WHERE key = ?", (pack.key("3/movie/3.json"),)).fetchone()[0]
        )
        assert zstandard.get_frame_parameters(frame).dict_id == first["3/movie/#"]
        expected = {**films, **{uri: body for uri, body in changed.items() if body}, **reviews}
        assert {name: body for name, body, _ in pack.rows()} == {
            uri[1:] + ".json": body for uri, body in expected.items()
        }
    # The next update starts from a copy of this delta: its rows and dictionaries read as before.
    r3 = _write(tmp_path / "r3", {FILMS: dict.fromkeys(films), REVIEWS: dict.fromkeys(reviews)}, previous=r2)
    with Pack(r2) as before, Pack(r3) as after:
        assert list(after.rows()) == list(before.rows()) and _dictionaries(r3) == second
