"""An update's writer: a delta pack over the previous release's (marquee/packs.py).

An update (`previous` is an earlier release with a pack and a manifest) receives a document
unchanged since `previous` as None (its content hash is in the previous manifest, compared in
DuckDB, site_gen/documents.py), and records only its name and digest in the manifest. Changed and
new documents, and names no longer rendered, are staged by group (site_gen/blocks.py); each group
they reach is written again, its previous block with the changes applied, into a delta pack over
`base.sqlite`, a hard link to the full pack underneath the previous release (its base, or its own
pack when it is full); a group left with no document becomes a tombstone (or leaves the delta,
when the base lacks it). The base is only ever attached read-only. An update does not copy the previous pack (16 GB at 100k movies, about 3
minutes), and a delta never grows into a chain: on top of a delta release, the new delta starts
as a copy of the previous delta over the same base. When that delta is more than COMPACT_FRACTION
of its base, the update instead starts from a copy of the base with that delta merged in, and the
release has one full pack again, which the next updates use as their base.

A template the build plan keeps whole (site_gen/plan.py) reaches only the manifest, as a hard link
(keep_template); one it renders in part writes its changes over the previous manifest's file
(over_previous). Unchanged documents keep their ETag, so clients' caches stay valid across the
publish.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy
import pyarrow as pa

from marquee.manifests import MANIFEST_NAME, delta_file, manifest_file, manifest_key, settle_update
from marquee.packs import (
    DELTA_APPLICATION_ID,
    DOCUMENTS,
    PACK_FORMAT,
    Decoder,
    base_path,
    document_bytes,
    first,
    group_of,
    is_delta,
    key_of,
    pack_path,
    read_only_uri,
    variantless,
)
from site_gen.blocks import UND, Previous, documents_of
from site_gen.writer import PackWriter, WriterError, attach_release

# An update on top of a delta bigger than this share of its base's bytes writes a full pack: a
# delta is copied whole by the next update, and past a quarter that copy stops being cheap. Both
# are counted without their dictionaries (document_bytes), which a compaction would not shed.
COMPACT_FRACTION = 0.25
# Connections reading an update's previous blocks at once, ahead of the bucket being written. When
# the page cache no longer holds the previous pack each block is a random read: one at a time, 150k
# of them took 9.3 to 10 s from a cold 1M pack, 6.2 to 6.5 s on 8 connections, and the 1M rebuild's
# blocks 20 to 25 s, then 17 to 18 (docs/benchmarks.md, session 52); two of session 51's rebuilds
# waited on them 85 s and over two minutes.
PREVIOUS_READERS = 8


class DeltaWriter(PackWriter):
    """Writes an update of `previous` (whose manifest folder is `manifest`) into root's pack."""

    updating = True
    _layout = ""  # how _lay_out made the pack: "new delta", "copied delta" or "merged"

    def _lay_out(self, path: Path) -> None:
        """A delta over the previous full pack (a hard link), a copy of the previous delta over its
        base, or, past COMPACT_FRACTION, a copy of the base to merge the previous delta into."""
        assert self.previous is not None
        before, under = pack_path(self.previous), base_path(self.previous)
        if not is_delta(before):
            os.link(before, base_path(self.root))
            self._layout, self.delta = "new delta", True
        elif document_bytes(before) <= COMPACT_FRACTION * document_bytes(under):
            shutil.copyfile(before, path)  # copy_file_range: no bytes through Python
            os.link(under, base_path(self.root))
            self._layout, self.delta = "copied delta", True
        else:
            shutil.copyfile(under, path)
            self._layout = "merged"

    def _open(self) -> None:
        assert self.previous is not None
        self.previous_layers = attach_release(self.con, "previous", self.previous)
        if self.delta:
            self.con.execute("ATTACH DATABASE ? AS base", (read_only_uri(base_path(self.root)),))
            self.layers = ("main", "base")
        if self._layout == "new delta":
            self.con.execute(f"PRAGMA application_id = {DELTA_APPLICATION_ID}")
            self.con.execute(f"PRAGMA user_version = {PACK_FORMAT}")
            self.con.execute("CREATE TABLE docs (key INTEGER PRIMARY KEY, body BLOB)")
        self._in_base = "SELECT 1 FROM base.docs WHERE key = ?"
        self.decode = Decoder(self.con)
        self._written_names: list[str] = []  # names with a body now, for settle_update

    def _begin(self) -> None:
        if self._layout == "merged":
            self.con.execute("DELETE FROM main.docs WHERE key IN (SELECT key FROM previous.docs)")
            self.con.execute(
                "INSERT INTO main.docs (key, body) "
                "SELECT key, body FROM previous.docs WHERE body IS NOT NULL ORDER BY key"
            )

    def _stage(self, template: str, names: pa.Array, bodies: pa.Array) -> None:
        super()._stage(template, names, bodies)
        self._written_names.extend(names.to_pylist())

    def keep_template(self, template: str) -> None:
        """Keep every document of `template` as the previous release has it (an update whose changes
        reach none of them): its manifest file is a hard link to the previous one, and no row of it
        passes through the Writer."""
        if template in self._templates_seen or template in self._kept:
            raise WriterError(f"{template}: kept whole after documents were written for it")
        assert self.previous_manifest is not None
        for name in (manifest_file(template), delta_file(template)):
            if (self.previous_manifest / name).exists():  # else the previous release had no document of it
                os.link(self.previous_manifest / name, self.root / MANIFEST_NAME / name)
        self._kept.add(template)

    def over_previous(self, template: str) -> None:
        """Take the rows of `template` that follow as changes over the previous release's manifest
        for it (an update that renders some of its entities, documents.py): its file is linked as
        this release's base, and the rows, with a row of neither body nor digest for each name the
        entities rendered no longer have, become the delta file over it. The previous delta is not
        kept: its rows for the entities not rendered arrive again as unchanged rows."""
        if template in self._templates_seen or template in self._kept or template in self._deltas:
            raise WriterError(f"{template}: written as changes after documents were written for it")
        assert self.previous_manifest is not None
        base = self.previous_manifest / manifest_file(template)
        if not base.exists():
            raise WriterError(f"{template}: the previous release has no manifest of it to write changes over")
        os.link(base, self.root / MANIFEST_NAME / manifest_file(template))
        self._deltas.add(template)

    def finish(self, progress: Callable[[str, int, int], None] | None = None) -> None:
        """Settle the update (names rendered twice refused, names no longer rendered removed), write
        the blocks the update reaches, and count the documents and what is unchanged since `previous`."""
        self._step(progress, "manifests")
        self._close_manifests()
        self._step(progress, "settle")
        self._settle_update()
        self._step(progress, "blocks")
        before = int(
            self.con.execute(
                f"SELECT value FROM {self.previous_layers[0]}.meta WHERE key = ?", (DOCUMENTS,)
            ).fetchone()[0]
        )
        with PreviousBlocks(self.previous) as blocks:
            written = self._write_blocks(
                previous=lambda keys: blocks.reader(keys, self.decode), gone=self._tombstone, restore=self._restore
            )
        self._record_variantless(self._kept | self._deltas, variantless(self.con, "previous"))
        self._documents = before + written.gained
        self.con.execute("INSERT OR REPLACE INTO main.meta VALUES (?, ?)", (DOCUMENTS, str(self._documents)))
        self.con.execute("COMMIT")
        self.unchanged = self._documents - written.stored
        self.con.close()

    def _tombstone(self, key: int) -> None:
        """Take a group out of this release: out of the pack, and hidden by a tombstone when a
        delta's base has it."""
        self.con.execute("DELETE FROM main.docs WHERE key = ?", (key,))
        if self.delta and self.con.execute(self._in_base, (key,)).fetchone():
            self.con.execute("INSERT INTO main.docs (key) VALUES (?)", (key,))

    def _settle_update(self) -> None:
        """After an update's writes: refuse a name rendered twice, stage the removal of each name no
        longer rendered, and note the untranslated variants to restore, all found from the
        manifests (manifests.settle_update)."""
        assert self.previous_manifest is not None and self.previous is not None
        # A twin (X.und equal to X) was left out of the previous release. If X changed and X.und did
        # not, X.und is now a document of its own whose bytes are X's previous ones (same hash).
        candidates = [name[: -len(".json")] + UND for name in self._written_names if not name.endswith(UND)]
        settled = settle_update(
            self.root / MANIFEST_NAME,
            self.previous_manifest,
            {manifest_key(template) for template in self._kept | self._deltas},
            sorted(self._deltas),
            self._written_names,
            candidates,
        )
        if settled.repeated:
            self._refuse_twice(settled.repeated)
        self._restore: dict[int, list[tuple[str, int]]] = {}
        for name, digest in settled.unds:
            group, suffix = group_of(name)
            self._restore.setdefault(key_of(group), []).append((suffix, digest))
        for start in range(0, len(settled.gone), 100_000):
            gone = pa.array(settled.gone[start : start + 100_000], pa.string())
            self.staging.add("", gone, pa.nulls(len(gone), pa.binary()))  # "": each name's kind its own


