"""A build's documents, regrouped into the pack's blocks (marquee/packs.py).

Documents arrive one template at a time (every film's details, then every film's credits, …) and a
block holds one entity's documents of every template, so they wait: Staging spills each document
(its group's key, its suffix, its JSON) into one of BUCKETS files by the key's top byte, as Arrow
streams compressed with zstd (fast enough not to slow the render; the JSON of 1M titles is ~60 GB,
staged in ~11 GB). At the end each bucket is read back whole, sorted by key, and its groups become
blocks, so the pack's rows are appended in key (rowid) order, where a pack of a row
per document sorted 105M random keys into its index after the rows (251 s at 1M). A bucket file
is removed once written into the pack.

An update stages only what changed (bodies, and removals as null bodies), and each group it
reaches starts from the previous release's block (`write_blocks`' `previous`), read for a whole
bucket at once while the bucket before is written.

Blocks are compressed with a dictionary per group kind (BlockEncoders), trained on the first
TRAINING_BLOCKS blocks of the kind; an update reuses the dictionaries its base was written with.
"""

from __future__ import annotations

import gc
import hashlib
import queue
import shutil
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import duckdb
import numpy
import pyarrow as pa
import pyarrow.compute as pc
import zstandard

from marquee.manifests import digests_of
from marquee.packs import (
    GROUP_ENTITY,
    ITEM_SHIFT,
    ITEMS,
    UNTRANSLATED,
    block_documents,
    block_of,
    compressor,
    group_of,
    kept_dictionary,
    kind_of,
)

BUCKETS = 256
T = TypeVar("T")
STAGED = pa.schema([("key", pa.int64()), ("kind", pa.string()), ("suffix", pa.string()), ("body", pa.binary())])
WAITING = pa.schema([("name", pa.string()), ("kind", pa.string()), ("body", pa.binary())])  # staged, before their keys
BLOCKS = pa.schema([("key", pa.int64()), ("kind", pa.string()), ("block", pa.binary())])  # blocks to store, by key
STAGE_BYTES = 192 * 1024 * 1024  # staged rows gathered before they are spilled (one spill writing meanwhile)
TRAINING_BLOCKS = 1_000  # a kind's first blocks, or TRAINING_BYTES of them, train its dictionary
TRAINING_BYTES = 16 * 1024 * 1024
FEW_KEYS = 64  # keys_of: fewer groups than this are hashed by hashlib
THREADED_BYTES = 4 * 1024 * 1024  # a batch of blocks this big is compressed on every core
# packs.GROUP for Arrow (RE2 wants its groups named).
_GROUP_RE2 = rf"^(?P<group>{GROUP_ENTITY})(?P<suffix>[/.].*)$"


class Repeated(Exception):
    """A document was staged twice (a name written twice), or two groups share a key: the build is
    refused. Its argument says which key."""


