"""A release's cinema showtimes (site_gen/showtimes.py writes them, its format is there), as the
answers of /3/movie/{id}/showtimes (edge/routes/showtimes.py) read them: a film's showtimes from a
moment on, for a week, with their cinemas."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class ShowtimesIndex:
    """One release's showtimes, opened read-only (a published release never changes)."""

    def __init__(self, path: Path | str) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        columns = ("id", "name", "address", "city", "country", "latitude", "longitude", "timezone")
        self.cinemas = {
            row[0]: dict(zip(columns, row)) for row in self.con.execute(f"SELECT {', '.join(columns)} FROM cinemas")
        }

    def close(self) -> None:
        self.con.close()

    def between(self, movie_id: int, start: int, end: int) -> list[tuple]:
        """(starts_at, cinema, format, audio, subtitles) of the film's showtimes from `start` (included)
        to `end` (excluded), Unix seconds, soonest first."""
        return [
            (at, self.cinemas[cinema], fmt, audio, subtitles)
            for at, cinema, fmt, audio, subtitles in self.con.execute(
                "SELECT starts_at, cinema_id, format, audio_language, subtitle_language FROM showtimes "
                "WHERE movie_id = ? AND starts_at >= ? AND starts_at < ? ORDER BY starts_at, cinema_id",
                (movie_id, start, end),
            )
        ]

    def films(self, start: int, end: int, country: str | None) -> set[int]:
        """The films with a showtime from `start` to `end` (in `country`'s cinemas, or anywhere)."""
        cinemas = [c for c, cinema in self.cinemas.items() if country is None or cinema["country"] == country]
        if not cinemas:
            return set()
        marks = ",".join("?" * len(cinemas))
        return {
            m
            for (m,) in self.con.execute(
                f"SELECT DISTINCT movie_id FROM showtimes WHERE starts_at >= ? AND "
                f"starts_at < ? AND cinema_id IN ({marks})",
                (start, end, *cinemas),
            )
        }