class PreviousBlocks:
    """The previous release's stored blocks, read for many groups at once on PREVIOUS_READERS
    connections of their own (SQLite leaves the GIL while it reads), in key order within each."""

    def __init__(self, release: Path) -> None:
        self.release = release
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._pool = ThreadPoolExecutor(PREVIOUS_READERS, thread_name_prefix="previous-blocks")

    def read(self, keys: numpy.ndarray) -> dict[int, bytes | None]:
        """Each key's stored block (None for a tombstone); keys with none are left out."""
        shares = numpy.array_split(keys, min(PREVIOUS_READERS, max(1, len(keys) // 16)))
        return {key: body for share in self._pool.map(self._read, shares) for key, body in share}

    def reader(self, keys: numpy.ndarray, decode: Callable[[bytes], bytes]) -> Previous:
        """A group's previous documents among `keys` (read now), decoded when asked for (`decode`
        stays on the asking thread)."""
        stored = self.read(keys)
        return lambda key: documents_of(stored.get(key), decode)

    def _read(self, keys: numpy.ndarray) -> list[tuple[int, bytes | None]]:
        con, query = self._connection()
        rows = []
        for key in keys.tolist():
            row = con.execute(query, (key,)).fetchone()
            if row is not None:
                rows.append((key, row[0]))
        return rows

    def _connection(self) -> tuple[sqlite3.Connection, str]:
        if not hasattr(self._local, "con"):
            con = sqlite3.connect(":memory:", check_same_thread=False)
            self._connections.append(con)
            self._local.con, self._local.query = con, first(attach_release(con, "previous", self.release), "body")
        return self._local.con, self._local.query

    def __enter__(self) -> PreviousBlocks:
        return self

    def __exit__(self, *exc) -> None:
        self._pool.shutdown()
        for con in self._connections:
            con.close()
