"""Placeholder image originals for every poster, backdrop, profile and logo path in the catalogue.

Each file is a small JPEG whose colour comes from the owner's id, with the title or name drawn on
posters, backdrops and logos. Profiles are plain colour tiles from a pre-encoded palette (there are
five people per movie, so drawing text on each would dominate generation time).
"""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import pyarrow as pa
from PIL import Image, ImageDraw, ImageFont

POSTER_SIZE = (120, 180)
BACKDROP_SIZE = (240, 135)
PROFILE_SIZE = (90, 135)
LOGO_SIZE = (90, 135)
_PALETTE = 64


def _colour(key: int) -> tuple[int, int, int]:
    h = zlib.crc32(key.to_bytes(8, "little", signed=True))
    # Keep channels in 40..200 so white text stays readable.
    return (40 + (h & 0xFF) * 160 // 255, 40 + ((h >> 8) & 0xFF) * 160 // 255, 40 + ((h >> 16) & 0xFF) * 160 // 255)


def _labelled(size: tuple[int, int], colour: tuple[int, int, int], label: str, font: ImageFont.ImageFont,
              fmt: str) -> bytes:
    image = Image.new("RGB", size, colour)
    draw = ImageDraw.Draw(image)
    words, lines, line = label.split(), [], ""
    for word in words:  # greedy wrap at ~15 characters per line
        if line and len(line) + 1 + len(word) > max(8, size[0] // 8):
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    draw.multiline_text((6, 6), "\n".join(lines[:6]), fill=(255, 255, 255), font=font)
    buffer = io.BytesIO()
    image.save(buffer, fmt, quality=70) if fmt == "JPEG" else image.save(buffer, fmt, optimize=False)
    return buffer.getvalue()


def _rows(table: pa.Table, path_column: str, label_column: str) -> list[tuple[str, int, str]]:
    paths = table.column(path_column).to_pylist()
    ids = table.column("id").to_pylist()
    labels = table.column(label_column).to_pylist()
    return [(p, i, label) for p, i, label in zip(paths, ids, labels) if p is not None]


def write_placeholders(image_dir: Path, tables: dict[str, pa.Table]) -> int:
    """Draw every referenced image into image_dir/<file name>; returns the number of files."""
    image_dir.mkdir(parents=True, exist_ok=True)
    font = ImageFont.load_default()
    titles = dict(zip(tables["movie_translations"].column("movie_id").to_pylist(),
                      tables["movie_translations"].column("title").to_pylist()))
    movies = tables["movies"].append_column("title", pa.array(
        [titles.get(i, "") for i in tables["movies"].column("id").to_pylist()], pa.string()))
    labelled = [
        (_rows(movies, "poster_path", "title"), POSTER_SIZE),
        (_rows(movies, "backdrop_path", "title"), BACKDROP_SIZE),
        (_rows(tables["collections"], "poster_path", "name"), POSTER_SIZE),
        (_rows(tables["collections"], "backdrop_path", "name"), BACKDROP_SIZE),
        (_rows(tables["companies"], "logo_path", "name"), LOGO_SIZE),
    ]
    written = 0
    for rows, size in labelled:
        for path, key, label in rows:
            fmt = "PNG" if path.endswith(".png") else "JPEG"
            (image_dir / path.lstrip("/")).write_bytes(_labelled(size, _colour(key), label or "", font, fmt))
            written += 1
    palette = []
    for slot in range(_PALETTE):
        buffer = io.BytesIO()
        Image.new("RGB", PROFILE_SIZE, _colour(slot)).save(buffer, "JPEG", quality=70)
        palette.append(buffer.getvalue())
    people = tables["people"]
    paths = people.column("profile_path").to_pylist()
    slots = (people.column("id").to_numpy() * 2654435761 % _PALETTE).tolist()
    for path, slot in zip(paths, slots):
        if path is not None:
            (image_dir / path.lstrip("/")).write_bytes(palette[slot])
            written += 1
    return written
