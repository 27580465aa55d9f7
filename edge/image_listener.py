"""Image sizes made on their first request (MARQUEE_IMAGE_SIZES=request), on a bare protocol.

A million titles have ~17M originals; making their ten sizes at build time is ~20M more files and
more CPU than the whole document build, for sizes most of which nobody asks for. With `request`
the build places originals only. nginx's image host tries the file, and a missing size comes here:
the edge makes it with the build's own code (site_gen/images.py) in a thread (Pillow releases the
GIL), and nginx stores the answer under the size's path (proxy_store), so every later request is a
plain file. A size the original already fits in is the original: an X-Accel-Redirect to it, which
nginx does not store.
"""

from __future__ import annotations

import asyncio
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from edge.metrics import IMAGE_ANSWERS
from edge.upstream_protocol import UpstreamProtocol
from site_gen.images import ALL_SIZES, size_of_original

log = logging.getLogger("marquee.edge")

SIZE_PATH = re.compile(r"^/t/p/(" + "|".join(ALL_SIZES) + r")/([A-Za-z0-9_-]{1,64}\.(jpg|png))$")
TYPES = {"jpg": "image/jpeg", "png": "image/png"}


def plain(status: int, reason: str, head_only: bool = False) -> bytes:
    body = reason.lower().encode() + b"\n"
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n"
            .encode() + (b"" if head_only else body))


def image_answer(data: bytes | None, name: str, extension: str, head_only: bool) -> bytes:
    if data is None:  # the original already fits this size: it is the answer, and nginx serves it
        return f"HTTP/1.1 200 OK\r\nX-Accel-Redirect: /t/p/original/{name}\r\nContent-Length: 0\r\n\r\n".encode()
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {TYPES[extension]}\r\nContent-Length: {len(data)}\r\n\r\n"
    return head.encode() + (b"" if head_only else data)


class ImageProtocol(UpstreamProtocol):
    def __init__(self, originals: Path, pool: ThreadPoolExecutor) -> None:
        super().__init__()
        self.originals = originals
        self.pool = pool

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
        future = asyncio.get_running_loop().run_in_executor(self.pool, size_of_original, self.originals / name, size)

        def done(outcome: asyncio.Future) -> None:
            try:
                data = outcome.result()
                IMAGE_ANSWERS["original" if data is None else "made"] += 1
                self.fill(slot, image_answer(data, name, extension, method == "HEAD"))
            except FileNotFoundError:
                IMAGE_ANSWERS["missing"] += 1
                self.fill(slot, plain(404, "Not Found", method == "HEAD"))
            except Exception:  # a broken original must not hang nginx
                IMAGE_ANSWERS["failed"] += 1
                log.exception("image_error path=%s", path)
                self.fill(slot, plain(404, "Not Found", method == "HEAD"))

        future.add_done_callback(done)
