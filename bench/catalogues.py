"""Generated catalogues for the benchmarks, made in a process of their own.

A process that generated 1M movies keeps ~10 GB of the generator's tables: the search bench then ran
this 24 GB box out of memory building its index in the same process, and a build that follows the
generation in one process competes with that memory for the page cache."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from marquee_datasets.synthetic import generate


def generate_apart(folder: Path, movies: int, seed: int, **options) -> None:
    """`generate(folder, movies, seed, **options)` in a child process, returning when it is written."""
    with ProcessPoolExecutor(1) as pool:
        pool.submit(generate, folder, movies, seed, **options).result()
