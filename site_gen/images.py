"""The image host's files: every original plus the sizes /3/configuration lists for its kind (a size
the original already fits in is the original itself, served by the image host's fallback).

Images live in one store outside the releases (`HOME/images/t/p/<size>/<file>`): a file name never
changes meaning, so releases can share them, publishing stays a symlink rename, and a rebuild only
resizes originals whose bytes changed (a Parquet manifest of SHA-1s says which). Pillow makes the sizes
at build time in a process pool (MARQUEE_IMAGE_SIZES=build), or the edge makes each one on its first
request and nginx keeps the file (`request`, edge/image_listener.py): at a million titles the sizes
are ~20M more files to make, most of them never asked for.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
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
MANIFEST = ".manifest.parquet"
LEGACY_MANIFEST = ".manifest.json"  # the JSON manifest of earlier builds: read once, then replaced
MANIFEST_SCHEMA = pa.schema([("name", pa.string()), ("digest", pa.string()), ("sizes", pa.string()),
                             ("stamp", pa.string())])
STAT_CHUNK = 100_000  # originals stat'ed per task, and per worker process beyond the first
# What the last sync_store saw (last_sync_holds): an update whose image tables and folders are as
# then skips the sync (at 100k movies, 1.7M stats and two 1.7M-name listings: ~10 s of CPU on a
# rebuild's two cores, more than the rest of a 1% rebuild).
SYNC_RECORD = ".last-sync.json"


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


def sizes_of(kind: str, make_sizes: bool = True) -> tuple[str, ...]:
    """The sizes the build makes for an image of this kind (none: on request)."""
    return SIZES_BY_KIND.get(kind, SIZES_BY_KIND["poster"]) if make_sizes else ()


def _sync_one(job: tuple[str, str, tuple[str, ...], tuple[str, str] | None, str]) -> tuple[str, str, str, str, int]:
    """Hash one new or touched original and, if its picture is new, store it and its sizes; runs in
    a worker process, so reading and hashing a million originals never holds the build's GIL.
    Returns its manifest row (name, digest, sizes, stamp) and the files written. With no sizes to
    make (on request) the original is placed without hashing it (digest ''): at 100k movies the
    first build read and hashed 1.7M originals only to link them."""
    source, store, sizes, recorded, stamp = job
    name = os.path.basename(source)
    listed = ",".join(sizes) or "on-request"
    if not sizes:  # nothing to resize: placing the original again costs less than reading it
        return name, "", listed, stamp, _resize_one((source, store, sizes, recorded is not None))
    with open(source, "rb") as handle:
        digest = hashlib.sha1(handle.read()).hexdigest()
    if recorded == (digest, listed) and os.path.exists(os.path.join(store, "original", name)):
        return name, digest, listed, stamp, 0  # the same picture with a new mtime
    return name, digest, listed, stamp, _resize_one((source, store, sizes, recorded is not None))


def _stamps(job: tuple[str, list[str]]) -> list[str]:
    """`size:mtime_ns` of each named file of a folder; in worker processes when there are many (at
    100k movies, 1.7M stats are ~4 s of Python: a folder descriptor spares each the path walk)."""
    folder, names = job
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        return [f"{info.st_size}:{info.st_mtime_ns}" for info in (os.stat(name, dir_fd=descriptor) for name in names)]
    finally:
        os.close(descriptor)


def _read_manifest(store: Path) -> pa.Table:
    """The store's manifest: one row per original ever stored (name; digest, the SHA-1 of its bytes,
    or '' when its sizes are made on request; sizes, the sizes made or 'on-request'; stamp, the
    source's size and mtime when stored)."""
    path, legacy = store / MANIFEST, store / LEGACY_MANIFEST
    if path.exists():
        return pq.read_table(path, schema=MANIFEST_SCHEMA)
    if legacy.exists():  # name -> "digest:sizes:size:mtime", before the Parquet manifest
        return _manifest_table([(name, *entry.split(":", 2)) for name, entry in json.loads(legacy.read_text()).items()])
    return _manifest_table([])


