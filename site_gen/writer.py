"""The one place rendered documents enter a release (Pelican's Writer, for JSON, into a pack).

Every document becomes a row of the release's pack (marquee/packs.py): `/3/movie/603` with the
variant suffix `.de-DE` is the row named `3/movie/603.de-DE.json`, with its body and a content
hash that serves as its ETag. Rows go in with `executemany` in batches, in one transaction with
no journal: a half-written pack is never published (release.py removes the folder on failure).

URIs are checked against a strict alphabet and may be written once only: a second write of the
same URI is a rendering bug (two generators claiming one page), never something to overwrite. The
uniqueness is checked by the pack's unique index, built once at the end (a sort, far cheaper than
keeping 77M names in a Python set or maintaining the index row by row), so a repeat is reported
by `finish()`, which also drops every untranslated variant equal to its default document.

With `previous` (an earlier release with a manifest), the build is an update: the Writer starts
from a copy of that pack and receives only changed documents' bodies (class docstring). Unchanged
documents keep their ETag, so clients' caches stay valid across the publish.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from marquee.packs import PAGE_SIZE, etag_of, pack_path
from site_gen.documents import UNTRANSLATED

_URI = re.compile(r"^/[A-Za-z0-9_./-]+$")
_BAD_SEGMENT = r"/\.{0,2}(/|$)"  # an empty, '.' or '..' segment, as name_for() refuses
BATCH_ROWS = 5_000
# Every rendered document's path template, name and content hash (before untranslated twins are
# dropped), for the next build to compare against in DuckDB one template at a time.
MANIFEST_NAME = "MANIFEST.parquet"
MANIFEST_SCHEMA = pa.schema([("template", pa.string()), ("name", pa.string()), ("etag", pa.string())])
UND_SUFFIX = UNTRANSLATED + ".json"


class WriterError(Exception):
    """A URI was refused (unsafe, malformed or already written)."""


@dataclass(frozen=True)
class WriteSummary:
    documents: int
    files: int  # files on disk: the pack
    bytes: int  # JSON bytes written (the pack file is ~1.2 times this)

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

    Two modes. A full build creates the pack and inserts every document. An update (`previous` is
    an earlier release with a pack and a manifest) starts from a copy of that pack: a document
    handed over as None is unchanged (its content hash is in the previous manifest, compared in
    DuckDB, site_gen/documents.py) and only its name is recorded; changed and new documents are
    replaced or inserted; names no longer rendered are deleted at the end.
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
        if self.updating:
            assert self.previous is not None
            shutil.copyfile(pack_path(self.previous), path)  # copy_file_range: no bytes through Python
        self.con = sqlite3.connect(path, isolation_level=None)
        for pragma in (f"page_size = {PAGE_SIZE}", "journal_mode = OFF", "synchronous = OFF",
                       "locking_mode = EXCLUSIVE", "temp_store = MEMORY", "cache_size = -262144"):
            self.con.execute(f"PRAGMA {pragma}")
        if self.updating:
            self.con.execute("CREATE TEMP TABLE written (name TEXT PRIMARY KEY) WITHOUT ROWID")  # the changed
        else:
            self.con.execute("CREATE TABLE docs (name TEXT NOT NULL, body BLOB NOT NULL, etag TEXT NOT NULL)")
        self.con.execute("BEGIN")
        self._manifest = pq.ParquetWriter(self.root / MANIFEST_NAME, MANIFEST_SCHEMA)
        self._rows: list[tuple[str, bytes, str]] = []
        self._templates: list[str] = []
        self._names: list[str] = []
        self._etags: list[str] = []
        self._documents = 0
        self._bytes = 0
        self.unchanged = 0

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
        uris, bodies, etags = batch.column(0), batch.column(1), batch.column(2)
        refused = pc.or_(pc.invert(pc.match_substring_regex(uris, _URI.pattern)),
                         pc.match_substring_regex(uris, _BAD_SEGMENT))
        if pc.any(refused).as_py():
            name_for(uris[pc.index(refused, True).as_py()].as_py())  # raises, with the reason
        if bodies.null_count:  # unchanged: only an update keeps it, and by its etag
            missing = pc.is_null(bodies) if not self.updating else pc.and_(pc.is_null(bodies), pc.is_null(etags))
            if pc.any(missing).as_py():
                uri = uris[pc.index(missing, True).as_py()].as_py()
                raise WriterError(f"{uri}: no document, and no previous release to keep it from")
        names = pc.binary_join_element_wise(pc.utf8_slice_codeunits(uris, 1), ".json", "").to_pylist()
        body_list = bodies.to_pylist()
        etag_list = etags.to_pylist()
        if etags.null_count:
            etag_list = [etag or etag_of(body) for body, etag in zip(body_list, etag_list)]
        self._add(template, names, body_list, etag_list)

    def _add(self, template: str, names: list[str], bodies: list[bytes | None], etags: list[str]) -> None:
        """Buffer rows (a None body: unchanged, only its name and etag are recorded); flush when full."""
        self._rows.extend(row for row in zip(names, bodies, etags) if row[1] is not None)
        self._bytes += sum(len(body) for body in bodies if body is not None)
        self._templates.extend([template] * len(names))
        self._names.extend(names)
        self._etags.extend(etags)
        self._documents += len(names)
        if len(self._names) >= BATCH_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self.updating:
            self.con.executemany("INSERT OR REPLACE INTO docs (name, body, etag) VALUES (?, ?, ?)", self._rows)
            self.con.executemany("INSERT INTO written VALUES (?)", [(row[0],) for row in self._rows])
        else:
            self.con.executemany("INSERT INTO docs VALUES (?, ?, ?)", self._rows)
        self._manifest.write_table(pa.table({"template": self._templates, "name": self._names, "etag": self._etags},
                                            schema=MANIFEST_SCHEMA))
        self._rows.clear()
        self._templates, self._names, self._etags = [], [], []

    def finish(self) -> None:
        """Commit, index by name (refusing any name written twice), drop redundant untranslated
        variants, and count what is unchanged since `previous`."""
        self._flush()
        self._manifest.close()
        if self.updating:
            self.con.execute("COMMIT")
            self._settle_update(pq.read_table(self.root / MANIFEST_NAME, columns=["name", "etag"]))
        else:
            self.con.execute("COMMIT")
            try:
                self.con.execute("CREATE UNIQUE INDEX docs_name ON docs (name)")
            except sqlite3.IntegrityError:
                self._refuse_twice([name for (name,) in self.con.execute(
                    "SELECT name FROM docs GROUP BY name HAVING count(*) > 1 ORDER BY name LIMIT 3")])
        self._drop_redundant_und()
        if self.updating:  # counted in the pack: dropped untranslated twins are neither
            self._documents = self.con.execute("SELECT count(*) FROM docs").fetchone()[0]
            self.unchanged = self._documents - self.con.execute(
                "SELECT count(*) FROM written JOIN docs USING (name)").fetchone()[0]
        elif self.previous is not None and pack_path(self.previous).is_file():
            self.con.execute("ATTACH DATABASE ? AS previous", (str(pack_path(self.previous)),))
            self.unchanged = self.con.execute(
                "SELECT count(*) FROM docs JOIN previous.docs p USING (name) WHERE docs.etag = p.etag").fetchone()[0]
            self.con.execute("DETACH DATABASE previous")
        self.con.close()

    def _settle_update(self, rendered: pa.Table) -> None:
        """After an update's writes: refuse a name rendered twice, delete what is no longer rendered,
        and put back untranslated variants that stopped being twins. All of it is found from the
        manifests with Arrow (a SQLite table of 8M rendered names cost minutes at 100k movies)."""
        names = rendered.column("name").combine_chunks()
        counts = pc.value_counts(names)
        repeated = counts.filter(pc.greater(counts.field("counts"), 1)).field("values")
        if len(repeated):
            self._refuse_twice(sorted(repeated.to_pylist()))
        assert self.previous_manifest is not None and self.previous is not None
        before = pq.read_table(self.previous_manifest, columns=["name"]).column("name").combine_chunks()
        gone = before.filter(pc.invert(pc.is_in(before, value_set=names)))
        # A twin (X.und equal to X) was dropped from the previous pack. If X changed and X.und did
        # not, X.und is now a document of its own whose bytes are X's previous ones (same hash).
        changed = [name for (name,) in self.con.execute("SELECT name FROM written")
                   if not name.endswith(UND_SUFFIX)]
        twin_of = {name[: -len(".json")] + UND_SUFFIX: name for name in changed}
        unds = rendered.filter(pc.is_in(rendered.column("name"), value_set=pa.array(list(twin_of), pa.string())))
        self.con.execute("ATTACH DATABASE ? AS previous", (str(pack_path(self.previous)),))
        self.con.execute("BEGIN")
        self.con.executemany("DELETE FROM docs WHERE name = ?", ((name,) for name in gone.to_pylist()))
        self.con.executemany(
            "INSERT INTO docs (name, body, etag) SELECT ?1, body, etag FROM previous.docs WHERE name = ?2 "
            "AND etag = ?3 AND NOT EXISTS (SELECT 1 FROM main.docs WHERE name = ?1)",
            [(und, twin_of[und], etag) for und, etag in zip(unds.column("name").to_pylist(),
                                                            unds.column("etag").to_pylist())])
        self.con.execute("COMMIT")
        self.con.execute("DETACH DATABASE previous")

    @property
    def updating(self) -> bool:
        return self.previous_manifest is not None

    def _refuse_twice(self, names: list[str]) -> None:
        self.con.close()
        raise WriterError(f"refusing to write {', '.join(names[:3])} twice") from None

    def _drop_redundant_und(self) -> None:
        """Drop each untranslated variant (`X.und.json`) equal to its default document (`X.json`): a
        title with no English text, a person with no biography. The readers fall back from X.und to X."""
        # The names come from the index alone: scanning the table would read every body.
        twins = self.con.execute(
            f"SELECT u.name, length(u.body) FROM (SELECT name FROM docs INDEXED BY docs_name "
            f"WHERE name LIKE '%{UND_SUFFIX}') x JOIN docs u ON u.name = x.name "
            f"JOIN docs d ON d.name = substr(u.name, 1, length(u.name) - {len(UND_SUFFIX)}) || '.json' "
            f"WHERE u.etag = d.etag").fetchall()
        self.con.executemany("DELETE FROM docs WHERE name = ?", [(name,) for name, _ in twins])
        self._documents -= len(twins)
        if not self.updating:  # in an update only the changed documents' bytes were counted
            self._bytes -= sum(size for _, size in twins)

    def summary(self) -> WriteSummary:
        return WriteSummary(documents=self._documents, files=1 if self._documents else 0, bytes=self._bytes)


def previous_manifest(release: Path) -> Path | None:
    """The manifest (name, etag of every rendered document) of a release with a pack, or None."""
    manifest = Path(release) / MANIFEST_NAME
    if not (manifest.is_file() and pack_path(release).is_file()):
        return None
    return manifest if pq.read_schema(manifest).equals(MANIFEST_SCHEMA) else None  # else: an older layout
