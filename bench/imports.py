"""Benchmark: import throughput and memory of each importer at two sizes, and what they mean for an
IMDb-sized dump (10M titles).

Each format's files are generated here in the dump's own shape (`marquee import`'s tests write the
same shapes by hand): TMDB 5000 CSV rows with their JSON columns, TMDB API documents one a line
with credits, IMDb TSV dumps (title.basics, akas, ratings, crew, principals, name.basics). Each
import runs in a process of its own; its peak memory is that process's maximum resident set
(getrusage). Memory "stays flat" when the larger input's peak is well under 10x the smaller's.
A merge of an IMDb import into a crawl (`marquee import merge`) is measured the same way. The
last lines are `import rows/s: ...` and `import memory growth (x10 input): ...`.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from marquee_datasets import tmdb5000


def tmdb5000_files(folder: Path, n: int) -> list[str]:
    path = folder / "movies.csv.gz"
    header = tmdb5000.MOVIE_COLUMNS
    with gzip.open(path, "wt", encoding="utf-8", newline="", compresslevel=1) as f:
        writer = csv.writer(f)
        writer.writerow(header)
        for i in range(1, n + 1):
            writer.writerow(
                [
                    i * 1000,
                    json.dumps([{"id": 18, "name": "Drama"}, {"id": 28, "name": "Action"}]),
                    "",
                    i,
                    json.dumps([{"id": i % 5000, "name": f"keyword {i % 5000}"}]),
                    "en",
                    f"Title {i}",
                    f'A plot, with "quotes", number {i}.',
                    i % 97 / 7,
                    json.dumps([{"name": f"Studio {i % 900}", "id": i % 900}]),
                    json.dumps([{"iso_3166_1": "US", "name": "United States of America"}]),
                    "2001-02-03",
                    0,
                    100,
                    json.dumps([{"iso_639_1": "en", "name": "English"}]),
                    "Released",
                    "",
                    f"Title {i}",
                    6.5,
                    10,
                ]
            )
    return [str(path)]


def jsonl_files(folder: Path, n: int) -> list[str]:
    path = folder / "crawl.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as f:
        for i in range(1, n + 1):
            f.write(
                json.dumps(
                    {
                        "id": i,
                        "title": f"Title {i}",
                        "original_title": f"Title {i}",
                        "original_language": "en",
                        "release_date": "2001-02-03",
                        "runtime": 100,
                        "popularity": i % 97 / 7,
                        "imdb_id": f"tt{i:07d}",
                        "genres": [{"id": 18, "name": "Drama"}],
                        "overview": "A plot.",
                        "vote_average": 6.5,
                        "vote_count": 10,
                        "credits": {
                            "cast": [
                                {
                                    "id": i * 10 + k,
                                    "name": f"Actor {i * 10 + k}",
                                    "character": "Someone",
                                    "credit_id": f"c{i}-{k}",
                                    "cast_id": k,
                                    "order": k,
                                }
                                for k in range(4)
                            ],
                            "crew": [
                                {
                                    "id": i * 10 + 9,
                                    "name": f"Director {i}",
                                    "credit_id": f"d{i}",
                                    "department": "Directing",
                                    "job": "Director",
                                }
                            ],
                        },
                    }
                )
                + "\n"
            )
    return [str(path)]


def imdb_files(folder: Path, n: int) -> list[str]:
    def write(name: str, header: str, rows) -> None:
        with gzip.open(folder / name, "wt", encoding="utf-8", compresslevel=1) as f:
            f.write(header + "\n")
            f.writelines(rows)

    tt = [f"tt{i:07d}" for i in range(1, n + 1)]
    write(
        "title.basics.tsv.gz",
        "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres",
        (
            f"{t}\t{'movie' if i % 5 else 'tvEpisode'}\tTitle {i}\tTitle {i}\t0\t2001\t\\N\t90\tDrama,Sci-Fi\n"
            for i, t in enumerate(tt)
        ),
    )
    write(
        "title.akas.tsv.gz",
        "titleId\tordering\ttitle\tregion\tlanguage\ttypes\tattributes\tisOriginalTitle",
        (
            f"{t}\t1\tTitel {i}\tDE\t\\N\t\\N\t\\N\t0\n{t}\t2\tTitre {i}\tFR\tfr\t\\N\t\\N\t0\n"
            for i, t in enumerate(tt)
        ),
    )
    write("title.ratings.tsv.gz", "tconst\taverageRating\tnumVotes", (f"{t}\t7.1\t{i}\n" for i, t in enumerate(tt)))
    write("title.crew.tsv.gz", "tconst\tdirectors\twriters", (f"{t}\tnm{i:07d}\tnm{i:07d}\n" for i, t in enumerate(tt)))
    write(
        "title.principals.tsv.gz",
        "tconst\tordering\tnconst\tcategory\tjob\tcharacters",
        (f'{t}\t{k}\tnm{(i + k) % n:07d}\tactor\t\\N\t["Role {k}"]\n' for i, t in enumerate(tt) for k in range(1, 4)),
    )
    write(
        "name.basics.tsv.gz",
        "nconst\tprimaryName\tbirthYear\tdeathYear\tprimaryProfession\tknownForTitles",
        (f"nm{i:07d}\tPerson {i}\t1970\t\\N\tactor\t\\N\n" for i in range(n)),
    )
    return [str(folder)]


# fmt: off
FORMATS = {"tmdb5000": (tmdb5000_files, "from marquee_datasets.tmdb5000 import import_files as run; "
                                       "s = run(Path(sys.argv[1]), Path(sys.argv[2]))"),
           "tmdb-jsonl": (jsonl_files, "from marquee_datasets.tmdb_jsonl import import_files as run; "
                                      "s = run([Path(sys.argv[1])], Path(sys.argv[2]))"),
           "imdb-tsv": (imdb_files, "from marquee_datasets.imdb_tsv import import_dir as run; "
                                    "s = run(Path(sys.argv[1]), Path(sys.argv[2]))")}
# fmt: on


def measure(fmt: str, n: int, work: Path) -> tuple[int, float, float]:
    """(rows read, seconds, peak MB) of one import of `n` generated titles, in a process of its own."""
    folder = work / f"{fmt}-{n}"
    folder.mkdir()
    inputs = FORMATS[fmt][0](folder, n)
    code = (
        "import resource, sys, time; from pathlib import Path; " + FORMATS[fmt][1] + "; "
        "print(s.read, s.seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = (
        subprocess.run(
            [sys.executable, "-c", code, inputs[0], str(folder / "catalogue")],
            check=True,
            capture_output=True,
            text=True,
        )
        .stdout.strip()
        .splitlines()[-1]
        .split()
    )
    shutil.rmtree(folder, ignore_errors=True)
    return int(out[0]), float(out[1]), int(out[2]) / 1024


MERGE = "from marquee_datasets.merge import merge; s = merge(Path(sys.argv[1]), Path(sys.argv[2]))"


def measure_merge(n: int, work: Path) -> tuple[int, float, float]:
    """(rows read, seconds, peak MB) of merging an IMDb import of `n` titles into a crawl of n/10 films
    that share their IMDb ids (the generators number both tt{i}), in a process of its own."""
    folder = work / f"merge-{n}"
    folder.mkdir()
    for fmt, size in (("imdb-tsv", n), ("tmdb-jsonl", max(n // 10, 1))):
        inputs = FORMATS[fmt][0](folder, size)
        code = "import sys; from pathlib import Path; " + FORMATS[fmt][1]
        subprocess.run([sys.executable, "-c", code, inputs[0], str(folder / fmt)], check=True, capture_output=True)
    code = (
        "import resource, sys; from pathlib import Path; " + MERGE + "; "
        "print(s.read, s.seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = (
        subprocess.run(
            [sys.executable, "-c", code, str(folder / "imdb-tsv"), str(folder / "tmdb-jsonl")],
            check=True,
            capture_output=True,
            text=True,
        )
        .stdout.strip()
        .splitlines()[-1]
        .split()
    )
    shutil.rmtree(folder, ignore_errors=True)
    return int(out[0]), float(out[1]), int(out[2]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=50_000, help="titles in the smaller input")
    parser.add_argument("--factor", type=int, default=10, help="the larger input is this many times the smaller")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="marquee-bench-imports-"))
    rates, growth = [], []
    try:
        for fmt in FORMATS:
            small = measure(fmt, args.small, work)
            large = measure(fmt, args.small * args.factor, work)
            for n, (rows, seconds, peak) in ((args.small, small), (args.small * args.factor, large)):
                print(
                    f"{fmt:11s} {n:>10,} titles: {rows:>11,} rows in {seconds:6.1f} s "
                    f"({rows / seconds:>9,.0f} rows/s), peak {peak:,.0f} MB",
                    flush=True,
                )
            rates.append(f"{fmt} {large[0] / large[1]:,.0f}")
            growth.append(f"{fmt} {large[2] / small[2]:.1f}")
            if fmt == "imdb-tsv":
                per_title = large[1] / (args.small * args.factor)
                print(
                    f"imdb-tsv at 10M titles (projected from {args.small * args.factor:,}): "
                    f"{per_title * 10_000_000 / 60:.0f} min",
                    flush=True,
                )
        merged = [measure_merge(n, work) for n in (args.small, args.small * args.factor)]
        for n, (rows, seconds, peak) in zip((args.small, args.small * args.factor), merged):
            print(
                f"merge imdb-tsv {n:,} titles into tmdb-jsonl {n // 10:,}: {rows:,} rows in {seconds:.1f} s "
                f"({rows / seconds:,.0f} rows/s), peak {peak:,.0f} MB",
                flush=True,
            )
        rates.append(f"merge {merged[1][0] / merged[1][1]:,.0f}")
        growth.append(f"merge {merged[1][2] / merged[0][2]:.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("import rows/s: " + ", ".join(rates))
    print(f"import memory growth (x{args.factor} input): " + ", ".join(growth))


if __name__ == "__main__":
    main()
