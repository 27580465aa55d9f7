"""A release's credit index (site_gen/credit_index.py writes it, its format is there), read back
into the /3/credit/{credit_id} documents it replaced.

A row becomes the skeleton the document was stored as (marquee/packs.py's composite form:
`{"\\u0001":"movie/603",…}` for the title, the same for the person), byte for byte what
tests/credit_details_before.sql rendered, and Pack.get's own splice fills in the items. So a credit
answers the same bytes, and the same ETag, as its document did, and every door that read the
document (edge/assemble.py: `?language=`, the other parameters) reads this in its place.
"""

from __future__ import annotations

import bisect
import json
import mmap
import re
import sqlite3
import struct
import sys
from array import array
from collections.abc import Callable
from pathlib import Path

import numpy as np
import orjson

from marquee import discover_columns
from marquee.artefacts import CREDIT_ROW_BUFFERS, CREDIT_ROWS
from marquee.packs import COMPOSITE_MARK, Decoder, MissingItem, assemble

NAME_PREFIX = "3/credit/"  # the documents this replaces: `3/credit/{credit_id}.json`
HEX_ID = re.compile(r"^[0-9a-f]{24}$")
_TV = b',"media_type":"tv","episodes":%s,"seasons":[]}'
# What follows the title's item reference in `media`, by shape (the shapes of the old SQL's
# `extra`): %(character)s is the character's JSON, %(episodes)s the episodes' summaries.
# fmt: off
SHAPES = {
    "movie_cast": (b"movie", b',"character":%(character)s,"media_type":"movie"}'),
    "movie_crew": (b"movie", b',"media_type":"movie"}'),
    "tv_cast": (b"tv", b',"character":%(character)s' + _TV % b"[]"),
    "tv_crew": (b"tv", _TV % b"[]"),
    "episode": (b"tv", b',"character":%(character)s' + _TV % b"%(episodes)s"),
}
# fmt: on


Row = tuple[int, int, int, bytes | None, bytes | None]  # role, media, person, character, episodes


class CreditRows:
    """`credits.rows`, the credits with TMDB-style ids (format in site_gen/credit_index.py), mapped: a
    lookup reads the pages of a binary search and of one row, not the file (1.06 GB at 1M films)."""

    def __init__(self, con: sqlite3.Connection, path: Path) -> None:
        self.data = discover_columns.open_file(path)  # mapped as the discover index's arrays are
        batches = con.execute("SELECT first, size, buffers FROM row_batches ORDER BY first").fetchall()
        self.firsts = [first for first, _, _ in batches]
        # Each batch's size and its buffers' (offset, length) by name (CREDIT_ROW_BUFFERS).
        self.batches = [(size, dict(zip(CREDIT_ROW_BUFFERS, json.loads(placed)))) for _, size, placed in batches]
        # Each batch's keys as 12-byte numpy strings over the mapped file: numpy compares them as the
        # build sorted them (bytes, unsigned); its stripping of trailing NULs keeps that order.
        self.keys = [np.frombuffer(self.data, "S12", size, buffers["key"][0]) for size, buffers in self.batches]

    def get(self, key: bytes) -> Row | None:
        at = bisect.bisect_right(self.firsts, key) - 1
        if at < 0:
            return None
        size, buffers = self.batches[at]
        row = int(np.searchsorted(self.keys[at], key))
        start = buffers["key"][0] + 12 * row
        if row == size or self.data[start : start + 12] != key:
            return None
        (role,) = struct.unpack_from("<H", self.data, buffers["role"][0] + 2 * row)
        (media,) = struct.unpack_from("<I", self.data, buffers["media"][0] + 4 * row)
        (person,) = struct.unpack_from("<I", self.data, buffers["person"][0] + 4 * row)
        return role, media, person, self._binary(buffers, "character", row), self._binary(buffers, "episodes", row)

    def _binary(self, buffers: dict, column: str, row: int) -> bytes | None:
        """Row `row` of a binary column: its validity bit (LSB first), then its bytes by its offsets."""
        validity, offsets, values = (buffers[f"{column}.{part}"] for part in ("validity", "offsets", "values"))
        if validity is not None and not self.data[validity[0] + (row >> 3)] >> (row & 7) & 1:
            return None
        start, end = struct.unpack_from("<ii", self.data, offsets[0] + 4 * row)
        return self.data[values[0] + start : values[0] + end] if values is not None else b""

    def close(self) -> None:
        self.keys = []  # views of the mapped file: gone before it is unmapped
        if isinstance(self.data, mmap.mmap):
            try:
                self.data.close()
            except BufferError:  # a lookup in another thread still holds a view: unmapped when it ends
                pass


