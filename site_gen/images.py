"""The image host's files: every original plus the sizes /3/configuration lists for its kind (a size
the original already fits in is the original itself), and the release's index of generated images.

No build waits for an image. nginx's image host serves what the store (`HOME/images/t/p/<size>/<file>`,
shared by every release: a file name never changes meaning) holds; an original it lacks is the
catalogue's file (the release's `originals` link), and anything else is made by the edge on its first
request and kept by nginx (edge/image_listener.py), with `sized` here, so a size is the same bytes
whoever makes it. With MARQUEE_IMAGE_SIZES=build, `marquee images` fills the store ahead, beside the
build rather than inside it (`sync_store`, Pillow in a process pool; a Parquet manifest of SHA-1s means
a second run resizes only originals whose bytes changed): at 100k movies the ten sizes had been 720 s
of a 1,003 s build, and at a million titles they are ~20M files, most of them never asked for.

A generated catalogue's originals are drawn from their paths (marquee_datasets/images.py). Its
release holds `images.sqlite` (`write_index`; marquee/image_index.py): a 63-bit hash of each file name
its documents use, with its kind, so the edge draws only the catalogue's images (any other name is a
404, not a file nginx would keep) and knows each one's kind.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from marquee import image_index
from marquee.image_sizes import ALL_SIZES, INDEX_KEY_SQL, KINDS, sized, sizes_of
from marquee_datasets.images import draw
from site_gen.documents import tables_read

MANIFEST = ".manifest.parquet"
LEGACY_MANIFEST = ".manifest.json"  # the JSON manifest of earlier builds: read once, then replaced
# fmt: off
MANIFEST_SCHEMA = pa.schema([("name", pa.string()), ("digest", pa.string()), ("sizes", pa.string()),
                             ("stamp", pa.string())])
# fmt: on
STAT_CHUNK = 100_000  # originals stat'ed per task, and per worker process beyond the first
GENERATED = "generated"  # the manifest's digest and stamp of a drawn original: its bytes follow from its name


@dataclass(frozen=True)
class ImageSummary:
    originals: int
    resized: int  # originals new or changed since the last sync
    files_written: int


def _place(source: str, target: str) -> None:
    """Hard-link when the store shares the disk (no bytes copied), else copy."""
    if os.path.exists(target):
        os.unlink(target)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _write(target: str, data: bytes) -> None:
    with open(target + ".tmp", "wb") as out:
        out.write(data)
    os.replace(target + ".tmp", target)


def _resize_one(job: tuple[str, str | None, str, str, tuple[str, ...], bool]) -> int:
    """Put one original into the store (its catalogue file linked, or drawn from its name) and write
    the sizes smaller than it; runs in a worker process.

    A size at least as large as the original would be the original itself, so no file is made for
    it here: the image host asks the edge, which answers with the original's bytes. For the
    generator's placeholder art that is most sizes, and each file not made is a 4 KB block and ~30 µs
    not spent. Sizes made from an earlier version of the original are removed.
    """
    name, source, kind, store, sizes, replacing = job
    original = os.path.join(store, "original", name)
    if source is None:
        data = draw(name, kind)
        _write(original, data)
    else:
        _place(source, original)
        with open(original, "rb") as handle:
            data = handle.read()
    written = 1
    stale = [size for size in ALL_SIZES if size not in sizes]
    for size in sizes:
        made = sized(data, name, size)
        if made is data:
            stale.append(size)
            continue
        _write(os.path.join(store, size, name), made)
        written += 1
    for size in stale if replacing else ():  # made when the original was another picture, or larger
        try:
            os.unlink(os.path.join(store, size, name))
        except FileNotFoundError:
            pass
    return written


def _sync_one(job: tuple[str, str | None, str, str, tuple[str, str] | None, str]) -> tuple[str, str, str, str, int]:
    """Hash one new or touched original and, if its picture is new, store it and its sizes; runs in
    a worker process, so reading and hashing a million originals never holds the caller's GIL.
    Returns its manifest row (name, digest, sizes, stamp) and the files written. A drawn original
    (no source) is not hashed: its bytes follow from its name."""
    name, source, kind, store, recorded, stamp = job
    sizes = sizes_of(kind)
    listed = ",".join(sizes)
    if source is None:
        digest = GENERATED
    else:
        with open(source, "rb") as handle:
            digest = hashlib.sha1(handle.read()).hexdigest()
    if recorded == (digest, listed) and os.path.exists(os.path.join(store, "original", name)):
        return name, digest, listed, stamp, 0  # the same picture with a new mtime
    return name, digest, listed, stamp, _resize_one((name, source, kind, store, sizes, recorded is not None))


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
    GENERATED for a drawn one; sizes, the sizes made; stamp, the source's size and mtime when stored)."""
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


