"""Reference lists: /3/configuration/{countries,languages,jobs,primary_translations,timezones} and
/3/certification/tv/list, as bare JSON arrays (or TMDB's certifications object) in TMDB's shapes.

The lists are TMDB's own, kept as data in site_gen/data/*.json (copied from the response examples of
TMDB's OpenAPI spec: ISO countries and languages, TMDB's departments and jobs, IANA zones per
country, real TV rating systems). Countries and languages are merged with the catalogue's tables,
whose rows win, so every name a movie document shows (production_countries, spoken_languages) is
the name these lists give for the same code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import orjson

from marquee.settings import Settings

DATA_DIR = Path(__file__).resolve().parent / "data"

COUNTRIES = "/3/configuration/countries"
LANGUAGES = "/3/configuration/languages"
JOBS = "/3/configuration/jobs"
PRIMARY_TRANSLATIONS = "/3/configuration/primary_translations"
TIMEZONES = "/3/configuration/timezones"
TV_CERTIFICATIONS = "/3/certification/tv/list"


def load_data(name: str) -> Any:
    """site_gen/data/<name>.json, parsed."""
    return orjson.loads((DATA_DIR / f"{name}.json").read_bytes())


def merged(reference: list[dict[str, Any]], catalogue: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """TMDB's list in its order with catalogue rows replacing same-key entries; catalogue rows TMDB
    lacks are appended in key order. Each item keeps the reference list's key order."""
    ours = {row[key]: row for row in catalogue}
    fields = list(reference[0]) if reference else list(catalogue[0])
    out = [{f: ours.get(item[key], item)[f] for f in fields} for item in reference]
    known = {item[key] for item in reference}
    out += [{f: ours[code][f] for f in fields} for code in sorted(set(ours) - known)]
    return out


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    cursor = con.execute(sql)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def documents(con: duckdb.DuckDBPyConnection, settings: Settings) -> dict[str, dict[str, Any]]:
    """{template: {uri: document}} of this module's rows of site_gen/templates.py (`objects:reference`)."""
    countries = merged(
        load_data("countries"), _rows(con, "SELECT iso_3166_1, english_name, native_name FROM countries"), "iso_3166_1"
    )
    languages = merged(
        load_data("languages"), _rows(con, "SELECT iso_639_1, english_name, name FROM languages"), "iso_639_1"
    )
    lists = {
        COUNTRIES: countries,
        LANGUAGES: languages,
        JOBS: load_data("jobs"),
        PRIMARY_TRANSLATIONS: load_data("primary_translations"),
        TIMEZONES: load_data("timezones"),
        TV_CERTIFICATIONS: load_data("tv_certifications"),
    }
    return {template: {template: body} for template, body in lists.items()}
