"""Cinemas and their showtimes for the synthetic catalogue (/3/movie/{id}/showtimes).

A model, not noise: each country of CINEMA_CITIES has cinemas in its cities (more for a larger
catalogue), each with its address, coordinates near the city's and the city's time zone. A cinema
shows some of the films that are in cinemas in its country on the reference date (a theatrical
release there, types 2 and 3, in the 6 weeks before it; in a small catalogue at least the latest
few), from the day before the reference date for
SCHEDULE_DAYS days: each film two to four times a day at the cinema's usual local start times, in 2D,
sometimes 3D or IMAX, in the film's original language with subtitles in the country's language, or
dubbed into it. Start times are stored in UTC (`starts_at`); the cinema's time zone gives the local
time. `generate(today=...)` makes them from that day (after moving every other date to it), so a
sample made today has showtimes for the next two weeks at the cinemas' usual local times.

Tables: cinemas(id, name, address, city, iso_3166_1, latitude, longitude, timezone) and
showtimes(cinema_id, movie_id, starts_at, format, audio_language, subtitle_language).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import numpy as np
import pyarrow as pa

from marquee_datasets.columns import rng_for

TABLES = ("cinemas", "showtimes")
SCHEDULE_DAYS = 14
NOW_PLAYING_DAYS = 42
MIN_FILMS = 4
# country -> (its language, [(city, latitude, longitude, time zone)])
# fmt: off
CINEMA_CITIES: dict[str, tuple[str, list[tuple[str, float, float, str]]]] = {
    "US": ("en", [("New York", 40.7128, -74.0060, "America/New_York"), ("Chicago", 41.8781, -87.6298, "America/Chicago"),
                  ("Los Angeles", 34.0522, -118.2437, "America/Los_Angeles")]),
    "GB": ("en", [("London", 51.5074, -0.1278, "Europe/London"), ("Manchester", 53.4808, -2.2426, "Europe/London")]),
    "DE": ("de", [("Berlin", 52.5200, 13.4050, "Europe/Berlin"), ("München", 48.1351, 11.5820, "Europe/Berlin")]),
    "FR": ("fr", [("Paris", 48.8566, 2.3522, "Europe/Paris"), ("Lyon", 45.7640, 4.8357, "Europe/Paris")]),
    "ES": ("es", [("Madrid", 40.4168, -3.7038, "Europe/Madrid"), ("Barcelona", 41.3874, 2.1686, "Europe/Madrid")]),
    "IT": ("it", [("Roma", 41.9028, 12.4964, "Europe/Rome"), ("Milano", 45.4642, 9.1900, "Europe/Rome")]),
    "JP": ("ja", [("Tokyo", 35.6762, 139.6503, "Asia/Tokyo"), ("Osaka", 34.6937, 135.5023, "Asia/Tokyo")]),
    "KR": ("ko", [("Seoul", 37.5665, 126.9780, "Asia/Seoul")]),
    "BR": ("pt", [("São Paulo", -23.5505, -46.6333, "America/Sao_Paulo"), ("Rio de Janeiro", -22.9068, -43.1729,
                                                                            "America/Sao_Paulo")]),
    "IN": ("hi", [("Mumbai", 19.0760, 72.8777, "Asia/Kolkata"), ("Delhi", 28.7041, 77.1025, "Asia/Kolkata")]),
    "AU": ("en", [("Sydney", -33.8688, 151.2093, "Australia/Sydney")]),
}
# fmt: on
CHAINS = ("Cineplex", "Lumière", "Odeon", "Star Cinema", "Capitol", "Roxy", "Paradiso", "Metropol")
STREETS = ("Main Street", "Market Square", "Station Road", "Park Avenue", "Harbour Lane", "Central Plaza")
START_TIMES = ((13, 0), (15, 30), (17, 45), (20, 15), (22, 40))  # a cinema's usual local start times
FORMATS = ("2D", "2D", "2D", "2D", "3D", "IMAX")


def showtime_tables(
    movies: pa.Table, release_dates: pa.Table, seed: int, reference: np.datetime64
) -> dict[str, pa.Table]:
    rng = rng_for(seed, "showtimes")
    per_city = max(1, min(4, len(movies) // 1000 + 1))
    cinemas = []
    for country, (_, cities) in CINEMA_CITIES.items():
        for city, lat, lon, zone in cities:
            for _ in range(per_city):
                number = len(cinemas) + 1
                cinemas.append(
                    {
                        "id": number,
                        "name": f"{CHAINS[int(rng.integers(len(CHAINS)))]} {city}"
                        f"{'' if per_city == 1 else ' ' + str(number)}",
                        "address": f"{int(rng.integers(1, 300))} {STREETS[int(rng.integers(len(STREETS)))]}",
                        "city": city,
                        "iso_3166_1": country,
                        "latitude": round(lat + float(rng.normal(0, 0.03)), 5),
                        "longitude": round(lon + float(rng.normal(0, 0.03)), 5),
                        "timezone": zone,
                    }
                )
    playing = _now_playing(movies, release_dates, reference)
    language = dict(zip(movies.column("id").to_pylist(), movies.column("original_language").to_pylist()))
    first_day = datetime.fromisoformat(str(reference)) - timedelta(days=1)
    rows: dict[str, list] = {
        "cinema_id": [],
        "movie_id": [],
        "starts_at": [],
        "format": [],
        "audio_language": [],
        "subtitle_language": [],
    }
    for cinema in cinemas:
        films = playing.get(cinema["iso_3166_1"], [])
        if not films:
            continue
        local = CINEMA_CITIES[cinema["iso_3166_1"]][0]
        zone = ZoneInfo(cinema["timezone"])
        shown = rng.choice(films, size=min(len(films), int(rng.integers(4, 9))), replace=False)
        for film in map(int, shown):
            times = sorted(rng.choice(len(START_TIMES), size=int(rng.integers(2, 5)), replace=False))
            fmt = FORMATS[int(rng.integers(len(FORMATS)))]
            original = language.get(film) or "en"
            dubbed = original != local and rng.random() < 0.5
            for day in range(SCHEDULE_DAYS):
                date = first_day + timedelta(days=day)
                for slot in times:
                    hour, minute = START_TIMES[slot]
                    start = datetime(date.year, date.month, date.day, hour, minute, tzinfo=zone)
                    rows["cinema_id"].append(cinema["id"])
                    rows["movie_id"].append(film)
                    rows["starts_at"].append(int(start.timestamp()))
                    rows["format"].append(fmt)
                    rows["audio_language"].append(local if dubbed else original)
                    rows["subtitle_language"].append(None if dubbed or original == local else local)
    return {
        "cinemas": pa.Table.from_pylist(
            cinemas,
            pa.schema(
                [
                    ("id", pa.int64()),
                    ("name", pa.string()),
                    ("address", pa.string()),
                    ("city", pa.string()),
                    ("iso_3166_1", pa.string()),
                    ("latitude", pa.float64()),
                    ("longitude", pa.float64()),
                    ("timezone", pa.string()),
                ]
            ),
        ),
        "showtimes": pa.table(
            {
                "cinema_id": pa.array(rows["cinema_id"], pa.int64()),
                "movie_id": pa.array(rows["movie_id"], pa.int64()),
                "starts_at": pa.array(np.array(rows["starts_at"], dtype="datetime64[s]"), pa.timestamp("s", tz="UTC")),
                "format": pa.array(rows["format"], pa.string()),
                "audio_language": pa.array(rows["audio_language"], pa.string()),
                "subtitle_language": pa.array(rows["subtitle_language"], pa.string()),
            }
        ),
    }


def _now_playing(movies: pa.Table, release_dates: pa.Table, reference: np.datetime64) -> dict[str, list[int]]:
    """Films in cinemas in each country on the reference date (not adult): a theatrical release
    there in the NOW_PLAYING_DAYS before it, or, where that is fewer than MIN_FILMS (a small
    catalogue), the MIN_FILMS latest theatrical releases there up to it."""
    adult = set(np.asarray(movies.column("id"))[np.asarray(movies.column("adult"), dtype=bool)].tolist())
    days = np.asarray(release_dates.column("release_date").cast(pa.timestamp("s"))).astype("datetime64[D]")
    kind = np.asarray(release_dates.column("type"))
    movie_ids = np.asarray(release_dates.column("movie_id"))
    countries = np.asarray(release_dates.column("iso_3166_1").to_pylist(), object)
    ref = reference.astype("datetime64[D]")
    out: dict[str, list[int]] = {}
    for country in CINEMA_CITIES:
        here = np.isin(kind, (2, 3)) & (days <= ref) & (countries == country)
        here &= ~np.isin(movie_ids, list(adult))
        order = np.argsort(-days[here].astype(np.int64), kind="stable")  # the latest first
        films, recent = movie_ids[here][order], days[here][order]
        playing = list(dict.fromkeys(films[recent > ref - np.timedelta64(NOW_PLAYING_DAYS, "D")].tolist()))
        if len(playing) < MIN_FILMS:
            playing = list(dict.fromkeys(films.tolist()))[:MIN_FILMS]
        if playing:
            out[country] = sorted(playing)
    return out
