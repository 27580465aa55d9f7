"""Translations of the catalogue into the 14 served languages (marquee_datasets.languages).

`translation_tables` replaces `movie_translations` (same columns, more rows) and adds
`collection_translations` and `genre_translations`:

- popular films are translated into most languages, the long tail into few (availability is a
  per-language rate scaled by the film's popularity rank);
- the original language always has a row carrying the original title (for the 14 languages it also
  gets an overview; other original languages get the sparse row TMDB often has: title only);
- English films keep their en-US row exactly as synthetic.py made it; non-English films keep it
  "most of the time", more often when popular, so some have no English translation at all;
- a few non-original translations have an empty title or overview (TMDB then renders the original
  title / an empty overview, which the renderer's fallbacks reproduce);
- parts of a collection share a title stem per language, like the English and original titles.

Everything is vectorised per language (14 passes over whole columns), seeded from its own stream.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import languages as lang_module
from marquee_datasets import vocab
from marquee_datasets.columns import group_ranks, rng_for

TABLES: tuple[str, ...] = ("movie_translations", "collection_translations", "genre_translations")

# How likely a popular film is translated into each language (scaled down for the long tail).
# fmt: off
TRANSLATION_RATES: dict[str, float] = {
    "es": 0.92, "fr": 0.9, "de": 0.9, "ru": 0.85, "pt": 0.85, "it": 0.75, "zh": 0.7, "ja": 0.65,
    "ko": 0.6, "pl": 0.6, "tr": 0.5, "ar": 0.4, "hi": 0.25,
}
# fmt: on
EMPTY_TITLE_RATE = 0.06
EMPTY_OVERVIEW_RATE = 0.1


def _popularity_rank(popularity: np.ndarray) -> np.ndarray:
    """0 for the least popular film, 1 for the most popular."""
    n = len(popularity)
    rank = np.empty(n)
    rank[np.argsort(popularity, kind="stable")] = np.arange(n)
    return rank / max(1, n - 1)


def _collection_parts(movies: pa.Table) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(member rows, head row of each member, part number, collection id per movie or -1), parts
    numbered in the order synthetic.py numbered them (release date, undated last, then row)."""
    coll = pc.fill_null(movies.column("collection_id"), -1).to_numpy()
    members = np.flatnonzero(coll >= 0)
    dates = pc.fill_null(movies.column("release_date").cast(pa.int32()).cast(pa.int64()), 1 << 40).to_numpy()
    order = np.lexsort((members, dates[members], coll[members]))
    members = members[order]
    part = group_ranks(coll[members])
    starts = np.flatnonzero(part == 0)
    heads = np.repeat(members[starts], np.diff(np.r_[starts, len(members)]))
    return members, heads, part, coll


def _strip_part_number(titles: pa.Array) -> pa.Array:
    return pc.utf8_trim(pc.replace_substring_regex(titles, r"\s+\d+$", ""), " ")


