"""What nginx's image host does not find as a file, made by the edge on its first request, on a bare
protocol.

nginx serves the image store (HOME/images/t/p/<size>/<file>) and, for an original, the catalogue's
file through the release's `originals` link; a request neither answers comes here. The edge finds the
original (the store's, the catalogue's, or for a generated catalogue one its release indexes, drawn
from the name: marquee_datasets/images.py), makes the size asked with the code `marquee images` uses
(marquee/image_sizes.py `sized`) in a thread (Pillow releases the GIL), and answers 200 with the bytes.
nginx stores them under the path asked (proxy_store), so every later request for it is a plain file,
whatever the scale and whether or not a build made anything. A size the original fits in is answered
with the original's bytes, and kept the same way.

A name with no original is a 404, which nginx does not store: a generated image is drawn only when
the release's index (site_gen/images.py `write_index`) has its name, so no request makes a file of a
name the catalogue does not have.
"""

from __future__ import annotations

import asyncio
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from edge.content_listener import CurrentRelease
from edge.metrics import IMAGE_ANSWERS
from edge.upstream_protocol import UpstreamProtocol
from marquee.artefacts import IMAGE_INDEX, ORIGINALS, MissingArtefact, OpenArtefacts
from marquee.image_index import ImageIndex
from marquee.image_sizes import ALL_SIZES, sized
from marquee_datasets.images import draw

log = logging.getLogger("marquee.edge")

SIZE_PATH = re.compile(r"^/t/p/(original|" + "|".join(ALL_SIZES) + r")/([A-Za-z0-9_-]{1,64}\.(jpg|png))$")
TYPES = {"jpg": "image/jpeg", "png": "image/png"}


def image_release(current: Path) -> CurrentRelease:
    """The served release, with its image index opened once per release."""
    return CurrentRelease(current, artefacts=OpenArtefacts({IMAGE_INDEX: ImageIndex}))


def plain(status: int, reason: str, head_only: bool = False) -> bytes:
    body = reason.lower().encode() + b"\n"
    return f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n".encode() + (
        b"" if head_only else body
    )


def image_answer(data: bytes, extension: str, head_only: bool) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {TYPES[extension]}\r\nContent-Length: {len(data)}\r\n\r\n"
    return head.encode() + (b"" if head_only else data)


def made(name: str, size: str, source: Path | None, kind: str | None) -> tuple[bytes, bool]:
    """The answer for `size` of `name` from its original (the file `source`, else drawn as `kind`),
    and whether it is the original's bytes; in the edge's image threads."""
    original = source.read_bytes() if source is not None else draw(name, kind or "poster")
    data = sized(original, name, size)
    return data, data is original


class ImageProtocol(UpstreamProtocol):
    def __init__(self, store: Path, release: CurrentRelease, pool: ThreadPoolExecutor) -> None:
        super().__init__()
        self.store = store  # HOME/images/t/p
        self.release = release
        self.pool = pool

    def original(self, name: str) -> tuple[Path | None, str | None] | None:
        """Where the original of `name` is: (its file, None), or (None, its kind) when it is drawn; None
        when there is none. A few stats and an indexed read: the event loop does it."""
        stored = self.store / "original" / name
        if stored.is_file():
            return stored, None
        try:
            root = self.release.root()
        except OSError:  # nothing published
            return None
        linked = Path(root) / ORIGINALS / name
        if linked.is_file():
            return linked, None
        try:
            kind = self.release.artefacts.open(root, IMAGE_INDEX).kind(name)
        except MissingArtefact:  # not a generated catalogue
            return None
        return None if kind is None else (None, kind)

    def handle(self, head: bytes, slot: list) -> None:
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        method, _, rest = line.partition(" ")
        path = (rest.rpartition(" ")[0] or rest).split("?", 1)[0]
        if method not in ("GET", "HEAD"):
            self.fill(slot, plain(405, "Method Not Allowed"))
            return
        match = SIZE_PATH.match(path)
        if match is None:
            self.fill(slot, plain(404, "Not Found", method == "HEAD"))
            return
        size, name, extension = match.groups()
        found = self.original(name)
        if found is None:
            IMAGE_ANSWERS["missing"] += 1
            self.fill(slot, plain(404, "Not Found", method == "HEAD"))
            return
        future = asyncio.get_running_loop().run_in_executor(self.pool, made, name, size, *found)

        def done(outcome: asyncio.Future) -> None:
            try:
                data, is_original = outcome.result()
                IMAGE_ANSWERS["original" if is_original else "made"] += 1
                self.fill(slot, image_answer(data, extension, method == "HEAD"))
            except FileNotFoundError:  # the file went between the stat and the read
                IMAGE_ANSWERS["missing"] += 1
                self.fill(slot, plain(404, "Not Found", method == "HEAD"))
            except Exception:  # a broken original must not hang nginx
                IMAGE_ANSWERS["failed"] += 1
                log.exception("image_error path=%s", path)
                self.fill(slot, plain(404, "Not Found", method == "HEAD"))

        future.add_done_callback(done)
