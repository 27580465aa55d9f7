"""A build's documents, regrouped into the pack's blocks (marquee/packs.py, PACK_FORMAT 3).

Documents arrive one template at a time (every film's details, then every film's credits, …) and a
block holds one entity's documents of every template, so they wait: Staging spills each document
(its group's key, its suffix, its JSON) into one of BUCKETS files by the key's first byte, as Arrow
streams compressed with lz4 (fast enough not to slow the render; the JSON of 1M titles is ~60 GB).
At the end each bucket is read back whole, sorted by key, and its groups become blocks, so the
pack's rows are appended in key order and need no index built afterwards (a full pack's unique
index of 105M keys took 251 s at 1M). A bucket file is removed once written into the pack.

An update stages only what changed (bodies, and removals as null bodies), and each group it
reaches starts from the previous release's block (`write_blocks`' `previous`).

Blocks are compressed with a dictionary per group kind (BlockEncoders), trained on the first
TRAINING_BLOCKS blocks of the kind; an update reuses the dictionaries its base was written with.
"""

from __future__ import annotations

import queue
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, TypeVar

import numpy
import pyarrow as pa
import pyarrow.compute as pc
import zstandard

from marquee.packs import (GROUP_ENTITY, UNTRANSLATED, block_documents, block_of, compressor, etag_of, key_of,
                           kind_of, train_dictionary)

BUCKETS = 256
T = TypeVar("T")
STAGED = pa.schema([("key", pa.binary(12)), ("kind", pa.string()), ("suffix", pa.string()), ("body", pa.binary())])
FLUSH_ROWS = 2_000  # a bucket's rows buffered before they are written (one Arrow batch; ~0.3 GB in all at 1M)
TRAINING_BLOCKS = 1_000  # a kind's first blocks, or TRAINING_BYTES of them, train its dictionary
TRAINING_BYTES = 16 * 1024 * 1024
THREADED_BYTES = 4 * 1024 * 1024  # a batch of blocks this big is compressed on every core
# packs.GROUP for Arrow (RE2 wants its groups named).
_GROUP_RE2 = rf"^(?P<group>{GROUP_ENTITY})(?P<suffix>[/.].*)$"


class Repeated(Exception):
    """A document was staged twice (a name written twice): the build is refused."""


