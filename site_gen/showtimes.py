"""The release's cinema showtimes, `showtimes.sqlite` (marquee/artefacts.py), from the catalogue's
optional `cinemas` and `showtimes` tables (marquee_datasets/showtimes.py makes them); without them
the artefact is empty and every film shows nowhere. edge/showtimes.py reads it: which showtimes are
still to come is decided when asked, not here.

Format (SQLite, written once, opened read-only and immutable):
- `cinemas(id, name, address, city, country, latitude, longitude, timezone)`;
- `showtimes(movie_id, starts_at, cinema_id, format, audio_language, subtitle_language)`, `starts_at`
  in Unix seconds (UTC), indexed by (movie_id, starts_at): a film's next week is one range read.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import duckdb

from marquee.artefacts import SHOWTIMES

SCHEMA = """
CREATE TABLE cinemas(id INTEGER PRIMARY KEY, name TEXT, address TEXT, city TEXT, country TEXT, latitude REAL,
                     longitude REAL, timezone TEXT);
CREATE TABLE showtimes(movie_id INTEGER, starts_at INTEGER, cinema_id INTEGER, format TEXT, audio_language TEXT,
                       subtitle_language TEXT);
"""


def for_release(con: duckdb.DuckDBPyConnection, catalogue_dir: Path, release_dir: Path) -> int:
    """Write the release's showtimes; the number written."""
    target = Path(release_dir) / SHOWTIMES
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    cinemas, showtimes = (Path(catalogue_dir) / f"{t}.parquet" for t in ("cinemas", "showtimes"))
    out = sqlite3.connect(partial)
    count = 0
    try:
        out.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
        if cinemas.is_file() and showtimes.is_file():
            out.executemany(
                "INSERT INTO cinemas VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                con.execute(
                    "SELECT id, name, address, city, iso_3166_1, latitude, longitude, timezone FROM read_parquet(?) "
                    "ORDER BY id",
                    [str(cinemas)],
                ).fetchall(),
            )
            rows = con.execute(
                "SELECT s.movie_id, epoch(s.starts_at)::BIGINT, s.cinema_id, s.format, s.audio_language, "
                "s.subtitle_language FROM read_parquet(?) s JOIN movies m ON m.id = s.movie_id "
                "ORDER BY 1, 2, 3",
                [str(showtimes)],
            ).fetchall()
            out.executemany("INSERT INTO showtimes VALUES (?, ?, ?, ?, ?, ?)", rows)
            count = len(rows)
        out.execute("CREATE INDEX showtimes_movie ON showtimes(movie_id, starts_at)")
        out.commit()
    finally:
        out.close()
    partial.replace(target)
    return count
