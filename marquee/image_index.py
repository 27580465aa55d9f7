"""A release's image index, `images.sqlite` (IMAGE_INDEX, marquee/artefacts.py): the file names a
generated catalogue's documents use, with each one's kind, so the edge draws only those
(edge/image_listener.py). site_gen/images.py `write_index` writes it; `ImageIndex` reads it.

Format (SQLite, written once, opened read-only and immutable):
- `layout(shift)`: one row; a name's bucket is its key (marquee/image_sizes.py `index_key`, 63 bits)
  shifted right by `shift`, chosen so a bucket holds about BUCKET_NAMES names;
- `buckets(bucket INTEGER PRIMARY KEY, names BLOB)`: a bucket's keys, sorted, as little-endian
  int64s, then each one's kind (its place in image_sizes.KINDS) as a byte, in the same order.

Why buckets, not a row per name (the format before, table `images(key, kind)`, which `ImageIndex`
still reads): at a million titles the index holds 17.5M names, and inserting them a row at a time
was most of the index's 37.9 s (56 CPU s) alone, 76 s beside the build's collect; a blob a bucket
makes it 21.5 s (40 CPU s, 23 of them finding the names), 161 MB against 278. A look-up reads one
blob (at 1M films 2.4 KB, at most 3.1) and bisects it, for a request that then draws an image.
"""

from __future__ import annotations

import math
import os
import sqlite3
from pathlib import Path

import numpy

from marquee.image_sizes import KINDS, index_key

BUCKET_NAMES = 512  # names a bucket holds on average, at most (half to all of it: at 1M films 267)
PAGE_SIZE = 65_536  # so a page holds many blobs whole (with 4 KB pages each ran over into a page of its own)
KEY_BITS = 63  # index_key's keys are non-negative 63-bit integers


def write(path: Path, keys: numpy.ndarray, kinds: numpy.ndarray) -> int:
    """Write the index of these names (their keys, int64, and kinds, each's place in KINDS) at
    `path`; a key given twice (two names of one hash) keeps its smallest kind. Returns the number
    of keys kept."""
    keys, kinds = numpy.asarray(keys, "<i8"), numpy.asarray(kinds, numpy.uint8)
    if len(keys) > 1 and not (keys[1:] >= keys[:-1]).all():  # sorted already, as write_index's are
        order = numpy.argsort(keys, kind="stable")
        keys, kinds = keys[order], kinds[order]
    if len(keys):
        firsts = numpy.flatnonzero(numpy.r_[True, keys[1:] != keys[:-1]])
        keys, kinds = keys[firsts], numpy.minimum.reduceat(kinds, firsts)
    bits = max(0, math.ceil(math.log2(len(keys) / BUCKET_NAMES))) if len(keys) else 0
    shift = KEY_BITS - min(bits, KEY_BITS)
    buckets = keys >> shift
    edges = [0, *(numpy.flatnonzero(numpy.diff(buckets)) + 1).tolist(), len(keys)]
    partial = Path(path).with_name(Path(path).name + ".partial")
    partial.unlink(missing_ok=True)
    out = sqlite3.connect(partial)
    try:
        out.executescript(
            f"PRAGMA page_size = {PAGE_SIZE}; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
            "CREATE TABLE layout(shift INTEGER NOT NULL);"
            "CREATE TABLE buckets(bucket INTEGER PRIMARY KEY, names BLOB NOT NULL);"
        )
        out.execute("INSERT INTO layout VALUES (?)", (shift,))
        out.executemany(
            "INSERT INTO buckets VALUES (?, ?)",
            (
                (int(buckets[start]), keys[start:end].tobytes() + kinds[start:end].tobytes())
                for start, end in zip(edges, edges[1:])
                if end > start
            ),
        )
        out.commit()
    finally:
        out.close()
    os.replace(partial, path)
    return len(keys)


class ImageIndex:
    """A release's image index, read-only: the kind of each generated image, by file name."""

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        tables = {name for (name,) in self.con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        self._shift = self.con.execute("SELECT shift FROM layout").fetchone()[0] if "layout" in tables else None

    def kind(self, name: str) -> str | None:
        key = index_key(name)
        if self._shift is None:  # a row per name (releases built before 2026-11-29)
            row = self.con.execute("SELECT kind FROM images WHERE key = ?", (key,)).fetchone()
            return None if row is None else KINDS[row[0]]
        row = self.con.execute("SELECT names FROM buckets WHERE bucket = ?", (key >> self._shift,)).fetchone()
        if row is None:
            return None
        names = row[0]
        count = len(names) // 9
        keys = numpy.frombuffer(names, "<i8", count)
        at = int(keys.searchsorted(key))
        return KINDS[names[8 * count + at]] if at < count and int(keys[at]) == key else None

    def count(self) -> int:
        """How many names the index holds."""
        if self._shift is None:
            return self.con.execute("SELECT count(*) FROM images").fetchone()[0]
        return self.con.execute("SELECT coalesce(sum(length(names)), 0) / 9 FROM buckets").fetchone()[0]

    def close(self) -> None:
        self.con.close()
