"""The one place rendered documents enter a release (Pelican's Writer, for JSON, into a pack).

Every document becomes a row of the release's pack (marquee/packs.py): `/3/movie/603` with the
variant suffix `.de-DE` is the row named `3/movie/603.de-DE.json`, with its body and a content
hash that serves as its ETag. Rows go in with `executemany` in batches, in one transaction with
no journal: a half-written pack is never published (release.py removes the folder on failure).

URIs are checked against a strict alphabet and may be written once only: a second write of the
same URI is a rendering bug (two generators claiming one page), never something to overwrite. The
uniqueness is checked by the pack's unique index, built once at the end (a sort, far cheaper than
keeping 77M names in a Python set or maintaining the index row by row), so a repeat is reported
by `finish()` (in an update, found in the manifest), which also drops every untranslated variant
equal to its default document.

With `previous` (an earlier release with a manifest), the build is an update and receives only
changed documents' bodies (class docstring). The manifest (site_gen/manifests.py) is written here:
a file per template, a hard link for a template kept whole, and a delta beside a link for a
template rendered in part. Unchanged documents keep their ETag, so clients'
caches stay valid across the publish. An update does not copy the previous pack (16 GB at 100k
movies, about 3 minutes): it writes a delta pack over a hard link to the full pack underneath
(marquee/packs.py), and a delta never grows into a chain: on top of a delta release, the new delta
starts as a copy of the previous delta over the same base. Once that delta is more than
COMPACT_FRACTION of its base, the update merges both into a new full pack instead, which the next
updates use as their base.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import zstandard

from marquee.packs import (DELTA_APPLICATION_ID, DICTS_TABLE, PAGE_SIZE, base_path, count_documents, encoder,
                           etag_of, first, is_delta, pack_path, read_only_uri, train_dictionary)
from site_gen.documents import UNTRANSLATED
from site_gen.manifests import (MANIFEST_NAME, MANIFEST_SCHEMA, delta_file, manifest_file, manifest_key,
                                 previous_manifest, settle_update, untranslated_twins)

_URI = re.compile(r"^/[A-Za-z0-9_./-]+$")
_BAD_SEGMENT = r"/\.{0,2}(/|$)"  # an empty, '.' or '..' segment, as name_for() refuses
BATCH_ROWS = 5_000
# Manifest rows buffered before they are written (a row group per template at most): one row group
# per batch made 1,600 row groups at 100k movies and cost 6.6 s of a 95 s rebuild.
MANIFEST_ROWS = 250_000
UND_SUFFIX = UNTRANSLATED + ".json"
# An update on top of a delta bigger than this share of its base's bytes writes a full pack: a
# delta is copied whole by the next update, and past a quarter that copy stops being cheap.
COMPACT_FRACTION = 0.25
# A template's first documents, up to this many (or bytes), wait to train its zstd dictionary
# (marquee/packs.py): 2,000 gave 4.8 times on the sample, and waiting rows are held in memory.
TRAINING_DOCS = 2_000
TRAINING_BYTES = 8 * 1024 * 1024


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


class Writer:
    """Writes JSON documents into root's pack; summary() counts them and their bytes.

    Two modes. A full build creates a full pack and inserts every document. An update (`previous`
    is an earlier release with a pack and a manifest) receives a document unchanged since
    `previous` as None (its content hash is in the previous manifest, compared in DuckDB,
    site_gen/documents.py), and records only its name and etag in the manifest. Changed and new
    documents are inserted or replaced in a delta pack over `base.sqlite`, a hard link to the full
    pack underneath the previous release (its base, or its own pack when it is full); names no
    longer rendered become tombstones (or leave the delta, when the base lacks them). The base is
    only ever attached read-only. When the previous release's delta exceeds COMPACT_FRACTION of its
    base, the update instead starts from a copy of the base with that delta merged in, and the
    release has one full pack again.
    """

    def __init__(self, root: Path, previous: Path | None = None) -> None:
        self.root = Path(root)
        self.previous = Path(previous) if previous is not None else None
        self.root.mkdir(parents=True, exist_ok=True)
        path = pack_path(self.root)
        if path.exists():
            raise FileExistsError(f"{path} exists: a Writer only ever creates a new pack")
        # The previous release's manifest when this build is an update of its pack (else None).
        self.previous_manifest = previous_manifest(self.previous) if self.previous is not None else None
        # Where this release's documents are, a delta before its base (attached schemas), and
        # where the previous release's were, for untranslated twins to restore.
        self.layers: tuple[str, ...] = ("main",)
        self.previous_layers: tuple[str, ...] = ()
        self.delta = False
        create_delta = merge_previous = False
        if self.updating:
            assert self.previous is not None
            before, under = pack_path(self.previous), base_path(self.previous)
            if not is_delta(before):
                os.link(before, base_path(self.root))
                self.delta = create_delta = True
            elif before.stat().st_size <= COMPACT_FRACTION * under.stat().st_size:
                shutil.copyfile(before, path)  # copy_file_range: no bytes through Python
                os.link(under, base_path(self.root))
                self.delta = True
            else:
                shutil.copyfile(under, path)
                merge_previous = True
        self.con = sqlite3.connect(f"file:{quote(str(path))}", uri=True, isolation_level=None)
        for pragma in (f"page_size = {PAGE_SIZE}", "journal_mode = OFF", "synchronous = OFF",
                       "locking_mode = EXCLUSIVE", "temp_store = MEMORY", "cache_size = -262144",
                       # helper threads sort the name index (100k movies: 19.5 s alone, 15.5 s with two)
                       f"threads = {os.cpu_count() or 1}"):
            self.con.execute(f"PRAGMA {pragma}")
        if self.updating:
            assert self.previous is not None
            self.previous_layers = self._attach_release("previous", self.previous)
            if self.delta:
                self.con.execute("ATTACH DATABASE ? AS base", (read_only_uri(base_path(self.root)),))
                self.layers = ("main", "base")
            if create_delta:
                self.con.execute(f"PRAGMA application_id = {DELTA_APPLICATION_ID}")
                self.con.execute("CREATE TABLE docs (name TEXT NOT NULL, body BLOB, etag TEXT)")
                self.con.execute("CREATE UNIQUE INDEX docs_name ON docs (name)")
                # Counting tombstones (marquee/packs.count_documents) without reading the delta's bodies.
                self.con.execute("CREATE INDEX docs_gone ON docs (name) WHERE body IS NULL")
            self.con.execute("CREATE TEMP TABLE written (name TEXT PRIMARY KEY) WITHOUT ROWID")  # the changed
        else:
            self.con.execute("CREATE TABLE docs (name TEXT NOT NULL, body BLOB NOT NULL, etag TEXT NOT NULL)")
        # Bodies are encoded with a dictionary per template (marquee/packs.py), trained on its first
        # documents; an update reuses those its base and the previous release were written with.
        self._encoders: dict[str, Callable[[bytes], bytes]] = {}
        self._pending: dict[str, list[tuple[str, bytes, str]]] = {}  # rows waiting for their dictionary
        self._pending_bytes: dict[str, int] = {}
        self._dict_ids = self._gather_dictionaries()
        self.con.execute("BEGIN")
        if merge_previous:
            self.con.execute("DELETE FROM main.docs WHERE name IN (SELECT name FROM previous.docs)")
            self.con.execute("INSERT INTO main.docs (name, body, etag) "
                             "SELECT name, body, etag FROM previous.docs WHERE body IS NOT NULL ORDER BY name")
        (self.root / MANIFEST_NAME).mkdir()
        self._manifests: dict[str, pq.ParquetWriter] = {}  # open per template, closed by finish()
        self._kept: set[str] = set()  # templates kept whole from the previous manifest (keep_template)
        self._deltas: set[str] = set()  # templates written as a delta over the previous manifest (over_previous)
        self._templates_seen: set[str] = set()  # templates with documents written or kept one by one
        self._rows: list[tuple[str, bytes, str]] = []
        # The manifest's rows not yet written: Arrow chunks, then write()'s rows as lists, in order.
        self._chunks: list[pa.Table] = []
        self._templates: list[str] = []
        self._names: list[str] = []
        self._etags: list[str] = []
        self._buffered = 0
        self._documents = 0
        self._bytes = 0
        # A full build's untranslated variants (name, etag, bytes), for finish() to find the twins.
        self._und_rows: list[pa.Table] = []
        self.unchanged = 0

    def _gather_dictionaries(self) -> set[int]:
        """Give this pack a copy of every dictionary of the packs it reads rows from (its base, the
        previous release), as a reader looks in its own pack's `dicts` only; take each template's
        as its encoder. Returns the ids in use."""
        self.con.execute(DICTS_TABLE.format(schema="main"))
        for (schema,) in self.con.execute("SELECT name FROM pragma_database_list WHERE name <> 'main'").fetchall():
            if schema != "temp" and self.con.execute(
                    f"SELECT 1 FROM {schema}.sqlite_master WHERE name = 'dicts'").fetchone():
                self.con.execute(f"INSERT OR IGNORE INTO main.dicts SELECT id, template, dict FROM {schema}.dicts")
        ids = set()
        for dict_id, template, data in self.con.execute("SELECT id, template, dict FROM main.dicts ORDER BY id"):
            ids.add(dict_id)
            self._encoders[template] = encoder(zstandard.ZstdCompressionDict(
                bytes(data), dict_type=zstandard.DICT_TYPE_FULLDICT))
        return ids

    def _take(self, template: str, rows: list[tuple[str, bytes, str]]) -> None:
        """Queue rows for the pack, their bodies encoded; a template without a dictionary yet holds
        its rows until TRAINING_DOCS (or TRAINING_BYTES) of them train one."""
        encode = self._encoders.get(template)
        if encode is not None:
            self._rows.extend([(name, encode(body), etag) for name, body, etag in rows])
            return
        self._pending.setdefault(template, []).extend(rows)
        held = self._pending_bytes[template] = self._pending_bytes.get(template, 0) + sum(len(r[1]) for r in rows)
        if len(self._pending[template]) >= TRAINING_DOCS or held >= TRAINING_BYTES:
            self._train(template)

    def _train(self, template: str) -> None:
        """Train `template`'s dictionary on its held rows (none when they are too few: they are
        stored as plain frames or JSON), keep it in the pack, and queue the rows."""
        rows = self._pending.pop(template)
        self._pending_bytes.pop(template)
        dictionary = train_dictionary([body for _, body, _ in rows[:TRAINING_DOCS]], self._dict_ids)
        if dictionary is not None:
            self._dict_ids.add(dictionary.dict_id())
            self.con.execute("INSERT INTO main.dicts VALUES (?, ?, ?)",
                             (dictionary.dict_id(), template, dictionary.as_bytes()))
        self._encoders[template] = encoder(dictionary)
        self._take(template, rows)

    def _attach_release(self, schema: str, release: Path) -> tuple[str, ...]:
        """Attach a release's pack (and its base, when it is a delta) read-only as `schema`
        (`schema`_base); returns the layers to look its documents up in."""
        self.con.execute(f"ATTACH DATABASE ? AS {schema}", (read_only_uri(pack_path(release)),))
        if not is_delta(pack_path(release)):
            return (schema,)
        self.con.execute(f"ATTACH DATABASE ? AS {schema}_base", (read_only_uri(base_path(release)),))
        return (schema, f"{schema}_base")

    def write(self, uri: str, document: Any, etag: str | None = None, template: str = "") -> str:
        """Add document (a Python object, JSON already serialised as bytes, or None for a document
        unchanged since `previous`, with its etag) as uri's row; returns its name."""
        name = name_for(uri)
        body = document if document is None or isinstance(document, bytes) else orjson.dumps(document)
        if body is None and (not self.updating or etag is None):
            raise WriterError(f"{uri}: no document, and no previous release to keep it from")
        self._add(template, [name], [body], [etag or etag_of(body)] if body is not None else [etag])
        return name

    def write_batch(self, template: str, batch: pa.RecordBatch) -> None:
        """Add a batch of documents (site_gen/documents.py's BATCH_SCHEMA: uri, body, etag), with the
        URI check, names and byte count done on whole columns. A null etag is computed here."""
        self._seen(template)
        uris, bodies, etags = batch.column(0), batch.column(1), batch.column(2)
        # In a delta (over_previous), a row with neither body nor etag removes its name.
        # A null body is a document kept from the previous manifest, whose name passed when written.
        written = uris if not bodies.null_count else uris.filter(pc.is_valid(bodies))
        refused = pc.or_(pc.invert(pc.match_substring_regex(written, _URI.pattern)),
                         pc.match_substring_regex(written, _BAD_SEGMENT))
        if pc.any(refused).as_py():
            name_for(written[pc.index(refused, True).as_py()].as_py())  # raises, with the reason
        if bodies.null_count:  # unchanged: only an update keeps it, and by its etag
            missing = pc.is_null(bodies) if not self.updating else pc.and_(pc.is_null(bodies), pc.is_null(etags))
            if template not in self._deltas and pc.any(missing).as_py():
                uri = uris[pc.index(missing, True).as_py()].as_py()
                raise WriterError(f"{uri}: no document, and no previous release to keep it from")
        names = pc.binary_join_element_wise(pc.utf8_slice_codeunits(uris, 1), ".json", "")
        if etags.null_count:  # bodies built in Python (documents.from_objects), or removals (no body)
            etags = pa.array([etag or (etag_of(body) if body is not None else None)
                              for body, etag in zip(bodies.to_pylist(), etags.to_pylist())], pa.string())
        # Most batches of an update are all unchanged: those reach only the manifest, as Arrow.
        if bodies.null_count < len(bodies):
            if bodies.null_count:
                present = pc.is_valid(bodies)
                changed = (names.filter(present), bodies.filter(present), etags.filter(present))
            else:
                changed = (names, bodies, etags)
            self._take(template, list(zip(*(column.to_pylist() for column in changed))))
            sizes = pc.binary_length(changed[1])
            self._bytes += pc.sum(sizes).as_py()
            self._note_und(changed[0], changed[2], sizes)
        self._seal()
        self._chunks.append(pa.Table.from_arrays(
            [pa.repeat(pa.scalar(template, pa.string()), len(names)), names, etags], schema=MANIFEST_SCHEMA))
        self._counted(len(names))

    def keep_template(self, template: str) -> None:
        """Keep every document of `template` as the previous release has it (an update whose changes
        reach none of them): its manifest file is a hard link to the previous one, and no row of it
        passes through the Writer."""
        if not self.updating:
            raise WriterError(f"{template}: nothing to keep without a previous release")
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
        this release's base, and the rows, with a row of neither body nor etag for each name the
        entities rendered no longer have, become the delta file over it. The previous delta is not
        kept: its rows for the entities not rendered arrive again as unchanged rows."""
        if not self.updating:
            raise WriterError(f"{template}: no previous release to write changes over")
        if template in self._templates_seen or template in self._kept or template in self._deltas:
            raise WriterError(f"{template}: written as changes after documents were written for it")
        assert self.previous_manifest is not None
        base = self.previous_manifest / manifest_file(template)
        if not base.exists():
            raise WriterError(f"{template}: the previous release has no manifest of it to write changes over")
        os.link(base, self.root / MANIFEST_NAME / manifest_file(template))
        self._deltas.add(template)

    def _add(self, template: str, names: list[str], bodies: list[bytes | None], etags: list[str]) -> None:
        """Buffer rows (a None body: unchanged, only its name and etag are recorded); flush when full."""
        self._seen(template)
        present = [row for row in zip(names, bodies, etags) if row[1] is not None]
        self._take(template, present)
        self._bytes += sum(len(body) for _, body, _ in present)
        if present:
            self._note_und(pa.array([name for name, _, _ in present], pa.string()),
                           pa.array([etag for _, _, etag in present], pa.string()),
                           pa.array([len(body) for _, body, _ in present], pa.int64()))
        self._templates.extend([template] * len(names))
        self._names.extend(names)
        self._etags.extend(etags)
        self._counted(len(names))

    def _seen(self, template: str) -> None:
        if template in self._kept:
            raise WriterError(f"{template}: documents written for a template kept whole")
        self._templates_seen.add(template)

    def _note_und(self, names: pa.Array, etags: pa.Array, sizes: pa.Array) -> None:
        """Keep a full build's untranslated variants (name, etag, bytes): finish() compares each with
        its default document in Arrow, not by reading both rows back from the pack."""
        if self.updating:
            return  # an update finds its twins among the names it wrote (_drop_redundant_und)
        und = pc.ends_with(names, UND_SUFFIX)
        if pc.any(und).as_py():
            self._und_rows.append(pa.table({"name": names.filter(und), "etag": etags.filter(und),
                                            "bytes": pc.cast(sizes, pa.int64()).filter(und)}))

    def _counted(self, documents: int) -> None:
        self._documents += documents
        self._buffered += documents
        if self._buffered >= BATCH_ROWS:
            self._flush()

    def _seal(self) -> None:
        """Close write()'s rows into a manifest chunk, so an Arrow chunk after them stays after them."""
        if self._names:
            self._chunks.append(pa.table({"template": self._templates, "name": self._names, "etag": self._etags},
                                         schema=MANIFEST_SCHEMA))
            self._templates, self._names, self._etags = [], [], []

    def _flush(self, final: bool = False) -> None:
        if self.updating:
            self.con.executemany("INSERT OR REPLACE INTO docs (name, body, etag) VALUES (?, ?, ?)", self._rows)
            self.con.executemany("INSERT INTO written VALUES (?)", [(row[0],) for row in self._rows])
        else:
            self.con.executemany("INSERT INTO docs VALUES (?, ?, ?)", self._rows)
        self._seal()
        if self._chunks and (final or sum(chunk.num_rows for chunk in self._chunks) >= MANIFEST_ROWS):
            rows = pa.concat_tables(self._chunks)
            self._chunks = []
            for template in pc.unique(rows.column("template")).to_pylist():
                part = rows.filter(pc.equal(rows.column("template"), template))
                if template not in self._manifests:
                    name = delta_file(template) if template in self._deltas else manifest_file(template)
                    self._manifests[template] = pq.ParquetWriter(self.root / MANIFEST_NAME / name, MANIFEST_SCHEMA)
                self._manifests[template].write_table(part)
        self._rows.clear()
        self._buffered = 0

    def finish(self) -> None:
        """Commit, index by name (refusing any name written twice), drop redundant untranslated
        variants, and count what is unchanged since `previous`."""
        for template in list(self._pending):
            self._train(template)
        self._flush(final=True)
        for manifest in self._manifests.values():
            manifest.close()
        self.con.execute("COMMIT")
        if self.updating:
            self._settle_update()
        else:
            try:
                self.con.execute("CREATE UNIQUE INDEX docs_name ON docs (name)")
            except sqlite3.IntegrityError:
                self._refuse_twice([name for (name,) in self.con.execute(
                    "SELECT name FROM docs GROUP BY name HAVING count(*) > 1 ORDER BY name LIMIT 3")])
        self._drop_redundant_und()
        if self.updating:  # counted in the pack: dropped untranslated twins are neither
            self._documents = count_documents(self.con, "main", "base" if self.delta else None)
            self.unchanged = self._documents - self.con.execute(
                "SELECT count(*) FROM written JOIN main.docs d USING (name) WHERE d.etag IS NOT NULL").fetchone()[0]
        elif self.previous is not None and pack_path(self.previous).is_file():
            previous = first(self._attach_release("previous", self.previous), "etag", "d.name")
            self.unchanged = self.con.execute(
                f"SELECT count(*) FROM main.docs d WHERE d.etag = ({previous})").fetchone()[0]
        self.con.close()

    def _settle_update(self) -> None:
        """After an update's writes: refuse a name rendered twice, remove what is no longer rendered,
        and put back untranslated variants that stopped being twins, all found from the manifests
        (manifests.settle_update)."""
        assert self.previous_manifest is not None and self.previous is not None
        written = [name for (name,) in self.con.execute("SELECT name FROM written")]
        # A twin (X.und equal to X) was dropped from the previous release. If X changed and X.und did
        # not, X.und is now a document of its own whose bytes are X's previous ones (same hash).
        twin_of = {name[: -len(".json")] + UND_SUFFIX: name for name in written if not name.endswith(UND_SUFFIX)}
        settled = settle_update(self.root / MANIFEST_NAME, self.previous_manifest,
                                {manifest_key(template) for template in self._kept | self._deltas},
                                sorted(self._deltas), written, list(twin_of))
        if settled.repeated:
            self._refuse_twice(settled.repeated)
        gone, unds = settled.gone, settled.unds
        self.con.execute("BEGIN")
        self._remove(gone)
        # OR REPLACE: in a delta, X.und may be the tombstone that dropped it from the base.
        self.con.executemany(
            f"INSERT OR REPLACE INTO main.docs (name, body, etag) SELECT ?1, body, etag "
            f"FROM ({first(self.previous_layers, 'body, etag', '?2')}) "
            f"WHERE etag = ?3 AND ({first(self.layers, 'etag', '?1')}) IS NULL",
            [(und, twin_of[und], etag) for und, etag in unds])
        self.con.execute("COMMIT")

    def _remove(self, names: list[str]) -> None:
        """Take documents out of this release: out of the pack, and hidden by a tombstone when a
        delta's base has them."""
        self.con.executemany("DELETE FROM main.docs WHERE name = ?", ((name,) for name in names))
        if self.delta:
            self.con.executemany("INSERT INTO main.docs (name) SELECT ?1 WHERE EXISTS "
                                 "(SELECT 1 FROM base.docs WHERE name = ?1)", ((name,) for name in names))

    @property
    def updating(self) -> bool:
        return self.previous_manifest is not None

    def _refuse_twice(self, names: list[str]) -> None:
        self.con.close()
        raise WriterError(f"refusing to write {', '.join(names[:3])} twice") from None

    def _drop_redundant_und(self) -> None:
        """Drop each untranslated variant (`X.und.json`) equal to its default document (`X.json`): a
        title with no English text, a person with no biography. The readers fall back from X.und to X."""
        if self.updating:
            # The previous release had no twins, so only a pair with a member written by this build
            # can be one: each is two index lookups per layer, however big the base.
            twins = self.con.execute(
                f"WITH pairs (und, name) AS ("
                f"SELECT name, substr(name, 1, length(name) - {len(UND_SUFFIX)}) || '.json' FROM written "
                f"WHERE name LIKE '%{UND_SUFFIX}' UNION "
                f"SELECT substr(name, 1, length(name) - {len('.json')}) || '{UND_SUFFIX}', name FROM written "
                f"WHERE name NOT LIKE '%{UND_SUFFIX}') "
                f"SELECT und FROM pairs WHERE ({first(self.layers, 'etag', 'pairs.und')}) = "
                f"({first(self.layers, 'etag', 'pairs.name')})").fetchall()
            self.con.execute("BEGIN")
            self._remove([name for (name,) in twins])
            self.con.execute("COMMIT")
            return
        # Compared against the manifest, not by reading each row and its default back from the pack.
        if not self._und_rows:
            return
        unds = pa.concat_tables(self._und_rows)
        self._und_rows = []
        twins = untranslated_twins(self.root / MANIFEST_NAME, unds, UND_SUFFIX)
        self.con.execute("BEGIN")
        self.con.executemany("DELETE FROM docs WHERE name = ?", ((name,) for name in twins.column("name").to_pylist()))
        self.con.execute("COMMIT")
        self._documents -= twins.num_rows
        self._bytes -= pc.sum(twins.column("bytes")).as_py() or 0

    def summary(self) -> WriteSummary:
        files = (2 if self.delta else 1) if self._documents else 0
        return WriteSummary(documents=self._documents, files=files, bytes=self._bytes)

