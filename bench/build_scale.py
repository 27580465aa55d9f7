"""Benchmark: build generated catalogues of growing size in all 14 languages, in one run.

For each scale (movies; series are one per ten movies, as `marquee generate` makes them) it reports
generation seconds (or that the catalogue was reused), build seconds and their phases (DuckDB load,
render SQL, validate + insert into the pack, the search index, waiting for the image check),
documents, documents per second, JSON bytes, the release on disk (`du`: pack and artefacts), the
images its documents name (the build makes none: site_gen/images.py) and the build's peak memory
(the resident memory of its process and every process it started, sampled). Then how build time
grows between the two largest scales (as an exponent: 1.0 is linear) and what that growth
projects for 1M movies and 100k series, against the 30-minute target. Last, at the largest scale,
1% of the films get a new English title and the release is rebuilt against the previous one
(keeping its build database, rendering only what the change reaches, writing a delta pack),
against the full build's time.

Catalogues are generated once per size and kept (bench/catalogues.py, shared with the search and
discover benches): each build reads a hard-linked copy, so the rebuild's change never reaches the
cache. Each full build runs in a process of its own from scratch (no release or build database)
after `sync`. `--repeats N` builds each scale N times and reports the median: single
runs on this box moved the 1M projection by ±30%. The last lines, for the largest scale:

    phases (s): database … collect … write … search … images_after …
    full build seconds: X
    release GB: X
    peak memory GB: X
    incremental rebuild ratio: X.XX

    python -m bench.build_scale                 # 2,000 and 10,000 movies
    python -m bench.build_scale 1000000         # the whole catalogue (issue 29)
    python -m bench.build_scale 10000 100000 --repeats 3
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from bench.catalogues import CACHE, catalogue_for
from marquee.settings import Settings, from_env
from marquee_build.state import STATE_DIR
from site_gen.release import ReleaseSummary, render_release

TARGET_MOVIES = 1_000_000
TARGET_SECONDS = 30 * 60


def disk_bytes(path: Path) -> int:
    """Bytes allocated on disk (blocks), which is what small files really cost."""
    out = subprocess.run(["du", "-s", "--block-size=1", str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0])


def change_titles(catalogue: Path, share: float) -> int:
    """Give `share` of the films a new English title (every language variant that falls back to it
    changes too); returns how many films changed."""
    table = pq.read_table(catalogue / "movie_translations.parquet")
    english = pc.equal(table.column("iso_639_1"), "en")
    ids = sorted(set(table.column("movie_id").filter(english).to_pylist()))
    chosen = pa.array(ids[:: max(1, round(1 / share))], pa.int64())
    renamed = pc.if_else(
        pc.and_(english, pc.is_in(table.column("movie_id"), chosen)),
        pc.binary_join_element_wise(table.column("title"), " (Restored)", ""),
        table.column("title"),
    )
    # A new file renamed over the old: the catalogue is a hard-linked copy of the cached one.
    tmp = catalogue / "movie_translations.parquet.tmp"
    pq.write_table(table.set_column(table.schema.get_field_index("title"), "title", renamed), tmp)
    os.replace(tmp, catalogue / "movie_translations.parquet")
    return len(chosen)


def linked_copy(source: Path, target: Path) -> Path:
    """`source` as a folder of hard links: no bytes copied, and a file replaced in it leaves `source` alone."""
    shutil.copytree(source, target, copy_function=os.link)
    return target


class PeakMemory:
    """The most resident memory a process and all its descendants held together, sampled every
    `interval` seconds from another thread while it runs. Each new peak a GB above the last one
    logged is logged on stderr, timed like the build's phases, so a peak is placed in its phase."""

    LOG_STEP = 1 << 30

    def __init__(self, pid: int, interval: float = 0.25) -> None:
        self.peak = 0
        self._logged = 0
        self._root = psutil.Process(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, args=(interval,), daemon=True)
        self._thread.start()

    def _sample(self, interval: float) -> None:
        while not self._stop.wait(interval):
            total = 0
            try:
                for process in [self._root, *self._root.children(recursive=True)]:
                    try:
                        total += process.memory_info().rss
                    except psutil.NoSuchProcess:
                        pass
            except psutil.NoSuchProcess:
                return
            self.peak = max(self.peak, total)
            if self.peak >= self._logged + self.LOG_STEP:
                self._logged = self.peak
                print(f"  {time.strftime('%H:%M:%S')} memory {self.peak / 1e9:.1f} GB", file=sys.stderr, flush=True)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def show_progress(phase: str, done: int, total: int) -> None:
    """A build's progress on stderr, timed, the template and artefact by name: where a long build
    is, or where it failed (templates are written in site_gen/templates.py's order, all of them for
    a generated catalogue)."""
    from site_gen.release import ARTEFACT_STEPS
    from site_gen.templates import TEMPLATES

    name = f" {TEMPLATES[done].path}" if phase == "templates" and done < min(total, len(TEMPLATES)) else ""
    if phase == "artefacts" and total == len(ARTEFACT_STEPS):
        name = f" {ARTEFACT_STEPS[done]}"
    print(f"  {time.strftime('%H:%M:%S')} {phase} {done}/{total}{name}", file=sys.stderr, flush=True)


