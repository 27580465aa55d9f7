"""Import IMDb's public dumps (title.basics, title.akas, title.ratings, title.crew, title.principals,
name.basics: gzipped TSV, `\\N` for null) into a catalogue (build/contract.py):
`marquee import imdb-tsv DIR`.

- Films are the titles of type movie, tvMovie and video (video: `video` true). Their id is the number
  of their tt id (tt0076759 is film 76759), so ids are stable across dumps and a re-import is an
  incremental rebuild; the tt id is kept as `imdb_id`. People likewise from nm ids.
- The primary title is the en-US title; each aka with a region becomes that region's language's
  title (its own language when the dump gives one, else the region's main one, REGION_LANGUAGES).
- Genres are TMDB's, matched by name (Sci-Fi is Science Fiction); IMDb's genres TMDB has no id for
  (Biography, Sport, ...) are counted and left out.
- title.ratings becomes the `imdb` rating source (/3/movie/{id}/ratings, OMDb's imdbRating), and
  the films' popularity, as TMDB has none here: ln(1 + votes), so the most voted come first.
- title.principals gives cast (actors, actresses, self: the first character) and crew (directors,
  writers, producers, composers, cinematographers, editors, by TMDB's departments), title.crew the
  directors and writers principals do not list.
Nothing else is invented: IMDb has no plots, posters or exact release dates (only years), so those
stay empty. Series and mini-series come with their episodes (title.episode), numbered seasons and
TMDB's TV genres by name, their principals as regular cast and crew, and each episode's directors,
writers (title.crew) and other actors (guest stars); their dates are only years, so they have none. DuckDB
reads the dumps in parallel; a row it cannot read is reported with its file, line and reason.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow as pa

from marquee_datasets import tv_vocab, vocab
from marquee_datasets.importing import ImportFailed, ImportSummary, connect, read_dump, staged, write_tables

# fmt: off
FILES = {"basics": "title.basics.tsv.gz", "akas": "title.akas.tsv.gz", "ratings": "title.ratings.tsv.gz",
         "crew": "title.crew.tsv.gz", "principals": "title.principals.tsv.gz", "names": "name.basics.tsv.gz",
         "episodes": "title.episode.tsv.gz"}
# fmt: on
# fmt: off
COLUMNS = {
    "basics": ("tconst", "titleType", "primaryTitle", "originalTitle", "isAdult", "startYear", "endYear",
               "runtimeMinutes", "genres"),
    "akas": ("titleId", "ordering", "title", "region", "language", "types", "attributes", "isOriginalTitle"),
    "ratings": ("tconst", "averageRating", "numVotes"),
    "crew": ("tconst", "directors", "writers"),
    "principals": ("tconst", "ordering", "nconst", "category", "job", "characters"),
    "names": ("nconst", "primaryName", "birthYear", "deathYear", "primaryProfession", "knownForTitles"),
    "episodes": ("tconst", "parentTconst", "seasonNumber", "episodeNumber"),
}
# fmt: on
SERIES_TYPES = ("tvSeries", "tvMiniSeries")
# IMDb's genre names as TMDB's TV genres (datasets/tv_vocab.py): TMDB pairs some of them.
# fmt: off
TV_GENRE_NAMES = {"Action": "Action & Adventure", "Adventure": "Action & Adventure", "Sci-Fi": "Sci-Fi & Fantasy",
                  "Fantasy": "Sci-Fi & Fantasy", "War": "War & Politics", "Reality-TV": "Reality", "Talk-Show": "Talk",
                  "Animation": "Animation", "Comedy": "Comedy", "Crime": "Crime", "Documentary": "Documentary",
                  "Drama": "Drama", "Family": "Family", "Mystery": "Mystery", "News": "News", "Western": "Western"}
# fmt: on
FILM_TYPES = ("movie", "tvMovie", "video")
# IMDb's genre names that are TMDB's under another name.
GENRE_NAMES = {"Sci-Fi": "Science Fiction", "Musical": "Music"}
# A region's main language, for akas that name no language of their own.
# fmt: off
REGION_LANGUAGES = {"US": "en", "GB": "en", "CA": "en", "AU": "en", "DE": "de", "AT": "de", "FR": "fr", "ES": "es",
                    "MX": "es", "AR": "es", "IT": "it", "JP": "ja", "KR": "ko", "CN": "zh", "TW": "zh", "HK": "zh",
                    "BR": "pt", "PT": "pt", "RU": "ru", "NL": "nl", "SE": "sv", "PL": "pl", "TR": "tr", "IN": "hi",
                    "DK": "da", "FI": "fi", "NO": "no", "GR": "el", "HU": "hu", "CZ": "cs", "UA": "uk"}
# fmt: on
# principals' categories: (department, job) of the crew; actors and self are cast.
# fmt: off
CREW_JOBS = {"director": ("Directing", "Director"), "writer": ("Writing", "Writer"),
             "producer": ("Production", "Producer"), "composer": ("Sound", "Original Music Composer"),
             "cinematographer": ("Camera", "Director of Photography"), "editor": ("Editing", "Editor"),
             "production_designer": ("Art", "Production Design"), "casting_director": ("Production", "Casting")}
# fmt: on
PROFESSION_DEPARTMENTS = {
    "actor": "Acting",
    "actress": "Acting",
    "self": "Acting",
    **{k: v[0] for k, v in CREW_JOBS.items()},
}


TSV = "delim = '\\t', quote = '', escape = '', nullstr = '\\N'"  # IMDb's: tabs, no quoting, \N for null


def _table(con: duckdb.DuckDBPyConnection, name: str, columns: dict[str, list]) -> None:
    """A small temp table of our mappings (genre names, regions' languages, crew jobs)."""
    con.register(f"{name}_arrow", pa.table(columns))
    con.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM {name}_arrow")
    con.unregister(f"{name}_arrow")


# fmt: off
TABLES = {
    "movies": """SELECT f.id, f.tconst AS imdb_id, coalesce(f.originalTitle, f.primaryTitle) AS original_title,
        '' AS original_language, NULL::DATE AS release_date, TRY_CAST(f.startYear AS BIGINT) AS release_year,
        coalesce(TRY_CAST(f.runtimeMinutes AS BIGINT), 0) AS runtime,
        0 AS budget, 0 AS revenue, 'Released' AS status, ln(1 + coalesce(TRY_CAST(r.numVotes AS BIGINT), 0)) AS popularity,
        0.0 AS vote_average, 0 AS vote_count, f.isAdult = '1' AS adult, f.titleType = 'video' AS video, NULL AS homepage,
        NULL AS poster_path, NULL AS backdrop_path, NULL AS collection_id, []::VARCHAR[] AS origin_country
        FROM film f LEFT JOIN ratings r ON r.tconst = f.tconst""",
    "movie_translations": """SELECT movie_id, iso_639_1, iso_3166_1, title, '' AS overview, '' AS tagline, '' AS homepage FROM (
        SELECT id AS movie_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, primaryTitle AS title, 0 AS rank, 0 AS ordering FROM film
        UNION ALL
        SELECT f.id, lower(coalesce(a.language, l.language)), a.region, a.title, 1, TRY_CAST(a.ordering AS BIGINT)
        FROM akas a JOIN film f ON f.tconst = a.titleId LEFT JOIN region_languages l ON l.region = a.region
        WHERE a.region IS NOT NULL AND coalesce(a.language, l.language) IS NOT NULL AND length(a.region) = 2
    ) QUALIFY row_number() OVER (PARTITION BY movie_id, iso_639_1, iso_3166_1 ORDER BY rank, ordering) = 1""",
    "genres": "SELECT id, name FROM tmdb_genres WHERE id IN (SELECT genre_id FROM film_genres)",
    "movie_genres": "SELECT movie_id, genre_id, ord FROM film_genres",
    "movie_ratings": """SELECT f.id AS movie_id, 'imdb' AS source, TRY_CAST(r.averageRating AS DOUBLE) AS value,
        TRY_CAST(r.numVotes AS BIGINT) AS votes FROM film f JOIN ratings r ON r.tconst = f.tconst
        WHERE TRY_CAST(r.averageRating AS DOUBLE) IS NOT NULL""",
    "movie_external_ids": """SELECT id AS movie_id, NULL AS wikidata_id, NULL AS facebook_id, NULL AS instagram_id,
        NULL AS twitter_id, NULL AS kinopoisk_id FROM film""",
    "cast": """SELECT f.id AS movie_id, TRY_CAST(substr(p.nconst, 3) AS BIGINT) AS person_id,
        p.tconst || '-' || p.nconst || '-' || p.ordering AS credit_id, TRY_CAST(p.ordering AS BIGINT) AS cast_id,
        coalesce(TRY(from_json(p.characters, '["VARCHAR"]'))[1], '') AS character,
        row_number() OVER (PARTITION BY f.id ORDER BY TRY_CAST(p.ordering AS BIGINT)) - 1 AS "order"
        FROM principals p JOIN film f ON f.tconst = p.tconst JOIN person_ids n ON n.nconst = p.nconst
        WHERE p.category IN ('actor', 'actress', 'self')""",
    "crew": """SELECT movie_id, person_id, credit_id, department, job FROM (
        SELECT f.id AS movie_id, n.id AS person_id, p.tconst || '-' || p.nconst || '-' || p.ordering AS credit_id,
            j.department, j.job, 0 AS rank FROM principals p JOIN film f ON f.tconst = p.tconst
            JOIN person_ids n ON n.nconst = p.nconst JOIN crew_jobs j ON j.category = p.category
        UNION ALL
        SELECT f.id, n.id, c.tconst || '-' || n.nconst || '-' || x.kind, x.department, x.job, 1
        FROM crew c JOIN film f ON f.tconst = c.tconst,
            unnest([{'kind': 'd', 'list': c.directors, 'department': 'Directing', 'job': 'Director'},
                    {'kind': 'w', 'list': c.writers, 'department': 'Writing', 'job': 'Writer'}]) AS t(x),
            unnest(string_split(coalesce(x.list, ''), ',')) AS u(nconst) JOIN person_ids n ON n.nconst = u.nconst
    ) QUALIFY row_number() OVER (PARTITION BY movie_id, person_id, job ORDER BY rank) = 1""",
    # Series and their episodes (title.episode), seasons numbered as the dump numbers them: a season's id
    # is its series' number times 1,000 plus its number, stable across dumps.
    "tv_series": """SELECT s.id, s.primaryTitle AS name, coalesce(s.originalTitle, s.primaryTitle) AS original_name,
        '' AS original_language, '' AS overview, '' AS tagline,
        CASE WHEN s.endYear IS NULL THEN 'Returning Series' ELSE 'Ended' END AS status,
        CASE WHEN s.titleType = 'tvMiniSeries' THEN 'Miniseries' ELSE 'Scripted' END AS type, s.endYear IS NULL AS in_production,
        '' AS homepage, ln(1 + coalesce(TRY_CAST(r.numVotes AS BIGINT), 0)) AS popularity, 0.0 AS vote_average, 0 AS vote_count,
        s.isAdult = '1' AS adult, NULL AS poster_path, NULL AS backdrop_path, []::VARCHAR[] AS origin_country,
        []::VARCHAR[] AS languages, CASE WHEN TRY_CAST(s.runtimeMinutes AS BIGINT) > 0 THEN [TRY_CAST(s.runtimeMinutes AS BIGINT)]
        ELSE []::BIGINT[] END AS episode_run_time, s.tconst AS imdb_id, NULL AS tvdb_id, NULL AS wikidata_id, NULL AS tvrage_id,
        NULL AS facebook_id, NULL AS instagram_id, NULL AS twitter_id, NULL::DATE AS first_air_date, NULL::DATE AS last_air_date,
        TRY_CAST(s.startYear AS BIGINT) AS first_air_year, TRY_CAST(s.endYear AS BIGINT) AS last_air_year,
        NULL AS last_episode_id, NULL AS next_episode_id FROM shows s LEFT JOIN ratings r ON r.tconst = s.tconst""",
    "series_translations": """SELECT id AS series_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, primaryTitle AS name,
        '' AS overview, '' AS tagline, '' AS homepage FROM shows""",
    "tv_genres": "SELECT id, name FROM tmdb_tv_genres WHERE id IN (SELECT genre_id FROM show_genres)",
    "series_genres": "SELECT series_id, genre_id, ord FROM show_genres",
    "tv_seasons": """SELECT series_id * 1000 + season_number AS id, series_id, season_number, 'Season ' || season_number AS name,
        '' AS overview, NULL::DATE AS air_date, NULL AS poster_path, 0.0 AS vote_average, '' AS object_id, NULL AS tvdb_id,
        NULL AS wikidata_id FROM (SELECT DISTINCT series_id, season_number FROM numbered_episodes)""",
    "tv_episodes": """SELECT id, series_id, season_number, episode_number, name, '' AS overview, NULL::DATE AS air_date,
        air_year, runtime, NULL AS still_path, '' AS production_code, 0.0 AS vote_average, 0 AS vote_count, 'standard' AS episode_type,
        tconst AS imdb_id, NULL AS tvdb_id FROM numbered_episodes""",
    "episode_translations": """SELECT id AS episode_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, name, '' AS overview
        FROM numbered_episodes""",
    # The series' principals are its regulars, in every numbered season; an episode's directors and
    # writers (title.crew) are its crew, and the actors its principals list beyond the regulars its guests.
    "series_cast": """SELECT s.id AS series_id, n.id AS person_id, p.tconst || '-' || p.nconst || '-' || p.ordering AS credit_id,
        coalesce(TRY(from_json(p.characters, '["VARCHAR"]'))[1], '') AS character,
        row_number() OVER (PARTITION BY s.id ORDER BY TRY_CAST(p.ordering AS BIGINT)) - 1 AS "order",
        coalesce(r.first_season, 1) AS first_season, coalesce(r.last_season, 1) AS last_season
        FROM principals p JOIN shows s ON s.tconst = p.tconst JOIN person_ids n ON n.nconst = p.nconst
        LEFT JOIN (SELECT series_id, min(season_number) AS first_season, max(season_number) AS last_season
                   FROM numbered_episodes WHERE season_number > 0 GROUP BY 1) r ON r.series_id = s.id
        WHERE p.category IN ('actor', 'actress', 'self')
        QUALIFY row_number() OVER (PARTITION BY s.id, n.id ORDER BY TRY_CAST(p.ordering AS BIGINT)) = 1""",
    "series_crew": """SELECT s.id AS series_id, n.id AS person_id, p.tconst || '-' || p.nconst || '-' || p.ordering AS credit_id,
        j.department, j.job FROM principals p JOIN shows s ON s.tconst = p.tconst JOIN person_ids n ON n.nconst = p.nconst
        JOIN crew_jobs j ON j.category = p.category
        QUALIFY row_number() OVER (PARTITION BY s.id, n.id, j.job ORDER BY TRY_CAST(p.ordering AS BIGINT)) = 1""",
    "episode_crew": """SELECT e.id AS episode_id, e.series_id, e.season_number, e.episode_number, n.id AS person_id,
        c.tconst || '-' || n.nconst || '-' || x.kind AS credit_id, x.department, x.job
        FROM crew c JOIN numbered_episodes e ON e.tconst = c.tconst,
            unnest([{'kind': 'd', 'list': c.directors, 'department': 'Directing', 'job': 'Director'},
                    {'kind': 'w', 'list': c.writers, 'department': 'Writing', 'job': 'Writer'}]) AS t(x),
            unnest(string_split(coalesce(x.list, ''), ',')) AS u(nconst) JOIN person_ids n ON n.nconst = u.nconst
        QUALIFY row_number() OVER (PARTITION BY e.id, n.id, x.job) = 1""",
    "episode_guest_stars": """SELECT e.id AS episode_id, e.series_id, e.season_number, e.episode_number, n.id AS person_id,
        p.tconst || '-' || p.nconst || '-' || p.ordering AS credit_id,
        coalesce(TRY(from_json(p.characters, '["VARCHAR"]'))[1], '') AS character,
        row_number() OVER (PARTITION BY e.id ORDER BY TRY_CAST(p.ordering AS BIGINT)) - 1 AS "order"
        FROM principals p JOIN numbered_episodes e ON e.tconst = p.tconst JOIN person_ids n ON n.nconst = p.nconst
        JOIN shows s ON s.id = e.series_id LEFT JOIN principals r ON r.tconst = s.tconst AND r.nconst = p.nconst
        WHERE p.category IN ('actor', 'actress', 'self') AND r.nconst IS NULL""",
    "people": """SELECT n.id, m.primaryName AS name, 0 AS gender,
        coalesce(d.department, '') AS known_for_department, 0.0 AS popularity, NULL AS profile_path, false AS adult,
        m.nconst AS imdb_id, NULL::DATE AS birthday, NULL::DATE AS deathday, NULL AS place_of_birth, '' AS biography,
        []::VARCHAR[] AS also_known_as FROM person_ids n JOIN names m ON m.nconst = n.nconst
        LEFT JOIN profession_departments d ON d.profession = split_part(m.primaryProfession, ',', 1)""",
}
# fmt: on


def import_dir(folder: Path, target: Path, status: Callable[[str], None] | None = None) -> ImportSummary:
    started = time.perf_counter()
    summary = ImportSummary(status=status)
    folder = Path(folder)
    if not (folder / FILES["basics"]).is_file():
        raise ImportFailed(f"{folder} has no {FILES['basics']}")
    with staged(target) as staging, contextlib.closing(connect(staging)) as con:
        for name, file in FILES.items():
            if (folder / file).is_file():
                summary.say(f"reading {file}")
                read_dump(con, name, folder / file, COLUMNS[name], summary, TSV)
            else:  # an optional dump left out: its table, empty
                con.execute(
                    f"CREATE TEMP TABLE {name} AS SELECT * FROM (SELECT {', '.join(f'NULL::VARCHAR AS {c}' for c in COLUMNS[name])}) WHERE false"
                )
        con.execute(f"""CREATE TEMP TABLE film AS SELECT TRY_CAST(substr(tconst, 3) AS BIGINT) AS id, * FROM basics
            WHERE titleType IN {FILM_TYPES} AND tconst LIKE 'tt%' AND TRY_CAST(substr(tconst, 3) AS BIGINT) IS NOT NULL
            AND coalesce(primaryTitle, '') <> ''
            QUALIFY row_number() OVER (PARTITION BY TRY_CAST(substr(tconst, 3) AS BIGINT)) = 1""")
        con.execute(f"""CREATE TEMP TABLE shows AS SELECT TRY_CAST(substr(tconst, 3) AS BIGINT) AS id, * FROM basics
            WHERE titleType IN {SERIES_TYPES} AND TRY_CAST(substr(tconst, 3) AS BIGINT) IS NOT NULL
            AND coalesce(primaryTitle, '') <> '' QUALIFY row_number() OVER (PARTITION BY tconst) = 1""")
        con.execute("""CREATE TEMP TABLE numbered_episodes AS SELECT TRY_CAST(substr(e.tconst, 3) AS BIGINT) AS id, s.id AS series_id,
                TRY_CAST(e.seasonNumber AS BIGINT) AS season_number, TRY_CAST(e.episodeNumber AS BIGINT) AS episode_number,
                b.primaryTitle AS name, TRY_CAST(b.runtimeMinutes AS BIGINT) AS runtime, TRY_CAST(b.startYear AS BIGINT) AS air_year,
                e.tconst
            FROM episodes e JOIN shows s ON s.tconst = e.parentTconst JOIN basics b ON b.tconst = e.tconst
            WHERE TRY_CAST(e.seasonNumber AS BIGINT) BETWEEN 0 AND 999 AND TRY_CAST(e.episodeNumber AS BIGINT) IS NOT NULL
            QUALIFY row_number() OVER (PARTITION BY s.id, season_number, episode_number ORDER BY e.tconst) = 1""")
        unnumbered = con.execute(
            "SELECT count(*) FROM episodes WHERE parentTconst IN (SELECT tconst FROM shows) AND "
            "tconst NOT IN (SELECT tconst FROM numbered_episodes)"
        ).fetchall()[0][0]
        if unnumbered:
            summary.notes.append(
                f"{unnumbered:,} episodes without a season and episode number (or a repeat of one) left out"
            )
        _table(con, "tmdb_genres", {"id": [gid for gid, _ in vocab.GENRES], "name": [name for _, name in vocab.GENRES]})
        names = {**{name: name for _, name in vocab.GENRES}, **GENRE_NAMES}
        _table(con, "genre_names", {"imdb": list(names), "tmdb": list(names.values())})
        con.execute("""CREATE TEMP TABLE film_genres AS SELECT f.id AS movie_id, g.id AS genre_id,
                row_number() OVER (PARTITION BY f.id ORDER BY u.o) - 1 AS ord
            FROM film f, unnest(string_split(coalesce(f.genres, ''), ',')) WITH ORDINALITY AS u(name, o)
            JOIN genre_names n ON n.imdb = u.name JOIN tmdb_genres g ON g.name = n.tmdb""")
        unmatched = con.execute("""SELECT count(*) FROM film f, unnest(string_split(coalesce(f.genres, ''), ',')) AS u(name)
            WHERE u.name <> '' AND u.name NOT IN (SELECT imdb FROM genre_names)""").fetchall()[0][0]
        if unmatched:
            summary.notes.append(f"{unmatched:,} genres of films TMDB has no id for (Biography, Sport, ...) left out")
        _table(
            con,
            "tmdb_tv_genres",
            {"id": [gid for gid, _ in tv_vocab.TV_GENRES], "name": [n for _, n in tv_vocab.TV_GENRES]},
        )
        _table(con, "tv_genre_names", {"imdb": list(TV_GENRE_NAMES), "tmdb": list(TV_GENRE_NAMES.values())})
        con.execute("""CREATE TEMP TABLE show_genres AS SELECT series_id, genre_id, row_number() OVER (PARTITION BY series_id
                ORDER BY first) - 1 AS ord FROM (SELECT s.id AS series_id, g.id AS genre_id, min(u.o) AS first
            FROM shows s, unnest(string_split(coalesce(s.genres, ''), ',')) WITH ORDINALITY AS u(name, o)
            JOIN tv_genre_names n ON n.imdb = u.name JOIN tmdb_tv_genres g ON g.name = n.tmdb GROUP BY 1, 2)""")
        _table(con, "region_languages", {"region": list(REGION_LANGUAGES), "language": list(REGION_LANGUAGES.values())})
        _table(
            con,
            "crew_jobs",
            {
                "category": list(CREW_JOBS),
                "department": [d for d, _ in CREW_JOBS.values()],
                "job": [j for _, j in CREW_JOBS.values()],
            },
        )
        _table(
            con,
            "profession_departments",
            {"profession": list(PROFESSION_DEPARTMENTS), "department": list(PROFESSION_DEPARTMENTS.values())},
        )
        # The people a film, series or episode credits and the dump names: their ids are their nm numbers.
        con.execute("""CREATE TEMP TABLE credited AS SELECT tconst FROM film UNION ALL SELECT tconst FROM shows
            UNION ALL SELECT tconst FROM numbered_episodes""")
        con.execute("""CREATE TEMP TABLE person_ids AS SELECT DISTINCT TRY_CAST(substr(nconst, 3) AS BIGINT) AS id, nconst
            FROM names WHERE nconst LIKE 'nm%' AND TRY_CAST(substr(nconst, 3) AS BIGINT) IS NOT NULL
            AND coalesce(primaryName, '') <> '' AND (nconst IN (SELECT nconst FROM principals WHERE tconst IN
                (SELECT tconst FROM credited)) OR nconst IN (SELECT unnest(string_split(coalesce(directors, '') || ','
                || coalesce(writers, ''), ',')) FROM crew WHERE tconst IN (SELECT tconst FROM credited)))""")
        write_tables(staging, TABLES, summary, con, ids="imdb")
    summary.seconds = time.perf_counter() - started
    return summary
