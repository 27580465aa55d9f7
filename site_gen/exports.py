"""The daily ID export files, in TMDB's format, beside the release's pack: `exports/<kind>_ids_MM_DD_YYYY.json.gz`,
gzipped JSON lines, one an entity, served by the image host at `/p/exports/` as files.tmdb.org
serves TMDB's (nginx/marquee.conf.j2). Clients that sync a whole catalogue read them to learn every
id; they are dated the day the release was built and published with it.

The lines are TMDB's: films `{"adult","id","original_title","popularity","video"}`, series
`{"id","original_name","popularity"}`, people `{"adult","id","name","popularity"}`, collections,
keywords, networks and companies `{"id","name"}`.
"""

from __future__ import annotations

import gzip
import os
from datetime import UTC, date, datetime
from pathlib import Path

import duckdb
import orjson

from site_gen.documents import tables_read

EXPORTS = "exports"
# file stem -> the SQL of its lines' fields, in TMDB's key order
# fmt: off
FILES = {
    "movie_ids": "SELECT adult, id, original_title, popularity, video FROM movies ORDER BY id",
    "tv_series_ids": "SELECT id, original_name, popularity FROM tv_series ORDER BY id",
    "person_ids": "SELECT adult, id, name, popularity FROM people ORDER BY id",
    "collection_ids": "SELECT id, name FROM collections ORDER BY id",
    "keyword_ids": "SELECT id, name FROM keywords ORDER BY id",
    "tv_network_ids": "SELECT id, name FROM networks ORDER BY id",
    "production_company_ids": "SELECT id, name FROM companies ORDER BY id",
}
# fmt: on
BATCH = 50_000


def file_name(stem: str, day: date) -> str:
    return f"{stem}_{day:%m_%d_%Y}.json.gz"


def for_release(
    con: duckdb.DuckDBPyConnection,
    release_dir: Path,
    day: date | None = None,
    previous: Path | None = None,
    reloaded: set[str] | None = None,
) -> int:
    """Write every export file of the release (dated `day`, default today in UTC); the lines written.

    An update (`previous`, and `reloaded`, the tables its load made again) links the previous
    release's file of each export whose query reads none of them, under this release's date: the
    same lines (the gzip is the same bytes too, mtime 0). At 1M films the files took 9 s of a
    rebuild after a film was renamed, which changes none of them."""
    day = day or datetime.now(UTC).date()
    folder = Path(release_dir) / EXPORTS
    folder.mkdir(exist_ok=True)
    lines = 0
    for stem, query in FILES.items():
        kept = (
            sorted((Path(previous) / EXPORTS).glob(file_name(stem, day).replace(f"{day:%m_%d_%Y}", "*")))
            if previous is not None and reloaded is not None
            else []
        )
        if len(kept) == 1 and not tables_read(con, query, stem) & reloaded:
            os.link(kept[0], folder / file_name(stem, day))
            continue
        cursor = con.execute(query)
        names = [d[0] for d in cursor.description]
        # Level 6 as gzip's default; mtime 0 so that the same catalogue gives the same bytes.
        with gzip.GzipFile(folder / file_name(stem, day), "wb", compresslevel=6, mtime=0) as out:
            while rows := cursor.fetchmany(BATCH):
                out.write(b"".join(orjson.dumps(dict(zip(names, row))) + b"\n" for row in rows))
                lines += len(rows)
    return lines
