"""The image host's sizes, and how one is made: one definition for the build's image job
(site_gen/images.py), the edge that makes a size on its first request (edge/image_listener.py) and
/3/configuration, so a size is the same bytes whoever makes it.

Also the key of a file name in a release's image index (IMAGE_INDEX, marquee/artefacts.py), in SQL
for the build that writes it and in Python for the edge that reads it.
"""

from __future__ import annotations

import hashlib
import io

from PIL import Image

# TMDB's /3/configuration lists (images.*_sizes), without "original". Ten distinct sizes in all.
# fmt: off
SIZES_BY_KIND: dict[str, tuple[str, ...]] = {
    "backdrop": ("w300", "w780", "w1280"),
    "logo": ("w45", "w92", "w154", "w185", "w300", "w500"),
    "poster": ("w92", "w154", "w185", "w342", "w500", "w780"),
    "profile": ("w45", "w185", "h632"),
    "still": ("w92", "w185", "w300"),
}
# fmt: on
ALL_SIZES = tuple(sorted({s for sizes in SIZES_BY_KIND.values() for s in sizes}, key=lambda s: (s[0], int(s[1:]))))
KINDS = tuple(SIZES_BY_KIND)  # an image's kind in the index is its place here
# The index's key: a name's MD5, its first 8 bytes little-endian, shifted to fit SQLite's signed
# integers. A hash rather than the name keeps the index at ~12 bytes a row (17M names at a million
# titles); two names sharing a key (about one chance in 10^5 there) only mean a name no document
# uses could be drawn as the other's kind.
INDEX_KEY_SQL = "(md5_number_upper(name) >> 1)::BIGINT"


def index_key(name: str) -> int:
    """A file name's key in IMAGE_INDEX: INDEX_KEY_SQL, computed in Python."""
    return int.from_bytes(hashlib.md5(name.encode()).digest()[:8], "little") >> 1


def sizes_of(kind: str) -> tuple[str, ...]:
    """The sizes /3/configuration lists for an image of this kind."""
    return SIZES_BY_KIND.get(kind, SIZES_BY_KIND["poster"])


def bound(size: str) -> tuple[int, int]:
    """`w342` -> at most 342 wide; `h632` -> at most 632 high (thumbnail never enlarges)."""
    n = int(size[1:])
    return (n, 100_000) if size[0] == "w" else (100_000, n)


def _format(image: Image.Image, name: str) -> str:
    return image.format or ("PNG" if name.endswith(".png") else "JPEG")


def sized(original: bytes, name: str, size: str) -> bytes:
    """Size `size` ("original" too) of the original `name` whose bytes are `original`: what the image
    host answers and keeps, and `marquee images` writes. A size the original fits in is the original's
    bytes (thumbnail never enlarges), the same object.

    The picture is scaled from the file as read, not from a decoded copy: a JPEG then decodes at 1/2,
    1/4 or 1/8 scale when that is still twice the size asked (Pillow's draft), which for a 2000x3000
    poster here took a first w92 from 36 to 17 ms (w780 stays ~65 ms: a full decode)."""
    if size == "original":
        return original
    width, height = bound(size)
    with Image.open(io.BytesIO(original)) as image:
        if image.width <= width and image.height <= height:
            return original
        fmt = _format(image, name)
        image.thumbnail((width, height))
        buffer = io.BytesIO()
        image.save(buffer, fmt, **({"quality": 80} if fmt == "JPEG" else {}))
        return buffer.getvalue()