class Staging:
    """Documents by group, spilled to bucket files until the pack is written (`groups`).

    A spill is made on two threads of their own while the next documents gather: one splits the
    names into group and suffix, makes the groups' keys and sorts the rows into buckets, the other
    appends the sorted rows to the bucket files (Arrow streams, zstd). That work was ~70% of the
    writer's thread a document, which paces the templates once the cores have room
    (docs/benchmarks.md, session 56), and it is Arrow's, DuckDB's and zstd's, out of the GIL. A
    spill at a time in each: the bucket files are appended in the order the documents came."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True)
        self._writers: dict[int, pa.ipc.RecordBatchStreamWriter] = {}
        self._waiting: list[pa.Table] = []  # staged rows (WAITING: a name, not yet its key), not yet written
        self._waiting_bytes = 0
        self.staged_bytes = 0  # every row staged so far (Arrow's bytes, before compression)
        self._md5 = duckdb.connect()  # keys_of's, on the spilling thread only
        self._kinds: dict[str, str] = {}  # a template's group kind, from its first name
        self._spiller = ThreadPoolExecutor(1, thread_name_prefix="spill")
        self._spilling: Future | None = None  # the spill being sorted into buckets
        self._appender = ThreadPoolExecutor(1, thread_name_prefix="append")
        self._appending: Future | None = None  # the spill before, being appended to the bucket files

    def add(self, template: str, names: pa.Array, bodies: pa.Array) -> None:
        """Stage documents of `template` ("": of any) (a null body: the name removed, for an update)."""
        if not len(names):
            return
        if template:  # a template's documents are of one kind
            kind = self._kinds.get(template)
            if kind is None:
                kind = self._kinds[template] = kind_of(group_of(names[0].as_py())[0])
            kinds = pa.repeat(pa.scalar(kind), len(names))
        else:
            kinds = pa.array([kind_of(group) for group in _split(names)[0].to_pylist()], pa.string())
        table = pa.table([names, kinds, bodies.cast(pa.binary())], schema=WAITING)
        self._waiting.append(table)
        self._waiting_bytes += table.nbytes
        self.staged_bytes += table.nbytes
        if self._waiting_bytes >= STAGE_BYTES:
            self._spill()

    def _spill(self) -> None:
        """Hand what waits to the spilling thread, once the spill before is sorted (its error raised here)."""
        if not self._waiting:
            return
        waiting = self._waiting
        self._waiting, self._waiting_bytes = [], 0
        self._spilling = _after(self._spilling, self._spiller, self._write_spill, waiting)

    def _write_spill(self, waiting: list[pa.Table]) -> None:
        """Sort `waiting` by bucket for the appender: the groups' keys made in one call (a call a batch
        of 5,000 documents cost ~5 ms, ~100 s of a 1M build), the rows sorted by bucket once, so that
        each bucket's rows are one Arrow batch. Why not a buffer per bucket: a batch split 256 ways
        stays in memory until the last of its slices is written, and at 1M titles that held ~10 GB of
        seasons."""
        rows = pa.concat_tables(waiting).combine_chunks()
        waiting.clear()
        groups, suffixes = _split(rows.column("name").chunk(0))
        keys = keys_of(groups, self._md5)
        rows = pa.table([pa.array(keys), rows.column("kind"), suffixes, rows.column("body")], schema=STAGED)
        del groups
        # A key's top byte, shifted to 0-255 in the keys' signed order: the buckets in turn are in key order.
        buckets = pa.array(((keys >> 56) + 128).astype(numpy.uint8))
        order = pc.sort_indices(buckets)
        rows, buckets = rows.take(order), buckets.take(order).to_numpy()
        # The files are written on a thread of their own, a spill at a time, while the next is sorted.
        self._appending = _after(self._appending, self._appender, self._append, rows, buckets)

    def _append(self, rows: pa.Table, buckets: numpy.ndarray) -> None:
        """Append `rows`, sorted by their `buckets`, to the bucket files: each bucket's rows one batch."""
        starts = [0, *(numpy.flatnonzero(numpy.diff(buckets)) + 1).tolist(), len(buckets)]
        for start, end in zip(starts, starts[1:]):
            bucket = int(buckets[start])
            writer = self._writers.get(bucket)
            if writer is None:
                sink = pa.OSFile(str(self.folder / f"{bucket:03d}.arrow"), "wb")
                writer = self._writers[bucket] = pa.ipc.new_stream(
                    sink, STAGED, options=pa.ipc.IpcWriteOptions(compression="zstd")
                )
            writer.write_table(rows.slice(start, end - start), max_chunksize=end - start)

    def _settle(self) -> None:
        """Wait for the spills being written; an error of theirs is raised."""
        spilling, self._spilling = self._spilling, None
        if spilling is not None:
            spilling.result()
        appending, self._appending = self._appending, None  # read after: the last sort hands its rows on
        if appending is not None:
            appending.result()

    def seal(self) -> None:
        """Write what waits and close the bucket files: from here on they are read (`buckets`, or
        staged_buckets in another process) and nothing more is staged."""
        self._spill()
        self._settle()
        for writer in self._writers.values():
            writer.close()

    def buckets(self) -> Iterator[Bucket]:
        """The staged rows, a bucket at a time (staged_buckets)."""
        self.seal()
        return staged_buckets(self.folder)

    def close(self) -> None:
        try:
            self._settle()  # a spill still writing (the build failed meanwhile) ends before its files go
        except Exception:  # noqa: S110 (the build's own error is the one raised)
            pass
        finally:
            self._spiller.shutdown()
            self._appender.shutdown()
            for writer in self._writers.values():
                writer.close()
            self._md5.close()
            shutil.rmtree(self.folder, ignore_errors=True)


