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

With `previous` (an earlier release), `finish()` also counts the documents whose content hash is
unchanged: their ETags stay the same, so clients' caches stay valid across the publish.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from marquee.packs import PAGE_SIZE, etag_of, pack_path
from site_gen.documents import UNTRANSLATED

_URI = re.compile(r"^/[A-Za-z0-9_./-]+$")
BATCH_ROWS = 5_000
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
    """Writes JSON documents into root's pack; summary() counts them and their bytes."""

    def __init__(self, root: Path, previous: Path | None = None) -> None:
        self.root = Path(root)
        self.previous = Path(previous) if previous is not None else None
        self.root.mkdir(parents=True, exist_ok=True)
        path = pack_path(self.root)
        if path.exists():
            raise FileExistsError(f"{path} exists: a Writer only ever creates a new pack")
        self.con = sqlite3.connect(path, isolation_level=None)
        for pragma in (f"page_size = {PAGE_SIZE}", "journal_mode = OFF", "synchronous = OFF",
                       "locking_mode = EXCLUSIVE", "temp_store = MEMORY", "cache_size = -262144"):
            self.con.execute(f"PRAGMA {pragma}")
        self.con.execute("CREATE TABLE docs (name TEXT NOT NULL, body BLOB NOT NULL, etag TEXT NOT NULL)")
        self.con.execute("BEGIN")
        self._rows: list[tuple[str, bytes, str]] = []
        self._documents = 0
        self._bytes = 0
        self.unchanged = 0
        self.finished = False

    def write(self, uri: str, document: Any) -> str:
        """Add document (a Python object, or JSON already serialised as bytes) as uri's row; returns its name."""
        name = name_for(uri)
        data = document if isinstance(document, bytes) else orjson.dumps(document)
        self._rows.append((name, data, etag_of(data)))
        self._documents += 1
        self._bytes += len(data)
        if len(self._rows) >= BATCH_ROWS:
            self._flush()
        return name

    def _flush(self) -> None:
        self.con.executemany("INSERT INTO docs VALUES (?, ?, ?)", self._rows)
        self._rows.clear()

    def finish(self) -> None:
        """Commit, index by name (refusing any name written twice) and compare with `previous`."""
        self._flush()
        self.con.execute("COMMIT")
        try:
            self.con.execute("CREATE UNIQUE INDEX docs_name ON docs (name)")
        except sqlite3.IntegrityError:
            twice = [name for (name,) in self.con.execute(
                "SELECT name FROM docs GROUP BY name HAVING count(*) > 1 ORDER BY name LIMIT 3")]
            self.con.close()
            raise WriterError(f"refusing to write {', '.join(twice)} twice") from None
        self._drop_redundant_und()
        if self.previous is not None and pack_path(self.previous).is_file():
            self.con.execute("ATTACH DATABASE ? AS previous", (str(pack_path(self.previous)),))
            self.unchanged = self.con.execute(
                "SELECT count(*) FROM docs JOIN previous.docs p USING (name) WHERE docs.etag = p.etag").fetchone()[0]
            self.con.execute("DETACH DATABASE previous")
        self.con.close()
        self.finished = True

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
        self._bytes -= sum(size for _, size in twins)

    def summary(self) -> WriteSummary:
        return WriteSummary(documents=self._documents, files=1 if self._documents else 0, bytes=self._bytes)
