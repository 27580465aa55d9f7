"""Import TMDB API documents, one per line (an operator's crawl of /3/movie/{id} and /3/person/{id},
with appended credits, keywords, external_ids, release_dates, videos, alternative_titles,
translations and reviews), and TMDB's daily ID export files (gzipped JSON lines of id, original title,
popularity, adult, video), into a catalogue (build/contract.py). `marquee import tmdb-jsonl FILE…`.

DuckDB reads every file as lines (gzipped or not) and parses each with its JSON functions: no row
passes through Python. A line that is not JSON, or not a document this importer knows, is skipped
with its file, line and reason. The kind of each line follows from its keys: a film has `title`,
a person `known_for_department` or `birthday`, a series `first_air_date`, a season (from
/3/tv/{id}/season/{n}) `season_number` and `episodes`, its series named by its episodes' `show_id`;
an ID export line has `original_title` and nothing of a film's details. The export is the list of ids TMDB has: it gives the films imported their
daily popularity, and the ids without a document are counted (a film known by its id and title
alone is not one TMDB's answers can describe). A series brings its genres, networks, companies,
creators and its seasons' summaries; its season documents bring the episodes, and its episode group
documents (/3/tv/episode_group/{id}) its groups; list documents (/3/list/{id}) become public lists.

Nothing is invented: a film without credits has none. Image paths are TMDB's, and the image host
can serve only the originals it has: without them (an import brings none) they are dropped and
counted, so that no answer names a picture that is not there. A film listed twice keeps its
first document.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from marquee_datasets.importing import ImportFailed, ImportSummary, connect, sql_string, staged, write_tables

# The keys whose presence says what a line is (SQL over `j`, the line's JSON).
KIND = """CASE
    WHEN NOT json_valid(line) THEN 'not JSON'
    WHEN json_type(line) <> 'OBJECT' THEN 'not a JSON object'
    WHEN json_exists(line, '$.groups') AND json_exists(line, '$.group_count') THEN 'episode group'
    WHEN json_exists(line, '$.items') AND json_exists(line, '$.created_by') THEN 'list'
    WHEN TRY_CAST(line ->> 'id' AS BIGINT) IS NULL THEN 'no numeric id'
    WHEN json_exists(line, '$.episode_number') THEN 'an episode alone (import its season: /3/tv/{id}/season/{n})'
    WHEN json_exists(line, '$.season_number') AND json_exists(line, '$.episodes') THEN 'season'
    WHEN json_exists(line, '$.first_air_date') OR json_exists(line, '$.original_name') THEN 'series'
    WHEN json_exists(line, '$.title') THEN 'movie'
    WHEN json_exists(line, '$.known_for_department') OR json_exists(line, '$.birthday') THEN 'person'
    WHEN json_exists(line, '$.original_title') THEN 'movie id'
    ELSE 'neither a film, a person nor an ID export line' END"""

# Each table the documents fill, as SQL over the temp tables `movie` (id, j: a film's JSON, line by line
# first), `person` and `credit` (the people of appended credits).
# fmt: off
MOVIE_SQL = {
    "movies": """SELECT id, nullif(coalesce(j ->> 'imdb_id', j -> 'external_ids' ->> 'imdb_id'), '') AS imdb_id,
        coalesce(j ->> 'original_title', j ->> 'title') AS original_title, nullif(j ->> 'original_language', '') AS original_language,
        TRY_CAST(nullif(j ->> 'release_date', '') AS DATE) AS release_date, NULL AS release_year, coalesce(TRY_CAST(j ->> 'runtime' AS BIGINT), 0) AS runtime,
        coalesce(TRY_CAST(j ->> 'budget' AS BIGINT), 0) AS budget, coalesce(TRY_CAST(j ->> 'revenue' AS BIGINT), 0) AS revenue,
        coalesce(nullif(j ->> 'status', ''), 'Released') AS status, coalesce(TRY_CAST(j ->> 'popularity' AS DOUBLE), 0) AS popularity,
        coalesce(TRY_CAST(j ->> 'vote_average' AS DOUBLE), 0) AS vote_average, coalesce(TRY_CAST(j ->> 'vote_count' AS BIGINT), 0) AS vote_count,
        coalesce(TRY_CAST(j ->> 'adult' AS BOOLEAN), false) AS adult, coalesce(TRY_CAST(j ->> 'video' AS BOOLEAN), false) AS video,
        nullif(j ->> 'homepage', '') AS homepage, NULL AS poster_path, NULL AS backdrop_path,
        TRY_CAST(j -> 'belongs_to_collection' ->> 'id' AS BIGINT) AS collection_id,
        coalesce(from_json(j -> 'origin_country', '["VARCHAR"]'), []) AS origin_country FROM movie""",
    "movie_translations": """SELECT movie_id, iso_639_1, iso_3166_1, title, overview, tagline, homepage FROM (
        SELECT id AS movie_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, j ->> 'title' AS title,
            coalesce(j ->> 'overview', '') AS overview, coalesce(j ->> 'tagline', '') AS tagline,
            coalesce(j ->> 'homepage', '') AS homepage, 0 AS rank FROM movie WHERE j ->> 'title' IS NOT NULL
        UNION ALL
        SELECT m.id, t.iso_639_1, t.iso_3166_1, coalesce(t.data.title, ''), coalesce(t.data.overview, ''),
            coalesce(t.data.tagline, ''), coalesce(t.data.homepage, ''), 1
        FROM movie m, unnest(from_json(m.j -> 'translations' -> 'translations',
            '[{"iso_639_1": "VARCHAR", "iso_3166_1": "VARCHAR", "data": {"title": "VARCHAR", "overview": "VARCHAR",
               "tagline": "VARCHAR", "homepage": "VARCHAR"}}]')) AS u(t)
        WHERE t.iso_639_1 IS NOT NULL AND t.iso_3166_1 IS NOT NULL
    ) QUALIFY row_number() OVER (PARTITION BY movie_id, iso_639_1, iso_3166_1 ORDER BY rank) = 1""",
    "genres": """SELECT DISTINCT ON (g.id) g.id, g.name FROM movie,
        unnest(from_json(j -> 'genres', '[{"id": "BIGINT", "name": "VARCHAR"}]')) AS u(g) ORDER BY g.id""",
    "movie_genres": """SELECT movie.id AS movie_id, g.id AS genre_id, o - 1 AS ord FROM movie,
        unnest(from_json(j -> 'genres', '[{"id": "BIGINT", "name": "VARCHAR"}]')) WITH ORDINALITY AS u(g, o)""",
    "collections": """SELECT DISTINCT ON (c.id) c.id, c.name, '' AS original_language, '' AS overview,
        NULL AS poster_path, NULL AS backdrop_path FROM (SELECT from_json(j -> 'belongs_to_collection',
        '{"id": "BIGINT", "name": "VARCHAR"}') AS c FROM movie) WHERE c.id IS NOT NULL ORDER BY c.id""",
    "movie_companies": """SELECT movie.id AS movie_id, c.id AS company_id, o - 1 AS ord FROM movie,
        unnest(from_json(j -> 'production_companies', '[{"id": "BIGINT"}]')) WITH ORDINALITY AS u(c, o)""",
    "countries": """SELECT DISTINCT ON (c.iso_3166_1) c.iso_3166_1, c.name AS english_name, c.name AS native_name FROM movie,
        unnest(from_json(j -> 'production_countries', '[{"iso_3166_1": "VARCHAR", "name": "VARCHAR"}]')) AS u(c)
        ORDER BY c.iso_3166_1""",
    "movie_countries": """SELECT movie.id AS movie_id, c.iso_3166_1, o - 1 AS ord FROM movie,
        unnest(from_json(j -> 'production_countries', '[{"iso_3166_1": "VARCHAR"}]')) WITH ORDINALITY AS u(c, o)""",
    "languages": """SELECT DISTINCT ON (l.iso_639_1) l.iso_639_1, coalesce(l.english_name, l.name) AS english_name,
        coalesce(l.name, '') AS name FROM movie, unnest(from_json(j -> 'spoken_languages',
        '[{"iso_639_1": "VARCHAR", "english_name": "VARCHAR", "name": "VARCHAR"}]')) AS u(l) ORDER BY l.iso_639_1""",
    "movie_spoken_languages": """SELECT movie.id AS movie_id, l.iso_639_1, o - 1 AS ord FROM movie,
        unnest(from_json(j -> 'spoken_languages', '[{"iso_639_1": "VARCHAR"}]')) WITH ORDINALITY AS u(l, o)""",
    "keywords": """SELECT DISTINCT ON (k.id) k.id, k.name FROM movie,
        unnest(from_json(j -> 'keywords' -> 'keywords', '[{"id": "BIGINT", "name": "VARCHAR"}]')) AS u(k) ORDER BY k.id""",
    "movie_keywords": """SELECT movie.id AS movie_id, k.id AS keyword_id, o - 1 AS ord FROM movie,
        unnest(from_json(j -> 'keywords' -> 'keywords', '[{"id": "BIGINT"}]')) WITH ORDINALITY AS u(k, o)""",
    "movie_external_ids": """SELECT id AS movie_id, nullif(j -> 'external_ids' ->> 'wikidata_id', '') AS wikidata_id,
        nullif(j -> 'external_ids' ->> 'facebook_id', '') AS facebook_id, nullif(j -> 'external_ids' ->> 'instagram_id', '') AS instagram_id,
        nullif(j -> 'external_ids' ->> 'twitter_id', '') AS twitter_id, NULL AS kinopoisk_id
        FROM movie WHERE json_exists(j, '$.external_ids')""",
    "movie_release_dates": """SELECT movie.id AS movie_id, r.iso_3166_1, coalesce(d.certification, '') AS certification,
        coalesce(d.descriptors, []) AS descriptors, coalesce(d.iso_639_1, '') AS iso_639_1, coalesce(d.note, '') AS note,
        TRY_CAST(d.release_date AS TIMESTAMP) AS release_date, d.type FROM movie,
        unnest(from_json(j -> 'release_dates' -> 'results', '[{"iso_3166_1": "VARCHAR", "release_dates": [{"certification":
            "VARCHAR", "descriptors": ["VARCHAR"], "iso_639_1": "VARCHAR", "note": "VARCHAR", "release_date": "VARCHAR",
            "type": "BIGINT"}]}]')) AS u(r), unnest(r.release_dates) AS v(d)""",
    "movie_videos": """SELECT movie.id AS movie_id, v.id, v.iso_639_1, v.iso_3166_1, v.name, v.key, v.site, v.size, v.type,
        coalesce(v.official, false) AS official, TRY_CAST(v.published_at AS TIMESTAMP) AS published_at FROM movie,
        unnest(from_json(j -> 'videos' -> 'results', '[{"id": "VARCHAR", "iso_639_1": "VARCHAR", "iso_3166_1": "VARCHAR",
            "name": "VARCHAR", "key": "VARCHAR", "site": "VARCHAR", "size": "BIGINT", "type": "VARCHAR",
            "official": "BOOLEAN", "published_at": "VARCHAR"}]')) AS u(v)""",
    "movie_alternative_titles": """SELECT movie.id AS movie_id, t.iso_3166_1, t.title, coalesce(t.type, '') AS type,
        o - 1 AS ord FROM movie, unnest(from_json(j -> 'alternative_titles' -> 'titles',
        '[{"iso_3166_1": "VARCHAR", "title": "VARCHAR", "type": "VARCHAR"}]')) WITH ORDINALITY AS u(t, o)""",
    "cast": """SELECT movie.id AS movie_id, c.id AS person_id, c.credit_id, c.cast_id, coalesce(c.character, '') AS character,
        c."order" FROM movie, unnest(from_json(j -> 'credits' -> 'cast', '[{"id": "BIGINT", "credit_id": "VARCHAR",
        "cast_id": "BIGINT", "character": "VARCHAR", "order": "BIGINT"}]')) AS u(c)""",
    "crew": """SELECT movie.id AS movie_id, c.id AS person_id, c.credit_id, c.department, c.job FROM movie,
        unnest(from_json(j -> 'credits' -> 'crew', '[{"id": "BIGINT", "credit_id": "VARCHAR", "department": "VARCHAR",
        "job": "VARCHAR"}]')) AS u(c)""",
    # A person's biography is their English translation, as TMDB stores it.
    "person_translations": """SELECT id AS person_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, j ->> 'biography' AS biography
        FROM person WHERE coalesce(j ->> 'biography', '') <> ''""",
}
# fmt: on


