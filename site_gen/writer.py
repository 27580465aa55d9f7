"""The one place rendered documents enter a release (Pelican's Writer, for JSON, into a pack).

Every document becomes part of the release's pack (marquee/packs.py): `/3/movie/603` with the
variant suffix `.de-DE` is the document named `3/movie/603.de-DE.json`, kept in the block of its
group (`3/movie/603`: the film's documents of every template) under its suffix; its name and a
content hash of its JSON, its ETag, go to the manifest. Documents are staged by group as they come
(site_gen/blocks.py) and the blocks are written at the end, in one transaction with no journal: a
half-written pack is never published (release.py removes the folder on failure).

URIs are checked against a strict alphabet and may be written once only: a second write of the
same URI is a rendering bug (two generators claiming one page), never something to overwrite.

Two writers share the rest (PackWriter): a full build's (FullWriter, here), which creates a full
pack from every document, and an update's (DeltaWriter, site_gen/delta_writer.py), which receives
only changed documents' bodies and writes the blocks they change as a delta pack over the previous
release's. `Writer(root, previous)` gives the one the previous release calls for. Both write the
manifest (marquee/manifests.py): a file per template of every rendered name and ETag, which the
next update compares with. An untranslated variant equal to its default document (`X.und.json`
and `X.json`: a title with no English text) is left out, and its readers fall back to X: both are
in one group, so the blocks find these twins (site_gen/blocks.py `drop_twins`, `whole_blocks`).
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote

import duckdb
import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from marquee.manifests import (
    MANIFEST_NAME,
    MANIFEST_OPTIONS,
    MANIFEST_SCHEMA,
    delta_file,
    digest_of,
    digests_of,
    manifest_file,
    other_digests,
    previous_manifest,
    repeated_names,
    unchanged_count,
)
from marquee.packs import (
    DICTS_TABLE,
    DOCUMENTS,
    META_TABLE,
    PACK_FORMAT,
    PAGE_SIZE,
    VARIANT_NAME,
    VARIANTLESS,
    Pack,
    base_path,
    is_delta,
    pack_format,
    pack_path,
    read_only_uri,
)
from site_gen.apart import beside
from site_gen.blocks import BlockEncoders, Repeated, Staging, Written, staged_buckets, write_blocks
from site_gen.templates import template_shape

_URI = re.compile(r"^/[A-Za-z0-9_./-]+$")
_BAD_SEGMENT = r"/\.{0,2}(/|$)"  # an empty, '.' or '..' segment, as name_for() refuses
BATCH_ROWS = 5_000
UNSTAGED_ROWS = 500  # write()'s documents staged together (Writer._add)
# Manifest rows buffered before they are written (a row group per template at most): one row group
# per batch made 1,600 row groups at 100k movies and cost 6.6 s of a 95 s rebuild.
MANIFEST_ROWS = 250_000
STAGING = ".staging"  # the folder beside the pack where documents wait for their blocks (site_gen/blocks.py)


# A full pack's blocks are written in a process of their own once this much is staged: at 1M titles
# they are ~60 GB of JSON into ~10 GB of zstd, ~10 minutes of Python, zstd and SQLite that on a thread
# shared the GIL with the work beside them (with the search index, both together ran at ~1 core; the
# artefacts are beside them now). A sample's pack stays on the thread: a new interpreter costs ~0.5 s.
APART_BYTES = 1 << 30


def attach_release(con: sqlite3.Connection, schema: str, release: Path) -> tuple[str, ...]:
    """Attach a release's pack (and its base, when it is a delta) read-only to `con` as `schema`
    (`schema`_base); returns the layers to look its documents up in (packs.first)."""
    con.execute(f"ATTACH DATABASE ? AS {schema}", (read_only_uri(pack_path(release)),))
    if not is_delta(pack_path(release)):
        return (schema,)
    con.execute(f"ATTACH DATABASE ? AS {schema}_base", (read_only_uri(base_path(release)),))
    return (schema, f"{schema}_base")


class WriterError(Exception):
    """A URI was refused (unsafe, malformed or already written)."""


@dataclass(frozen=True)
class WriteSummary:
    documents: int
    files: int  # files on disk: the pack, and the base under a delta pack
    bytes: int  # JSON bytes written (stored compressed: the pack file is about half this)

    def __str__(self) -> str:
        return f"{self.documents} documents, {self.files} files, {self.bytes} bytes"


def name_for(uri: str) -> str:
    """The pack row name of a URI (`/3/movie/603.de-DE` -> `3/movie/603.de-DE.json`); raises
    WriterError for anything that is not a plain path."""
    if not _URI.match(uri):
        raise WriterError(f"refusing URI {uri!r}: only /[A-Za-z0-9_./-] is allowed")
    segments = uri[1:].split("/")
    if any(s in ("", ".", "..") for s in segments):
        raise WriterError(f"refusing URI {uri!r}: empty, '.' or '..' path segment")
    return uri[1:] + ".json"


def open_pack(path: Path) -> sqlite3.Connection:
    """A pack being written: no journal (a half-written pack is never published), locked, in
    autocommit until a writer begins its transaction."""
    # check_same_thread: the release build finishes the pack on a thread of its own (site_gen/release.py).
    con = sqlite3.connect(f"file:{quote(str(path))}", uri=True, isolation_level=None, check_same_thread=False)
    for pragma in (
        f"page_size = {PAGE_SIZE}",
        "journal_mode = OFF",
        "synchronous = OFF",
        "locking_mode = EXCLUSIVE",
        "temp_store = MEMORY",
        "cache_size = -262144",
        # helper threads sort the name index (100k movies: 19.5 s alone, 15.5 s with two)
        f"threads = {os.cpu_count() or 1}",
    ):
        con.execute(f"PRAGMA {pragma}")
    return con


class PackWriter:
    """What both writers share: URI checks, the manifest, documents staged by group, the counts.
    A subclass makes the pack's files (_lay_out, _open, _begin) and settles the pack (finish)."""

    updating = False  # a DeltaWriter's: documents unchanged since `previous` arrive as None

    def __init__(self, root: Path, previous: Path | None = None, manifest: Path | None = None) -> None:
        self.root = Path(root)
        self.previous = Path(previous) if previous is not None else None
        self.root.mkdir(parents=True, exist_ok=True)
        path = pack_path(self.root)
        if path.exists():
            raise FileExistsError(f"{path} exists: a Writer only ever creates a new pack")
        self.previous_manifest = manifest  # the previous release's manifest folder, when this is an update
        # Where this release's documents are, a delta before its base (attached schemas), and
        # where the previous release's were, for untranslated twins to restore.
        self.layers: tuple[str, ...] = ("main",)
        self.previous_layers: tuple[str, ...] = ()
        self.delta = False
        self._lay_out(path)
        self.con = open_pack(path)
        self._open()
        self.staging = Staging(self.root / STAGING)
        self._gather_dictionaries()
        self.con.execute("BEGIN")
        self._begin()
        (self.root / MANIFEST_NAME).mkdir()
        self._manifests: dict[str, pq.ParquetWriter] = {}  # open per template, closed by finish()
        self._kept: set[str] = set()  # templates kept whole from the previous manifest (keep_template)
        self._deltas: set[str] = set()  # templates written as a delta over the previous manifest (over_previous)
        self._templates_seen: set[str] = set()  # templates with documents written or kept one by one
        self._variants: set[str] = set()  # templates with a language variant among the names written
        # The manifest's rows not yet written: Arrow chunks, then write()'s rows as lists, in order.
        self._chunks: list[pa.Table] = []
        self._templates: list[str] = []
        self._names: list[str] = []
        self._digests: list[int] = []
        # write()'s documents not yet staged, of one template: staged a few hundred at a time, as
        # one at a time cost ~0.3 ms each in Arrow calls on one-row arrays.
        self._unstaged_template = ""
        self._unstaged_names: list[str] = []
        self._unstaged_bodies: list[bytes] = []
        self._buffered = 0
        self._documents = 0
        self._bytes = 0
        self.unchanged = 0

    def _lay_out(self, path: Path) -> None:
        """Put the pack's files in place before the pack is opened (an update links its base)."""

    def _open(self) -> None:
        """Create the pack's tables and attach what it reads, outside the write transaction."""

    def _begin(self) -> None:
        """First writes, inside the write transaction."""

    def finish(self, progress: Callable[[str, int, int], None] | None = None) -> None:
        """Settle the pack and close it; `progress` (phase, done, total) hears of long steps."""
        raise NotImplementedError

    @property
    def finishes_apart(self) -> bool:
        """Whether finish() writes the blocks in a process of its own (APART_BYTES)."""
        return False

    def keep_template(self, template: str) -> None:
        raise WriterError(f"{template}: nothing to keep without a previous release")

    def over_previous(self, template: str) -> None:
        raise WriterError(f"{template}: no previous release to write changes over")

    def _gather_dictionaries(self) -> None:
        """Give this pack a copy of every dictionary of the packs it reads blocks from (its base, the
        previous release), as a reader looks in its own pack's `dicts` only; each group kind's is
        its blocks' encoder (site_gen/blocks.py)."""
        self.con.execute(DICTS_TABLE)
        for (schema,) in self.con.execute("SELECT name FROM pragma_database_list WHERE name <> 'main'").fetchall():
            if (
                schema != "temp"
                and pack_format(self.con, schema) == PACK_FORMAT
                and self.con.execute(f"SELECT 1 FROM {schema}.sqlite_master WHERE name = 'dicts'").fetchone()
            ):
                self.con.execute(f"INSERT OR IGNORE INTO main.dicts SELECT id, template, dict FROM {schema}.dicts")
        self.encoders = BlockEncoders(self.con)

    def _stage(self, template: str, names: list[str], bodies: list[bytes | None]) -> None:
        self.staging.add(template, names, bodies)

    def _write_blocks(self, **merge) -> Written:
        """Write the staged groups' blocks into this writer's pack (write_blocks)."""
        return self._written(lambda: write_blocks(self.con, self.staging.buckets(), self.encoders, **merge))

    def _written(self, write: Callable[[], Written]) -> Written:
        """Run `write` (the staged blocks' writing) and drop the staging; a name staged twice
        refuses the build, named from the manifest unless two names share a key."""
        try:
            return write()
        except Repeated as repeated:
            self._refuse_twice(repeated_names(self.root / MANIFEST_NAME) or [repeated.args[0]])
        finally:
            self.staging.close()

    def write(self, uri: str, document: Any, digest: int | None = None, template: str = "") -> str:
        """Add document (a Python object, JSON already serialised as bytes, or None for a document
        unchanged since `previous`, with its digest) as uri's row; returns its name."""
        name = name_for(uri)
        body = document if document is None or isinstance(document, bytes) else orjson.dumps(document)
        if body is None and (not self.updating or digest is None):
            raise WriterError(f"{uri}: no document, and no previous release to keep it from")
        if body is not None and digest is None:
            digest = digest_of(body)
        self._add(template, [name], [body], [digest])
        return name

    def write_batch(self, template: str, batch: pa.RecordBatch) -> None:
        """Add a batch of documents (site_gen/documents.py's BATCH_SCHEMA: uri, body, digest), with the
        URI check, names and byte count done on whole columns. A null digest is computed here."""
        self._seen(template)
        uris, bodies, digests = batch.column(0), batch.column(1), batch.column(2)
        # In a delta (over_previous), a row with neither body nor digest removes its name.
        # A null body is a document kept from the previous manifest, whose name passed when written.
        written = uris if not bodies.null_count else uris.filter(pc.is_valid(bodies))
        refused = pc.or_(
            pc.invert(pc.match_substring_regex(written, _URI.pattern)), pc.match_substring_regex(written, _BAD_SEGMENT)
        )
        if pc.any(refused).as_py():
            name_for(written[pc.index(refused, True).as_py()].as_py())  # raises, with the reason
        if bodies.null_count:  # unchanged: only an update keeps it, and by its digest
            missing = pc.is_null(bodies) if not self.updating else pc.and_(pc.is_null(bodies), pc.is_null(digests))
            if template not in self._deltas and pc.any(missing).as_py():
                uri = uris[pc.index(missing, True).as_py()].as_py()
                raise WriterError(f"{uri}: no document, and no previous release to keep it from")
        names = pc.binary_join_element_wise(pc.utf8_slice_codeunits(uris, 1), ".json", "")
        if template not in self._variants and pc.any(pc.match_substring_regex(names, VARIANT_NAME)).as_py():
            self._variants.add(template)
        if digests.null_count:  # bodies built in Python (documents.from_objects), or removals (no body)
            digests = pc.coalesce(digests, digests_of(bodies))
        # Most batches of an update are all unchanged: those reach only the manifest, as Arrow.
        if bodies.null_count < len(bodies):
            if bodies.null_count:
                present = pc.is_valid(bodies)
                changed = (names.filter(present), bodies.filter(present), digests.filter(present))
            else:
                changed = (names, bodies, digests)
            self._stage(template, changed[0], changed[1])
            self._bytes += pc.sum(pc.binary_length(changed[1])).as_py()
        self._seal()
        self._chunks.append(
            pa.Table.from_arrays(
                [pa.repeat(pa.scalar(template, pa.string()), len(names)), names, digests], schema=MANIFEST_SCHEMA
            )
        )
        self._counted(len(names))

    def _add(self, template: str, names: list[str], bodies: list[bytes | None], digests: list[int | None]) -> None:
        """Buffer rows (a None body: unchanged, only its name and digest are recorded); flush when full."""
        self._seen(template)
        if template not in self._variants and any(re.search(VARIANT_NAME, name) for name in names):
            self._variants.add(template)
        present = [(name, body) for name, body in zip(names, bodies) if body is not None]
        if present:
            if template != self._unstaged_template or len(self._unstaged_names) >= UNSTAGED_ROWS:
                self._stage_written()
                self._unstaged_template = template
            self._unstaged_names.extend(name for name, _ in present)
            self._unstaged_bodies.extend(body for _, body in present)
        self._bytes += sum(len(body) for _, body in present)
        self._templates.extend([template] * len(names))
        self._names.extend(names)
        self._digests.extend(digests)
        self._counted(len(names))

    def _stage_written(self) -> None:
        """Stage write()'s documents waiting (_add)."""
        if self._unstaged_names:
            names, bodies = pa.array(self._unstaged_names, pa.string()), pa.array(self._unstaged_bodies, pa.binary())
            self._unstaged_names, self._unstaged_bodies = [], []
            self._stage(self._unstaged_template, names, bodies)

    def _seen(self, template: str) -> None:
        if template in self._kept:
            raise WriterError(f"{template}: documents written for a template kept whole")
        self._templates_seen.add(template)

    def _counted(self, documents: int) -> None:
        self._documents += documents
        self._buffered += documents
        if self._buffered >= BATCH_ROWS:
            self._flush()

    def _seal(self) -> None:
        """Close write()'s rows into a manifest chunk, so an Arrow chunk after them stays after them
        (and stage their documents)."""
        self._stage_written()
        if self._names:
            self._chunks.append(
                pa.table(
                    {"template": self._templates, "name": self._names, "digest": self._digests}, schema=MANIFEST_SCHEMA
                )
            )
            self._templates, self._names, self._digests = [], [], []

    def _flush(self, final: bool = False) -> None:
        self._seal()
        if self._chunks and (final or sum(chunk.num_rows for chunk in self._chunks) >= MANIFEST_ROWS):
            rows = pa.concat_tables(self._chunks)
            self._chunks = []
            for template in pc.unique(rows.column("template")).to_pylist():
                part = rows.filter(pc.equal(rows.column("template"), template))
                if template not in self._manifests:
                    name = delta_file(template) if template in self._deltas else manifest_file(template)
                    self._manifests[template] = pq.ParquetWriter(
                        self.root / MANIFEST_NAME / name, MANIFEST_SCHEMA, **MANIFEST_OPTIONS
                    )
                self._manifests[template].write_table(part)
        self._buffered = 0

    def _close_manifests(self) -> None:
        """Write the manifest's last rows and close its files."""
        self._flush(final=True)
        for manifest in self._manifests.values():
            manifest.close()

    def _record_variantless(self, kept_from_previous: set[str], previous: set[str]) -> None:
        """Record in the pack's meta the shapes of the templates without language variants
        (marquee/packs.py VARIANTLESS): those whose names, all written by this build, have none,
        and those whose names came from the previous release (`kept_from_previous`) when it said
        so (`previous`, its shapes) and this build added none. A shape two templates share is left
        out unless both are without."""
        shapes: dict[str, bool] = {}
        for template in self._templates_seen | kept_from_previous:
            shape = template_shape(template)
            without = template not in self._variants and (template not in kept_from_previous or shape in previous)
            shapes[shape] = shapes.get(shape, True) and without
        self.con.execute(META_TABLE)
        self.con.execute(
            "INSERT OR REPLACE INTO main.meta VALUES (?, ?)",
            (VARIANTLESS, "\n".join(sorted(shape for shape, without in shapes.items() if without))),
        )

    @staticmethod
    def _step(progress: Callable[[str, int, int], None] | None, name: str) -> None:
        """Tell `progress` a step of finish() begins (`finish index`): at 1M films the finish is minutes."""
        if progress is not None:
            progress(f"finish {name}", 0, 1)

    def _refuse_twice(self, names: list[str]) -> NoReturn:
        """Fail the build: these names (or keys) were written twice."""
        self.staging.close()
        self.con.close()
        raise WriterError(f"refusing to write {', '.join(names[:3])} twice") from None

    def summary(self) -> WriteSummary:
        files = (2 if self.delta else 1) if self._documents else 0
        return WriteSummary(documents=self._documents, files=files, bytes=self._bytes)


