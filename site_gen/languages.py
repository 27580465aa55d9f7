"""Languages family: which language variants are rendered, and the translations documents.

`prepare` runs before every family collects. It writes the `render_variants` table the variant-aware
SQL joins against (one row per variant: the default language with suffix "", each other language of
MARQUEE_LANGUAGES with suffix ".xx-YY", and ".und", TMDB's answer for a missing translation) and
selects the default language for the SQL that renders it alone (`getvariable('iso_639_1')`).

Documents whose content depends on language (movie and collection details, the genre list) render
every variant in one query each, by joining render_variants with the translation tables, so the
catalogue is scanned once per resource rather than once per language. The
language-independent /translations documents are rows of site_gen/templates.py like any other.
"""

from __future__ import annotations

import duckdb

from marquee.packs import UNTRANSLATED, variant_suffix
from marquee.settings import Settings
from site_gen.documents import set_language
from site_gen.templates import Preparation


def variant_rows(
    languages: list[str],
    genre_languages: set[str] | frozenset[str] = frozenset({"en"}),
) -> list[tuple[str, str | None, str | None, str, str]]:
    """(suffix, iso_639_1, iso_3166_1, kind, genre_language) for each variant to render.

    genre_language is the language whose genre names a variant shows: its own where the catalogue
    has them (genre_languages), else the default language's, else English.
    """
    default = languages[0].split("-")[0]
    fallback = default if default in genre_languages else "en"
    rows: list[tuple[str, str | None, str | None, str, str]] = []
    for position, tag in enumerate(languages):
        iso_639_1, _, iso_3166_1 = tag.partition("-")
        rows.append(
            (
                variant_suffix(position, tag),
                iso_639_1,
                iso_3166_1,
                "default" if position == 0 else "other",
                iso_639_1 if iso_639_1 in genre_languages else fallback,
            )
        )
    # No translation: original title, empty overview; genre names stay in the default language.
    rows.append((UNTRANSLATED, None, None, "und", fallback))
    return rows


def prepare(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    """Create render_variants for settings.languages and select the default language."""
    con.execute(
        "CREATE OR REPLACE TEMP TABLE render_variants (suffix VARCHAR, iso_639_1 VARCHAR, "
        "iso_3166_1 VARCHAR, kind VARCHAR, genre_language VARCHAR)"
    )
    genre_languages = {code for (code,) in con.execute("SELECT DISTINCT iso_639_1 FROM genre_translations").fetchall()}
    con.executemany(
        "INSERT INTO render_variants VALUES (?, ?, ?, ?, ?)", variant_rows(list(settings.languages), genre_languages)
    )
    set_language(con, settings.languages[0])
    if con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'series_translations'").fetchone()[0]:
        # Series as list items show them (similar, recommendations, people's credits): the default
        # language's name and overview, with TMDB's fallbacks, as the series' own default document.
        con.execute("""CREATE OR REPLACE TEMP TABLE tv_series_listed AS
                       SELECT s.* REPLACE (coalesce(nullif(t.name, ''), s.original_name) AS name,
                                           coalesce(t.overview, '') AS overview)
                       FROM tv_series s LEFT JOIN series_translations t
                         ON t.series_id = s.id AND t.iso_639_1 = getvariable('iso_639_1')
                        AND t.iso_3166_1 = getvariable('iso_3166_1')""")


# fmt: off
PREPARATIONS = (
    # First of all: the variant-aware SQL of many templates and preparations joins render_variants.
    Preparation("languages", prepare, makes=("render_variants", "tv_series_listed"), optional=("tv_series_listed",)),
)
# fmt: on
