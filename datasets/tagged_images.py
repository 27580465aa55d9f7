"""Synthetic tagged images (/3/person/{id}/tagged_images): a film's further backdrops show its stars.

Each backdrop of a film after its first (the one its details show) is tagged, half the time, with the
film's top-billed actor, and now and then with the second too. Only images the film already has are
tagged, so every tag names a file the image host serves at a backdrop's sizes.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets.columns import group_ranks, rng_for


def tagged_tables(tables: dict[str, pa.Table], seed: int) -> dict[str, pa.Table]:
    rng = rng_for(seed, "tagged_images")
    images = tables["movie_images"].filter(pc.equal(tables["movie_images"].column("kind"), "backdrop"))
    movie = images.column("movie_id").to_numpy()
    order = np.argsort(movie, kind="stable")
    movie = movie[order]
    paths = np.asarray(images.column("file_path").to_pylist(), object)[order]
    further = (group_ranks(movie) >= 1) & (rng.random(len(movie)) < 0.5)
    cast = tables["cast"]
    billed = cast.filter(pc.less(cast.column("order"), 2))
    stars: dict[tuple[int, int], int] = {
        (m, o): p
        for m, o, p in zip(
            billed.column("movie_id").to_pylist(),
            billed.column("order").to_pylist(),
            billed.column("person_id").to_pylist(),
        )
    }
    rows: dict[str, list] = {"person_id": [], "media_type": [], "media_id": [], "file_path": []}
    second = rng.random(len(movie)) < 0.3
    for i in np.flatnonzero(further).tolist():
        film = int(movie[i])
        for billing in (0, 1) if second[i] else (0,):
            person = stars.get((film, billing))
            if person is not None:
                rows["person_id"].append(person)
                rows["media_type"].append("movie")
                rows["media_id"].append(film)
                rows["file_path"].append(paths[i])
    return {
        "tagged_images": pa.table(
            {
                "person_id": pa.array(rows["person_id"], pa.int64()),
                "media_type": pa.array(rows["media_type"], pa.string()),
                "media_id": pa.array(rows["media_id"], pa.int64()),
                "file_path": pa.array(rows["file_path"], pa.string()),
            }
        )
    }