def import_files(paths: list[Path], target: Path, status: Callable[[str], None] | None = None) -> ImportSummary:
    started = time.perf_counter()
    summary = ImportSummary(status=status)
    paths = [Path(p) for p in paths]
    for path in paths:
        if not path.is_file():
            raise ImportFailed(f"{path} does not exist")
    with staged(target) as staging, contextlib.closing(connect(staging)) as con:
        files = "[" + ", ".join(sql_string(p) for p in paths) + "]"
        summary.say(f"reading {len(paths)} files")
        # Lines as text: a delimiter and quote no JSON line has, so a line is one value whatever it holds.
        con.execute(f"""CREATE TEMP TABLE lines AS SELECT parse_filename(filename) AS file,
            row_number() OVER (PARTITION BY filename) AS line_no, line FROM read_csv({files}, columns = {{'line': 'VARCHAR'}},
            header = false, auto_detect = false, delim = '\\x01', quote = '', escape = '', filename = true,
            max_line_size = 16000000, strict_mode = false) WHERE trim(coalesce(line, '')) <> ''""")
        con.execute(
            f"CREATE TEMP TABLE classified AS SELECT file, line_no, {KIND} AS kind, "
            "CASE WHEN json_valid(line) THEN line::JSON END AS j FROM lines"
        )
        summary.read = con.execute("SELECT count(*) FROM classified").fetchall()[0][0]
        summary.skipped.extend(
            con.execute(
                "SELECT file, line_no, kind FROM classified WHERE kind NOT IN "
                "('movie', 'person', 'movie id', 'series', 'season', 'episode group', 'list') "
                "ORDER BY file, line_no"
            ).fetchall()
        )
        con.execute("""CREATE TEMP TABLE series AS SELECT TRY_CAST(j ->> 'id' AS BIGINT) AS id, j FROM classified
            WHERE kind = 'series' QUALIFY row_number() OVER (PARTITION BY TRY_CAST(j ->> 'id' AS BIGINT) ORDER BY file, line_no) = 1""")
        # A season document names its series only through its episodes' show_id.
        con.execute("""CREATE TEMP TABLE season AS SELECT TRY_CAST(j -> 'episodes' -> 0 ->> 'show_id' AS BIGINT) AS series_id,
                TRY_CAST(j ->> 'season_number' AS BIGINT) AS season_number, j FROM classified WHERE kind = 'season'
                AND TRY_CAST(j -> 'episodes' -> 0 ->> 'show_id' AS BIGINT) IN (SELECT id FROM series)
            QUALIFY row_number() OVER (PARTITION BY series_id, season_number ORDER BY file, line_no) = 1""")
        # An episode group (/3/tv/episode_group/{id}) names its series through its episodes' show_id too.
        con.execute("""CREATE TEMP TABLE episode_group AS SELECT j ->> 'id' AS id,
                TRY_CAST(j -> 'groups' -> 0 -> 'episodes' -> 0 ->> 'show_id' AS BIGINT) AS series_id, j
            FROM classified WHERE kind = 'episode group'
                AND TRY_CAST(j -> 'groups' -> 0 -> 'episodes' -> 0 ->> 'show_id' AS BIGINT) IN (SELECT id FROM series)
            QUALIFY row_number() OVER (PARTITION BY j ->> 'id' ORDER BY file, line_no) = 1""")
        con.execute("""CREATE TEMP TABLE public_list AS SELECT TRY_CAST(j ->> 'id' AS BIGINT) AS id, j FROM classified
            WHERE kind = 'list' AND TRY_CAST(j ->> 'id' AS BIGINT) IS NOT NULL
            QUALIFY row_number() OVER (PARTITION BY TRY_CAST(j ->> 'id' AS BIGINT) ORDER BY file, line_no) = 1""")
        # A film's first document; an ID export line gives it the export's (daily) popularity.
        con.execute("""CREATE TEMP TABLE movie AS SELECT d.id, CASE WHEN e.popularity IS NULL THEN d.j
                ELSE json_merge_patch(d.j, json_object('popularity', e.popularity)) END AS j
            FROM (SELECT TRY_CAST(j ->> 'id' AS BIGINT) AS id, j FROM classified WHERE kind = 'movie'
                  QUALIFY row_number() OVER (PARTITION BY TRY_CAST(j ->> 'id' AS BIGINT) ORDER BY file, line_no) = 1) d
            LEFT JOIN (SELECT TRY_CAST(j ->> 'id' AS BIGINT) AS id, arg_max(TRY_CAST(j ->> 'popularity' AS DOUBLE), file || line_no)
                       AS popularity FROM classified WHERE kind = 'movie id' GROUP BY 1) e ON e.id = d.id""")
        listed = con.execute(
            "SELECT count(DISTINCT TRY_CAST(j ->> 'id' AS BIGINT)) FROM classified WHERE kind = 'movie id' "
            "AND TRY_CAST(j ->> 'id' AS BIGINT) NOT IN (SELECT id FROM movie)"
        ).fetchall()[0][0]
        if listed:
            summary.notes.append(
                f"{listed:,} films listed in an ID export without a document of their own: not imported "
                "(crawl /3/movie/{id} for them)"
            )
        con.execute("""CREATE TEMP TABLE person AS SELECT TRY_CAST(j ->> 'id' AS BIGINT) AS id, j FROM classified
            WHERE kind = 'person' QUALIFY row_number() OVER (PARTITION BY TRY_CAST(j ->> 'id' AS BIGINT) ORDER BY file, line_no) = 1""")
        dropped = con.execute(
            "SELECT count(*) FILTER (WHERE j ->> 'poster_path' IS NOT NULL) + count(*) FILTER "
            "(WHERE j ->> 'backdrop_path' IS NOT NULL) FROM movie"
        ).fetchall()[0][0]
        if dropped:
            summary.notes.append(f"{dropped:,} image paths dropped: the catalogue has no originals for them")
        write_tables(
            staging,
            {**MOVIE_SQL, **TV_SQL, **GROUP_SQL, "companies": COMPANIES, "people": PEOPLE, "reviews": REVIEWS},
            summary,
            con,
            ids="tmdb",
        )
    summary.seconds = time.perf_counter() - started
    return summary


