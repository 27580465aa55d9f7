"""The synthetic catalogue's image originals, drawn from their path alone: no file is ever written.

A generated catalogue says so (`{"images": "generated"}` in catalogue.json, build/contract.py) and
holds no image file: at a million titles its ~17M originals had been most of the generator's time
and of its disk. An original is drawn when someone first asks for it, by the edge for the image
host (edge/image_listener.py; nginx keeps the answer) or by `marquee images` making every size
ahead (site_gen/images.py). Both call `draw`, so a path is the same bytes whoever draws it, whenever.

Each is a plain tile of its kind's placeholder size (posters 120x180, as the generator drew them),
its colour from a hash of the path. Posters no longer carry their film's title as when the generator
drew them: the path does not say which film it belongs to, and the image host knows only the path.
"""

from __future__ import annotations

import io
import zlib

from PIL import Image

# Placeholder sizes by kind (site_gen/images.py SIZES_BY_KIND's kinds): small, so most listed sizes
# are the original itself and a first request costs a millisecond or two.
# fmt: off
DIMENSIONS: dict[str, tuple[int, int]] = {
    "backdrop": (240, 135), "logo": (160, 60), "poster": (120, 180), "profile": (90, 135), "still": (240, 135),
}
# fmt: on


def colour(name: str) -> tuple[int, int, int]:
    """The tile's colour, from the CRC-32 of the file name; channels in 40..200, never black or white."""
    h = zlib.crc32(name.encode())
    return (40 + (h & 0xFF) * 160 // 255, 40 + ((h >> 8) & 0xFF) * 160 // 255, 40 + ((h >> 16) & 0xFF) * 160 // 255)


def draw(name: str, kind: str) -> bytes:
    """The original of the generated image `name` (`abc.jpg` or `abc.png`, its format) of `kind`."""
    image = Image.new("RGB", DIMENSIONS.get(kind, DIMENSIONS["poster"]), colour(name))
    buffer = io.BytesIO()
    if name.endswith(".png"):
        image.save(buffer, "PNG")
    else:
        image.save(buffer, "JPEG", quality=70)
    return buffer.getvalue()
