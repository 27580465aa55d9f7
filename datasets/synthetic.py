"""Deterministic synthetic TMDB-like catalogue, written as one Parquet file per table.

`generate()` owns the movie-side tables (movies, translations, collections, genres, companies,
countries, languages and their link tables); `marquee_datasets.people` adds people, cast and crew.
Image originals are not files: the catalogue says its images are generated, and each is drawn from
its path when first asked for (`marquee_datasets.images`). Same seed and size -> identical
files. Every column is built vectorised so that a million movies stays a matter of seconds.
"""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from marquee_build import contract
from marquee_datasets import activity as activity_module
from marquee_datasets import movie_extras as movie_extras_module
from marquee_datasets import people as people_module
from marquee_datasets import people_details as people_details_module
from marquee_datasets import public_lists as public_lists_module
from marquee_datasets import reviews as reviews_module
from marquee_datasets import showtimes as showtimes_module
from marquee_datasets import tagged_images as tagged_images_module
from marquee_datasets import translations as translations_module
from marquee_datasets import tv as tv_module
from marquee_datasets import tv_images as tv_images_module
from marquee_datasets import tv_translations as tv_translations_module
from marquee_datasets import vocab
from marquee_datasets.columns import (
    cat,
    first_occurrences,
    group_ranks,
    image_paths,
    irregular_ids,
    list_column,
    null_where,
    pick,
    prefixed_numbers,
    rng_for,
    weighted_choice,
)

# A fixed "today" keeps statuses deterministic (a film dated after it is not released yet).
REFERENCE_DATE = np.datetime64("2026-06-01")
_LATEST_DATE = np.datetime64("2026-12-31")
_EARLIEST_DATE = np.datetime64("1920-01-01")

TABLES: tuple[str, ...] = tuple(contract.TABLES)  # every table of the catalogue contract (build/contract.py)