class FullWriter(PackWriter):
    """A full build's writer: a new full pack holding every document."""

    def _open(self) -> None:
        self.con.execute(f"PRAGMA user_version = {PACK_FORMAT}")
        self.con.execute("CREATE TABLE docs (key INTEGER PRIMARY KEY, body BLOB NOT NULL)")

    @property
    def finishes_apart(self) -> bool:
        return self.staging.staged_bytes >= APART_BYTES

    def finish(self, progress: Callable[[str, int, int], None] | None = None) -> None:
        """Write the blocks (refusing any name written twice), record the release's facts, and
        count what is unchanged since `previous` (when given, by digest in the manifests). The blocks
        are written by write_full_blocks, in a process of its own for a large pack (APART_BYTES)."""
        self._step(progress, "manifests")
        self._close_manifests()
        self._record_variantless(set(), set())
        self.con.execute("COMMIT")
        self.con.close()  # the blocks' writer opens the pack again
        self._step(progress, "blocks")
        self.staging.seal()
        arguments = (pack_path(self.root), self.staging.folder, self._documents)

        def write() -> Written:
            with beside(write_full_blocks, *arguments, apart=self.finishes_apart) as written:
                return written()

        written = self._written(write)
        self._documents -= written.twins  # what the pack holds; the manifest has every rendered name
        self._bytes -= written.twin_bytes
        self._step(progress, "unchanged")
        if self.previous is not None:
            self.unchanged = self._unchanged(self.previous)

    def _unchanged(self, previous: Path) -> int:
        """How many documents `previous` has with the same JSON: from the two manifests' digests, or,
        for a previous release without one this build can read, from its pack, a name at a time."""
        manifest = previous_manifest(previous)
        if manifest is not None:
            return unchanged_count(self.root / MANIFEST_NAME, manifest)
        if not pack_path(previous).is_file() or other_digests(previous):
            return 0  # nothing to compare; or digests of another function: it would read every document
        from marquee.manifests import manifest_rows

        with Pack(previous) as old, duckdb.connect() as con:
            rows = con.execute(f"SELECT name, digest FROM {manifest_rows(self.root / MANIFEST_NAME)}").fetchall()
            unchanged = 0
            for start in range(0, len(rows), BATCH_ROWS):
                part = rows[start : start + BATCH_ROWS]
                found = digests_of(pa.array([old.raw(name) for name, _ in part], pa.binary())).to_pylist()
                unchanged += sum(now == digest for now, (_, digest) in zip(found, part))
            return unchanged


def write_full_blocks(pack: Path, staging: Path, documents: int) -> Written:
    """Write a full pack's blocks from its sealed staging folder (blocks.write_blocks), and its
    document count: the `documents` rendered less the untranslated twins left out."""
    con = open_pack(pack)
    try:
        con.execute("BEGIN")
        written = write_blocks(con, staged_buckets(staging), BlockEncoders(con))
        con.execute("INSERT OR REPLACE INTO main.meta VALUES (?, ?)", (DOCUMENTS, str(documents - written.twins)))
        con.execute("COMMIT")
        return written
    finally:
        con.close()


def Writer(root: Path, previous: Path | None = None) -> PackWriter:  # noqa: N802 (what callers construct)
    """The writer for a release in `root`: a DeltaWriter when `previous` (an earlier release) has a
    pack and a manifest to update, else a FullWriter (counting what is unchanged since `previous`)."""
    from site_gen.delta_writer import DeltaWriter  # it builds on this module

    manifest = previous_manifest(Path(previous)) if previous is not None else None
    if manifest is None or pack_format(pack_path(previous)) != PACK_FORMAT:  # an older pack: start afresh
        return FullWriter(root, previous)
    return DeltaWriter(root, previous, manifest)
