"""`marquee images`: every original and size of a catalogue made ahead into the image store.

For operators who want no image made on request (MARQUEE_IMAGE_SIZES=build): `marquee build` starts
it detached once it has published, logging to HOME/log/images.log, and an operator may run it
whenever. It runs beside the build, not inside it: the release is served from the moment it is
published, and until the job reaches an image the image host makes it on request as always
(edge/image_listener.py, with marquee/image_sizes.py `sized`), the same bytes the job then writes. At 100k movies the ten sizes had been
720 s of a 1,003 s build.

One job at a time per store (a lock file in it): a job started while another runs waits for it, then
finds its work done (the store's manifest) and does only what the newer catalogue added.
"""

from __future__ import annotations

import contextlib
import fcntl
from pathlib import Path

import duckdb
import pyarrow as pa

from marquee_build import contract
from site_gen.images import ImageSummary, image_kinds, sync_store

LOCK = ".images.lock"


def catalogue_images(catalogue_dir: Path) -> pa.Table:
    """(name, kind) of every image path in the catalogue's tables, in name order (images.image_kinds
    over views of its Parquet files: nothing is loaded)."""
    with contextlib.closing(duckdb.connect()) as con:
        con.execute("SET enable_progress_bar = false")
        for name in contract.TABLES:
            path = Path(catalogue_dir) / f"{name}.parquet"
            if path.is_file():
                quoted = "'" + str(path).replace("'", "''") + "'"  # a view's SQL takes no parameters
                con.execute(f'CREATE VIEW "{name}" AS SELECT * FROM read_parquet({quoted})')
        return image_kinds(con)


def make_ahead(catalogue_dir: Path, image_dir: Path, workers: int | None = None) -> ImageSummary:
    """Bring the store under `image_dir` up to date with every image of the catalogue, its sizes
    included: a catalogue's files linked, a generated catalogue's originals drawn."""
    store = Path(image_dir) / "t" / "p"
    store.mkdir(parents=True, exist_ok=True)
    with open(store / LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return sync_store(
            Path(catalogue_dir) / "images",
            store,
            catalogue_images(catalogue_dir),
            workers,
            generated=contract.images_generated(catalogue_dir),
        )
