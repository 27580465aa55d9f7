"""Placeholder image originals for the TV tables: series posters and backdrops, season posters,
episode stills and network logos.

Series and network images carry the name (like movie posters); season posters and episode stills,
which outnumber series many times over, are plain tiles from a pre-encoded palette so that drawing
them stays cheap for large catalogues.
"""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
from PIL import Image, ImageFont

from marquee_datasets.images import BACKDROP_SIZE, LOGO_SIZE, POSTER_SIZE, _colour, _labelled

_PALETTE = 64


def _palette(size: tuple[int, int], salt: int) -> list[bytes]:
    tiles = []
    for slot in range(_PALETTE):
        buffer = io.BytesIO()
        Image.new("RGB", size, _colour(slot * 7919 + salt)).save(buffer, "JPEG", quality=70)
        tiles.append(buffer.getvalue())
    return tiles


def write_placeholders(image_dir: Path, tables: dict[str, pa.Table]) -> int:
    """Draw every image path of the TV tables into image_dir; returns the number of files."""
    font = ImageFont.load_default()
    written = 0
    labelled = [
        (tables["tv_series"], "poster_path", "name", POSTER_SIZE),
        (tables["tv_series"], "backdrop_path", "name", BACKDROP_SIZE),
        (tables["networks"], "logo_path", "name", LOGO_SIZE),
    ]
    for table, path_column, label_column, size in labelled:
        for path, key, label in zip(table.column(path_column).to_pylist(), table.column("id").to_pylist(),
                                    table.column(label_column).to_pylist()):
            if path is not None:
                fmt = "PNG" if path.endswith(".png") else "JPEG"
                (image_dir / path.lstrip("/")).write_bytes(_labelled(size, _colour(key), label, font, fmt))
                written += 1
    tiled = [(tables["tv_seasons"], "poster_path", _palette(POSTER_SIZE, 1)),
             (tables["tv_episodes"], "still_path", _palette(BACKDROP_SIZE, 2))]
    for table, path_column, palette in tiled:
        slots = (table.column("id").to_numpy() * 2654435761 % _PALETTE).tolist()
        for path, slot in zip(table.column(path_column).to_pylist(), slots):
            if path is not None:
                (image_dir / path.lstrip("/")).write_bytes(palette[slot])
                written += 1
    return written