# The fields of a person TMDB repeats wherever it names one (credits, creators, episode crew and guests).
_PERSON = '"name": "VARCHAR", "gender": "BIGINT", "known_for_department": "VARCHAR", "popularity": "DOUBLE", "adult": "BOOLEAN"'
_EPISODES = """FROM season s, unnest(from_json(s.j -> 'episodes', '[{"id": "BIGINT", "name": "VARCHAR", "overview": "VARCHAR",
        "air_date": "VARCHAR", "episode_number": "BIGINT", "season_number": "BIGINT", "runtime": "BIGINT",
        "production_code": "VARCHAR", "vote_average": "DOUBLE", "vote_count": "BIGINT", "episode_type": "VARCHAR",
        "crew": [{"id": "BIGINT", "credit_id": "VARCHAR", "department": "VARCHAR", "job": "VARCHAR", PERSON}],
        "guest_stars": [{"id": "BIGINT", "credit_id": "VARCHAR", "character": "VARCHAR", "order": "BIGINT", PERSON}]}]')) AS u(e)"""
_EPISODES = _EPISODES.replace("PERSON", _PERSON)


def _companies(source: str) -> str:
    """The production companies of the films or series documents (`source`: movie, series)."""
    return f"""SELECT c.id, c.name, NULL AS logo_path, coalesce(c.origin_country, '') AS origin_country,
        '' AS headquarters, '' AS homepage, '' AS description, NULL AS parent_company_id FROM {source},
        unnest(from_json(j -> 'production_companies', '[{{"id": "BIGINT", "name": "VARCHAR", "origin_country": "VARCHAR"}}]')) AS u(c)"""


