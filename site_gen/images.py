"""The image host's files: every original plus the sizes /3/configuration lists for its kind (a size
the original already fits in is the original itself, served by the image host's fallback).

Images live in one store outside the releases (`HOME/images/t/p/<size>/<file>`): a file name never
changes meaning, so releases can share them, publishing stays a symlink rename, and a rebuild only
resizes originals whose bytes changed (a manifest of SHA-1s says which). Pillow makes the sizes
at build time in a process pool (MARQUEE_IMAGE_SIZES=build), or the edge makes each one on its first
request and nginx keeps the file (`request`, edge/image_listener.py): at a million titles the sizes
are ~20M more files to make, most of them never asked for.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

# TMDB's /3/configuration lists (images.*_sizes), without "original". Ten distinct sizes in all.
SIZES_BY_KIND: dict[str, tuple[str, ...]] = {
    "backdrop": ("w300", "w780", "w1280"),
    "logo": ("w45", "w92", "w154", "w185", "w300", "w500"),
    "poster": ("w92", "w154", "w185", "w342", "w500", "w780"),
    "profile": ("w45", "w185", "h632"),
    "still": ("w92", "w185", "w300"),
}
ALL_SIZES = tuple(sorted({s for sizes in SIZES_BY_KIND.values() for s in sizes}, key=lambda s: (s[0], int(s[1:]))))
MANIFEST = ".manifest.json"


@dataclass(frozen=True)
class ImageSummary:
    originals: int
    resized: int  # originals new or changed since the last build
    files_written: int


def bound(size: str) -> tuple[int, int]:
    """`w342` -> at most 342 wide; `h632` -> at most 632 high (thumbnail never enlarges)."""
    n = int(size[1:])
    return (n, 100_000) if size[0] == "w" else (100_000, n)


def _place(source: str, target: str) -> None:
    """Hard-link when the store shares the disk (no bytes copied), else copy."""
    if os.path.exists(target):
        os.unlink(target)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def resized(image: Image.Image, size: str, fmt: str) -> bytes | None:
    """`image` scaled down to fit `size`, encoded as `fmt`; None when it already fits (thumbnail
    never enlarges, so that size is the original itself)."""
    width, height = bound(size)
    if image.width <= width and image.height <= height:
        return None
    copy = image.copy()
    copy.thumbnail((width, height))
    buffer = io.BytesIO()
    copy.save(buffer, fmt, **({"quality": 80} if fmt == "JPEG" else {}))
    return buffer.getvalue()


def size_of_original(original: Path | str, size: str) -> bytes | None:
    """One size of one stored original, as the build would make it (None: the original fits);
    FileNotFoundError when there is no such original. The image host's on-request path."""
    with Image.open(original) as image:
        return resized(image, size, image.format or ("PNG" if str(original).endswith(".png") else "JPEG"))


def _resize_one(job: tuple[str, str, tuple[str, ...]]) -> int:
    """Put one original into the store and write the sizes smaller than it; runs in a worker process.

    A size at least as large as the original would be the original itself, so no file is made
    for it: the image host answers a missing size with the original (nginx/marquee.conf.j2), the
    same bytes a copy or a link would hold. For the generator's placeholder art that is most
    sizes, and each file not made is a 4 KB block and ~30 µs not spent. With no sizes (on-request
    sizes) only the original is placed, and sizes made from an earlier version of it are removed.
    """
    source, store, sizes, replacing = job
    name = os.path.basename(source)
    original = os.path.join(store, "original", name)
    _place(source, original)
    written = 1
    stale = [size for size in ALL_SIZES if size not in sizes]
    if sizes:
        with Image.open(original) as image:
            fmt = image.format or ("PNG" if name.endswith(".png") else "JPEG")
            for size in sizes:
                target = os.path.join(store, size, name)
                data = resized(image, size, fmt)
                if data is None:
                    stale.append(size)
                    continue
                with open(target + ".tmp", "wb") as out:
                    out.write(data)
                os.replace(target + ".tmp", target)
                written += 1
    for size in stale if replacing else ():  # made when the original was another picture, or larger
        try:
            os.unlink(os.path.join(store, size, name))
        except FileNotFoundError:
            pass
    return written


