"""The catalogue contract: every table a catalogue holds, its columns and their types, written once.

A catalogue is a folder of Parquet files, one per table (`movies.parquet`, ...), read by the build
(build/sql/*.sql). The synthetic generator (datasets/synthetic.py) and every importer write their
tables through `conform`, which puts the columns in this order and these types (or says which
column of which table does not fit), and `empty` gives a table an import has no rows for. `marquee
build` checks a catalogue against it first (`check`): a missing table or column, or a column of
another type, is named before any SQL runs. A table may carry more columns than these; the build
reads only these. Types: INT (int64), TEXT, FLOAT (float64), BOOL, DATE (days), TIMESTAMP (ms,
naive), INSTANT (ms, UTC), lists of them.

Beside its tables a catalogue has its image originals (`images/<file name>`, when it has files) and
what it says of itself, `catalogue.json` (FACTS_FILE).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

INT, TEXT, FLOAT, BOOL, DATE = pa.int64(), pa.string(), pa.float64(), pa.bool_(), pa.date32()
TIMESTAMP, INSTANT = pa.timestamp("ms"), pa.timestamp("ms", tz="UTC")


def schema(*fields: tuple[str, pa.DataType]) -> pa.Schema:
    return pa.schema(list(fields))


# Every table a catalogue must hold.
# fmt: off
REQUIRED: dict[str, pa.Schema] = {
    # release_year, first_air_year, last_air_year, air_year: the year of a title whose source gives no
    # date, only a year (IMDb's startYear and endYear); NULL when the date says it. TMDB's answers keep
    # the date (`""` when unknown); OMDb's `Year` and search's year filters take the date's year, else this.
    "movies": schema(("id", INT), ("imdb_id", TEXT), ("original_title", TEXT), ("original_language", TEXT),
            ("release_date", DATE), ("release_year", INT), ("runtime", INT), ("budget", INT), ("revenue", INT), ("status", TEXT),
            ("popularity", FLOAT), ("vote_average", FLOAT), ("vote_count", INT), ("adult", BOOL), ("video", BOOL),
            ("homepage", TEXT), ("poster_path", TEXT), ("backdrop_path", TEXT), ("collection_id", INT),
            ("origin_country", pa.list_(TEXT))),
    "movie_translations": schema(("movie_id", INT), ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("title", TEXT),
            ("overview", TEXT), ("tagline", TEXT), ("homepage", TEXT)),
    "genres": schema(("id", INT), ("name", TEXT)),
    "movie_genres": schema(("movie_id", INT), ("genre_id", INT), ("ord", INT)),
    "collections": schema(("id", INT), ("name", TEXT), ("original_language", TEXT), ("overview", TEXT),
            ("poster_path", TEXT), ("backdrop_path", TEXT)),
    "companies": schema(("id", INT), ("name", TEXT), ("logo_path", TEXT), ("origin_country", TEXT), ("headquarters",
            TEXT), ("homepage", TEXT), ("description", TEXT), ("parent_company_id", INT)),
    "movie_companies": schema(("movie_id", INT), ("company_id", INT), ("ord", INT)),
    "countries": schema(("iso_3166_1", TEXT), ("english_name", TEXT), ("native_name", TEXT)),
    "movie_countries": schema(("movie_id", INT), ("iso_3166_1", TEXT), ("ord", INT)),
    "languages": schema(("iso_639_1", TEXT), ("english_name", TEXT), ("name", TEXT)),
    "movie_spoken_languages": schema(("movie_id", INT), ("iso_639_1", TEXT), ("ord", INT)),
    "people": schema(("id", INT), ("name", TEXT), ("gender", INT), ("known_for_department", TEXT), ("popularity",
            FLOAT), ("profile_path", TEXT), ("adult", BOOL), ("imdb_id", TEXT), ("birthday", DATE), ("deathday",
            DATE), ("place_of_birth", TEXT), ("biography", TEXT), ("also_known_as", pa.list_(TEXT))),
    "cast": schema(("movie_id", INT), ("person_id", INT), ("credit_id", TEXT), ("cast_id", INT), ("character", TEXT),
            ("order", INT)),
    "crew": schema(("movie_id", INT), ("person_id", INT), ("credit_id", TEXT), ("department", TEXT), ("job", TEXT)),
    "person_details": schema(("person_id", INT), ("homepage", TEXT), ("freebase_mid", TEXT), ("freebase_id", TEXT),
            ("tvrage_id", INT), ("wikidata_id", TEXT), ("facebook_id", TEXT), ("instagram_id", TEXT), ("tiktok_id",
            TEXT), ("twitter_id", TEXT), ("youtube_id", TEXT)),
    # Images of a film or series (media_type 'movie' or 'tv', one of its image files) a person is tagged in.
    "tagged_images": schema(("person_id", INT), ("media_type", TEXT), ("media_id", INT), ("file_path", TEXT)),
    "person_images": schema(("person_id", INT), ("file_path", TEXT), ("width", INT), ("height", INT), ("aspect_ratio",
            FLOAT), ("vote_average", FLOAT), ("vote_count", INT), ("ord", INT)),
    "company_alternative_names": schema(("company_id", INT), ("name", TEXT), ("type", TEXT), ("ord", INT)),
    "company_images": schema(("company_id", INT), ("id", TEXT), ("file_path", TEXT), ("file_type", TEXT), ("width",
            INT), ("height", INT), ("aspect_ratio", FLOAT), ("vote_average", FLOAT), ("vote_count", INT), ("ord",
            INT)),
    "collection_translations": schema(("collection_id", INT), ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("name",
            TEXT), ("overview", TEXT), ("homepage", TEXT)),
    "genre_translations": schema(("genre_id", INT), ("iso_639_1", TEXT), ("name", TEXT)),
    "keywords": schema(("id", INT), ("name", TEXT)),
    "movie_keywords": schema(("movie_id", INT), ("keyword_id", INT), ("ord", INT)),
    "movie_videos": schema(("movie_id", INT), ("id", TEXT), ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("name", TEXT),
            ("key", TEXT), ("site", TEXT), ("size", INT), ("type", TEXT), ("official", BOOL), ("published_at",
            TIMESTAMP)),
    "certifications": schema(("iso_3166_1", TEXT), ("certification", TEXT), ("meaning", TEXT), ("order", INT),
            ("position", INT)),
    "movie_release_dates": schema(("movie_id", INT), ("iso_3166_1", TEXT), ("certification", TEXT), ("descriptors",
            pa.list_(TEXT)), ("iso_639_1", TEXT), ("note", TEXT), ("release_date", TIMESTAMP), ("type", INT)),
    "movie_alternative_titles": schema(("movie_id", INT), ("iso_3166_1", TEXT), ("title", TEXT), ("type", TEXT),
            ("ord", INT)),
    "movie_external_ids": schema(("movie_id", INT), ("wikidata_id", TEXT), ("facebook_id", TEXT), ("instagram_id",
            TEXT), ("twitter_id", TEXT), ("kinopoisk_id", TEXT)),
    "movie_ratings": schema(("movie_id", INT), ("source", TEXT), ("value", FLOAT), ("votes", INT)),
    "watch_providers": schema(("provider_id", INT), ("provider_name", TEXT), ("logo_path", TEXT), ("display_priority",
            INT)),
    "watch_provider_regions": schema(("provider_id", INT), ("iso_3166_1", TEXT), ("display_priority", INT)),
    "movie_watch_providers": schema(("movie_id", INT), ("iso_3166_1", TEXT), ("kind", TEXT), ("provider_id", INT)),
    "soundtracks": schema(("id", INT), ("movie_id", INT), ("title", TEXT), ("type", TEXT), ("label", TEXT),
            ("release_date", DATE)),
    "soundtrack_tracks": schema(("soundtrack_id", INT), ("number", INT), ("title", TEXT), ("artists", pa.list_(TEXT)),
            ("duration_ms", INT)),
    "movie_images": schema(("movie_id", INT), ("kind", TEXT), ("file_path", TEXT), ("width", INT), ("height", INT),
            ("aspect_ratio", FLOAT), ("iso_639_1", TEXT), ("vote_average", FLOAT), ("vote_count", INT)),
    "tv_series": schema(("id", INT), ("name", TEXT), ("original_name", TEXT), ("original_language", TEXT),
            ("overview", TEXT), ("tagline", TEXT), ("status", TEXT), ("type", TEXT), ("in_production", BOOL),
            ("homepage", TEXT), ("popularity", FLOAT), ("vote_average", FLOAT), ("vote_count", INT), ("adult", BOOL),
            ("poster_path", TEXT), ("backdrop_path", TEXT), ("origin_country", pa.list_(TEXT)), ("languages",
            pa.list_(TEXT)), ("episode_run_time", pa.list_(INT)), ("imdb_id", TEXT), ("tvdb_id", INT), ("wikidata_id",
            TEXT), ("tvrage_id", INT), ("facebook_id", TEXT), ("instagram_id", TEXT), ("twitter_id", TEXT),
            ("first_air_date", DATE), ("last_air_date", DATE), ("first_air_year", INT), ("last_air_year", INT),
            ("last_episode_id", INT), ("next_episode_id", INT)),
    "tv_genres": schema(("id", INT), ("name", TEXT)),
    "series_genres": schema(("series_id", INT), ("genre_id", INT), ("ord", INT)),
    "networks": schema(("id", INT), ("name", TEXT), ("logo_path", TEXT), ("origin_country", TEXT), ("headquarters",
            TEXT), ("homepage", TEXT)),
    "series_networks": schema(("series_id", INT), ("network_id", INT), ("ord", INT)),
    # Episode groups (TMDB's types: 2 absolute, 3 DVD, 5 story arc...), their parts' episodes in order, and
    # the episodes screened in cinemas.
    "episode_groups": schema(("id", TEXT), ("series_id", INT), ("name", TEXT), ("description", TEXT), ("type", INT),
            ("network_id", INT)),
    "episode_group_episodes": schema(("group_id", TEXT), ("part_id", TEXT), ("part_name", TEXT), ("part_order", INT),
            ("locked", BOOL), ("episode_id", INT), ("ord", INT)),
    "screened_episodes": schema(("series_id", INT), ("episode_id", INT)),
    "network_alternative_names": schema(("network_id", INT), ("name", TEXT), ("type", TEXT), ("ord", INT)),
    "network_images": schema(("network_id", INT), ("id", TEXT), ("file_path", TEXT), ("file_type", TEXT), ("width",
            INT), ("height", INT), ("aspect_ratio", FLOAT), ("vote_average", FLOAT), ("vote_count", INT), ("ord",
            INT)),
    "series_companies": schema(("series_id", INT), ("company_id", INT), ("ord", INT)),
    "tv_seasons": schema(("id", INT), ("series_id", INT), ("season_number", INT), ("name", TEXT), ("overview", TEXT),
            ("air_date", DATE), ("poster_path", TEXT), ("vote_average", FLOAT), ("object_id", TEXT), ("tvdb_id", INT),
            ("wikidata_id", TEXT)),
    "tv_episodes": schema(("id", INT), ("series_id", INT), ("season_number", INT), ("episode_number", INT), ("name",
            TEXT), ("overview", TEXT), ("air_date", DATE), ("air_year", INT), ("runtime", INT), ("still_path", TEXT), ("production_code",
            TEXT), ("vote_average", FLOAT), ("vote_count", INT), ("episode_type", TEXT), ("imdb_id", TEXT),
            ("tvdb_id", INT)),
    "created_by": schema(("series_id", INT), ("person_id", INT), ("credit_id", TEXT), ("ord", INT)),
    "series_cast": schema(("series_id", INT), ("person_id", INT), ("credit_id", TEXT), ("character", TEXT), ("order",
            INT), ("first_season", INT), ("last_season", INT)),
    "series_crew": schema(("series_id", INT), ("person_id", INT), ("credit_id", TEXT), ("department", TEXT), ("job",
            TEXT)),
    "episode_crew": schema(("episode_id", INT), ("series_id", INT), ("season_number", INT), ("episode_number", INT),
            ("person_id", INT), ("credit_id", TEXT), ("department", TEXT), ("job", TEXT)),
    "episode_guest_stars": schema(("episode_id", INT), ("series_id", INT), ("season_number", INT), ("episode_number",
            INT), ("person_id", INT), ("credit_id", TEXT), ("character", TEXT), ("order", INT)),
    "series_content_ratings": schema(("series_id", INT), ("iso_3166_1", TEXT), ("rating", TEXT), ("descriptors",
            pa.list_(TEXT)), ("ord", INT)),
    "series_alternative_titles": schema(("series_id", INT), ("iso_3166_1", TEXT), ("title", TEXT), ("type", TEXT),
            ("ord", INT)),
    "tv_keywords": schema(("id", INT), ("name", TEXT)),
    "series_keywords": schema(("series_id", INT), ("keyword_id", INT), ("ord", INT)),
    "tv_videos": schema(("series_id", INT), ("season_number", INT), ("episode_number", INT), ("id", TEXT),
            ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("name", TEXT), ("key", TEXT), ("site", TEXT), ("size", INT),
            ("type", TEXT), ("official", BOOL), ("published_at", TEXT), ("ord", INT)),
    "series_watch_providers": schema(("series_id", INT), ("iso_3166_1", TEXT), ("kind", TEXT), ("provider_id", INT)),
    "series_translations": schema(("series_id", INT), ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("name", TEXT),
            ("overview", TEXT), ("tagline", TEXT), ("homepage", TEXT)),
    "season_translations": schema(("season_id", INT), ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("name", TEXT),
            ("overview", TEXT)),
    "episode_translations": schema(("episode_id", INT), ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("name", TEXT),
            ("overview", TEXT)),
    "person_translations": schema(("person_id", INT), ("iso_639_1", TEXT), ("iso_3166_1", TEXT), ("biography", TEXT)),
    "tv_genre_translations": schema(("genre_id", INT), ("iso_639_1", TEXT), ("name", TEXT)),
    "series_images": schema(("series_id", INT), ("kind", TEXT), ("file_path", TEXT), ("width", INT), ("height", INT),
            ("aspect_ratio", FLOAT), ("iso_639_1", TEXT), ("vote_average", FLOAT), ("vote_count", INT)),
    "season_images": schema(("season_id", INT), ("kind", TEXT), ("file_path", TEXT), ("width", INT), ("height", INT),
            ("aspect_ratio", FLOAT), ("iso_639_1", TEXT), ("vote_average", FLOAT), ("vote_count", INT)),
    "episode_images": schema(("episode_id", INT), ("kind", TEXT), ("file_path", TEXT), ("width", INT), ("height",
            INT), ("aspect_ratio", FLOAT), ("iso_639_1", TEXT), ("vote_average", FLOAT), ("vote_count", INT)),
    "collection_images": schema(("collection_id", INT), ("kind", TEXT), ("file_path", TEXT), ("width", INT),
            ("height", INT), ("aspect_ratio", FLOAT), ("iso_639_1", TEXT), ("vote_average", FLOAT), ("vote_count",
            INT)),
    # What TMDB's users write: reviews of films (media_type 'movie') and series ('tv').
    "reviews": schema(("id", TEXT), ("media_type", TEXT), ("media_id", INT), ("author", TEXT), ("username", TEXT),
            ("name", TEXT), ("avatar_path", TEXT), ("rating", FLOAT), ("iso_639_1", TEXT), ("content", TEXT),
            ("created_at", TIMESTAMP), ("updated_at", TIMESTAMP)),
    # Users' public lists, and their titles in order (media_type 'movie' or 'tv').
    "lists": schema(("id", INT), ("name", TEXT), ("description", TEXT), ("created_by", TEXT), ("iso_639_1", TEXT),
            ("iso_3166_1", TEXT), ("favorite_count", INT), ("poster_path", TEXT), ("created_at", TIMESTAMP),
            ("updated_at", TIMESTAMP)),
    "list_items": schema(("list_id", INT), ("media_type", TEXT), ("media_id", INT), ("ord", INT)),
}
# fmt: on
# Tables a catalogue may hold; a build without them answers their paths with nothing to show:
# cinemas and showtimes (site_gen/showtimes.py), activity, the daily views trending ranks by.
# fmt: off
OPTIONAL: dict[str, pa.Schema] = {
    "cinemas": schema(("id", INT), ("name", TEXT), ("address", TEXT), ("city", TEXT), ("iso_3166_1", TEXT),
            ("latitude", FLOAT), ("longitude", FLOAT), ("timezone", TEXT)),
    "showtimes": schema(("cinema_id", INT), ("movie_id", INT), ("starts_at", INSTANT), ("format", TEXT),
            ("audio_language", TEXT), ("subtitle_language", TEXT)),
    "activity": schema(("kind", TEXT), ("id", INT), ("day", DATE), ("views", INT)),
}
# fmt: on
TABLES: dict[str, pa.Schema] = {**REQUIRED, **OPTIONAL}


class ContractError(ValueError):
    """A table does not fit the contract: the message names the table and the column."""


def conform(name: str, table: pa.Table) -> pa.Table:
    """`table` as the contract's table `name`: its columns in the contract's order and types."""
    expected = TABLES[name]
    missing = [field.name for field in expected if field.name not in table.column_names]
    if missing:
        raise ContractError(f"table {name!r} has no column {missing[0]!r} ({len(missing)} missing)")
    try:
        return table.select(expected.names).cast(expected)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        for field in expected:  # the column that cannot be read as the contract's type
            try:
                table[field.name].cast(field.type)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
                raise ContractError(
                    f"table {name!r}: column {field.name!r} ({table[field.name].type}) cannot be "
                    f"read as {field.type}: {exc}"
                ) from None
        raise


# DuckDB's spelling of each contract type, for importers that write Parquet from SQL (COPY … TO): a
# table never passes through Python, so an import's memory does not grow with the dump.
# fmt: off
SQL_TYPES = {INT: "BIGINT", TEXT: "VARCHAR", FLOAT: "DOUBLE", BOOL: "BOOLEAN", DATE: "DATE", TIMESTAMP: "TIMESTAMP_MS",
             pa.list_(TEXT): "VARCHAR[]", pa.list_(INT): "BIGINT[]"}
# fmt: on


def writable_by_sql(name: str) -> bool:
    """Whether DuckDB can write the table `name` in the contract's types (it has no UTC instant in ms)."""
    return all(field.type in SQL_TYPES for field in TABLES[name])