def _after(running: Future | None, pool: ThreadPoolExecutor, work: Callable[..., None], *arguments: object) -> Future:
    """`work(*arguments)` on `pool` once `running` (the one before it there) is done; its error raised here."""
    if running is not None:
        running.result()
    return pool.submit(work, *arguments)


@dataclass
class Bucket:
    """One bucket's staged documents sorted by key, then suffix: `rows` the small columns (key, kind,
    suffix) in that order, the bodies as they were read and `order` naming each sorted row's body.
    So a full build copies each body once on its way into a block (whole_blocks); an update takes
    its few `sorted_bodies`."""

    rows: pa.Table
    bodies: pa.Array
    order: pa.Array

    def sorted_bodies(self) -> pa.Array:
        return self.bodies.take(self.order)


def staged_buckets(folder: Path) -> Iterator[Bucket]:
    """A sealed staging folder's rows, a bucket at a time in key order, each sorted by key then
    suffix (Bucket); each bucket's file is removed once read. A suffix staged twice in a group raises
    Repeated, and so do two kinds under one key (two groups of one key, which the same suffix would
    also reveal)."""
    for path in sorted(Path(folder).glob("*.arrow")):  # named by bucket, 000 to 255: in key order
        with pa.OSFile(str(path), "rb") as source:
            # One chunk: the bodies stay where they were read, found by row number (Bucket.order).
            rows = pa.ipc.open_stream(source).read_all().combine_chunks()
        path.unlink()
        order = pc.sort_indices(rows, [("key", "ascending"), ("suffix", "ascending")])
        bodies, rows = rows.column("body").chunk(0), rows.select(["key", "kind", "suffix"]).take(order).combine_chunks()
        keys, suffixes = rows.column("key").chunk(0), rows.column("suffix").chunk(0)
        if len(keys) > 1:
            kinds, last = rows.column("kind").chunk(0), len(keys) - 1
            same_key = pc.equal(keys.slice(1), keys.slice(0, last))
            twice = pc.and_(
                same_key,
                pc.or_(
                    pc.equal(suffixes.slice(1), suffixes.slice(0, last)),
                    pc.not_equal(kinds.slice(1), kinds.slice(0, last)),
                ),
            )
            if pc.any(twice).as_py():
                raise Repeated(f"key {keys[pc.index(twice, True).as_py()].as_py()}")
        yield Bucket(rows, bodies, order)


def _split(names: pa.Array) -> tuple[pa.Array, pa.Array]:
    """group_of for many names, in Arrow (RE2): (groups, suffixes)."""
    parts = pc.extract_regex(names, _GROUP_RE2)
    matched = pc.is_valid(parts)
    groups = pc.if_else(matched, pc.struct_field(parts, "group"), names)
    suffixes = pc.if_else(matched, pc.struct_field(parts, "suffix"), pa.scalar("", pa.string()))
    return groups, suffixes


def keys_of(groups: pa.Array, md5: duckdb.DuckDBPyConnection) -> numpy.ndarray:
    """packs.key_of of each group, as int64: the MD5s' first 8 bytes read little-endian (DuckDB's
    md5_number_upper, on `md5`, for a spill's groups), items shifted under a mask. hashlib in a loop
    held the writer's thread ~2 µs a document (~200 s of a 1M build), DuckDB ~0.5 and out of the
    GIL; a spill of a few documents (a small release's last) skips DuckDB's ~1 ms a query.
    tests/test_site_gen_blocks.py checks that both agree with key_of."""
    if len(groups) < FEW_KEYS:
        digests = numpy.frombuffer(
            b"".join([hashlib.md5(group.encode()).digest()[:8] for group in groups.to_pylist()]), dtype="<u8"
        )
    else:
        named = pa.table({"g": groups})  # noqa: F841 (DuckDB reads the table by its name)
        digests = md5.sql("SELECT md5_number_upper(g) FROM named").to_arrow_table().column(0).to_numpy()
    keys = digests.astype(numpy.int64)  # the same bits, read signed
    items = pc.starts_with(groups, ITEMS).to_numpy(zero_copy_only=False)
    if items.any():
        shifted = (digests[items] >> numpy.uint64(ITEM_SHIFT)).astype(numpy.int64)
        keys[items] = shifted + numpy.iinfo(numpy.int64).min
    return keys


