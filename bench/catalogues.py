"""Generated catalogues for the benchmarks, made in a process of their own.

A process that generated 1M movies keeps ~10 GB of the generator's tables: the search bench then ran
this 24 GB box out of memory building its index in the same process, and a build that follows the
generation in one process competes with that memory for the page cache."""

from __future__ import annotations

import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from marquee_build import contract
from marquee_datasets.synthetic import generate

# Where the benches keep generated catalogues between runs, one folder per size (generating 1M
# movies takes minutes): `make bench-build`, `bench-search` and `bench-discover` share them.
CACHE = Path("var/bench-catalogues")
SEED = 42


def generate_apart(folder: Path, movies: int, seed: int, **options) -> None:
    """`generate(folder, movies, seed, **options)` in a child process, returning when it is written."""
    with ProcessPoolExecutor(1) as pool:
        pool.submit(generate, folder, movies, seed, **options).result()


def fits_contract(folder: Path) -> bool:
    """Whether a cached catalogue still fits the contract (a table added since: generate it again)."""
    try:
        contract.check(folder)
    except contract.ContractError:
        return False
    return True


def catalogue_for(movies: int, cache: Path = CACHE) -> Path:
    """A generated catalogue of `movies` (seed SEED), kept under `cache` between runs: made again
    only when absent, half written, or no longer fitting the contract."""
    folder = Path(cache).resolve() / f"catalogue-{movies}"
    if not (folder / ".complete").exists() or not fits_contract(folder):
        shutil.rmtree(folder, ignore_errors=True)
        started = time.perf_counter()
        generate_apart(folder, movies, SEED)
        (folder / ".complete").write_text("")
        print(f"generated {movies:,} movies in {time.perf_counter() - started:.1f} s", flush=True)
    return folder
