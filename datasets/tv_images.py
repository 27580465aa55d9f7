"""Image lists for the TV tables and collections.

`image_tables` makes the lists of /3/tv/{id}/images, /3/tv/{id}/season/{n}/images,
/3/tv/{id}/season/{n}/episode/{e}/images and /3/collection/{id}/images (the owner's own
poster_path, backdrop_path or still_path ranks first, as for films: movie_media.owner_images).
Their originals are drawn from their paths on request (marquee_datasets/images.py).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from marquee_datasets.columns import rng_for, rows_of
from marquee_datasets.movie_media import owner_images

TABLES: tuple[str, ...] = ("series_images", "season_images", "episode_images", "collection_images")
# Extra images per owner beyond its main path (TMDB lists several posters per series, a few per
# season, and usually one still per episode).
# fmt: off
SERIES_EXTRAS = {"poster": lambda rng, n: rng.integers(0, 4, n), "backdrop": lambda rng, n: rng.integers(0, 4, n),
                 "logo": lambda rng, n: rng.integers(0, 3, n)}
# fmt: on
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
        "series_images": owner_images(
            rng_for(seed, "series_images"), series, seed, "tv-image", "series_id", SERIES_EXTRAS
        ),
        "season_images": owner_images(
            rng_for(seed, "season_images"),
            _with_series_language(tables["tv_seasons"], series),
            seed,
            "season-image",
            "season_id",
            SEASON_EXTRAS,
        ),
        "episode_images": owner_images(
            rng_for(seed, "episode_images"),
            _with_series_language(tables["tv_episodes"], series),
            seed,
            "episode-image",
            "episode_id",
            EPISODE_EXTRAS,
        ),
        "collection_images": owner_images(
            rng_for(seed, "collection_images"),
            collections,
            seed,
            "collection-image",
            "collection_id",
            COLLECTION_EXTRAS,
        ),
    }