def _named(rank: int, source: str) -> str:
    """People known by a name in another document (`source`, rows `c`), as `people` rows of that rank."""
    return (
        f"SELECT c.id, c.name, coalesce(c.gender, 0), coalesce(c.known_for_department, ''), coalesce(c.popularity, 0), "
        f"coalesce(c.adult, false), NULL, NULL, NULL, NULL, '', [], {rank} {source}"
    )


def _listed(source: str, path: str) -> str:
    """FROM rows `c` of the people the documents of `source` list at `path` (a JSON path)."""
    return f'FROM {source}, unnest(from_json({path}, \'[{{"id": "BIGINT", {_PERSON}}}]\')) AS u(c)'


# Films' and series' companies together, one row an id.
COMPANIES = f"SELECT * FROM ({_companies('movie')} UNION ALL {_companies('series')}) QUALIFY row_number() OVER (PARTITION BY id) = 1"
# Everyone, a row an id: people's own documents first, then the films' credits, the series' creators, the
# episodes' crew and guests.
PEOPLE = (
    """SELECT id, name, gender, known_for_department, popularity, NULL AS profile_path, adult, imdb_id,
        birthday, deathday, place_of_birth, biography, also_known_as FROM (
        SELECT id, j ->> 'name' AS name, coalesce(TRY_CAST(j ->> 'gender' AS BIGINT), 0) AS gender,
            coalesce(j ->> 'known_for_department', '') AS known_for_department, coalesce(TRY_CAST(j ->> 'popularity' AS DOUBLE), 0) AS popularity,
            coalesce(TRY_CAST(j ->> 'adult' AS BOOLEAN), false) AS adult, nullif(j ->> 'imdb_id', '') AS imdb_id,
            TRY_CAST(nullif(j ->> 'birthday', '') AS DATE) AS birthday, TRY_CAST(nullif(j ->> 'deathday', '') AS DATE) AS deathday,
            nullif(j ->> 'place_of_birth', '') AS place_of_birth, coalesce(j ->> 'biography', '') AS biography,
            coalesce(from_json(j -> 'also_known_as', '["VARCHAR"]'), []) AS also_known_as, 0 AS rank FROM person
        UNION ALL """
    + "\n        UNION ALL ".join(
        [
            _named(1, _listed("movie", "j -> 'credits' -> 'cast'")),
            _named(1, _listed("movie", "j -> 'credits' -> 'crew'")),
            _named(2, _listed("series", "j -> 'created_by'")),
            _named(3, _EPISODES + ", unnest(e.crew) AS v(c)"),
            _named(3, _EPISODES + ", unnest(e.guest_stars) AS v(c)"),
        ]
    )
    + """
    ) WHERE name IS NOT NULL QUALIFY row_number() OVER (PARTITION BY id ORDER BY rank) = 1"""
)
# fmt: off
TV_SQL = {
    "tv_series": """SELECT id, j ->> 'name' AS name, coalesce(j ->> 'original_name', j ->> 'name') AS original_name,
        coalesce(j ->> 'original_language', '') AS original_language, coalesce(j ->> 'overview', '') AS overview,
        coalesce(j ->> 'tagline', '') AS tagline, coalesce(j ->> 'status', '') AS status, coalesce(j ->> 'type', '') AS type,
        coalesce(TRY_CAST(j ->> 'in_production' AS BOOLEAN), false) AS in_production, coalesce(j ->> 'homepage', '') AS homepage,
        coalesce(TRY_CAST(j ->> 'popularity' AS DOUBLE), 0) AS popularity, coalesce(TRY_CAST(j ->> 'vote_average' AS DOUBLE), 0) AS vote_average,
        coalesce(TRY_CAST(j ->> 'vote_count' AS BIGINT), 0) AS vote_count, coalesce(TRY_CAST(j ->> 'adult' AS BOOLEAN), false) AS adult,
        NULL AS poster_path, NULL AS backdrop_path, coalesce(from_json(j -> 'origin_country', '["VARCHAR"]'), []) AS origin_country,
        coalesce(from_json(j -> 'languages', '["VARCHAR"]'), []) AS languages,
        coalesce(from_json(j -> 'episode_run_time', '["BIGINT"]'), []) AS episode_run_time,
        nullif(j -> 'external_ids' ->> 'imdb_id', '') AS imdb_id, TRY_CAST(j -> 'external_ids' ->> 'tvdb_id' AS BIGINT) AS tvdb_id,
        nullif(j -> 'external_ids' ->> 'wikidata_id', '') AS wikidata_id, TRY_CAST(j -> 'external_ids' ->> 'tvrage_id' AS BIGINT) AS tvrage_id,
        nullif(j -> 'external_ids' ->> 'facebook_id', '') AS facebook_id, nullif(j -> 'external_ids' ->> 'instagram_id', '') AS instagram_id,
        nullif(j -> 'external_ids' ->> 'twitter_id', '') AS twitter_id,
        TRY_CAST(nullif(j ->> 'first_air_date', '') AS DATE) AS first_air_date, TRY_CAST(nullif(j ->> 'last_air_date', '') AS DATE) AS last_air_date,
        NULL AS first_air_year, NULL AS last_air_year, TRY_CAST(j -> 'last_episode_to_air' ->> 'id' AS BIGINT) AS last_episode_id,
        TRY_CAST(j -> 'next_episode_to_air' ->> 'id' AS BIGINT) AS next_episode_id FROM series""",
    "series_translations": """SELECT id AS series_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, j ->> 'name' AS name,
        coalesce(j ->> 'overview', '') AS overview, coalesce(j ->> 'tagline', '') AS tagline, coalesce(j ->> 'homepage', '') AS homepage
        FROM series""",
    "tv_genres": """SELECT DISTINCT ON (g.id) g.id, g.name FROM series,
        unnest(from_json(j -> 'genres', '[{"id": "BIGINT", "name": "VARCHAR"}]')) AS u(g) ORDER BY g.id""",
    "series_genres": """SELECT series.id AS series_id, g.id AS genre_id, o - 1 AS ord FROM series,
        unnest(from_json(j -> 'genres', '[{"id": "BIGINT"}]')) WITH ORDINALITY AS u(g, o)""",
    "networks": """SELECT DISTINCT ON (n.id) n.id, n.name, NULL AS logo_path, coalesce(n.origin_country, '') AS origin_country,
        '' AS headquarters, '' AS homepage FROM series, unnest(from_json(j -> 'networks',
        '[{"id": "BIGINT", "name": "VARCHAR", "origin_country": "VARCHAR"}]')) AS u(n) ORDER BY n.id""",
    "series_networks": """SELECT series.id AS series_id, n.id AS network_id, o - 1 AS ord FROM series,
        unnest(from_json(j -> 'networks', '[{"id": "BIGINT"}]')) WITH ORDINALITY AS u(n, o)""",
    "series_companies": """SELECT series.id AS series_id, c.id AS company_id, o - 1 AS ord FROM series,
        unnest(from_json(j -> 'production_companies', '[{"id": "BIGINT"}]')) WITH ORDINALITY AS u(c, o)""",
    "created_by": """SELECT series.id AS series_id, c.id AS person_id, coalesce(c.credit_id, '') AS credit_id, o - 1 AS ord
        FROM series, unnest(from_json(j -> 'created_by', '[{"id": "BIGINT", "credit_id": "VARCHAR"}]')) WITH ORDINALITY AS u(c, o)""",
    "tv_seasons": """SELECT x.id, series.id AS series_id, x.season_number, coalesce(x.name, '') AS name,
        coalesce(x.overview, '') AS overview, TRY_CAST(nullif(x.air_date, '') AS DATE) AS air_date, NULL AS poster_path,
        coalesce(x.vote_average, 0) AS vote_average, coalesce(d.j ->> '_id', '') AS object_id, NULL AS tvdb_id,
        NULL AS wikidata_id FROM series, unnest(from_json(series.j -> 'seasons', '[{"id": "BIGINT", "season_number": "BIGINT",
            "name": "VARCHAR", "overview": "VARCHAR", "air_date": "VARCHAR", "vote_average": "DOUBLE"}]')) AS u(x)
        LEFT JOIN season d ON d.series_id = series.id AND d.season_number = x.season_number WHERE x.id IS NOT NULL""",
    "tv_episodes": f"""SELECT e.id, s.series_id, s.season_number, e.episode_number, coalesce(e.name, '') AS name,
        coalesce(e.overview, '') AS overview, TRY_CAST(nullif(e.air_date, '') AS DATE) AS air_date, NULL AS air_year, e.runtime,
        NULL AS still_path, coalesce(e.production_code, '') AS production_code, coalesce(e.vote_average, 0) AS vote_average,
        coalesce(e.vote_count, 0) AS vote_count, coalesce(e.episode_type, 'standard') AS episode_type, NULL AS imdb_id,
        NULL AS tvdb_id {_EPISODES} WHERE e.id IS NOT NULL""",
    "episode_translations": f"""SELECT e.id AS episode_id, 'en' AS iso_639_1, 'US' AS iso_3166_1, coalesce(e.name, '') AS name,
        coalesce(e.overview, '') AS overview {_EPISODES} WHERE e.id IS NOT NULL""",
    "episode_crew": f"""SELECT e.id AS episode_id, s.series_id, s.season_number, e.episode_number, c.id AS person_id,
        c.credit_id, c.department, c.job {_EPISODES}, unnest(e.crew) AS v(c) WHERE c.id IS NOT NULL AND c.name IS NOT NULL""",
    "episode_guest_stars": f"""SELECT e.id AS episode_id, s.series_id, s.season_number, e.episode_number, g.id AS person_id,
        g.credit_id, coalesce(g.character, '') AS character, g."order" {_EPISODES}, unnest(e.guest_stars) AS v(g)
        WHERE g.id IS NOT NULL AND g.name IS NOT NULL""",
}
# fmt: on

