"""Image lists and placeholder originals for the TV tables and collections.

`image_tables` makes the lists of /3/tv/{id}/images, /3/tv/{id}/season/{n}/images,
/3/tv/{id}/season/{n}/episode/{e}/images and /3/collection/{id}/images (the owner's own
poster_path, backdrop_path or still_path ranks first, as for films: movie_media.owner_images).
`write_placeholders` draws every path of the TV tables: series posters and backdrops, season
posters, episode stills, network logos, and the further images of those lists.

Series and network images carry the name (like movie posters); season posters and episode stills,
which outnumber series many times over, are plain tiles from a pre-encoded palette so that drawing
them stays cheap for large catalogues.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pyarrow as pa
from PIL import Image, ImageFont

from marquee_datasets.columns import rng_for, rows_of
from marquee_datasets.images import BACKDROP_SIZE, LOGO_SIZE, POSTER_SIZE, _colour, _labelled
from marquee_datasets.movie_media import owner_images

TABLES: tuple[str, ...] = ("series_images", "season_images", "episode_images", "collection_images")
# Extra images per owner beyond its main path (TMDB lists several posters per series, a few per
# season, and usually one still per episode).
SERIES_EXTRAS = {"poster": lambda rng, n: rng.integers(0, 4, n), "backdrop": lambda rng, n: rng.integers(0, 4, n),
                 "logo": lambda rng, n: rng.integers(0, 3, n)}
SEASON_EXTRAS = {"poster": lambda rng, n: rng.integers(0, 3, n)}
EPISODE_EXTRAS = {"still": lambda rng, n: (rng.random(n) < 0.3).astype(np.int64)}
COLLECTION_EXTRAS = {"poster": lambda rng, n: rng.integers(0, 3, n), "backdrop": lambda rng, n: rng.integers(0, 3, n)}


def _with_series_language(table: pa.Table, series: pa.Table) -> pa.Table:
    """table (with series_id) plus its series' original_language."""
    rows = rows_of(series.column("id").to_numpy(), table.column("series_id").to_numpy())
    return table.append_column("original_language", series.column("original_language").take(pa.array(rows)))


def image_tables(tables: dict[str, pa.Table], seed: int) -> dict[str, pa.Table]:
    """The four tables of TABLES."""
    series = tables["tv_series"]
    collections = tables["collections"]
    return {
        "series_images": owner_images(rng_for(seed, "series_images"), series, seed, "tv-image", "series_id",
                                      SERIES_EXTRAS),
        "season_images": owner_images(rng_for(seed, "season_images"),
                                      _with_series_language(tables["tv_seasons"], series), seed, "season-image",
                                      "season_id", SEASON_EXTRAS),
        "episode_images": owner_images(rng_for(seed, "episode_images"),
                                       _with_series_language(tables["tv_episodes"], series), seed, "episode-image",
                                       "episode_id", EPISODE_EXTRAS),
        "collection_images": owner_images(rng_for(seed, "collection_images"), collections, seed,
                                          "collection-image", "collection_id", COLLECTION_EXTRAS),
    }

_PALETTE = 64


def _palette(size: tuple[int, int], salt: int, fmt: str = "JPEG") -> list[bytes]:
    tiles = []
    for slot in range(_PALETTE):
        buffer = io.BytesIO()
        Image.new("RGB", size, _colour(slot * 7919 + salt)).save(buffer, fmt, **({"quality": 70} if fmt == "JPEG" else {}))
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
    # The further images of the lists: plain tiles per kind (the main paths are drawn above, and
    # collections' by marquee_datasets.images).
    tiles = {"poster": _palette(POSTER_SIZE, 3), "backdrop": _palette(BACKDROP_SIZE, 4),
             "still": _palette(BACKDROP_SIZE, 5), "logo": _palette((160, 60), 6, "PNG")}
    for name in TABLES:
        images = tables[name]
        slots = (images.column(images.schema.names[0]).to_numpy() * 2654435761 % _PALETTE).tolist()
        for path, kind, slot in zip(images.column("file_path").to_pylist(), images.column("kind").to_pylist(), slots):
            target = image_dir / path.lstrip("/")
            if not target.exists():
                target.write_bytes(tiles[kind][slot])
                written += 1
    return written