def _sync_one(job: tuple[str, str, tuple[str, ...], str, str]) -> tuple[str, str, int]:
    """Hash one new or touched original and, if its picture is new, store it and its sizes; runs in
    a worker process, so reading and hashing a million originals never holds the build's GIL.
    Returns (name, manifest entry, files written)."""
    source, store, sizes, recorded, stamp = job
    name = os.path.basename(source)
    with open(source, "rb") as handle:
        digest = hashlib.sha1(handle.read()).hexdigest()
    entry = f"{digest}:{','.join(sizes) or 'on-request'}:{stamp}"
    if recorded.split(":")[:2] == entry.split(":")[:2] and os.path.exists(os.path.join(store, "original", name)):
        return name, entry, 0  # the same picture with a new mtime
    return name, entry, _resize_one((source, store, sizes, bool(recorded)))


def sync_store(originals: Path, store: Path, kinds: dict[str, str], workers: int | None = None,
               make_sizes: bool = True) -> ImageSummary:
    """Make `store` hold every image in `kinds` (file name -> kind) at its original and, with
    make_sizes, its sizes (without: originals only, for MARQUEE_IMAGE_SIZES=request)."""
    store = Path(store)
    for size in ("original", *ALL_SIZES):
        (store / size).mkdir(parents=True, exist_ok=True)
    manifest_path = store / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    jobs = []
    for name, kind in sorted(kinds.items()):
        source = os.path.join(originals, name)
        sizes = SIZES_BY_KIND.get(kind, SIZES_BY_KIND["poster"]) if make_sizes else ()
        # Size and mtime unchanged: trust the recorded hash rather than read every original again
        # (a million images are gigabytes to hash); a new size or mtime is hashed, in a worker.
        info = os.stat(source)
        stamp = f"{info.st_size}:{info.st_mtime_ns}"
        recorded = manifest.get(name, "")
        if not (recorded.endswith(":" + stamp) and recorded.split(":")[1] == (",".join(sizes) or "on-request")
                and os.path.exists(os.path.join(store, "original", name))):
            jobs.append((source, str(store), sizes, recorded, stamp))
    results: list[tuple[str, str, int]] = []
    if jobs:
        workers = workers or min(len(jobs) // 200 + 1, os.cpu_count() or 1)
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                results = list(pool.map(_sync_one, jobs, chunksize=256))
        else:
            results = list(map(_sync_one, jobs))
    digests = {name: entry for name, entry, _ in results}
    written = sum(count for _, _, count in results)
    manifest.update(digests)
    tmp = manifest_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, sort_keys=True))
    os.replace(tmp, manifest_path)
    return ImageSummary(len(kinds), sum(1 for _, _, count in results if count), written)


# Catalogue columns that hold an image path, and the kind of image each holds.
PATH_COLUMNS = {"poster_path": "poster", "backdrop_path": "backdrop", "logo_path": "logo",
                "profile_path": "profile", "still_path": "still"}
# Image tables without a `kind` column hold one kind, named by their owner.
TABLE_KINDS = {"person_images": "profile", "company_images": "logo", "network_images": "logo"}


def image_kinds(con, present: str | None = None) -> dict[str, str]:
    """File name -> kind for every image path anywhere in the catalogue (found by column name); with
    `present` (a table of file names, column `name`), only those files. A name found with two kinds
    keeps the last in (name, kind) order. Joined and sorted in DuckDB: at 100k movies, 1.7M paths
    took 12 s to sort and filter in Python."""
    columns: dict[str, set[str]] = {}
    for table, column in con.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main'"
            " AND table_name NOT LIKE 'doc_%'").fetchall():
        columns.setdefault(table, set()).add(column)
    selects = []
    for table, names in sorted(columns.items()):
        quoted = '"' + table.replace('"', '""') + '"'
        for column, kind in PATH_COLUMNS.items():
            if column in names:
                selects.append(f"SELECT {column} AS path, '{kind}' AS kind FROM {quoted}")
        if "file_path" in names:
            kind = "kind" if "kind" in names else f"'{TABLE_KINDS.get(table, 'poster')}'"
            selects.append(f"SELECT file_path AS path, {kind} AS kind FROM {quoted}")
    if not selects:
        return {}
    only_present = f"WHERE name IN (SELECT name FROM {present}) " if present else ""
    found = con.sql(f"SELECT name, last(kind ORDER BY kind) AS kind FROM ("
                    f"SELECT ltrim(path, '/') AS name, kind FROM ({' UNION '.join(selects)}) WHERE path <> '') "
                    f"{only_present}GROUP BY name ORDER BY name").to_arrow_table()
    return dict(zip(found.column("name").to_pylist(), found.column("kind").to_pylist()))