def sync_store(
    originals: Path, store: Path, kinds: dict[str, str] | pa.Table, workers: int | None = None, generated: bool = False
) -> ImageSummary:
    """Make `store` hold every image in `kinds` (file name -> kind, or a table of name and kind) at
    its original and its sizes: the file in `originals`, or with `generated` for a name with no file
    there, the original drawn from its name (without, such a name is left out: the build refuses a
    release whose documents name a missing original, and a path no document names is no image).

    An original whose size and mtime are those recorded, with the same sizes, already stored, is
    trusted without reading it (a million images are gigabytes to hash); any other is hashed, in a
    worker, and stored again only when its bytes changed; a drawn one is stored once. The comparison
    runs in DuckDB and the stats in worker processes: at 100k movies, 1.7M Python stats, existence
    checks and a JSON manifest took ~20 s, holding the GIL."""
    store, originals = Path(store), Path(originals)
    for size in ("original", *ALL_SIZES):
        (store / size).mkdir(parents=True, exist_ok=True)
    if not isinstance(kinds, pa.Table):
        kinds = pa.table(
            {"name": pa.array(list(kinds), pa.string()), "kind": pa.array(list(kinds.values()), pa.string())}
        )
    listing = pa.array(os.listdir(originals) if originals.is_dir() else [], pa.string())
    has_file = pc.is_in(kinds["name"], value_set=listing)
    if not generated:
        kinds = kinds.filter(has_file)
        has_file = pc.is_in(kinds["name"], value_set=listing)
    has_file = has_file.to_numpy(zero_copy_only=False)
    filed = kinds["name"].filter(pa.array(has_file)).to_pylist()
    listed = pa.table({"kind": pa.array(sorted(set(kinds["kind"].to_pylist())), pa.string())})
    listed = listed.append_column(
        "sizes", pa.array([",".join(sizes_of(kind)) for kind in listed["kind"].to_pylist()], pa.string())
    )
    workers = workers or min(len(filed) // STAT_CHUNK + 1, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) if workers > 1 else contextlib.nullcontext() as pool:
        # One listing of the stored originals, not a stat per image; beside the stats when in workers.
        stored = pool.submit(os.listdir, store / "original") if pool else None
        chunks = [(str(originals), filed[i : i + STAT_CHUNK]) for i in range(0, len(filed), STAT_CHUNK)]
        stamps = np.full(len(has_file), GENERATED, dtype=object)
        stamps[has_file] = [
            stamp for part in (pool.map(_stamps, chunks) if pool else map(_stamps, chunks)) for stamp in part
        ]
        stored = pa.table(
            {"name": pa.array(stored.result() if stored else os.listdir(store / "original"), pa.string())}
        )
        manifest = _read_manifest(store)
        with duckdb.connect() as con:
            con.execute("SET enable_progress_bar = false")
            current = kinds.append_column("stamp", pa.array(stamps, pa.string()))
            for table_name, table in (
                ("current_images", current),
                ("listed", listed),
                ("recorded", manifest),
                ("stored", stored),
            ):
                con.register(table_name, table)
            stale = con.sql(
                "SELECT c.name, c.kind, c.stamp, r.digest, r.sizes FROM current_images c "
                "JOIN listed l USING (kind) LEFT JOIN recorded r USING (name) LEFT JOIN stored s USING (name) "
                "WHERE NOT coalesce(c.stamp = r.stamp AND l.sizes = r.sizes AND s.name IS NOT NULL, false) "
                "ORDER BY c.name"
            ).fetchall()
        jobs = [
            (
                name,
                None if stamp == GENERATED else os.path.join(originals, name),
                kind,
                str(store),
                (digest, recorded) if digest is not None else None,
                stamp,
            )
            for name, kind, stamp, digest, recorded in stale
        ]
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
    return ImageSummary(len(kinds), sum(1 for *_, count in results if count), sum(count for *_, count in results))


def write_index(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """IMAGE_INDEX at `path` (marquee/image_index.py): every image path of the build database
    (image_kinds) by key, with its kind's place in KINDS. Returns the number of names. At 1M films,
    17.5M names in ~22 s, beside the build's collect."""
    kinds = image_kinds(con)
    con.register("index_names", kinds)
    try:
        keyed = con.sql(
            f"SELECT {INDEX_KEY_SQL} AS key, coalesce(list_position(?, kind), ?) - 1 AS kind FROM index_names "
            "ORDER BY key",
            params=[list(KINDS), KINDS.index("poster") + 1],
        ).to_arrow_table()
    finally:
        con.unregister("index_names")
    image_index.write(path, keyed.column("key").to_numpy(), keyed.column("kind").to_numpy())
    return kinds.num_rows


def image_tables(con: duckdb.DuckDBPyConnection, check_sql: str) -> set[str]:
    """The tables an image sync reads: those with an image path column (image_kinds) and those the
    missing-original check `check_sql` names."""
    tables = {table for table, names in _table_columns(con).items() if names & {*PATH_COLUMNS, "file_path"}}
    return tables | tables_read(con, check_sql, "the image check")


# Catalogue columns that hold an image path, and the kind of image each holds.
# fmt: off
PATH_COLUMNS = {"poster_path": "poster", "backdrop_path": "backdrop", "logo_path": "logo",
                "profile_path": "profile", "still_path": "still", "avatar_path": "profile"}  # a reviewer's avatar
# fmt: on
# Image tables without a `kind` column hold one kind, named by their owner.
TABLE_KINDS = {"person_images": "profile", "company_images": "logo", "network_images": "logo"}


def _table_columns(con: duckdb.DuckDBPyConnection) -> dict[str, set[str]]:
    """Every catalogue table's column names (image paths are found by column name)."""
    columns: dict[str, set[str]] = {}
    for table, column in con.execute(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main'"
        " AND table_name NOT LIKE 'doc_%'"
    ).fetchall():
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
    return con.sql(
        f"SELECT name, last(kind ORDER BY kind) AS kind FROM ("
        f"SELECT ltrim(path, '/') AS name, kind FROM ({' UNION '.join(selects)}) WHERE path <> '') "
        f"{only_present}GROUP BY name ORDER BY name"
    ).to_arrow_table()