class Staging:
    """Documents by group, spilled to bucket files until the pack is written (`groups`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True)
        self._writers: dict[int, pa.ipc.RecordBatchStreamWriter] = {}
        self._buffered: dict[int, list[pa.Table]] = {}
        self._counts: dict[int, int] = {}
        self._kinds: dict[str, str] = {}  # a template's group kind, from its first name

    def add(self, template: str, names: pa.Array, bodies: pa.Array) -> None:
        """Stage documents of `template` ("": of any) (a null body: the name removed, for an update)."""
        if not len(names):
            return
        groups, suffixes = _split(names)
        keys = [key_of(group) for group in groups]
        if template:  # a template's documents are of one kind
            kind = self._kinds.get(template)
            if kind is None:
                kind = self._kinds[template] = kind_of(groups[0])
            kinds = pa.repeat(pa.scalar(kind), len(keys))
        else:
            kinds = pa.array([kind_of(group) for group in groups], pa.string())
        table = pa.table([pa.array(keys, pa.binary(12)), kinds, suffixes, bodies.cast(pa.binary())], schema=STAGED)
        buckets = pa.array([key[0] for key in keys], pa.uint8())
        order = pc.sort_indices(buckets)
        table, buckets = table.take(order), buckets.take(order).to_numpy()
        starts = [0, *(numpy.flatnonzero(numpy.diff(buckets)) + 1).tolist(), len(buckets)]
        for start, end in zip(starts, starts[1:]):
            bucket = int(buckets[start])
            self._buffered.setdefault(bucket, []).append(table.slice(start, end - start))
            self._counts[bucket] = self._counts.get(bucket, 0) + end - start
            if self._counts[bucket] >= FLUSH_ROWS:
                self._flush(bucket)

    def _flush(self, bucket: int) -> None:
        # One batch of contiguous buffers: written as the hundreds of slices `add` made, the same
        # rows took ten times as long and compressed worse.
        rows = pa.concat_tables(self._buffered.pop(bucket, [])).combine_chunks()
        self._counts[bucket] = 0
        if not rows.num_rows:
            return
        writer = self._writers.get(bucket)
        if writer is None:
            sink = pa.OSFile(str(self.folder / f"{bucket:03d}.arrow"), "wb")
            writer = self._writers[bucket] = pa.ipc.new_stream(
                sink, STAGED, options=pa.ipc.IpcWriteOptions(compression="zstd"))
        writer.write_table(rows, max_chunksize=rows.num_rows)

    def buckets(self) -> Iterator[list[tuple[bytes, str, list[str], list[bytes | None]]]]:
        """The staged groups, a bucket at a time, (key, kind, suffixes, bodies) in key order and
        suffix order within a group; each bucket's file is removed once read. A suffix staged twice
        in a group raises Repeated."""
        for bucket in list(self._buffered):
            self._flush(bucket)
        for writer in self._writers.values():
            writer.close()
        for bucket in sorted(self._writers):
            path = self.folder / f"{bucket:03d}.arrow"
            with pa.OSFile(str(path), "rb") as source:
                rows = pa.ipc.open_stream(source).read_all()
            path.unlink()
            rows = rows.take(pc.sort_indices(rows, [("key", "ascending"), ("suffix", "ascending")])).combine_chunks()
            keys, suffixes = rows.column("key").to_pylist(), rows.column("suffix").to_pylist()
            bounds = [0, *(i for i in range(1, len(keys)) if keys[i] != keys[i - 1]), len(keys)]
            for i in range(1, len(keys)):
                if keys[i] == keys[i - 1] and suffixes[i] == suffixes[i - 1]:
                    raise Repeated(keys[i])
            kinds, bodies = rows.column("kind").to_pylist(), rows.column("body").to_pylist()
            del rows
            yield [(keys[start], kinds[start], suffixes[start:end], bodies[start:end])
                   for start, end in zip(bounds, bounds[1:])]

    def close(self) -> None:
        for writer in self._writers.values():
            writer.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _split(names: pa.Array) -> tuple[list[str], pa.Array]:
    """group_of for many names, in Arrow (RE2): (groups as strings, suffixes as an array)."""
    parts = pc.extract_regex(names, _GROUP_RE2)
    matched = pc.is_valid(parts)
    groups = pc.if_else(matched, pc.struct_field(parts, "group"), names)
    suffixes = pc.if_else(matched, pc.struct_field(parts, "suffix"), pa.scalar("", pa.string()))
    return groups.to_pylist(), suffixes


class BlockEncoders:
    """Each group kind's block compressor: the dictionary its pack already keeps for the kind (an
    update's, copied from its base), or one trained on its first blocks and kept in `dicts`.
    Blocks are compressed many at a time on every core (zstd's multi_compress_to_buffer): the
    render is over, and at 1M titles the blocks are ~60 GB of JSON."""

    def __init__(self, con) -> None:
        self.con = con
        self._compressors: dict[str, zstandard.ZstdCompressor] = {}
        for kind, data in con.execute("SELECT template, dict FROM main.dicts ORDER BY id"):
            self._compressors[kind] = compressor(zstandard.ZstdCompressionDict(
                bytes(data), dict_type=zstandard.DICT_TYPE_FULLDICT))
        self._pending: dict[str, list[tuple[bytes, bytes]]] = {}
        self._pending_bytes: dict[str, int] = {}

    def encode(self, blocks: list[tuple[bytes, str, bytes]]) -> list[tuple[bytes, bytes]]:
        """Rows (key, stored block) for blocks (key, kind, block), in key order: each block's zstd
        frame, or the block when that is no shorter. A block whose kind has no dictionary yet waits
        until TRAINING_BLOCKS (or TRAINING_BYTES) of them train one, and comes with those rows."""
        by_kind: dict[str, list[tuple[bytes, bytes]]] = {}
        for key, kind, block in blocks:
            by_kind.setdefault(kind, []).append((key, block))
        rows: list[tuple[bytes, bytes]] = []
        for kind, items in by_kind.items():
            if kind not in self._compressors:
                self._pending.setdefault(kind, []).extend(items)
                held = self._pending_bytes[kind] = self._pending_bytes.get(kind, 0) + sum(len(b) for _, b in items)
                if len(self._pending[kind]) < TRAINING_BLOCKS and held < TRAINING_BYTES:
                    continue
                items = self._train(kind)
            rows.extend(self._compress(kind, items))
        rows.sort()
        return rows

    def _compress(self, kind: str, items: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        blocks = [block for _, block in items]
        compressor = self._compressors[kind]
        if sum(map(len, blocks)) < THREADED_BYTES:  # starting zstd's threads costs ~1 ms a call
            frames = [compressor.compress(block) for block in blocks]
        else:
            frames = [frame.tobytes() for frame in compressor.multi_compress_to_buffer(blocks, threads=-1)]
        return [(key, frame if len(frame) < len(block) else block) for (key, block), frame in zip(items, frames)]

    def _train(self, kind: str) -> list[tuple[bytes, bytes]]:
        """Train `kind`'s dictionary on its waiting blocks (none when they are too few: zstd without
        one), keep it in the pack, and give back the blocks."""
        items = self._pending.pop(kind)
        self._pending_bytes.pop(kind)
        taken = {i for (i,) in self.con.execute("SELECT id FROM main.dicts")}
        dictionary = train_dictionary([block for _, block in items[:TRAINING_BLOCKS]], taken)
        if dictionary is not None:
            self.con.execute("INSERT INTO main.dicts VALUES (?, ?, ?)",
                             (dictionary.dict_id(), kind, dictionary.as_bytes()))
        self._compressors[kind] = compressor(dictionary)
        return items

    def rest(self) -> list[tuple[bytes, bytes]]:
        """The rows of kinds that never had enough blocks to train on (trained on what there is)."""
        rows = [row for kind in list(self._pending) for row in self._compress(kind, self._train(kind))]
        rows.sort()
        return rows


UND = UNTRANSLATED + ".json"  # an untranslated variant's suffix ends so (`.und.json`, `/credits.und.json`)


def drop_twins(documents: dict[str, bytes]) -> int:
    """Take out each untranslated variant equal to its default document (`X.und.json` and
    `X.json`: a title with no English text, a person with no biography), whose readers fall back
    from X.und to X; returns the bytes taken. Both are in one group, so this is a look at one block."""
    dropped = 0
    for suffix in [suffix for suffix in documents if suffix.endswith(UND)]:
        if documents.get(suffix[: -len(UND)] + ".json") == documents[suffix]:
            dropped += len(documents.pop(suffix))
    return dropped


@dataclass
class Written:
    """What write_blocks did: documents gained (lost, when negative) against the previous ones, the
    staged documents it stored, and the untranslated twins it left out (how many, their bytes)."""

    gained: int = 0
    stored: int = 0
    twins: int = 0
    twin_bytes: int = 0


def write_blocks(con, staging: Staging, encoders: BlockEncoders,
                 previous: Callable[[bytes], dict[str, bytes] | None] | None = None,
                 gone: Callable[[bytes], None] | None = None,
                 restore: dict[bytes, list[tuple[str, str]]] | None = None) -> Written:
    """Write the staged groups into `con`'s `docs` as blocks, untranslated twins left out. For an
    update, each group starts from its `previous` documents (a staged None body removes one), and
    a group left with none goes to `gone`; `restore` names, by group key, untranslated variants
    (suffix, ETag) rendered unchanged whose default changed: a twin before, so absent, each is its
    default's previous bytes when it has that ETag."""
    written = Written()
    insert = "INSERT OR REPLACE INTO main.docs (key, body) VALUES (?, ?)"
    for groups in read_ahead(staging.buckets()):
        blocks: list[tuple[bytes, str, bytes]] = []
        for key, kind, suffixes, bodies in groups:
            before = (previous(key) if previous is not None else None) or {}
            documents = dict(before)
            for suffix, etag in (restore or {}).get(key, ()):
                default = before.get(suffix[: -len(UND)] + ".json")
                if suffix not in before and suffix not in suffixes and default is not None and etag_of(default) == etag:
                    documents[suffix] = default
            for suffix, body in zip(suffixes, bodies):
                if body is None:
                    documents.pop(suffix, None)
                else:
                    documents[suffix] = body
            count = len(documents)
            written.twin_bytes += drop_twins(documents)
            written.twins += count - len(documents)
            written.gained += len(documents) - len(before)
            written.stored += sum(body is not None and suffix in documents for suffix, body in zip(suffixes, bodies))
            if documents:
                blocks.append((key, kind, block_of(sorted(documents.items()) if before else list(documents.items()))))
            elif before and gone is not None:
                gone(key)
        del groups
        con.executemany(insert, encoders.encode(blocks))
    con.executemany(insert, encoders.rest())
    return written


def read_ahead(items: Iterator[T]) -> Iterator[T]:
    """`items`, the next one read in a thread while the caller works on this one: reading a bucket
    (Arrow: decompressing and sorting, out of the GIL) overlaps compressing and inserting the last
    (zstd and SQLite, out of it as well)."""
    ahead: queue.Queue = queue.Queue(maxsize=1)
    done = object()

    def produce() -> None:
        try:
            for item in items:
                ahead.put(item)
            ahead.put(done)
        except BaseException as error:  # handed to the caller, who raises it
            ahead.put(error)

    thread = threading.Thread(target=produce, daemon=True)
    thread.start()
    while (item := ahead.get()) is not done:
        if isinstance(item, BaseException):
            raise item
        yield item
    thread.join()


def documents_of(stored: bytes | None, decode: Callable[[bytes], bytes]) -> dict[str, bytes] | None:
    """A stored block's documents (None for no row or a tombstone)."""
    return None if stored is None else block_documents(decode(bytes(stored)))


