"""The discover index's columns as one file of arrays, `discover.columns` beside `discover.sqlite`
(site_gen/discover_index.py writes both; edge/discover_index.py reads them; the table `columns` of
the SQLite file says where each column is).

Why a file of its own: as BLOBs in SQLite each of the edge's answer workers (one a core) read a
column into arrays of its own and cut it into slices' bitmaps on its first use: at a million films
1.2 GB a worker once every column had been asked for, and the first request on a large column
waited 50 ms to 2 s (docs/benchmarks.md, issue 30 session 36). Arrays mapped from a file are the
page cache's, shared by every worker (which has the kernel read the file ahead when it starts:
marquee/artefacts.read_ahead); the slices' bitmaps are made once, by the build.

Format: each column is one extent of the file (`at`, `size` in `columns`), starting at a multiple
of 8, holding in turn:
- `values` (when `numeric`): `valued` float64 in ascending order, the values of the first `valued`
  ranks; the column `id`'s are int64, each rank's id;
- `ranks`: `length` uint32, the ranks in ascending order of (value, id), those without a value last;
- `positions` (a sortable column): a uint32 per entity of the kind, its place in `ranks`;
- the bitmaps of its slices (pyroaring's portable serialisation), when it has CUT_FROM ranks or
  more: the ranks between consecutive `cuts` (uint32 places in `ranks`, from 0 to `length`, and at
  `valued` too for a sortable column), the n-th ending at the n-th of `slices` (uint64 offsets
  from the extent's start).
Numbers in the machine's order: the reader is the same machine's (a release is built where it is
served, or copied between like machines).
"""

from __future__ import annotations

import mmap
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
from pyroaring import BitMap

# The discover index's format (its meta `format`): the build writes it, the edge opens no other.
# 2: the columns' arrays in this file (1: as BLOBs in the index's `columns`).
FORMAT = "2"
CUT_FROM = 65_536  # ranks from which a column is cut into slices (a smaller one is sliced as needed)
CUTS = 32  # slices of a cut column
ALIGN = 8


@dataclass(frozen=True)
class Placed:
    """Where a written column is: its row's `length`, `at`, `size`, `cuts` and `slices`."""

    length: int
    at: int
    size: int
    cuts: bytes
    slices: bytes


@dataclass(frozen=True)
class Arrays:
    """A column read from the file: views of its mapped pages (no copy), and its slices' bitmaps."""

    values: np.ndarray | None
    ranks: np.ndarray
    positions: np.ndarray | None
    cuts: list[int]
    slices: list[BitMap]


def bitmap(ranks: np.ndarray) -> BitMap:
    """BitMap(ranks), made from them sorted: roaring appends sorted values ~10 times faster than it
    inserts them in a column's order, shuffled as popularity ranks go (a million ranks in 32
    slices: 6 against 59 ms)."""
    return BitMap(array("I", np.sort(np.asarray(ranks, np.uint32)).tobytes()))


def cut_places(length: int, valued: int, sortable: bool) -> list[int]:
    """Where a column of `length` ranks is cut (none below CUT_FROM); a sortable one at `valued` too,
    where its ranks without a value begin."""
    if length < CUT_FROM:
        return []
    step = -(-length // CUTS)
    return sorted({0, *range(step, length, step), length, *([valued] if sortable else [])})


class Writer:
    """Appends columns to a new file; `add` and `copy` give where each went."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.end = 0

    def _start(self) -> int:
        pad = -self.end % ALIGN
        if pad:
            self.handle.write(b"\0" * pad)
            self.end += pad
        return self.end

    def _write(self, data: bytes) -> None:
        self.handle.write(data)
        self.end += len(data)

    def add(self, values: np.ndarray | None, ranks: np.ndarray, positions: np.ndarray | None, valued: int) -> Placed:
        """A column's arrays (values float64, or int64 for `id`; ranks and positions uint32), cut and
        written."""
        at = self._start()
        for part in (values, ranks, positions):
            if part is not None:
                self._write(part.tobytes())
        cuts = cut_places(len(ranks), valued, positions is not None)
        ends = array("Q")
        for low, high in zip(cuts, cuts[1:]):
            self._write(bitmap(ranks[low:high]).serialize())
            ends.append(self.end - at)
        return Placed(len(ranks), at, self.end - at, array("I", cuts).tobytes(), ends.tobytes())

    def copy(self, source: bytes | mmap.mmap, at: int, size: int) -> int:
        """An extent of another columns file copied as it is (its offsets are relative): where it went."""
        start = self._start()
        self._write(source[at : at + size])
        return start


def open_file(path: Path) -> bytes | mmap.mmap:
    """The columns file mapped read-only; an empty one as empty bytes (which mmap refuses to map)."""
    with open(path, "rb") as handle:
        if not handle.seek(0, 2):
            return b""
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def read(
    data: bytes | mmap.mmap,
    count: int,
    name: str,
    sortable: bool,
    valued: int,
    length: int,
    numeric: bool,
    at: int,
    cuts: bytes,
    slices: bytes,
) -> Arrays:
    """A column of a kind of `count` entities from its row (see the format above)."""
    base = at
    values = None
    if numeric:
        values = np.frombuffer(data, np.int64 if name == "id" else np.float64, valued, at)
        at += values.nbytes
    ranks = np.frombuffer(data, np.uint32, length, at)
    at += ranks.nbytes
    positions = None
    if sortable:
        positions = np.frombuffer(data, np.uint32, count, at)
        at += positions.nbytes
    bitmaps = []
    for end in array("Q", slices):
        bitmaps.append(BitMap.deserialize(data[at : base + end]))
        at = base + end
    return Arrays(values, ranks, positions, list(array("I", cuts)), bitmaps)
