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
import pyarrow.compute as pc
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
    # Posters carry the English title (the default font has no glyphs for other scripts).
    english = tables["movie_translations"].filter(pc.equal(tables["movie_translations"].column("iso_639_1"), "en"))
    titles = dict(zip(english.column("movie_id").to_pylist(), english.column("title").to_pylist()))
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
    # Reviewers' avatars (marquee_datasets.reviews), as profiles from the palette.
    avatars = {path for path in tables["reviews"].column("avatar_path").to_pylist() if path}
    for path in sorted(avatars):
        (image_dir / path.lstrip("/")).write_bytes(palette[zlib.crc32(path.encode()) % _PALETTE])
        written += 1
    people = tables["people"]
    paths = people.column("profile_path").to_pylist()
    slots = (people.column("id").to_numpy() * 2654435761 % _PALETTE).tolist()
    for path, slot in zip(paths, slots):
        if path is not None:
            (image_dir / path.lstrip("/")).write_bytes(palette[slot])
            written += 1
    written += _write_extra_images(image_dir, tables, palette, font)
    written += _write_movie_extra_images(image_dir, tables, font)
    return written


def _write_extra_images(image_dir: Path, tables: dict[str, pa.Table], palette: list[bytes],
                        font: ImageFont.ImageFont) -> int:
    """Further profiles and logos of /3/person/{id}/images, /3/company/{id}/images and
    /3/network/{id}/images (ord 0 is the profile_path or logo_path, already drawn above)."""
    written = 0
    extra = tables["person_images"].filter(pc.greater(tables["person_images"].column("ord"), 0))
    slots = ((extra.column("person_id").to_numpy() * 2654435761 + extra.column("ord").to_numpy()) % _PALETTE)
    for path, slot in zip(extra.column("file_path").to_pylist(), slots.tolist()):
        (image_dir / path.lstrip("/")).write_bytes(palette[slot])
        written += 1
    for kind, owners in (("company", "companies"), ("network", "networks")):
        images = tables[f"{kind}_images"]
        logos = images.filter(pc.greater(images.column("ord"), 0))
        names = dict(zip(tables[owners].column("id").to_pylist(), tables[owners].column("name").to_pylist()))
        for path, key in zip(logos.column("file_path").to_pylist(), logos.column(f"{kind}_id").to_pylist()):
            (image_dir / path.lstrip("/")).write_bytes(_labelled(LOGO_SIZE, _colour(key), names[key], font, "PNG"))
            written += 1
    return written


def _write_movie_extra_images(image_dir: Path, tables: dict[str, pa.Table], font: ImageFont.ImageFont) -> int:
    """The further posters, backdrops and logos of /3/movie/{id}/images, as plain tiles from a palette
    encoded once per kind (a few per movie: drawing text on each would dominate generation time), and
    the watch providers' logos, labelled."""
    sizes = {"poster": (POSTER_SIZE, "JPEG"), "backdrop": (BACKDROP_SIZE, "JPEG"), "logo": ((160, 60), "PNG")}
    tiles = {}
    for kind, (size, fmt) in sizes.items():
        tiles[kind] = []
        for slot in range(_PALETTE):
            buffer = io.BytesIO()
            Image.new("RGB", size, _colour(slot + 1000)).save(buffer, fmt, **({"quality": 70} if fmt == "JPEG" else {}))
            tiles[kind].append(buffer.getvalue())
    drawn = {p for column in ("poster_path", "backdrop_path") for p in tables["movies"].column(column).to_pylist()}
    images = tables["movie_images"]
    slots = (images.column("movie_id").to_numpy() * 2654435761 % _PALETTE).tolist()
    written = 0
    for path, kind, slot in zip(images.column("file_path").to_pylist(), images.column("kind").to_pylist(), slots):
        if path not in drawn:
            (image_dir / path.lstrip("/")).write_bytes(tiles[kind][slot])
            written += 1
    providers = tables["watch_providers"]
    for path, key, name in zip(providers.column("logo_path").to_pylist(), providers.column("provider_id").to_pylist(),
                               providers.column("provider_name").to_pylist()):
        (image_dir / path.lstrip("/")).write_bytes(_labelled(LOGO_SIZE, _colour(key), name, font, "JPEG"))
        written += 1
    return written