def generate(
    out_dir: Path, movies: int, seed: int, series: int | None = None, today: date | None = None
) -> dict[str, int]:
    """Write the catalogue into out_dir: tables as Parquet, and catalogue.json saying its images are
    generated (build/contract.py FACTS_FILE), so no image file is written (at a million titles, ~17M).

    Returns {table name: row count}. `series` is the number of TV series (default: one per ten movies, at least one). `today` moves
    every date so that the catalogue's "today" (REFERENCE_DATE) is that day: `marquee generate`
    dates the sample around the day it is made, so that now playing, upcoming, airing today and
    trending have titles; without it the catalogue is the same whatever the day (tests).
    """
    if movies < 1:
        raise ValueError("movies must be at least 1")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tables = _reference_tables()
    tables.update(_movie_tables(movies, seed))
    tables.update(_company_tables(tables["movies"], seed))
    tables.update(people_module.people_tables(tables["movies"], seed))
    tables.update(movie_extras_module.movie_extras_tables(tables, seed))
    # After the extras (they read one English row per film): adds the 13 other languages, drops some en rows.
    tables.update(translations_module.translation_tables(tables, seed))
    tables.update(people_details_module.detail_tables(tables["people"], tables["companies"], seed))
    tables.update(
        tv_module.tv_tables(
            max(1, movies // 10) if series is None else series,
            tables["people"],
            tables["companies"],
            seed,
            REFERENCE_DATE,
            tables.get("keywords"),
            tables.get("watch_provider_regions"),
        )
    )
    tables.update(tv_translations_module.translation_tables(tables, seed))
    tables.update(tv_images_module.image_tables(tables, seed))
    tables.update(reviews_module.review_tables(tables, seed, REFERENCE_DATE))
    tables.update(public_lists_module.list_tables(tables, seed, REFERENCE_DATE))
    tables.update(tagged_images_module.tagged_tables(tables, seed))
    reference = REFERENCE_DATE
    if today is not None:
        reference = np.datetime64(today, "D")
        tables = {
            name: shifted(table, int((reference - REFERENCE_DATE).astype(np.int64))) for name, table in tables.items()
        }
    # After the shift, from the (moved) dates: showtimes at the cinemas' local times on those very days,
    # activity around that day.
    tables.update(showtimes_module.showtime_tables(tables["movies"], tables["movie_release_dates"], seed, reference))
    tables.update(
        activity_module.activity_table(tables["movies"], tables["tv_series"], tables["tv_episodes"], seed, reference)
    )
    assert set(tables) == set(TABLES)
    for name in TABLES:
        pq.write_table(contract.conform(name, tables[name]), out_dir / f"{name}.parquet", compression="zstd")
    # An older catalogue's originals must not leak into this one: its paths are drawn, not read.
    shutil.rmtree(out_dir / "images", ignore_errors=True)
    contract.write_facts(out_dir, images="generated")
    return {name: tables[name].num_rows for name in TABLES}


def _reference_tables() -> dict[str, pa.Table]:
    return {
        "genres": pa.table(
            {
                "id": pa.array([g[0] for g in vocab.GENRES], pa.int64()),
                "name": [g[1] for g in vocab.GENRES],
            }
        ),
        "countries": pa.table(
            {
                "iso_3166_1": [c[0] for c in vocab.COUNTRIES],
                "english_name": [c[1] for c in vocab.COUNTRIES],
                "native_name": [c[2] for c in vocab.COUNTRIES],
            }
        ),
        "languages": pa.table(
            {
                "iso_639_1": [lang[0] for lang in vocab.LANGUAGES],
                "english_name": [lang[1] for lang in vocab.LANGUAGES],
                "name": [lang[2] for lang in vocab.LANGUAGES],
            }
        ),
    }


def _english_titles(rng: np.random.Generator, n: int) -> pa.Array:
    place = cat(" in ", pick(vocab.TITLE_PLACES, rng.integers(0, 1 << 30, n)))
    of_noun = cat(" of the ", pick(vocab.TITLE_NOUNS, rng.integers(0, 1 << 30, n)))
    empty = pa.array([""] * n)
    tail = pc.choose(pa.array(weighted_choice(rng, [6, 1.5, 1.5], n).astype(np.int8)), empty, place, of_noun)
    adjective = pc.choose(
        pa.array((rng.random(n) < 0.55).astype(np.int8)),
        empty,
        cat(pick(vocab.TITLE_ADJECTIVES, rng.integers(0, 1 << 30, n)), " "),
    )
    article = pick(("", "The ", "", "A ", "The "), rng.integers(0, 5, n))
    return cat(article, adjective, pick(vocab.TITLE_NOUNS, rng.integers(0, 1 << 30, n)), tail)


def _original_titles(rng: np.random.Generator, languages: np.ndarray, english: pa.Array) -> pa.Array:
    """English films keep their English title; others get one in their own language's words."""
    n = len(languages)
    first = rng.integers(0, 1 << 30, n)
    second = rng.integers(0, 1 << 30, n)
    two_words = rng.random(n) < 0.4
    titles = english.to_numpy(zero_copy_only=False).astype(object)
    for code in np.unique(languages):
        if code == "en":
            continue
        rows = np.flatnonzero(languages == code)
        words = vocab.NATIVE_TITLE_WORDS.get(code, vocab.LATIN_TITLE_WORDS)
        sep = "" if code in ("ja", "zh", "cn", "th") else " "
        a = np.asarray(words, object)[first[rows] % len(words)]
        b = np.asarray(words, object)[second[rows] % len(words)]
        titles[rows] = np.where(two_words[rows] & (a != b), a + sep + b, a)
    return pa.array(titles, pa.string())


def shifted(table: pa.Table, days: int) -> pa.Table:
    """`table` with every date and timestamp column `days` later (nulls stay null)."""
    if days == 0:
        return table
    for index, field in enumerate(table.schema):
        if pa.types.is_date32(field.type):
            moved = pc.cast(pc.add(pc.cast(table.column(index), pa.int32()), pa.scalar(days, pa.int32())), pa.date32())
        elif pa.types.is_timestamp(field.type):
            per_day = {"s": 86_400, "ms": 86_400_000, "us": 86_400_000_000, "ns": 86_400_000_000_000}[field.type.unit]
            moved = pc.cast(
                pc.add(pc.cast(table.column(index), pa.int64()), pa.scalar(days * per_day, pa.int64())), field.type
            )
        else:
            continue
        table = table.set_column(index, field, moved)
    return table


def _release_dates(rng: np.random.Generator, n: int) -> np.ndarray:
    """Dates from 1920 to 2026, mostly recent (exponential age), with a uniform floor of old films."""
    years_ago = np.where(rng.random(n) < 0.8, rng.exponential(14.0, n), rng.uniform(0, 106.9, n))
    dates = _LATEST_DATE - (years_ago * 365.25).astype("timedelta64[D]")
    return np.maximum(dates, _EARLIEST_DATE)


def _movie_tables(n: int, seed: int) -> dict[str, pa.Table]:
    rng = rng_for(seed, "movies")
    ids = irregular_ids(rng, n, 2, 7)
    lang_codes = np.array([lang[0] for lang in vocab.LANGUAGES])
    lang_idx = weighted_choice(rng, vocab.LANGUAGE_WEIGHTS, n)
    dates = _release_dates(rng, n)
    no_date = rng.random(n) < 0.01

    # Collections: ~10% of films, in groups of 2-6 that share a language and a base title.
    coll_rng = rng_for(seed, "collections")
    sizes = coll_rng.integers(2, 7, max(1, n // 35) + 1)
    sizes = sizes[np.cumsum(sizes) <= max(2, round(n * 0.10))]
    members = coll_rng.permutation(n)[: int(sizes.sum())]
    coll_of_member = np.repeat(np.arange(len(sizes)), sizes)
    date_key = np.where(no_date[members], np.int64(1 << 40), dates[members].astype(np.int64))
    order = np.lexsort((members, date_key, coll_of_member))
    members, coll_of_member = members[order], coll_of_member[order]
    part_no = group_ranks(coll_of_member)
    heads = members[part_no == 0]
    lang_idx[members] = lang_idx[heads][coll_of_member]
    languages = lang_codes[lang_idx]

    english = _english_titles(rng, n)
    original = _original_titles(rng, languages, english)
    suffix = np.where(part_no == 0, "", " " + (part_no + 1).astype(str))
    english_np = english.to_numpy(zero_copy_only=False).astype(object)
    original_np = original.to_numpy(zero_copy_only=False).astype(object)
    english_np[members] = english_np[heads][coll_of_member] + suffix
    original_np[members] = original_np[heads][coll_of_member] + suffix
    english, original = pa.array(english_np, pa.string()), pa.array(original_np, pa.string())

    future = dates > REFERENCE_DATE
    status = np.where(future, np.array(vocab.STATUSES_FUTURE)[rng.integers(0, 3, n)], "Released")
    status = np.where(no_date, np.where(rng.random(n) < 0.5, "Rumored", "Planned"), status)
    status = np.where(rng.random(n) < 0.004, "Canceled", status)
    released = status == "Released"
    age_years = (_LATEST_DATE - dates).astype(np.int64) / 365.25

    popularity = np.round(rng.lognormal(0.6, 1.25, n) * (0.4 + 1.6 * np.exp(-age_years / 25)), 3)
    vote_count = np.where(released, np.floor(popularity**1.5 * rng.lognormal(2.3, 0.9, n)), 0).astype(np.int64)
    vote_average = np.where(vote_count > 0, np.round(np.clip(rng.normal(6.3, 1.1, n), 1, 10), 1), 0.0)
    runtime = np.clip(rng.normal(104, 22, n), 45, 240).astype(np.int64)
    runtime[(rng.random(n) < 0.04) | (~released & (rng.random(n) < 0.6))] = 0
    budget = np.where(rng.random(n) < 0.45, np.round(rng.lognormal(16.2, 1.3, n), -3), 0).astype(np.int64)
    revenue = np.where(
        (budget > 0) & released & (rng.random(n) < 0.75), np.round(budget * rng.lognormal(0.4, 1.0, n), -2), 0
    ).astype(np.int64)
    slug = pc.replace_substring_regex(pc.utf8_lower(english), r"[^a-z0-9]+", "")
    homepage = pc.if_else(pa.array(rng.random(n) < 0.3), cat("https://www.", slug, "movie.com/"), "")
    imdb = prefixed_numbers("tt", irregular_ids(rng, n, 10_000, 40)[rng.permutation(n)], 7)

    collection_ids = irregular_ids(coll_rng, len(sizes), 10, 300) if len(sizes) else np.zeros(0, np.int64)
    collection_of_movie = np.full(n, -1, np.int64)
    collection_of_movie[members] = collection_ids[coll_of_member]

    # Production countries: the language's usual country first, sometimes co-producers after it.
    country_codes = np.array([c[0] for c in vocab.COUNTRIES])
    country_pos = {code: i for i, code in enumerate(country_codes)}
    primary_country = np.zeros(n, np.int64)
    pick_idx = rng.integers(0, 1 << 30, n)
    for li, code in enumerate(lang_codes):
        rows = np.flatnonzero(lang_idx == li)
        usual = np.array([country_pos[c] for c in vocab.LANGUAGE_COUNTRIES[code]])
        primary_country[rows] = usual[pick_idx[rows] % len(usual)]
    country_weights = np.where(
        country_codes == "US", 12.0, np.where(np.isin(country_codes, ["GB", "FR", "DE", "CA"]), 4.0, 1.0)
    )
    movie_countries = _linked(rng, primary_country, country_weights, [75, 18, 7])
    spoken = _linked(rng, lang_idx, np.where(lang_codes == "en", 20.0, 1.0), [70, 22, 8])

    genre_ids = np.array([g[0] for g in vocab.GENRES])
    scores = rng.gumbel(size=(n, len(genre_ids))) + np.log(np.asarray(vocab.GENRE_WEIGHTS))
    ranked = np.argsort(-scores, axis=1)
    per_movie = weighted_choice(rng, [30, 40, 22, 8], n) + 1
    mask = np.arange(len(genre_ids))[None, :] < per_movie[:, None]
    genre_rows, genre_ord = np.nonzero(mask)

    poster = null_where(image_paths(ids, "movie-poster", seed, ".jpg"), rng.random(n) < 0.03)
    backdrop = null_where(image_paths(ids, "movie-backdrop", seed, ".jpg"), rng.random(n) < 0.03)
    first_names = pick(vocab.FEMALE_NAMES + vocab.MALE_NAMES, rng.integers(0, 1 << 30, n))
    overview = cat(
        first_names,
        " ",
        pick(vocab.SURNAMES, rng.integers(0, 1 << 30, n)),
        ", a ",
        pick(vocab.PROFESSIONS, rng.integers(0, 1 << 30, n)),
        ", ",
        pick(vocab.GOALS, rng.integers(0, 1 << 30, n)),
        " ",
        pick(vocab.THREATS, rng.integers(0, 1 << 30, n)),
    )
    tagline = pc.if_else(pa.array(rng.random(n) < 0.6), pick(vocab.TAGLINES, rng.integers(0, 1 << 30, n)), "")

    movies = pa.table(
        {
            "id": ids,
            "imdb_id": imdb,
            "original_title": original,
            "original_language": pa.array(languages, pa.string()),
            "release_date": pa.array(
                np.where(no_date, np.datetime64("NaT"), dates).astype("datetime64[D]"), pa.date32()
            ),
            "release_year": pa.nulls(n, pa.int64()),  # the dates say it
            "runtime": runtime,
            "budget": budget,
            "revenue": revenue,
            "status": pa.array(status, pa.string()),
            "popularity": popularity,
            "vote_average": vote_average,
            "vote_count": vote_count,
            "adult": rng.random(n) < 0.01,
            "video": rng.random(n) < 0.005,
            "homepage": homepage,
            "poster_path": poster,
            "backdrop_path": backdrop,
            "collection_id": pa.array(collection_of_movie, pa.int64(), mask=collection_of_movie < 0),
            "origin_country": list_column(np.arange(n + 1), pick(country_codes, primary_country)),
        }
    )
    translations = pa.table(
        {
            "movie_id": ids,
            "iso_639_1": pa.array(["en"] * n),
            "iso_3166_1": pa.array(["US"] * n),
            "title": english,
            "overview": overview,
            "tagline": tagline,
            "homepage": homepage,
        }
    )
    coll_names = english.take(pa.array(heads))
    collections = pa.table(
        {
            "id": collection_ids,
            "name": cat(pc.utf8_trim(pc.replace_substring_regex(coll_names, r"\s+\d+$", ""), " "), " Collection"),
            "original_language": pa.array(languages[heads], pa.string()),
            "overview": cat("The complete ", coll_names, " saga, gathered in one collection."),
            "poster_path": null_where(
                image_paths(collection_ids, "collection-poster", seed, ".jpg"), coll_rng.random(len(heads)) < 0.03
            ),
            "backdrop_path": null_where(
                image_paths(collection_ids, "collection-backdrop", seed, ".jpg"), coll_rng.random(len(heads)) < 0.03
            ),
        }
    )
    return {
        "movies": movies,
        "movie_translations": translations,
        "collections": collections,
        "movie_genres": pa.table(
            {"movie_id": ids[genre_rows], "genre_id": genre_ids[ranked[mask]], "ord": genre_ord.astype(np.int64)}
        ),
        "movie_countries": pa.table(
            {
                "movie_id": ids[movie_countries[0]],
                "iso_3166_1": pick(country_codes, movie_countries[1]),
                "ord": movie_countries[2],
            }
        ),
        "movie_spoken_languages": pa.table(
            {"movie_id": ids[spoken[0]], "iso_639_1": pick(lang_codes, spoken[1]), "ord": spoken[2]}
        ),
    }


def _linked(
    rng: np.random.Generator, first: np.ndarray, weights: np.ndarray, extra_weights: list[float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Link rows (movie index, code index, ord): `first` at ord 0, then 0-2 weighted extras, no duplicates."""
    n = len(first)
    extras = weighted_choice(rng, extra_weights, n)
    movie = np.concatenate([np.arange(n), np.repeat(np.arange(n), extras)])
    code = np.concatenate([first, weighted_choice(rng, weights, int(extras.sum()))])
    order = np.argsort(movie, kind="stable")
    movie, code = movie[order], code[order]
    keep = first_occurrences(movie * len(weights) + code)
    movie, code = movie[keep], code[keep]
    return movie, code, group_ranks(movie)


def _company_tables(movies: pa.Table, seed: int) -> dict[str, pa.Table]:
    rng = rng_for(seed, "companies")
    n_movies = movies.num_rows
    n = max(20, n_movies // 6)
    ids = irregular_ids(rng, n, 1, 9)
    country_codes = np.array([c[0] for c in vocab.COUNTRIES])
    country_weights = np.where(
        country_codes == "US", 25.0, np.where(np.isin(country_codes, ["GB", "FR", "DE", "JP"]), 4.0, 1.0)
    )
    name = cat(
        pick(vocab.COMPANY_WORDS, rng.integers(0, 1 << 30, n)),
        " ",
        pick(vocab.COMPANY_SUFFIXES, rng.integers(0, 1 << 30, n)),
    )
    slug = pc.replace_substring_regex(pc.utf8_lower(name), r"[^a-z0-9]+", "")
    parent_index = (rng.random(n) * np.arange(n)).astype(np.int64)
    has_parent = (rng.random(n) < 0.1) & (np.arange(n) > 0)
    companies = pa.table(
        {
            "id": ids,
            "name": name,
            "logo_path": null_where(image_paths(ids, "company-logo", seed, ".png"), rng.random(n) < 0.35),
            "origin_country": pa.array(country_codes[weighted_choice(rng, country_weights, n)], pa.string()),
            "headquarters": pick(vocab.CITIES, rng.integers(0, 1 << 30, n)),
            "homepage": pc.if_else(pa.array(rng.random(n) < 0.5), cat("https://www.", slug, ".com"), ""),
            "description": pc.if_else(
                pa.array(rng.random(n) < 0.2), cat(name, " is an independent production company."), ""
            ),
            "parent_company_id": pa.array(ids[parent_index], pa.int64(), mask=~has_parent),
        }
    )
    per_movie = weighted_choice(rng, [8, 35, 30, 17, 10], n_movies)
    movie_index = np.repeat(np.arange(n_movies), per_movie)
    zipf = 1.0 / (np.arange(n) + 1.0) ** 1.05
    company_index = weighted_choice(rng, zipf, len(movie_index))
    keep = first_occurrences(movie_index * n + company_index)
    movie_index, company_index = movie_index[keep], company_index[keep]
    movie_ids = movies.column("id").to_numpy()
    return {
        "companies": companies,
        "movie_companies": pa.table(
            {"movie_id": movie_ids[movie_index], "company_id": ids[company_index], "ord": group_ranks(movie_index)}
        ),
    }