def translation_tables(tables: dict[str, pa.Table], seed: int) -> dict[str, pa.Table]:
    """{"movie_translations", "collection_translations", "genre_translations"} for the generated tables."""
    movies, english_rows, collections = tables["movies"], tables["movie_translations"], tables["collections"]
    rng = rng_for(seed, "translations")
    n = movies.num_rows
    ids = movies.column("id").to_numpy()
    original_language = movies.column("original_language").to_numpy(zero_copy_only=False).astype(str)
    original_title = movies.column("original_title")
    homepage = movies.column("homepage")
    rank = _popularity_rank(movies.column("popularity").to_numpy())
    # synthetic.py's table: exactly one en-US row per film, in film order (it must run before this replaces it).
    assert np.array_equal(english_rows.column("movie_id").to_numpy(), ids)
    has_tagline = pc.not_equal(english_rows.column("tagline"), "").to_numpy(zero_copy_only=False)
    members, heads, part, collection_of = _collection_parts(movies)
    suffix = pa.array(np.where(part == 0, "", " " + (part + 1).astype(str)))

    # English: every English film, most others (more often when popular). Rows stay byte-identical.
    keep_english = (original_language == "en") | (rng.random(n) < 0.55 + 0.4 * rank)
    blocks = [english_rows.filter(pa.array(keep_english))]
    coll_blocks = []
    first_parts = members[part == 0]
    by_collection = np.argsort(collection_of[first_parts])
    coll_rows = first_parts[by_collection][
        np.searchsorted(collection_of[first_parts][by_collection], collections.column("id").to_numpy())
    ]
    coll_ids = collections.column("id")
    empty = pa.array([""] * len(coll_rows), pa.string())
    coll_blocks.append(
        pa.table(
            {
                "collection_id": coll_ids,
                "iso_639_1": pa.array(["en"] * len(coll_rows)),
                "iso_3166_1": pa.array(["US"] * len(coll_rows)),
                "name": collections.column("name"),
                "overview": collections.column("overview"),
                "homepage": empty,
            }
        )
    )

    for lang in lang_module.LANGUAGES:
        code = lang.iso_639_1
        if code == "en":
            continue
        # Draw every column for all n films whether used or not, so one language's draws never shift another's.
        is_original = original_language == code
        available = is_original | (rng.random(n) < TRANSLATION_RATES[code] * (0.04 + 0.96 * rank**1.5))
        generated = lang_module.titles(lang, rng, n).to_numpy(zero_copy_only=False).astype(object)
        generated[members] = generated[heads] + suffix.to_numpy(zero_copy_only=False).astype(object)
        title = pa.array(np.where(is_original, original_title.to_numpy(zero_copy_only=False), generated), pa.string())
        stem = title  # before blanking: the collection's name in this language comes from its head's title
        overview = lang_module.overviews(lang, rng, n)
        tagline = pc.if_else(pa.array(has_tagline & (rng.random(n) < 0.75)), lang_module.taglines(lang, rng, n), "")
        sparse = ~is_original
        title = pc.if_else(pa.array(sparse & (rng.random(n) < EMPTY_TITLE_RATE)), "", title)
        overview = pc.if_else(pa.array(sparse & (rng.random(n) < EMPTY_OVERVIEW_RATE)), "", overview)
        page = pc.if_else(pa.array(is_original), homepage, "")
        rows = pa.array(available)
        blocks.append(
            pa.table(
                {
                    "movie_id": pa.array(ids),
                    "iso_639_1": pa.array([code] * n),
                    "iso_3166_1": pa.array([lang.iso_3166_1] * n),
                    "title": title,
                    "overview": overview,
                    "tagline": tagline,
                    "homepage": page,
                }
            ).filter(rows)
        )
        # A collection is translated where its first part is.
        coll_available = available[coll_rows]
        base = _strip_part_number(stem.take(pa.array(coll_rows)))
        coll_blocks.append(
            pa.table(
                {
                    "collection_id": coll_ids,
                    "iso_639_1": pa.array([code] * len(coll_rows)),
                    "iso_3166_1": pa.array([lang.iso_3166_1] * len(coll_rows)),
                    "name": lang_module.collection_names(lang, base),
                    "overview": lang_module.collection_overviews(lang, base),
                    "homepage": empty,
                }
            ).filter(pa.array(coll_available))
        )

    blocks.append(_other_original_languages(ids, original_language, original_title, homepage))
    genre_ids = pa.array([g[0] for g in vocab.GENRES], pa.int64())
    genre_blocks = [
        pa.table(
            {
                "genre_id": genre_ids,
                "iso_639_1": pa.array([lang.iso_639_1] * len(genre_ids)),
                "name": pa.array(lang.genres, pa.string()),
            }
        )
        for lang in lang_module.LANGUAGES
    ]
    return {
        "movie_translations": pa.concat_tables(blocks),
        "collection_translations": pa.concat_tables(coll_blocks),
        "genre_translations": pa.concat_tables(genre_blocks),
    }


def _other_original_languages(
    ids: np.ndarray, original_language: np.ndarray, original_title: pa.ChunkedArray, homepage: pa.ChunkedArray
) -> pa.Table:
    """The sparse original-language row (title only) of films in a language outside the served 14."""
    rows = np.flatnonzero(~np.isin(original_language, list(lang_module.BY_CODE)))
    region = {code: countries[0] for code, countries in vocab.LANGUAGE_COUNTRIES.items()}
    codes, inverse = np.unique(original_language[rows], return_inverse=True)
    blank = pa.array([""] * len(rows), pa.string())
    take = pa.array(rows)
    return pa.table(
        {
            "movie_id": pa.array(ids[rows]),
            "iso_639_1": pa.array(codes[inverse], pa.string()),
            "iso_3166_1": pa.array(np.array([region[c] for c in codes], dtype=object)[inverse], pa.string()),
            "title": original_title.take(take),
            "overview": blank,
            "tagline": blank,
            "homepage": homepage.take(take),
        }
    )