@dataclass
class Segments:
    """Blocks of one kind as they lie in an Arrow buffer: their keys, and where each starts and ends."""

    keys: numpy.ndarray
    buffer: pa.Buffer
    starts: numpy.ndarray
    ends: numpy.ndarray

    @classmethod
    def of(cls, items: list[tuple[int, bytes]]) -> Segments:
        """Blocks held as bytes, (key, block), laid end to end in one buffer."""
        keys = numpy.array([key for key, _ in items], dtype=numpy.int64)
        lengths = numpy.array([len(block) for _, block in items], dtype=numpy.int64)
        ends = numpy.cumsum(lengths)
        return cls(keys, pa.py_buffer(b"".join(block for _, block in items)), ends - lengths, ends)

    def items(self) -> list[tuple[int, bytes]]:
        view = memoryview(self.buffer)
        return [
            (key, bytes(view[a:b])) for key, a, b in zip(self.keys.tolist(), self.starts.tolist(), self.ends.tolist())
        ]

    def compressed(self, compressor: zstandard.ZstdCompressor) -> list[tuple[int, bytes]]:
        """(key, stored block): its zstd frame, or the block when that is no shorter."""
        view, starts, ends = memoryview(self.buffer), self.starts.tolist(), self.ends.tolist()
        lengths = self.ends - self.starts
        if int(lengths.sum()) < THREADED_BYTES:  # starting zstd's threads costs ~1 ms a call
            frames = [compressor.compress(view[a:b]) for a, b in zip(starts, ends)]
        else:
            where = numpy.stack([self.starts, lengths], axis=1).astype(numpy.uint64)
            segments = zstandard.BufferWithSegments(self.buffer, where.tobytes())
            frames = [frame.tobytes() for frame in compressor.multi_compress_to_buffer(segments, threads=-1)]
        return [
            (key, frame if len(frame) < b - a else bytes(view[a:b]))
            for key, frame, a, b in zip(self.keys.tolist(), frames, starts, ends)
        ]