def conforming_sql(name: str, query: str) -> str:
    """SQL selecting the contract's table `name` from `query`: its columns in order, cast to its types."""
    columns = ", ".join(f'CAST("{f.name}" AS {SQL_TYPES[f.type]}) AS "{f.name}"' for f in TABLES[name])
    return f"SELECT {columns} FROM ({query})"


def empty(name: str) -> pa.Table:
    """The contract's table `name` with no rows: what an import writes for data its dump lacks."""
    return TABLES[name].empty_table()


def _mismatch(name: str, found: pa.Schema) -> str | None:
    """Why the columns of `found` do not fit the contract's table `name`, or None."""
    for field in TABLES[name]:
        if field.name not in found.names:
            return f"no column {field.name!r}"
        actual = found.field(field.name).type
        if actual != field.type:
            return f"column {field.name!r} is {actual}, the contract says {field.type}"
    return None


def check(catalogue_dir: Path) -> None:
    """Raise ContractError for the first table of the folder that is missing or does not fit."""
    for name in TABLES:
        path = Path(catalogue_dir) / f"{name}.parquet"
        if not path.is_file():
            if name in REQUIRED:
                raise ContractError(f"catalogue {catalogue_dir} is missing table {name!r} ({name}.parquet)")
            continue
        try:
            found = pq.read_schema(path)
        except (pa.ArrowInvalid, OSError) as exc:
            raise ContractError(f"catalogue {catalogue_dir}: {name}.parquet is not Parquet ({exc})") from None
        problem = _mismatch(name, found)
        if problem:
            raise ContractError(f"catalogue {catalogue_dir}: table {name!r}: {problem}")


# What a catalogue says of itself, beside its tables: {"ids": "tmdb"} or "imdb" when an importer knows
# whose ids its titles carry (a merge matches equal TMDB ids: datasets/merge.py), and
# {"images": "generated"} from the synthetic generator: its image paths have no file under images/,
# each original is drawn from its path on its first request (marquee_datasets/images.py). The build
# then has no originals to check; it writes the release's image index instead (site_gen/images.py).
FACTS_FILE = "catalogue.json"


def facts(catalogue_dir: Path) -> dict:
    """The catalogue's FACTS_FILE, or {} when it has none (or not a JSON object)."""
    try:
        found = json.loads((Path(catalogue_dir) / FACTS_FILE).read_bytes())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def write_facts(catalogue_dir: Path, **stated: str | None) -> None:
    """Write FACTS_FILE with the facts given (None: not stated)."""
    (Path(catalogue_dir) / FACTS_FILE).write_text(json.dumps({k: v for k, v in stated.items() if v is not None}))


def images_generated(catalogue_dir: Path) -> bool:
    """Whether the catalogue's images are drawn from their paths rather than read from files."""
    return facts(catalogue_dir).get("images") == "generated"
