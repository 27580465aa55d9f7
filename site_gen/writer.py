"""The one place rendered documents become files in a release directory (Pelican's Writer, for JSON).

An incremental build hands the Writer the previous release and its manifest (uri -> content hash,
written as `MANIFEST` by `write_manifest`): a document whose bytes hash the same is hard-linked from
the previous release (with its twin) instead of written again. Unchanged files so keep their inode,
mtime and therefore their ETag, and a release never shares a file that anything writes to: the
Writer only ever creates new files.

`/3/movie/603` becomes `root/3/movie/603.json` plus, when it is at least GZIP_MIN_BYTES, a gzip twin
`603.json.gz` (for nginx's gzip_static) with the same mtime, so both variants carry the same
Last-Modified and ETag. Smaller documents get no twin: two thirds of a release are under 1 KB, where
gzip saves less than a TCP segment, and each twin is another 4 KB block and another file to create
(nginx's gzip_static serves the plain file when there is no .gz). URIs are
checked against a strict alphabet and may be written once only: a second write of the same URI is a
rendering bug (two generators claiming one page), never something to overwrite silently.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

_URI = re.compile(r"^/[A-Za-z0-9_./-]+$")
GZIP_LEVEL = 6
GZIP_MIN_BYTES = 1024
MANIFEST = "MANIFEST"
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


class WriterError(Exception):
    """A URI was refused (unsafe, malformed or already written)."""


@dataclass(frozen=True)
class WriteSummary:
    documents: int
    files: int
    bytes: int

    def __str__(self) -> str:
        return f"{self.documents} documents, {self.files} files, {self.bytes} bytes"


class Writer:
    """Writes JSON documents under root; every file it creates is counted in summary()."""

    def __init__(self, root: Path, mtime: float | None = None, previous: Path | None = None) -> None:
        self.root = Path(root)
        # uri -> hash of the previous release's document, when building incrementally.
        self.previous = Path(previous) if previous is not None else None
        self._previous_hashes = read_manifest(self.previous) if self.previous is not None else {}
        self._hashes: dict[str, str] = {}  # every uri written, with its content hash
        self.linked = 0
        self.root.mkdir(parents=True, exist_ok=True)
        self._mtime_ns = int((time.time() if mtime is None else mtime) * 1e9)
        self._dirs: set[Path] = set()
        self._files = 0
        self._bytes = 0

    def path_for(self, uri: str) -> Path:
        """The .json file a URI maps to; raises WriterError for anything unsafe."""
        if not _URI.match(uri):
            raise WriterError(f"refusing URI {uri!r}: only /[A-Za-z0-9_./-] is allowed")
        segments = uri[1:].split("/")
        if any(s in ("", ".", "..") for s in segments):
            raise WriterError(f"refusing URI {uri!r}: empty, '.' or '..' path segment")
        path = self.root.joinpath(*segments[:-1], segments[-1] + ".json")
        return path

    def write(self, uri: str, document: Any) -> Path:
        """Write document (a Python object, or JSON already serialised as bytes) as uri's .json and .json.gz."""
        path = self.path_for(uri)
        if uri in self._hashes:
            raise WriterError(f"refusing to write {uri} twice")
        data = document if isinstance(document, bytes) else orjson.dumps(document)
        parent = path.parent
        if parent not in self._dirs:
            parent.mkdir(parents=True, exist_ok=True)
            self._dirs.add(parent)
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        targets = files_for(path, len(data))
        if self._previous_hashes.get(uri) == digest and self._link_previous(targets, len(data)):
            self._hashes[uri] = digest
            return path
        outputs = [(path, data)]
        if len(targets) > 1:
            outputs.append((targets[1], gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)))
        times = (self._mtime_ns, self._mtime_ns)
        for target, payload in outputs:
            # O_EXCL: never replace a file, even one this Writer did not create. Raw fds and
            # utime-by-fd save a path lookup per call; file creation dominates render time.
            fd = os.open(target, _FLAGS, 0o644)
            try:
                view = memoryview(payload)
                while view:
                    view = view[os.write(fd, view):]
                os.utime(fd, ns=times)
            finally:
                os.close(fd)
        self._hashes[uri] = digest
        self._files += len(outputs)
        self._bytes += sum(len(payload) for _, payload in outputs)
        return path

    def _link_previous(self, targets: list[Path], size: int) -> bool:
        """Hard-link the targets (the document and its twin, if any) from the previous release; False
        (and nothing left behind) if it cannot."""
        assert self.previous is not None
        made: list[Path] = []
        try:
            for target in targets:
                os.link(self.previous / target.relative_to(self.root), target)
                made.append(target)
        except OSError:  # another disk, a pruned release: write it instead
            for target in made:
                target.unlink()
            return False
        self._files += len(made)
        self._bytes += size + (made[1].stat().st_size if len(made) > 1 else 0)
        self.linked += 1
        return True

    def write_manifest(self) -> Path:
        """MANIFEST: one `uri<TAB>hash` line per document, for the next incremental build."""
        path = self.root / MANIFEST
        with open(path, "w") as out:
            out.writelines(f"{uri}\t{digest}\n" for uri, digest in sorted(self._hashes.items()))
        return path

    def summary(self) -> WriteSummary:
        return WriteSummary(documents=len(self._hashes), files=self._files, bytes=self._bytes)


def read_manifest(release: Path) -> dict[str, str]:
    """uri -> hash from a release's MANIFEST ({} when it has none)."""
    try:
        text = (Path(release) / MANIFEST).read_text()
    except FileNotFoundError:
        return {}
    return dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)


def files_for(path: Path, size: int) -> list[Path]:
    """The files of one document: its .json, then its gzip twin when it is worth one."""
    return [path, path.with_name(path.name + ".gz")] if size >= GZIP_MIN_BYTES else [path]