class BlockEncoders:
    """Each group kind's block compressor: the dictionary its pack already keeps for the kind (an
    update's, copied from its base), or one trained on its first blocks and kept in `dicts`.
    Blocks are compressed many at a time on every core (zstd's multi_compress_to_buffer): the
    render is over, and at 1M titles the blocks are ~60 GB of JSON."""

    def __init__(self, con) -> None:
        self.con = con
        self._compressors: dict[str, zstandard.ZstdCompressor] = {}
        for kind, data in con.execute("SELECT template, dict FROM main.dicts ORDER BY id"):
            self._compressors[kind] = compressor(
                zstandard.ZstdCompressionDict(bytes(data), dict_type=zstandard.DICT_TYPE_FULLDICT)
            )
        self._pending: dict[str, list[tuple[int, bytes]]] = {}
        self._pending_bytes: dict[str, int] = {}

    def encode(self, blocks: pa.Table) -> list[tuple[int, bytes]]:
        """Rows (key, stored block) for `blocks` (BLOCKS), in key order: each block's zstd frame, or
        the block when that is no shorter. A block whose kind has no dictionary yet waits until
        TRAINING_BLOCKS (or TRAINING_BYTES) of them train one, and comes with those rows. The blocks
        go to zstd as segments of the Arrow buffer they are in: no Python bytes of a block's JSON
        (at 1M titles a tuple and a copy for each of ~25M blocks)."""
        blocks = blocks.combine_chunks()
        keys, kinds = blocks.column("key").to_numpy(), blocks.column("kind")
        data = blocks.column("block").chunk(0) if blocks.num_rows else pa.array([], pa.binary())
        offsets = numpy.frombuffer(data.buffers()[1], numpy.int32)[data.offset : data.offset + len(data) + 1]
        rows: list[tuple[int, bytes]] = []
        for kind in pc.unique(kinds).to_pylist():
            chosen = numpy.flatnonzero(pc.equal(kinds, kind).to_numpy(zero_copy_only=False))
            segments = Segments(keys[chosen], data.buffers()[2], offsets[chosen], offsets[chosen + 1])
            if kind not in self._compressors:
                items = segments.items()
                self._pending.setdefault(kind, []).extend(items)
                held = self._pending_bytes[kind] = self._pending_bytes.get(kind, 0) + sum(len(b) for _, b in items)
                if len(self._pending[kind]) < TRAINING_BLOCKS and held < TRAINING_BYTES:
                    continue
                rows.extend(self._compress(kind, self._train(kind)))
            else:
                rows.extend(segments.compressed(self._compressors[kind]))
        rows.sort()
        return rows

    def _compress(self, kind: str, items: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
        """The rows of blocks held as bytes (a kind's first, waiting for its dictionary)."""
        return Segments.of(items).compressed(self._compressors[kind])

    def _train(self, kind: str) -> list[tuple[int, bytes]]:
        """Train `kind`'s dictionary on its waiting blocks (none when they are too few: zstd without
        one), keep it in the pack, and give back the blocks."""
        items = self._pending.pop(kind)
        self._pending_bytes.pop(kind)
        samples = [block for _, block in items[:TRAINING_BLOCKS]]
        self._compressors[kind] = compressor(kept_dictionary(self.con, kind, samples))
        return items

    def rest(self) -> list[tuple[int, bytes]]:
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


Previous = Callable[[int], dict[str, bytes] | None]  # a group's previous documents, by key (None: none)


def write_blocks(
    con,
    buckets: Iterator[Bucket],
    encoders: BlockEncoders,
    previous: Callable[[numpy.ndarray], Previous] | None = None,
    gone: Callable[[int], None] | None = None,
    restore: dict[int, list[tuple[str, int]]] | None = None,
) -> Written:
    """Write the staged groups (`buckets`: Staging.buckets) into `con`'s `docs` as blocks,
    untranslated twins left out. For an
    update, each group starts from its previous documents (a staged None body removes one), and
    a group left with none goes to `gone`. `previous` is given a bucket's group keys in the
    thread that reads the buckets ahead, and reads their blocks there; what it returns gives a
    group's documents on this thread; `restore` names, by group key, untranslated variants
    (suffix, digest) rendered unchanged whose default changed: a twin before, so absent, each is its
    default's previous bytes when it has that digest."""
    # Python's cycle collector off: a bucket is ~400k documents at 1M titles, in tuples and lists
    # that refcounting frees, and collecting among them took a quarter of the time (perf).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _write_blocks(con, buckets, encoders, previous, gone, restore)
    finally:
        if collecting:
            gc.enable()


def _write_blocks(
    con,
    buckets: Iterator[Bucket],
    encoders: BlockEncoders,
    previous: Callable[[numpy.ndarray], Previous] | None,
    gone: Callable[[int], None] | None,
    restore: dict[int, list[tuple[str, int]]] | None,
) -> Written:
    written = Written()
    insert = "INSERT OR REPLACE INTO main.docs (key, body) VALUES (?, ?)"
    if previous is None:
        # A full build's blocks are made in the reading thread too (Arrow's sort, take and join, out
        # of the GIL) while this one compresses and inserts the bucket before: at 1M titles the blocks
        # end the build, and the artefacts beside them leave the second core idle before they do.
        made = read_ahead(_whole_blocks_of(buckets, written))
    else:  # an update's previous blocks are read ahead with their bucket, and decoded on this thread
        ahead = read_ahead((bucket, previous(group_keys(bucket))) for bucket in buckets)
        made = (updated_blocks(bucket, written, documents, gone, restore) for bucket, documents in ahead)
    for blocks in made:
        con.executemany(insert, encoders.encode(blocks))
    con.executemany(insert, encoders.rest())
    return written


def _whole_blocks_of(buckets: Iterator[Bucket], written: Written) -> Iterator[pa.Table]:
    for bucket in buckets:
        blocks = whole_blocks(bucket, written)
        del bucket  # its bodies are in the blocks now: not held while the blocks wait their turn
        yield blocks


def group_keys(bucket: Bucket) -> numpy.ndarray:
    """The keys of a bucket's groups, in order."""
    keys = bucket.rows.column("key").combine_chunks()  # one chunk already (staged_buckets); none when empty
    return keys.to_numpy()[group_bounds(keys)[:-1]]


def group_bounds(keys: pa.Array) -> numpy.ndarray:
    """Where each group of rows sorted by key starts, and the end: [0, …, len(keys)]."""
    if not len(keys):
        return numpy.zeros(1, dtype=numpy.int32)
    changes = pc.not_equal(keys.slice(1), keys.slice(0, max(len(keys) - 1, 0))).to_numpy(zero_copy_only=False)
    return numpy.concatenate([[0], numpy.flatnonzero(changes) + 1, [len(keys)]]).astype(numpy.int32)


def whole_blocks(bucket: Bucket, written: Written) -> pa.Table:
    """A full build's blocks (BLOCKS) from one bucket's rows (sorted by key and suffix), in Arrow:
    the untranslated twins left out, then each group's directory and bodies joined by one take and
    one join (the directory of a group placed before its bodies): each body is copied three times
    (beside the directories, by the take, by the join), where sorting whole rows, the twins'
    anti-join and two joins had copied it eight.
    At 1M titles the same in Python, a document at a time, took most of the pack's ~10 minutes of
    finishing. Bytes as block_of makes them (tested)."""
    keys, kinds, suffixes = (bucket.rows.column(name).chunk(0) for name in ("key", "kind", "suffix"))
    bodies, at = bucket.bodies, bucket.order  # the body of sorted row i is bodies[at[i]]
    kept = _not_twins(keys, suffixes, bodies, at, written)
    if kept is not None:
        keys, kinds, suffixes, at = keys.take(kept), kinds.take(kept), suffixes.take(kept), at.take(kept)
    lengths = pc.binary_length(bodies).take(at)
    bounds = group_bounds(keys)
    count, groups = len(keys), len(bounds) - 1
    lines = pc.binary_join_element_wise(
        pc.binary_join_element_wise(suffixes, pc.cast(lengths, pa.string()), pa.scalar("\t")),
        pa.scalar(""),
        pa.scalar("\n"),
    )
    directories = pc.binary_join(pa.ListArray.from_arrays(pa.array(bounds), lines), pa.scalar(""))
    directories = pc.cast(pc.binary_join_element_wise(directories, pa.scalar(""), pa.scalar("\n")), pa.binary())
    # [directory 0, bodies of group 0, directory 1, …]: bodies first in `values`, then the directories.
    rank = numpy.arange(groups, dtype=numpy.int64)
    order = numpy.empty(count + groups, dtype=numpy.int64)
    order[numpy.arange(count) + numpy.repeat(rank, numpy.diff(bounds)) + 1] = at.to_numpy()
    order[bounds[:-1] + rank] = len(bodies) + rank
    values = pa.concat_arrays([bodies, directories]).take(pa.array(order))
    starts = pa.array((bounds + numpy.arange(groups + 1)).astype(numpy.int32))
    blocks = pc.binary_join(pa.ListArray.from_arrays(starts, values), pa.scalar(b"", pa.binary()))
    firsts = pa.array(bounds[:-1])
    written.gained += count
    written.stored += count
    return pa.table([keys.take(firsts), kinds.take(firsts), blocks], schema=BLOCKS)


def _not_twins(keys: pa.Array, suffixes: pa.Array, bodies: pa.Array, at: pa.Array, written: Written) -> pa.Array | None:
    """The sorted rows (row i's body is bodies[at[i]]) that are not untranslated twins: a join of
    each `X.und` with its `X` in the same group on the small columns, only the pairs' bodies
    compared; the twins counted in `written`. None when there is no twin."""
    unds = pa.array(numpy.flatnonzero(pc.ends_with(suffixes, UND).to_numpy(zero_copy_only=False)))
    if not len(unds):
        return None
    defaults = pc.binary_join_element_wise(
        pc.utf8_slice_codeunits(suffixes.take(unds), 0, -len(UND)), pa.scalar(".json"), pa.scalar("")
    )
    probe = pa.table({"key": keys.take(unds), "suffix": defaults, "und": unds})
    every = pa.table({"key": keys, "suffix": suffixes, "row": pa.array(numpy.arange(len(keys)))})
    pairs = probe.join(every, keys=["key", "suffix"], join_type="inner")
    if not pairs.num_rows:
        return None
    und, row = pairs.column("und").combine_chunks(), pairs.column("row").combine_chunks()
    und_bodies = bodies.take(at.take(und))
    same = pc.equal(und_bodies, bodies.take(at.take(row)))
    twins = und.filter(same)
    if not len(twins):
        return None
    written.twins += len(twins)
    written.twin_bytes += pc.sum(pc.binary_length(und_bodies.filter(same))).as_py()
    kept = numpy.ones(len(keys), dtype=bool)
    kept[twins.to_numpy()] = False
    return pa.array(numpy.flatnonzero(kept))


def updated_blocks(
    bucket: Bucket,
    written: Written,
    previous: Previous,
    gone: Callable[[int], None] | None,
    restore: dict[int, list[tuple[str, int]]] | None,
) -> pa.Table:
    """An update's blocks (BLOCKS) from one bucket's rows: each group's previous documents with the
    staged changes (a None body removes one), untranslated twins left out, and the variants
    `restore` names put back; a group left with none goes to `gone`."""
    keys, kinds, suffixes = (bucket.rows.column(name).to_pylist() for name in ("key", "kind", "suffix"))
    bodies = bucket.sorted_bodies().to_pylist()
    bounds = group_bounds(bucket.rows.column("key").chunk(0)).tolist()
    befores, restored = _restored(keys, suffixes, bounds, previous, restore or {})
    blocks: list[tuple[int, str, bytes]] = []
    for start, end in zip(bounds, bounds[1:]):
        key, staged = keys[start], list(zip(suffixes[start:end], bodies[start:end]))
        before = befores[key] if key in befores else previous(key) or {}
        documents = dict(before)
        documents.update(restored.get(key, ()))
        for suffix, body in staged:
            if body is None:
                documents.pop(suffix, None)
            else:
                documents[suffix] = body
        count = len(documents)
        written.twin_bytes += drop_twins(documents)
        written.twins += count - len(documents)
        written.gained += len(documents) - len(before)
        written.stored += sum(body is not None and suffix in documents for suffix, body in staged)
        if documents:
            blocks.append((key, kinds[start], block_of(sorted(documents.items()))))
        elif before and gone is not None:
            gone(key)
    block_keys, block_kinds, made = zip(*blocks) if blocks else ((), (), ())
    return pa.table(
        [pa.array(block_keys, pa.int64()), pa.array(block_kinds, pa.string()), pa.array(made, pa.binary())],
        schema=BLOCKS,
    )


def _restored(
    keys: list[int],
    suffixes: list[str],
    bounds: list[int],
    previous: Previous,
    restore: dict[int, list[tuple[str, int]]],
) -> tuple[dict[int, dict[str, bytes]], dict[int, list[tuple[str, bytes]]]]:
    """For updated_blocks: the previous documents of the bucket's groups with variants to restore,
    and those variants, (suffix, body), by group: a variant not staged now and left out before
    as its default's twin (absent, with the digest of its default's previous bytes), the default's
    previous bytes. The digests are computed in one query for the bucket."""
    befores: dict[int, dict[str, bytes]] = {}
    candidates: list[tuple[int, str, bytes, int]] = []
    for start, end in zip(bounds, bounds[1:]):
        if keys[start] not in restore:
            continue
        before = befores[keys[start]] = previous(keys[start]) or {}
        for suffix, digest in restore[keys[start]]:
            default = before.get(suffix[: -len(UND)] + ".json")
            if suffix not in before and suffix not in suffixes[start:end] and default is not None:
                candidates.append((keys[start], suffix, default, digest))
    restored: dict[int, list[tuple[str, bytes]]] = {}
    if candidates:
        digests = digests_of(pa.array([default for _, _, default, _ in candidates], pa.binary())).to_pylist()
        for (key, suffix, default, digest), now in zip(candidates, digests):
            if now == digest:
                restored.setdefault(key, []).append((suffix, default))
    return befores, restored


def read_ahead(items: Iterator[T]) -> Iterator[T]:
    """`items`, the next one made in a thread while the caller works on this one: reading a bucket
    and making its blocks (Arrow: decompressing, sorting, taking, out of the GIL) overlaps
    compressing and inserting the last (zstd and SQLite, out of it as well)."""
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