def _manifest_table(rows: list[tuple[str, ...]]) -> pa.Table:
    """Manifest rows (name, digest, sizes, stamp) as a table of MANIFEST_SCHEMA."""
    columns = list(zip(*rows)) or [()] * len(MANIFEST_SCHEMA)
    return pa.table([pa.array(column, pa.string()) for column in columns], schema=MANIFEST_SCHEMA)


def sync_store(originals: Path, store: Path, kinds: dict[str, str] | pa.Table, workers: int | None = None,
               make_sizes: bool = True) -> ImageSummary:
    """Make `store` hold every image in `kinds` (file name -> kind, or a table of name and kind) at
    its original and, with make_sizes, its sizes (without: originals only, for
    MARQUEE_IMAGE_SIZES=request).

    An original whose size and mtime are those recorded, with the same sizes, already stored, is
    trusted without reading it (a million images are gigabytes to hash); any other is hashed, in a
    worker, and stored again only when its bytes changed. The comparison runs in DuckDB and the stats
    in worker processes: at 100k movies, 1.7M Python stats, existence checks and a JSON manifest
    took ~20 s of every build, holding the GIL."""
    store = Path(store)
    for size in ("original", *ALL_SIZES):
        (store / size).mkdir(parents=True, exist_ok=True)
    if not isinstance(kinds, pa.Table):
        kinds = pa.table({"name": pa.array(list(kinds), pa.string()), "kind": pa.array(list(kinds.values()), pa.string())})
    names = kinds["name"].to_pylist()
    listed = pa.table({"kind": pa.array(sorted(set(kinds["kind"].to_pylist())), pa.string())})
    listed = listed.append_column("sizes", pa.array([",".join(sizes_of(kind, make_sizes)) or "on-request"
                                                      for kind in listed["kind"].to_pylist()], pa.string()))
    workers = workers or min(len(names) // STAT_CHUNK + 1, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) if workers > 1 else contextlib.nullcontext() as pool:
        # One listing of the stored originals, not a stat per image; beside the stats when in workers.
        listing = pool.submit(os.listdir, store / "original") if pool else None
        chunks = [(str(originals), names[i:i + STAT_CHUNK]) for i in range(0, len(names), STAT_CHUNK)]
        stamps = [stamp for part in (pool.map(_stamps, chunks) if pool else map(_stamps, chunks)) for stamp in part]
        stored = pa.table({"name": pa.array(listing.result() if listing else os.listdir(store / "original"),
                                            pa.string())})
        manifest = _read_manifest(store)
        with duckdb.connect() as con:
            con.execute("SET enable_progress_bar = false")
            current = kinds.append_column("stamp", pa.array(stamps, pa.string()))
            for table_name, table in (("current_images", current), ("listed", listed), ("recorded", manifest),
                                      ("stored", stored)):
                con.register(table_name, table)
            stale = con.sql("SELECT c.name, c.kind, c.stamp, r.digest, r.sizes FROM current_images c "
                            "JOIN listed l USING (kind) LEFT JOIN recorded r USING (name) LEFT JOIN stored s USING (name) "
                            "WHERE NOT coalesce(c.stamp = r.stamp AND l.sizes = r.sizes AND s.name IS NOT NULL, false) "
                            "ORDER BY c.name").fetchall()
        jobs = [(os.path.join(originals, name), str(store), sizes_of(kind, make_sizes),
                 (digest, recorded) if digest is not None else None, stamp)
                for name, kind, stamp, digest, recorded in stale]
        if pool and len(jobs) >= 200:
            results = list(pool.map(_sync_one, jobs, chunksize=256))
        else:
            results = list(map(_sync_one, jobs))
    done = _manifest_table([row[:4] for row in results])
    if results or not (store / MANIFEST).exists():  # else the manifest on disk is already this one
        kept = manifest.filter(pc.invert(pc.is_in(manifest["name"], value_set=done["name"])))
        tmp = store / (MANIFEST + ".tmp")
        pq.write_table(pa.concat_tables([kept, done]), tmp)
        os.replace(tmp, store / MANIFEST)
        (store / LEGACY_MANIFEST).unlink(missing_ok=True)
    _write_json(store / SYNC_RECORD, {**_sync_state(originals, store, make_sizes), "originals": len(kinds)})
    return ImageSummary(len(kinds), sum(1 for *_, count in results if count), sum(count for *_, count in results))


def _folder_stamp(folder: Path) -> str:
    """Inode and mtime: a file added, removed or renamed in the folder (or the folder replaced)
    changes it; a file rewritten in place does not. A catalogue without images (an import) has none."""
    if not Path(folder).exists():
        return "absent"
    info = os.stat(folder)
    return f"{info.st_ino}:{info.st_mtime_ns}"


def _sync_state(originals: Path, store: Path, make_sizes: bool) -> dict[str, str]:
    return {"source": str(Path(originals).resolve()), "source_stamp": _folder_stamp(originals),
            "store_stamp": _folder_stamp(Path(store) / "original"), "sizes": "build" if make_sizes else "request"}


def _write_json(path: Path, value: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(value))
    os.replace(tmp, path)


def last_sync_holds(originals: Path, store: Path, make_sizes: bool) -> int | None:
    """The number of originals the store's last sync_store placed, when it synced from this folder
    with these sizes and neither the folder nor the store's originals had a file added, removed or
    renamed since; else None. An update whose image paths are the previous build's then needs no
    sync: its originals are as that sync found them, by name. An original rewritten in place, under
    its name (which TMDB's never are: a new picture gets a new path), is found by the next full
    build (`marquee build --full`), which stats every original."""
    path = Path(store) / SYNC_RECORD
    if not (path.is_file() and Path(originals).is_dir() and (Path(store) / "original").is_dir()):
        return None
    with contextlib.suppress(ValueError):
        record = json.loads(path.read_text())
        state = _sync_state(originals, store, make_sizes)
        if isinstance(record, dict) and all(record.get(k) == v for k, v in state.items()) \
                and isinstance(record.get("originals"), int):
            return record["originals"]
    return None


def image_tables(con: duckdb.DuckDBPyConnection, check_sql: str) -> set[str]:
    """The tables an image sync reads: those with an image path column (image_kinds) and those the
    missing-original check `check_sql` names."""
    tables = {table for table, names in _table_columns(con).items() if names & {*PATH_COLUMNS, "file_path"}}
    tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [check_sql]).fetchall()[0][0])
    if tree.get("error"):
        raise ValueError(f"the image check does not parse: {tree.get('error_message')}")

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "BASE_TABLE":
                tables.add(node["table_name"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(tree)
    return tables


# Catalogue columns that hold an image path, and the kind of image each holds.
PATH_COLUMNS = {"poster_path": "poster", "backdrop_path": "backdrop", "logo_path": "logo",
                "profile_path": "profile", "still_path": "still", "avatar_path": "profile"}  # a reviewer's avatar
# Image tables without a `kind` column hold one kind, named by their owner.
TABLE_KINDS = {"person_images": "profile", "company_images": "logo", "network_images": "logo"}


def _table_columns(con: duckdb.DuckDBPyConnection) -> dict[str, set[str]]:
    """Every catalogue table's column names (image paths are found by column name)."""
    columns: dict[str, set[str]] = {}
    for table, column in con.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main'"
            " AND table_name NOT LIKE 'doc_%'").fetchall():
        columns.setdefault(table, set()).add(column)
    return columns


def image_kinds(con, present: str | None = None) -> pa.Table:
    """(name, kind): the file name and kind of every image path anywhere in the catalogue (found by
    column name), in name order; with `present` (a table of file names, column `name`), only those
    files. A name found with two kinds keeps the last in (name, kind) order. Joined and sorted in
    DuckDB: at 100k movies, 1.7M paths took 12 s to sort and filter in Python."""
    columns = _table_columns(con)
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
        return pa.table({"name": pa.array([], pa.string()), "kind": pa.array([], pa.string())})
    only_present = f"WHERE name IN (SELECT name FROM {present}) " if present else ""
    return con.sql(f"SELECT name, last(kind ORDER BY kind) AS kind FROM ("
                   f"SELECT ltrim(path, '/') AS name, kind FROM ({' UNION '.join(selects)}) WHERE path <> '') "
                   f"{only_present}GROUP BY name ORDER BY name").to_arrow_table()
