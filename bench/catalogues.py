"""Generated catalogues for the benchmarks, made in a process of their own.

A process that generated 1M movies keeps ~10 GB of the generator's tables: the search bench then ran
this 24 GB box out of memory building its index in the same process, and a build that follows the
generation in one process competes with that memory for the page cache."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from marquee.artefacts import DISCOVER_COLUMNS, DISCOVER_INDEX, SEARCH_INDEX
from marquee.settings import PROJECT_ROOT
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


# What writes a catalogue's search and discover indexes (the load, the languages, both index
# writers and what they import): a change to any of it makes a cached pair stale.
# fmt: off
INDEX_SOURCES = ("marquee_build", "site_gen/sql", "site_gen/search_index.py", "site_gen/discover_index.py",
                 "site_gen/languages.py", "site_gen/documents.py", "marquee/search_text.py", "marquee/packs.py",
                 "marquee/artefacts.py", "marquee/discover_columns.py")
# fmt: on
INDEXES = (SEARCH_INDEX, DISCOVER_INDEX, DISCOVER_COLUMNS)


def index_digest(catalogue: Path, languages: list[str]) -> str:
    """The MD5 of what a cached pair of indexes was made from: INDEX_SOURCES' files, the languages
    served, and the catalogue's generation (the time its `.complete` mark was written)."""
    stamp = (catalogue / ".complete").stat().st_mtime_ns
    digest = hashlib.md5(f"{','.join(languages)}|{stamp}".encode())
    for source in INDEX_SOURCES:
        path = PROJECT_ROOT / source
        for file in sorted(path.rglob("*") if path.is_dir() else [path]):
            if file.suffix in (".py", ".sql"):
                digest.update(str(file.relative_to(PROJECT_ROOT)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def _build_indexes(catalogue: Path, settings, folder: Path) -> None:
    from site_gen import discover_index, search_index

    with search_index.prepared_database(catalogue, settings, folder) as con:
        print(search_index.build(con, list(settings.languages), folder / SEARCH_INDEX).line(), flush=True)
        print(discover_index.build(con, folder / DISCOVER_INDEX, catalogue).line(), flush=True)
    (folder / "search-database.duckdb").unlink(missing_ok=True)


def indexes_for(catalogue: Path, settings, release: Path, cache: Path = CACHE) -> None:
    """The search and discover indexes of `catalogue` in `release` (what a build writes beside its
    pack; hard links, which the stack opens read-only), built once per catalogue and INDEX_SOURCES
    and kept under `cache` (at 1M films the load and both indexes take ~10 minutes). A catalogue's
    stale pairs are removed when a new one is made: each is ~5 GB at 1M."""
    digest = index_digest(catalogue, list(settings.languages))
    folder = Path(cache).resolve() / f"indexes-{catalogue.name}-{digest[:12]}"
    if not (folder / ".complete").exists():
        for stale in folder.parent.glob(f"indexes-{catalogue.name}-*"):
            shutil.rmtree(stale)
        folder.mkdir(parents=True)
        started = time.perf_counter()
        with ProcessPoolExecutor(1) as pool:  # the load's memory goes with the child, before the stack starts
            pool.submit(_build_indexes, catalogue, settings, folder).result()
        (folder / ".complete").write_text("")
        print(f"indexed {catalogue.name} in {time.perf_counter() - started:.1f} s", flush=True)
    else:
        print(f"indexes of {catalogue.name} reused from {folder.name}", flush=True)
    release.mkdir(parents=True, exist_ok=True)
    for name in INDEXES:
        os.link(folder / name, release / name)