# A film's or series' appended reviews (append_to_response=reviews: the first page). TMDB's results name
# no language: they are the crawl's, taken as English unless a result says otherwise. Avatars are
# images, dropped as the others are.
REVIEWS = " UNION ALL ".join(
    f"""SELECT r ->> 'id' AS id, '{media}' AS media_type, t.id AS media_id, r ->> 'author' AS author,
        coalesce(r -> 'author_details' ->> 'username', r ->> 'author') AS username, nullif(r -> 'author_details' ->> 'name', '') AS name,
        NULL AS avatar_path, TRY_CAST(r -> 'author_details' ->> 'rating' AS DOUBLE) AS rating,
        coalesce(r ->> 'iso_639_1', 'en') AS iso_639_1, coalesce(r ->> 'content', '') AS content,
        TRY_CAST(r ->> 'created_at' AS TIMESTAMP) AS created_at,
        coalesce(TRY_CAST(r ->> 'updated_at' AS TIMESTAMP), TRY_CAST(r ->> 'created_at' AS TIMESTAMP)) AS updated_at
    FROM {table} t, unnest(from_json(coalesce(t.j -> 'reviews' -> 'results', '[]'), '["JSON"]')) AS u(r)
    WHERE r ->> 'id' IS NOT NULL AND TRY_CAST(r ->> 'created_at' AS TIMESTAMP) IS NOT NULL"""
    for table, media in (("movie", "movie"), ("series", "tv"))
)

