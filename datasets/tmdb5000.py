"""Import the TMDB 5000 files (Kaggle's tmdb_5000_movies.csv, and tmdb_5000_credits.csv when given)
into a catalogue (build/contract.py), the way `marquee import tmdb5000` runs it.

DuckDB reads the CSV (gzipped or not) in parallel and parses its JSON columns (genres, keywords,
production_companies, production_countries, spoken_languages; cast and crew in the credits) with
`from_json`, so memory stays flat and Python touches no row. A row DuckDB cannot read (a broken
quote, a truncated line, a value of the wrong type) is skipped and reported with its line and
reason; a row without an id or a title is skipped too. Nothing is invented: what the files do not
hold (images, IMDb ids, translations into other languages, TV) is empty or null, and the build
answers those paths with nothing to show; reference lists TMDB serves whatever the titles (its
certification systems) are the generator's. The English title, overview and tagline become the
`en-US` translation, as TMDB stores them.

The catalogue is written into a new folder beside the target and renamed over it at the end, so a
failed import leaves the previous catalogue as it was.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from marquee_datasets.importing import ImportSummary, connect, read_dump, reference_rows, staged, write_tables

# Where the JSON columns' lists go, and how DuckDB parses each.
_PAIRS = '[{"id": "BIGINT", "name": "VARCHAR"}]'
_COUNTRIES = '[{"iso_3166_1": "VARCHAR", "name": "VARCHAR"}]'
_LANGUAGES = '[{"iso_639_1": "VARCHAR", "name": "VARCHAR"}]'
_CAST = (
    '[{"cast_id": "BIGINT", "character": "VARCHAR", "credit_id": "VARCHAR", "gender": "BIGINT", '
    '"id": "BIGINT", "name": "VARCHAR", "order": "BIGINT"}]'
)
_CREW = (
    '[{"credit_id": "VARCHAR", "department": "VARCHAR", "gender": "BIGINT", "id": "BIGINT", '
    '"job": "VARCHAR", "name": "VARCHAR"}]'
)


CSV = "delim = ',', quote = '\"', escape = '\"', max_line_size = 10000000"  # Kaggle's CSV: quoted JSON inside


# fmt: off
MOVIE_COLUMNS = ("budget", "genres", "homepage", "id", "keywords", "original_language", "original_title", "overview",
                 "popularity", "production_companies", "production_countries", "release_date", "revenue", "runtime",
                 "spoken_languages", "status", "tagline", "title", "vote_average", "vote_count")
# fmt: on
CREDIT_COLUMNS = ("movie_id", "title", "cast", "crew")

# A movie row that cannot be imported: no id, no title, or a JSON column that does not parse.
# fmt: off
UNUSABLE = " OR ".join(["id IS NULL", "coalesce(title, '') = ''", *(f"({column} <> '' AND {parsed} IS NULL)" for column, parsed in (
    ("genres", "genre_list"), ("keywords", "keyword_list"), ("production_companies", "company_list"),
    ("production_countries", "country_list"), ("spoken_languages", "language_list")))])
# fmt: on

# Each table the files fill, as SQL over the temp table `m` (the movies read) and `c` (the credits).
# fmt: off
MOVIE_SQL = {
    "movies": """SELECT id, NULL AS imdb_id, original_title, nullif(original_language, '') AS original_language,
        TRY_CAST(release_date AS DATE) AS release_date, NULL AS release_year, coalesce(TRY_CAST(TRY_CAST(runtime AS DOUBLE) AS BIGINT), 0) AS runtime,
        coalesce(TRY_CAST(budget AS BIGINT), 0) AS budget, coalesce(TRY_CAST(revenue AS BIGINT), 0) AS revenue,
        coalesce(nullif(status, ''), 'Released') AS status, coalesce(TRY_CAST(popularity AS DOUBLE), 0) AS popularity,
        coalesce(TRY_CAST(vote_average AS DOUBLE), 0) AS vote_average, coalesce(TRY_CAST(vote_count AS BIGINT), 0) AS vote_count,
        false AS adult, false AS video, nullif(homepage, '') AS homepage, NULL AS poster_path, NULL AS backdrop_path,
        NULL AS collection_id, []::VARCHAR[] AS origin_country FROM m""",
    "movie_translations": """SELECT id AS movie_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, title,
        coalesce(overview, '') AS overview, coalesce(tagline, '') AS tagline, coalesce(homepage, '') AS homepage FROM m""",
    "genres": "SELECT DISTINCT ON (g.id) g.id, g.name FROM m, unnest(m.genre_list) AS t(g) ORDER BY g.id",
    "movie_genres": "SELECT m.id AS movie_id, g.id AS genre_id, o - 1 AS ord FROM m, unnest(m.genre_list) WITH ORDINALITY AS t(g, o)",
    "keywords": "SELECT DISTINCT ON (k.id) k.id, k.name FROM m, unnest(m.keyword_list) AS t(k) ORDER BY k.id",
    "movie_keywords": "SELECT m.id AS movie_id, k.id AS keyword_id, o - 1 AS ord FROM m, unnest(m.keyword_list) WITH ORDINALITY AS t(k, o)",
    "companies": """SELECT DISTINCT ON (c.id) c.id, c.name, NULL AS logo_path, '' AS origin_country, '' AS headquarters,
        '' AS homepage, '' AS description, NULL AS parent_company_id FROM m, unnest(m.company_list) AS t(c) ORDER BY c.id""",
    "movie_companies": "SELECT m.id AS movie_id, c.id AS company_id, o - 1 AS ord FROM m, unnest(m.company_list) WITH ORDINALITY AS t(c, o)",
    "countries": """SELECT DISTINCT ON (c.iso_3166_1) c.iso_3166_1, c.name AS english_name, c.name AS native_name
        FROM m, unnest(m.country_list) AS t(c) ORDER BY c.iso_3166_1""",
    "movie_countries": """SELECT m.id AS movie_id, c.iso_3166_1, o - 1 AS ord
        FROM m, unnest(m.country_list) WITH ORDINALITY AS t(c, o)""",
    "languages": """SELECT DISTINCT ON (l.iso_639_1) l.iso_639_1, coalesce(r.english_name, l.name) AS english_name,
        l.name FROM m, unnest(m.language_list) AS t(l) LEFT JOIN reference_languages r ON r.iso_639_1 = l.iso_639_1
        ORDER BY l.iso_639_1""",
    "movie_spoken_languages": """SELECT m.id AS movie_id, l.iso_639_1, o - 1 AS ord
        FROM m, unnest(m.language_list) WITH ORDINALITY AS t(l, o)""",
}
# fmt: on
# fmt: off
CREDIT_SQL = {
    "people": """SELECT p.id, arg_min(p.name, p.name) AS name, coalesce(max(p.gender), 0) AS gender,
        arg_max(p.department, p.department) AS known_for_department, 0.0 AS popularity, NULL AS profile_path,
        false AS adult, NULL AS imdb_id, NULL::DATE AS birthday, NULL::DATE AS deathday, NULL AS place_of_birth,
        '' AS biography, []::VARCHAR[] AS also_known_as FROM (
            SELECT x.id, x.name, x.gender, 'Acting' AS department FROM c, unnest(c.cast_list) AS t(x)
            UNION ALL SELECT x.id, x.name, x.gender, x.department FROM c, unnest(c.crew_list) AS t(x)) p
        GROUP BY p.id""",
    "cast": """SELECT c.movie_id, x.id AS person_id, x.credit_id, x.cast_id, coalesce(x.character, '') AS character,
        x."order" FROM c, unnest(c.cast_list) AS t(x)""",
    "crew": """SELECT c.movie_id, x.id AS person_id, x.credit_id, x.department, x.job
        FROM c, unnest(c.crew_list) AS t(x)""",
}
# fmt: on


def import_files(
    movies_csv: Path, target: Path, credits_csv: Path | None = None, status: Callable[[str], None] | None = None
) -> ImportSummary:
    """Import the files into the catalogue folder `target` (replaced whole at the end)."""
    started = time.perf_counter()
    summary = ImportSummary(status=status)
    with staged(target) as staging, contextlib.closing(connect(staging)) as con:
        summary.say(f"reading {Path(movies_csv).name}")
        read_dump(con, "movies_csv", Path(movies_csv), MOVIE_COLUMNS, summary, CSV)
        con.execute(f"""CREATE TEMP TABLE m AS SELECT TRY_CAST(id AS BIGINT) AS id, *  EXCLUDE (id),
            TRY(from_json(genres, '{_PAIRS}')) AS genre_list, TRY(from_json(keywords, '{_PAIRS}')) AS keyword_list,
            TRY(from_json(production_companies, '{_PAIRS}')) AS company_list,
            TRY(from_json(production_countries, '{_COUNTRIES}')) AS country_list,
            TRY(from_json(spoken_languages, '{_LANGUAGES}')) AS language_list
            FROM movies_csv""")
        for line, reason in con.execute(f"""SELECT line_no + 1, CASE WHEN id IS NULL THEN 'no numeric id'
                WHEN coalesce(title, '') = '' THEN 'no title' ELSE 'a JSON column that does not parse' END FROM m
                WHERE {UNUSABLE} ORDER BY 1""").fetchall():
            summary.skipped.append((Path(movies_csv).name, line, reason))
        con.execute(f"DELETE FROM m WHERE {UNUSABLE}")
        duplicates = con.execute(
            "SELECT line_no + 1, id FROM (SELECT line_no, id, row_number() OVER (PARTITION BY id "
            "ORDER BY line_no) AS n FROM m) WHERE n > 1"
        ).fetchall()
        summary.skipped.extend((Path(movies_csv).name, line, f"id {movie_id} again") for line, movie_id in duplicates)
        con.execute(
            "DELETE FROM m WHERE line_no IN (SELECT line_no FROM (SELECT line_no, row_number() OVER "
            "(PARTITION BY id ORDER BY line_no) AS n FROM m) WHERE n > 1)"
        )
        con.register("reference_languages", reference_rows("languages"))  # the CSV names languages natively
        tables = dict(MOVIE_SQL)
        if credits_csv is not None:
            read_dump(con, "credits_csv", Path(credits_csv), CREDIT_COLUMNS, summary, CSV)
            con.execute(f"""CREATE TEMP TABLE c AS SELECT TRY_CAST(movie_id AS BIGINT) AS movie_id,
                TRY(from_json("cast", '{_CAST}')) AS cast_list, TRY(from_json(crew, '{_CREW}')) AS crew_list, line_no
                FROM credits_csv WHERE TRY_CAST(movie_id AS BIGINT) IN (SELECT id FROM m)""")
            for (line,) in con.execute(
                "SELECT line_no + 1 FROM c WHERE cast_list IS NULL OR crew_list IS NULL"
            ).fetchall():
                summary.skipped.append((Path(credits_csv).name, line, "cast or crew JSON that does not parse"))
            con.execute("DELETE FROM c WHERE cast_list IS NULL OR crew_list IS NULL")
            tables.update(CREDIT_SQL)
        write_tables(staging, tables, summary, con, ids="tmdb")
    summary.seconds = time.perf_counter() - started
    return summary
