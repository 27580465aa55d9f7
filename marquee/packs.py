"""A release's documents live in one SQLite file, the pack: `RELEASE/documents.sqlite`.

Why not one file per document: a million titles in 14 languages are ~77M documents, and on this
file system a small file costs 3.5 times its size in 4 KB blocks and ~300 µs to create. A pack
holds them at ~1.2 times their size and takes rows at ~100k a second (docs/packed-releases.md).

One table, `docs(name, body, etag)`:
- `name` is the document's release-relative name, the path one file per document would have had
  (`3/movie/603.de-DE.json`), so edge/languages.py's candidates name rows as they named files;
- `body` the JSON bytes, never compressed (nginx gzips on the fly, level 1);
- `etag` the MD5 hex of the body (a content hash, not a security one): an unchanged document keeps its ETag across releases.
The site_gen Writer creates it; nginx (nginx/lua/marquee_docs.lua) and the edge read it, opened
read-only and immutable, since a published release never changes.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

PACK_NAME = "documents.sqlite"
PAGE_SIZE = 16384  # fewer, fuller pages than 4 KB for bodies of 1 to 15 KB (measured: 1.17 vs 1.21 of data)
SELECT_BODY = "SELECT body FROM docs WHERE name = ?"


def pack_path(release: Path | str) -> Path:
    return Path(release) / PACK_NAME


def etag_of(body: bytes) -> str:
    """MD5 hex: DuckDB's md5() gives the same, so a build compares hashes without Python touching bodies."""
    return hashlib.md5(body).hexdigest()


def open_pack(release: Path | str) -> sqlite3.Connection:
    """A read-only connection to a release's pack (FileNotFoundError when it has none)."""
    path = pack_path(release)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no document pack")
    # immutable=1: no locks and no change checks, which is true of a release once written.
    con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    con.execute("PRAGMA query_only = 1")
    return con


class Pack:
    """Documents of one release by name; what a file read was before packs."""

    def __init__(self, release: Path | str) -> None:
        self.release = Path(release)
        self.con = open_pack(release)

    def get(self, name: str) -> bytes | None:
        row = self.con.execute(SELECT_BODY, (name,)).fetchone()
        return None if row is None else bytes(row[0])

    def etag(self, name: str) -> str | None:
        row = self.con.execute("SELECT etag FROM docs WHERE name = ?", (name,)).fetchone()
        return None if row is None else row[0]

    def names(self, like: str = "%") -> list[str]:
        """Document names matching a SQL LIKE pattern, in name order."""
        return [name for (name,) in self.con.execute("SELECT name FROM docs WHERE name LIKE ? ORDER BY name", (like,))]

    def count(self) -> int:
        return self.con.execute("SELECT count(*) FROM docs").fetchone()[0]

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> "Pack":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