# Episode groups (/3/tv/episode_group/{id} documents) of the series imported: their parts in order,
# each part's episodes in the group's order; public lists (/3/list/{id} documents, numeric ids), their
# titles in order (those the crawl has: a list of titles it lacks keeps the ones it has).
# fmt: off
GROUP_SQL = {
    "lists": """SELECT id, coalesce(j ->> 'name', '') AS name, coalesce(j ->> 'description', '') AS description,
        coalesce(j ->> 'created_by', '') AS created_by, coalesce(j ->> 'iso_639_1', 'en') AS iso_639_1,
        coalesce(j ->> 'iso_3166_1', 'US') AS iso_3166_1, coalesce(TRY_CAST(j ->> 'favorite_count' AS BIGINT), 0) AS favorite_count,
        NULL AS poster_path, NULL::TIMESTAMP AS created_at, NULL::TIMESTAMP AS updated_at FROM public_list""",
    "list_items": """SELECT l.id AS list_id, coalesce(i ->> 'media_type', 'movie') AS media_type, TRY_CAST(i ->> 'id' AS BIGINT) AS media_id,
        o - 1 AS ord FROM public_list l, unnest(from_json(l.j -> 'items', '["JSON"]')) WITH ORDINALITY AS u(i, o)
        WHERE (coalesce(i ->> 'media_type', 'movie') = 'movie' AND TRY_CAST(i ->> 'id' AS BIGINT) IN (SELECT id FROM movie))
           OR (i ->> 'media_type' = 'tv' AND TRY_CAST(i ->> 'id' AS BIGINT) IN (SELECT id FROM series))""",
    "episode_groups": """SELECT id, series_id, coalesce(j ->> 'name', '') AS name, coalesce(j ->> 'description', '') AS description,
        TRY_CAST(j ->> 'type' AS BIGINT) AS type, TRY_CAST(j -> 'network' ->> 'id' AS BIGINT) AS network_id FROM episode_group""",
    "episode_group_episodes": """SELECT g.id AS group_id, p ->> 'id' AS part_id, coalesce(p ->> 'name', '') AS part_name,
        coalesce(TRY_CAST(p ->> 'order' AS BIGINT), 0) AS part_order, coalesce(TRY_CAST(p ->> 'locked' AS BOOLEAN), false) AS locked,
        TRY_CAST(e ->> 'id' AS BIGINT) AS episode_id, coalesce(TRY_CAST(e ->> 'order' AS BIGINT), 0) AS ord
        FROM episode_group g, unnest(from_json(g.j -> 'groups', '["JSON"]')) AS u(p),
            unnest(from_json(coalesce(p -> 'episodes', '[]'), '["JSON"]')) AS v(e)
        WHERE TRY_CAST(e ->> 'id' AS BIGINT) IS NOT NULL""",
}
# fmt: on
