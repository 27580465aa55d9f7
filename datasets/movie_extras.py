"""Movie sub-resources of the synthetic catalogue: keywords, videos, release dates and certifications,
alternative titles, external ids and third-party ratings (watch providers, soundtracks and the image
lists live in marquee_datasets.movie_media).

`movie_extras_tables()` returns every table of both modules. Everything is drawn from the movies,
genres and crew tables already generated, so values agree with them: keywords come mostly from a
film's genres, certifications follow a maturity derived from its genres, the first release date in
its origin country is its release_date, the TMDB rating is its vote_average. Vectorised throughout.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import certifications, extras_vocab, movie_media, vocab
from marquee_datasets.columns import (
    cat,
    first_occurrences,
    fixed_width_strings,
    group_ranks,
    hex_ids,
    irregular_ids,
    list_column,
    null_where,
    pick,
    prefixed_numbers,
    rng_for,
    rows_of,
    weighted_choice,
)

TABLES: tuple[str, ...] = (
    "keywords",
    "movie_keywords",
    "movie_videos",
    "certifications",
    "movie_release_dates",
    "movie_alternative_titles",
    "movie_external_ids",
    "movie_ratings",
) + movie_media.TABLES

MAX_KEYWORDS = 15
RATING_SOURCES: tuple[str, ...] = ("imdb", "tmdb", "rotten_tomatoes", "metacritic", "kinopoisk")
# How strong a film of each genre tends to be rated (0 = all ages .. 4 = adults only).
# fmt: off
GENRE_MATURITY: dict[str, float] = {
    "Action": 2.3, "Adventure": 1.5, "Animation": 0.4, "Comedy": 1.7, "Crime": 3.0, "Documentary": 1.0,
    "Drama": 2.0, "Family": 0.0, "Fantasy": 1.5, "History": 2.0, "Horror": 3.3, "Music": 1.2,
    "Mystery": 2.2, "Romance": 1.8, "Science Fiction": 1.8, "TV Movie": 1.4, "Thriller": 2.8,
    "War": 3.0, "Western": 2.2,
}
# fmt: on
_YOUTUBE = np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", np.uint8)
_DIGITS = np.frombuffer(b"0123456789", np.uint8)
_SECONDS_PER_DAY = 86_400
_YOUTUBE_START = np.datetime64("2008-01-01")


def movie_extras_tables(tables: dict[str, pa.Table], seed: int) -> dict[str, pa.Table]:
    """All movie sub-resource tables for the already generated movies/genres/crew tables."""
    movies = tables["movies"]
    genre_index = _genre_index_per_row(movies, tables["movie_genres"])
    out = _keyword_tables(rng_for(seed, "keywords"), movies, genre_index)
    out["movie_videos"] = _videos(rng_for(seed, "videos"), movies, seed)
    out["certifications"] = certifications.reference_table()
    out["movie_release_dates"] = _release_dates(rng_for(seed, "release_dates"), movies, genre_index)
    out["movie_alternative_titles"] = _alternative_titles(rng_for(seed, "alternative_titles"), tables)
    out["movie_external_ids"] = _external_ids(rng_for(seed, "external_ids"), tables)
    out["movie_ratings"] = _ratings(rng_for(seed, "ratings"), movies)
    out.update(movie_media.media_tables(tables, seed))
    assert set(out) == set(TABLES)
    return out


def _genre_index_per_row(movies: pa.Table, movie_genres: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """(movie index, vocab.GENRES index) of every movie_genres row, sorted by movie then ord."""
    movie_index = rows_of(movies.column("id").to_numpy(), movie_genres.column("movie_id").to_numpy())
    genre_index = rows_of(np.array([g[0] for g in vocab.GENRES]), movie_genres.column("genre_id").to_numpy())
    rows = np.lexsort((movie_genres.column("ord").to_numpy(), movie_index))
    return movie_index[rows], genre_index[rows]


def keyword_names() -> list[str]:
    """The keyword vocabulary, each name once, in a fixed order (general ones first)."""
    names = list(extras_vocab.GENERAL_KEYWORDS)
    for _, words in extras_vocab.GENRE_KEYWORDS:
        names.extend(words)
    return list(dict.fromkeys(names))


def _keyword_tables(
    rng: np.random.Generator, movies: pa.Table, genre_rows: tuple[np.ndarray, np.ndarray]
) -> dict[str, pa.Table]:
    names = keyword_names()
    position = {name: i for i, name in enumerate(names)}
    ids = irregular_ids(rng, len(names), 818, 2_500)
    # Pools: 0 = general keywords, 1 + g = keywords of vocab.GENRES[g].
    genre_names = [g[1] for g in vocab.GENRES]
    pools = [[position[w] for w in extras_vocab.GENERAL_KEYWORDS]]
    by_genre = dict(extras_vocab.GENRE_KEYWORDS)
    pools += [[position[w] for w in by_genre.get(name, ())] or pools[0] for name in genre_names]
    pool_size = np.array([len(p) for p in pools])
    pool_start = np.r_[0, np.cumsum(pool_size)[:-1]]
    pool_flat = np.concatenate([np.asarray(p) for p in pools])

    n = movies.num_rows
    counts = np.clip(np.round(rng.lognormal(np.log(6.5), 0.55, n)), 1, MAX_KEYWORDS).astype(np.int64)
    counts[rng.random(n) < 0.05] = 0
    movie_index = np.repeat(np.arange(n), counts)
    draws = len(movie_index)
    g_movie, g_index = genre_rows
    g_count = np.bincount(g_movie, minlength=n)
    g_start = np.r_[0, np.cumsum(g_count)[:-1]]
    has_genre = g_count[movie_index] > 0
    pick_row = g_start[movie_index] + (rng.random(draws) * np.maximum(g_count[movie_index], 1)).astype(np.int64)
    pool = np.where((rng.random(draws) < 0.7) & has_genre, 1 + g_index[np.minimum(pick_row, len(g_index) - 1)], 0)
    # Skewed towards each pool's first words, so some keywords are common and others rare.
    offset = (pool_size[pool] * rng.random(draws) ** 1.6).astype(np.int64)
    keyword = pool_flat[pool_start[pool] + offset]
    keep = first_occurrences(movie_index * len(names) + keyword)
    movie_index, keyword = movie_index[keep], keyword[keep]
    return {
        "keywords": pa.table({"id": ids, "name": pa.array(names, pa.string())}),
        "movie_keywords": pa.table(
            {
                "movie_id": movies.column("id").to_numpy()[movie_index],
                "keyword_id": ids[keyword],
                "ord": group_ranks(movie_index),
            }
        ),
    }


def _release_days(movies: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """(days since 1970 of each movie's release_date, mask of movies without one)."""
    dates = movies.column("release_date")
    missing = pc.is_null(dates).to_numpy(zero_copy_only=False)
    days = pc.fill_null(dates, 0).cast(pa.int32()).to_numpy().astype(np.int64)
    return days, missing


def _random_keys(rng: np.random.Generator, n: int, alphabet: np.ndarray, length: int) -> pa.Array:
    """n random strings of `length` characters from alphabet (YouTube keys, Vimeo ids)."""
    return fixed_width_strings(alphabet[rng.integers(0, len(alphabet), (n, length))])


def _videos(rng: np.random.Generator, movies: pa.Table, seed: int) -> pa.Table:
    n = movies.num_rows
    days, missing = _release_days(movies)
    popularity = movies.column("popularity").to_numpy()
    counts = rng.poisson(1.2 + 1.2 * np.log1p(popularity), n)
    counts = np.where(missing, np.minimum(counts, 1), np.minimum(counts, 14))
    movie_index = np.repeat(np.arange(n), counts)
    rows = len(movie_index)
    types = [t for t, _, _ in extras_vocab.VIDEO_TYPES]
    type_idx = weighted_choice(rng, [w for _, w, _ in extras_vocab.VIDEO_TYPES], rows)
    name_lists = [names for _, _, names in extras_vocab.VIDEO_TYPES]
    name_size = np.array([len(x) for x in name_lists])
    name_start = np.r_[0, np.cumsum(name_size)[:-1]]
    name_idx = name_start[type_idx] + rng.integers(0, 1 << 30, rows) % name_size[type_idx]
    name = pick([w for names in name_lists for w in names], name_idx)

    # Trailers come before the release, clips around it, bloopers after; films older than YouTube
    # get their videos uploaded later (anniversary re-releases, studio channel uploads).
    lead = np.array([-150, -220, -20, -40, 30, 120])[type_idx] + rng.normal(0, 40, rows)
    base = np.where(missing, int((np.datetime64("2026-06-01") - np.datetime64("1970-01-01")).astype(int)) - 60, days)
    published_day = base[movie_index] + lead.astype(np.int64)
    youtube_day = (_YOUTUBE_START - np.datetime64("1970-01-01")).astype(np.int64)
    old = published_day < youtube_day
    published_day = np.where(old, youtube_day + rng.integers(0, 6_400, rows), published_day)
    seconds = published_day * _SECONDS_PER_DAY + rng.integers(0, _SECONDS_PER_DAY, rows)

    original = movies.column("original_language").to_numpy(zero_copy_only=False)[movie_index]
    local = (original != "en") & (rng.random(rows) < 0.45)
    codes, inverse = np.unique(original, return_inverse=True)
    usual = np.array([vocab.LANGUAGE_COUNTRIES.get(code, ("US",))[0] for code in codes] or ["US"])[inverse]
    vimeo = rng.random(rows) < 0.05
    key = pc.if_else(pa.array(vimeo), _random_keys(rng, rows, _DIGITS, 9), _random_keys(rng, rows, _YOUTUBE, 11))
    sizes = np.array([s for s, _ in extras_vocab.VIDEO_SIZES])
    table = pa.table(
        {
            "movie_id": movies.column("id").to_numpy()[movie_index],
            "id": hex_ids(
                np.arange(rows, dtype=np.uint64) + np.uint64(1 << 40),
                np.clip(seconds, 0, 0xFFFFFFFF).astype(np.uint64),
                seed,
            ),
            "iso_639_1": pa.array(np.where(local, original, "en"), pa.string()),
            "iso_3166_1": pa.array(np.where(local, usual, "US"), pa.string()),
            "name": name,
            "key": key,
            "site": pa.array(np.where(vimeo, "Vimeo", "YouTube"), pa.string()),
            "size": sizes[weighted_choice(rng, [w for _, w in extras_vocab.VIDEO_SIZES], rows)].astype(np.int64),
            "type": pick(types, type_idx),
            "official": rng.random(rows) < 0.85,
            "published_at": pa.array(seconds, pa.timestamp("s")),
        }
    )
    return table


def movie_maturity(rng: np.random.Generator, n: int, genre_rows: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """0..4 per movie: mean maturity of its genres plus noise (indexes certifications.USABLE lists)."""
    g_movie, g_index = genre_rows
    weights = np.array([GENRE_MATURITY[g[1]] for g in vocab.GENRES])
    total = np.bincount(g_movie, weights=weights[g_index], minlength=n)
    mean = total / np.maximum(np.bincount(g_movie, minlength=n), 1)
    return np.clip(np.round(mean + rng.normal(0, 0.6, n)), 0, 4).astype(np.int64)


def _release_dates(rng: np.random.Generator, movies: pa.Table, genre_rows: tuple[np.ndarray, np.ndarray]) -> pa.Table:
    n = movies.num_rows
    days, missing = _release_days(movies)
    maturity = movie_maturity(rng, n, genre_rows)
    countries = list(certifications.USABLE)
    origin = pc.list_element(movies.column("origin_country").combine_chunks(), 0).to_numpy(zero_copy_only=False)
    all_codes = np.array(sorted(set(countries) | set(origin.tolist())))
    origin_code = np.searchsorted(all_codes, origin)
    weights = np.array([5.0 if c == "US" else 3.0 if c in ("GB", "DE", "FR") else 1.0 for c in all_codes])
    weights[~np.isin(all_codes, countries)] = 0.0
    popularity = movies.column("popularity").to_numpy()
    extra = np.where(missing, 0, np.minimum(rng.poisson(0.5 + 1.5 * np.log1p(popularity)), 12))
    movie = np.concatenate([np.flatnonzero(~missing), np.repeat(np.arange(n), extra)])
    country = np.concatenate([origin_code[~missing], weighted_choice(rng, weights, int(extra.sum()))])
    first = np.concatenate([np.ones(int((~missing).sum()), bool), np.zeros(int(extra.sum()), bool)])
    order = np.lexsort((~first, movie))
    movie, country, first = movie[order], country[order], first[order]
    keep = first_occurrences(movie * len(all_codes) + country)
    movie, country, first = movie[keep], country[keep], first[keep]
    pairs = len(movie)

    # Entries per (movie, country): a theatrical release (the origin's is the movie's release_date),
    # sometimes a festival premiere before it and digital / physical / TV releases after it.
    theatrical_type = np.where(first, 3, np.where(rng.random(pairs) < 0.12, 2, 3))
    theatrical_day = days[movie] + np.where(first, 0, rng.integers(0, 120, pairs))
    premiere = first & (rng.random(pairs) < 0.3)
    digital = rng.random(pairs) < 0.5
    physical = rng.random(pairs) < 0.25
    tv = rng.random(pairs) < 0.05
    pair = np.concatenate([np.arange(pairs), *(np.flatnonzero(m) for m in (premiere, digital, physical, tv))])
    kind = np.concatenate(
        [theatrical_type, *(np.full(int(m.sum()), t) for m, t in ((premiere, 1), (digital, 4), (physical, 5), (tv, 6)))]
    )
    rows = len(pair)
    offset = np.select(
        [kind == 1, kind == 4, kind == 5, kind == 6],
        [
            -rng.integers(10, 150, rows),
            rng.integers(60, 160, rows),
            rng.integers(90, 240, rows),
            rng.integers(300, 900, rows),
        ],
        0,
    )
    day = theatrical_day[pair] + offset
    order = np.lexsort((kind, day, pair))
    pair, kind, day = pair[order], kind[order], day[order]

    code = all_codes[country[pair]]
    level = maturity[movie[pair]]
    cert = np.full(rows, "", object)
    for c in countries:
        here = code == c
        cert[here] = np.asarray(certifications.USABLE[c], object)[level[here]]
    cert[(kind == 1) | ((kind >= 4) & (rng.random(rows) < 0.3)) | (rng.random(rows) < 0.06)] = ""
    # Premieres name their festival, physical releases sometimes their format.
    festival = np.asarray(extras_vocab.FESTIVALS, object)[rng.integers(0, len(extras_vocab.FESTIVALS), rows)]
    home = np.asarray(extras_vocab.HOME_RELEASE_NOTES, object)[
        rng.integers(0, len(extras_vocab.HOME_RELEASE_NOTES), rows)
    ]
    note = np.where(kind == 1, festival, np.where(kind == 5, home, ""))
    return pa.table(
        {
            "movie_id": movies.column("id").to_numpy()[movie[pair]],
            "iso_3166_1": pa.array(code, pa.string()),
            "certification": pa.array(cert, pa.string()),
            "descriptors": list_column(np.zeros(rows + 1, np.int64), pa.array([], pa.string())),
            "iso_639_1": pa.array([""] * rows, pa.string()),
            "note": pa.array(note, pa.string()),
            "release_date": pa.array(day * _SECONDS_PER_DAY, pa.timestamp("s")),
            "type": kind.astype(np.int64),
        }
    )


def _alternative_titles(rng: np.random.Generator, tables: dict[str, pa.Table]) -> pa.Table:
    movies = tables["movies"]
    n = movies.num_rows
    english = tables["movie_translations"].filter(pc.equal(tables["movie_translations"].column("iso_639_1"), "en"))
    ids = movies.column("id").to_numpy()
    english = english.take(pc.index_in(pa.array(ids), english.column("movie_id")))
    title = english.column("title").combine_chunks()
    original = movies.column("original_title").combine_chunks()
    origin = pc.list_element(movies.column("origin_country").combine_chunks(), 0)
    is_english = pc.equal(movies.column("original_language"), "en").to_numpy(zero_copy_only=False)
    short = pc.replace_substring_regex(title, r"^(The|A) ", "")
    words = cat(
        pick(vocab.TITLE_ADJECTIVES, rng.integers(0, 1 << 30, n)),
        " ",
        pick(vocab.TITLE_NOUNS, rng.integers(0, 1 << 30, n)),
    )
    # Variants: 0 original title in the origin country (non-English films), 1 short title (drops the
    # article) or informal "... : The Movie", 2 working title, 3 an English subtitle in GB/AU/CA.
    has_article = pc.not_equal(short, title).to_numpy(zero_copy_only=False)
    candidates = [
        (origin, original, pa.array([""] * n)),
        (
            pa.array(["US"] * n),
            pc.if_else(pa.array(has_article), short, cat(title, ": The Movie")),
            pa.array(np.where(has_article, "short title", "informal title"), pa.string()),
        ),
        (origin, cat("The ", words), pa.array(["working title"] * n)),
        (
            pick(("GB", "AU", "CA"), rng.integers(0, 3, n)),
            cat(title, ": ", words),
            pick(("", "DVD title", "alternative spelling"), rng.integers(0, 3, n)),
        ),
    ]
    count = weighted_choice(rng, [50, 27, 14, 9], n)
    ranked = np.argsort(rng.random((n, 4)), axis=1)
    movie_index, slot = np.nonzero(np.arange(4)[None, :] < count[:, None])
    variant = ranked[movie_index, slot]
    keep = ~((variant == 0) & is_english[movie_index])
    movie_index, variant = movie_index[keep], variant[keep]
    order = np.lexsort((variant, movie_index))
    movie_index, variant = movie_index[order], variant[order]
    selector = pa.array(variant.astype(np.int8))
    take = pa.array(movie_index)
    column = [pc.choose(selector, *(c[k].take(take) for c in candidates)) for k in range(3)]
    return pa.table(
        {
            "movie_id": ids[movie_index],
            "iso_3166_1": column[0],
            "title": column[1],
            "type": column[2],
            "ord": group_ranks(movie_index),
        }
    )


def _external_ids(rng: np.random.Generator, tables: dict[str, pa.Table]) -> pa.Table:
    movies = tables["movies"]
    n = movies.num_rows
    ids = movies.column("id").to_numpy()
    slug = pc.replace_substring_regex(
        pc.utf8_lower(movies.column("original_title").combine_chunks()), r"[^a-z0-9]+", ""
    )
    slug = pc.if_else(pc.equal(pc.utf8_length(slug), 0), cat("film", pa.array(ids).cast(pa.string())), slug)
    social = np.clip(0.15 + 0.1 * np.log1p(movies.column("popularity").to_numpy()), 0, 0.9)
    return pa.table(
        {
            "movie_id": ids,
            "wikidata_id": null_where(
                prefixed_numbers("Q", rng.integers(1_000, 130_000_000, n), 1), rng.random(n) < 0.25
            ),
            "facebook_id": null_where(cat(slug, "movie"), rng.random(n) >= social),
            "instagram_id": null_where(cat(slug, "film"), rng.random(n) >= social * 0.8),
            "twitter_id": null_where(cat(slug, "movie"), rng.random(n) >= social * 0.7),
            "kinopoisk_id": null_where(
                pa.array(rng.integers(300, 6_000_000, n)).cast(pa.string()), rng.random(n) < 0.4
            ),
        }
    )


def _ratings(rng: np.random.Generator, movies: pa.Table) -> pa.Table:
    """One row per movie and source (RATING_SOURCES order); value and votes NULL when a source has none."""
    n = movies.num_rows
    votes = movies.column("vote_count").to_numpy()
    average = movies.column("vote_average").to_numpy()
    released = pc.equal(movies.column("status"), "Released").to_numpy(zero_copy_only=False)
    quality = np.where(votes > 0, average, rng.normal(6.2, 1.0, n))
    has = {
        "imdb": released & (rng.random(n) < 0.95),
        "tmdb": votes > 0,
        "rotten_tomatoes": released & (rng.random(n) < 0.3 + 0.1 * np.log1p(votes) / 3),
        "metacritic": released & (rng.random(n) < 0.2 + 0.1 * np.log1p(votes) / 3),
        "kinopoisk": released & (rng.random(n) < 0.6),
    }
    value = {
        "imdb": np.round(np.clip(quality + rng.normal(0.25, 0.45, n), 1, 10), 1),
        "tmdb": average,
        "rotten_tomatoes": np.round(np.clip((quality - 3.5) * 22 + rng.normal(0, 12, n), 0, 100)),
        "metacritic": np.round(np.clip((quality - 2.5) * 15 + rng.normal(0, 9, n), 1, 100)),
        "kinopoisk": np.round(np.clip(quality + rng.normal(0.2, 0.5, n), 1, 10), 3),
    }
    count = {
        "imdb": np.floor((votes + 5) * rng.lognormal(1.6, 0.6, n)),
        "tmdb": votes,
        "rotten_tomatoes": rng.integers(5, 60, n) + np.floor(np.sqrt(votes) * 2),
        "metacritic": rng.integers(4, 20, n) + np.floor(np.sqrt(votes) / 3),
        "kinopoisk": np.floor((votes + 3) * rng.lognormal(0.5, 0.7, n)),
    }
    k = len(RATING_SOURCES)
    stacked = lambda d: np.stack([d[s] for s in RATING_SOURCES], axis=1).reshape(-1)  # noqa: E731
    missing = ~stacked(has)
    return pa.table(
        {
            "movie_id": np.repeat(movies.column("id").to_numpy(), k),
            "source": pick(RATING_SOURCES, np.tile(np.arange(k), n)),
            "value": pa.array(stacked(value).astype(np.float64), pa.float64(), mask=missing),
            "votes": pa.array(stacked(count).astype(np.int64), pa.int64(), mask=missing),
        }
    )