def build_apart(
    settings: Settings, catalogue: Path, release: Path, previous: Path | None = None
) -> tuple[ReleaseSummary, int, float]:
    """render_release in a process of its own; returns its summary, the peak memory (bytes) of
    that process and the ones it started, and their CPU seconds (user and system).

    Why the CPU seconds: the same 1M build took 2,199 s one day and 2,466 and 2,692 s two hours
    apart the next, every phase alike; the work done swings less with the box's hour than the wall
    time. They come from the bench's reaped children: the pool's worker, reaped when the pool
    closes, carries the processes it started and waited for (the index and the blocks written apart)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with ProcessPoolExecutor(1) as pool:
        watch = PeakMemory(pool.submit(os.getpid).result())  # the worker's pid: the tree to watch
        try:
            summary = pool.submit(
                render_release, settings, catalogue, release, None, previous, None, show_progress
            ).result()
        finally:
            peak = watch.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    # What each index copied or wrote, and the counts: where an update's seconds went.
    print(f"  {summary.line()}; {cpu:.1f} CPU seconds", file=sys.stderr, flush=True)
    return summary, peak, cpu


def measure(
    movies: int, workdir: Path, cache: Path, incremental: bool = False, repeats: int = 1, keep: Path | None = None
) -> dict:
    home = workdir / f"home-{movies}"
    settings = from_env({"MARQUEE_HOME": str(home)})
    started = time.perf_counter()
    cached = (cache / f"catalogue-{movies}" / ".complete").exists()
    catalogue = linked_copy(catalogue_for(movies, cache), home / "catalogue")
    generated = None if cached else time.perf_counter() - started
    release = settings.releases_dir / "bench"
    builds = []
    for _ in range(repeats):
        # Each build from scratch: no release or build database left by the one before, and none of
        # that build's writes still going to disk while it runs.
        for leftover in (release, settings.releases_dir / STATE_DIR):
            shutil.rmtree(leftover, ignore_errors=True)
        os.sync()
        builds.append(build_apart(settings, catalogue, release))
    # The median build (the upper one of an even count) stands for the scale; the rebuild below goes
    # on top of the last release built, which is the same code and catalogue.
    summary, peak, cpu = sorted(builds, key=lambda build: build[0].seconds)[len(builds) // 2]
    row = {
        "movies": movies,
        "generate_s": generated,
        "build_s": summary.seconds,
        "documents": summary.documents,
        "bytes": summary.bytes,
        "disk": disk_bytes(release),
        "images": summary.images,
        "phases": summary.phases,
        "peak": peak,
        "cpu_s": cpu,
        "runs": [build.seconds for build, _, _ in builds],
    }
    if incremental:
        row["changed"] = change_titles(catalogue, 0.01)
        os.sync()
        again, again_peak, again_cpu = build_apart(
            settings, catalogue, settings.releases_dir / "again", previous=release
        )
        row.update(
            incremental_s=again.seconds,
            reused=again.unchanged,
            incremental_documents=again.documents,
            incremental_phases=again.phases,
            scoped=again.scoped,
            incremental_peak=again_peak,
            incremental_cpu_s=again_cpu,
            steps=f"{again.steps_run} of {again.steps}",
        )
    if keep is not None:  # e.g. for `make bench BENCH_RELEASE=…`: the full build, not the rebuild
        shutil.rmtree(keep, ignore_errors=True)
        shutil.move(release, keep)
    shutil.rmtree(home, ignore_errors=True)  # the next scale needs the disk more than this one
    return row


def phase_line(phases: dict[str, float]) -> str:
    return " ".join(f"{name} {seconds:.1f}" for name, seconds in phases.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scales", nargs="*", type=int, default=[2_000, 10_000], help="movie counts, ascending")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where generated catalogues are kept")
    parser.add_argument(
        "--repeats", type=int, default=1, help="full builds per scale, each from scratch; the median is reported"
    )
    parser.add_argument("--keep", type=Path, help="keep the largest scale's full build here (a release to bench)")
    parser.add_argument(
        "--rebuild",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="rebuild the largest scale after 1%% of titles changed",
    )
    args = parser.parse_args()
    scales = sorted(args.scales)
    workdir = Path(tempfile.mkdtemp(prefix="marquee-bench-build-"))
    rows = []
    try:
        print(
            f"{'movies':>8} {'series':>7} {'gen s':>7} {'build s':>8} {'documents':>10} "
            f"{'docs/s':>8} {'JSON MB':>9} {'on disk MB':>11} {'images':>8} {'peak GB':>8}  phases (s)",
            flush=True,
        )
        for movies in scales:
            r = measure(
                movies,
                workdir,
                args.cache,
                incremental=args.rebuild and movies == scales[-1],
                repeats=args.repeats,
                keep=args.keep.resolve() if args.keep and movies == scales[-1] else None,
            )
            rows.append(r)
            generated = "cached" if r["generate_s"] is None else f"{r['generate_s']:.1f}"
            print(
                f"{movies:>8,} {max(1, movies // 10):>7,} {generated:>7} {r['build_s']:>8.1f} "
                f"{r['documents']:>10,} {r['documents'] / r['build_s']:>8,.0f} "
                f"{r['bytes'] / 1e6:>9,.1f} {r['disk'] / 1e6:>11,.1f} {r['images']:>8,} "
                f"{r['peak'] / 1e9:>8.2f}  {phase_line(r['phases'])}"
                + (f"  (median of {', '.join(f'{s:.1f}' for s in r['runs'])} s)" if len(r["runs"]) > 1 else ""),
                flush=True,
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if len(rows) >= 2:
        small, large = rows[-2], rows[-1]
        exponent = math.log(large["build_s"] / small["build_s"]) / math.log(large["movies"] / small["movies"])
        factor = TARGET_MOVIES / large["movies"]
        projected = large["build_s"] * factor**exponent
        print(
            f"growth {small['movies']:,} -> {large['movies']:,} movies: build time x"
            f"{large['build_s'] / small['build_s']:.2f} for x{large['movies'] / small['movies']:.0f} titles "
            f"(exponent {exponent:.2f}; 1.00 is linear)"
        )
        print(
            f"projected for {TARGET_MOVIES:,} movies and {TARGET_MOVIES // 10:,} series: "
            f"{projected / 60:,.0f} min build, {large['disk'] * factor / 1e9:,.0f} GB on disk for "
            f"{large['bytes'] * factor / 1e9:,.0f} GB written (target {TARGET_SECONDS // 60} min)"
        )
    last = rows[-1] if rows else None
    if last is None:
        return
    if "changed" in last:
        print(
            f"incremental rebuild after {last['changed']:,} of {last['movies']:,} films changed: "
            f"{last['incremental_s']:.1f} s ({phase_line(last['incremental_phases'])}), {last['reused']:,} of "
            f"{last['incremental_documents']:,} documents unchanged, "
            f"{'only what changed rendered' if last['scoped'] else 'everything rendered'}, "
            f"{last['steps']} database steps run; rebuild/full time "
            f"{last['incremental_s'] / last['build_s']:.2f} (target 0.05), "
            f"peak memory {last['incremental_peak'] / 1e9:.2f} GB, {last['incremental_cpu_s']:.1f} CPU seconds"
        )
    print(
        f"full build CPU seconds: {last['cpu_s']:.1f} "
        f"({last['cpu_s'] / last['build_s']:.2f} cores busy on average, of {os.cpu_count()})"
    )
    # The stable last lines (issue 29), for the largest scale.
    print(f"phases (s): {phase_line(last['phases'])}")
    print(f"full build seconds: {last['build_s']:.1f}")
    print(f"release GB: {last['disk'] / 1e9:.2f}")
    print(f"peak memory GB: {last['peak'] / 1e9:.2f}")
    if "changed" in last:
        print(f"incremental rebuild ratio: {last['incremental_s'] / last['build_s']:.3f}")


if __name__ == "__main__":
    main()