class CreditIndex:
    """One release's credit index, opened read-only (a published release never changes)."""

    def __init__(self, path: Path | str) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        rows = Path(path).with_name(CREDIT_ROWS)
        self.rows = CreditRows(self.con, rows) if rows.is_file() else None  # none: format 2, all in SQLite
        self.decode = Decoder(self.con)  # episode summaries are stored as the pack stores documents
        # A few hundred roles: each one's bytes up to the title's item, and its shape.
        self.roles = {
            i: (head[:-1] + b',"media":' + COMPOSITE_MARK, SHAPES[shape])
            for i, head, shape in self.con.execute("SELECT id, head, shape FROM roles")
        }

    def close(self) -> None:
        if self.rows is not None:
            self.rows.close()
        self.con.close()

    def skeleton(self, credit_id: str) -> bytes | None:
        """The credit's document as the pack stored it (items as references), or None."""
        key = bytes.fromhex(credit_id) if HEX_ID.match(credit_id) else credit_id
        if isinstance(key, bytes) and self.rows is not None:
            row = self.rows.get(key)
        else:
            row = self.con.execute(
                'SELECT role, media, person, "character", episodes FROM credits WHERE id = ?', (key,)
            ).fetchone()
        if row is None:
            return None
        role, media, person, character, episodes = row
        head, (kind, tail) = self.roles[role]
        fields = {b"character": b"null" if character is None else b'"' + character + b'"'}
        if episodes is not None:
            fields[b"episodes"] = self.summaries(episodes)
        credit_json = b'"' + credit_id.encode() + b'"' if isinstance(key, bytes) else _json_string(credit_id)
        return b"".join(
            (
                head,
                kind,
                b'/%d"' % media,
                tail % fields,
                b',"media_type":"',
                kind,
                b'","id":',
                credit_json,
                b',"person":',
                COMPOSITE_MARK,
                b'person/%d","media_type":"person"}}' % person,
            )
        )

    def summaries(self, packed: bytes) -> bytes:
        ids = array("I")
        ids.frombytes(packed)
        if sys.byteorder == "big":
            ids.byteswap()
        found = dict(
            self.con.execute(
                f"SELECT id, summary FROM episodes WHERE id IN ({','.join('?' * len(ids))})", tuple(ids)
            ).fetchall()
        )
        return b"[" + b",".join(self.decode(found[i]) for i in ids if i in found) + b"]"

    def document(self, credit_id: str, item: Callable[[str], bytes | None]) -> bytes | None:
        """The credit as served, its items read with `item` (Pack.raw); None for an unknown credit,
        or one naming an item the release lacks (a broken release: nginx answered it 404 too)."""
        skeleton = self.skeleton(credit_id)
        try:
            return None if skeleton is None else assemble(skeleton, item)
        except MissingItem:
            return None


def _json_string(text: str) -> bytes:
    """An imported (non-hex) id's JSON string: orjson escapes as DuckDB's to_json did for any id a
    path can carry (quotes and backslashes; ids are plain text: `tt0133093-nm0000206-1`)."""
    return orjson.dumps(text)


def credit_id_of(name: str) -> str | None:
    """`3/credit/{credit_id}.json` -> the credit id; None for any other name (a language variant
    `….de-DE.json` or a page `….page2.json` of a credit never existed: its ids have no dot)."""
    if not name.startswith(NAME_PREFIX) or not name.endswith(".json"):
        return None
    credit_id = name[len(NAME_PREFIX) : -len(".json")]
    return credit_id if credit_id and "." not in credit_id and "/" not in credit_id else None
