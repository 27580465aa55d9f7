"""Per-series extras of the synthetic TV catalogue: content ratings, alternative titles, keywords, videos.

Content ratings use each country's real scale; one severity per series (0 = children's, 4 = adults
only) is mapped onto every country's scale, so a show rated TV-MA in the US is 18 in Germany.
Videos hang off a series, a season or an episode (`tv_videos.season_number`/`episode_number` null
for the levels above).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import tv_vocab, vocab
from marquee_datasets.columns import (
    cat,
    first_occurrences,
    fixed_width_strings,
    group_ranks,
    hex_ids,
    pick,
    rng_for,
    splitmix64,
    weighted_choice,
)

_BASE64URL = np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", np.uint8)
_RATING_COUNTRIES = np.array(list(tv_vocab.CONTENT_RATINGS))


def extra_tables(
    series: dict,
    seasons: dict,
    episodes: dict,
    seed: int,
    keywords: pa.Table | None = None,
    provider_regions: pa.Table | None = None,
) -> dict[str, pa.Table]:
    rng = rng_for(seed, "tv_extras")
    tables = {}
    tables.update(_content_ratings(rng, series))
    tables.update(_alternative_titles(rng, series))
    tables.update(_keywords(rng, series, keywords))
    tables["tv_videos"] = _videos(rng, series, seasons, episodes, seed)
    tables["series_watch_providers"] = _watch_providers(rng_for(seed, "tv_watch_providers"), series, provider_regions)
    return tables


def _watch_providers(rng: np.random.Generator, series: dict, provider_regions: pa.Table | None) -> pa.Table:
    """Offers (series, region, kind, provider) drawn from the movie side's provider availability
    (`watch_provider_regions`) and each provider's offer kinds; empty without those tables."""
    n = len(series["id"])
    if provider_regions is None or provider_regions.num_rows == 0:
        provider_regions = pa.table({"provider_id": pa.array([], pa.int64()), "iso_3166_1": pa.array([], pa.string())})
    avail_provider = provider_regions.column("provider_id").to_numpy()
    k = len(avail_provider)
    aired = ~np.isin(series["_status"], ["In Production", "Planned"])
    count = np.where(aired & (k > 0), np.minimum(rng.poisson(0.5 + 1.5 * np.log1p(series["popularity"])), 12), 0)
    s_index = np.repeat(np.arange(n), count)
    avail = rng.integers(0, max(k, 1), len(s_index))
    provider = avail_provider[avail] if k else np.zeros(0, np.int64)
    kinds_of = _provider_kinds()
    all_kinds = sorted({kind for kinds in kinds_of.values() for kind in kinds} | {"flatrate"})
    kind = np.zeros(len(s_index), np.int64)
    pick_at = rng.integers(0, 1 << 30, len(s_index))
    for p in np.unique(provider):  # a loop over providers (a few dozen), not over offers
        rows = np.flatnonzero(provider == p)
        options = np.array([all_kinds.index(x) for x in kinds_of.get(int(p), ("flatrate",))])
        kind[rows] = options[pick_at[rows] % len(options)]
    keep = first_occurrences((s_index * max(k, 1) + avail) * len(all_kinds) + kind)
    s_index, avail, kind = s_index[keep], avail[keep], kind[keep]
    return pa.table(
        {
            "series_id": pa.array(series["id"][s_index], pa.int64()),
            "iso_3166_1": provider_regions.column("iso_3166_1").take(pa.array(avail, pa.int64())),
            "kind": pick(all_kinds, kind),
            "provider_id": pa.array(avail_provider[avail] if k else np.zeros(0, np.int64), pa.int64()),
        }
    )


def _provider_kinds() -> dict[int, tuple[str, ...]]:
    try:
        from marquee_datasets import extras_vocab
    except ImportError:  # the movie side's vocabulary is optional: default to subscription offers
        return {}
    return {p[0]: tuple(p[3]) for p in extras_vocab.WATCH_PROVIDERS}


def _content_ratings(rng: np.random.Generator, series: dict) -> dict[str, pa.Table]:
    n = len(series["id"])
    kids = np.isin(series["_type"], ["Documentary", "News"])
    severity = np.where(kids, rng.integers(0, 3, n), weighted_choice(rng, [4, 10, 30, 35, 21], n))
    k = len(_RATING_COUNTRIES)
    # The origin country (if it has a system) plus 1-5 others; ordered by country code like TMDB.
    wanted = rng.random((n, k)) < (rng.integers(1, 6, n) / k)[:, None]
    wanted |= _RATING_COUNTRIES[None, :] == series["_origin"].to_numpy(zero_copy_only=False)[:, None]
    order = np.argsort(_RATING_COUNTRIES)
    rows, cols = np.nonzero(wanted[:, order])
    cols = order[cols]
    scales = [tv_vocab.CONTENT_RATINGS[c] for c in _RATING_COUNTRIES]
    flat = [r for scale in scales for r in scale]
    starts = np.r_[0, np.cumsum([len(s) for s in scales])[:-1]]
    rating = pick(flat, starts[cols] + severity[rows])
    is_us = _RATING_COUNTRIES[cols] == "US"
    has_descriptor = is_us & (severity[rows] >= 3) & (rng.random(len(rows)) < 0.5)
    desc_values = pick(tv_vocab.US_DESCRIPTORS, rng.integers(0, 1 << 30, int(has_descriptor.sum())))
    descriptors = pa.ListArray.from_arrays(pa.array(np.r_[0, np.cumsum(has_descriptor)].astype(np.int32)), desc_values)
    return {
        "series_content_ratings": pa.table(
            {
                "series_id": series["id"][rows],
                "iso_3166_1": pa.array(_RATING_COUNTRIES[cols], pa.string()),
                "rating": rating,
                "descriptors": descriptors,
                "ord": group_ranks(rows),
            }
        )
    }


def _alternative_titles(rng: np.random.Generator, series: dict) -> dict[str, pa.Table]:
    n = len(series["id"])
    count = weighted_choice(rng, [50, 30, 15, 5], n)
    s_index = np.repeat(np.arange(n), count)
    rows = len(s_index)
    country_codes = np.array([c[0] for c in vocab.COUNTRIES])
    country = rng.integers(0, len(country_codes), rows)
    keep = first_occurrences(s_index * len(country_codes) + country)
    s_index, country = s_index[keep], country[keep]
    rows = len(s_index)
    name = series["name"].take(pa.array(s_index))
    original = series["original_name"].take(pa.array(s_index))
    variant = rng.integers(0, 3, rows).astype(np.int8)
    title = pc.choose(pa.array(variant), original, cat(name, ": The Series"), pc.utf8_upper(name))
    return {
        "series_alternative_titles": pa.table(
            {
                "series_id": series["id"][s_index],
                "iso_3166_1": pa.array(country_codes[country], pa.string()),
                "title": title,
                "type": pick(tv_vocab.ALTERNATIVE_TITLE_TYPES, rng.integers(0, 1 << 30, rows)),
                "ord": group_ranks(s_index),
            }
        )
    }


def _keywords(rng: np.random.Generator, series: dict, keywords: pa.Table | None) -> dict[str, pa.Table]:
    """Series keywords. With the movie side's `keywords` table the series draw from it (same ids and
    names, so /3/keyword/{id} agrees); `tv_keywords` then holds the subset they use."""
    n = len(series["id"])
    if keywords is not None and keywords.num_rows:
        ids = keywords.column("id").to_numpy()
        names = keywords.column("name")
    else:
        ids = np.array([i for i, _ in tv_vocab.KEYWORDS], np.int64)
        names = pa.array([w for _, w in tv_vocab.KEYWORDS], pa.string())
    k = len(ids)
    count = rng.integers(0, 7, n)
    s_index = np.repeat(np.arange(n), count)
    word = np.minimum((rng.random(len(s_index)) ** 2 * k).astype(np.int64), k - 1)  # some words common
    keep = first_occurrences(s_index * k + word)
    s_index, word = s_index[keep], word[keep]
    used = np.unique(word)
    return {
        "tv_keywords": pa.table({"id": ids[used], "name": names.take(pa.array(used))}),
        "series_keywords": pa.table(
            {"series_id": series["id"][s_index], "keyword_id": ids[word], "ord": group_ranks(s_index)}
        ),
    }


def _youtube_keys(counter: np.ndarray, seed: int) -> pa.Array:
    """11-character YouTube-like video keys (base64url of a 64-bit hash)."""
    h = splitmix64(counter.astype(np.uint64) ^ np.uint64(seed * 0x2545F4914F6CDD1D & 0xFFFFFFFFFFFFFFFF))
    chars = np.empty((len(counter), 11), np.uint8)
    for j in range(11):
        chars[:, j] = _BASE64URL[((h >> np.uint64(6 * j)) & np.uint64(63)).astype(np.intp)]
    return fixed_width_strings(chars)


def _videos(rng: np.random.Generator, series: dict, seasons: dict, episodes: dict, seed: int) -> pa.Table:
    n = len(series["id"])
    n_seasons, m = len(seasons["id"]), len(episodes["id"])
    s_count = weighted_choice(rng, [25, 30, 25, 12, 8], n)
    season_count = np.where(rng.random(n_seasons) < 0.4, rng.integers(1, 3, n_seasons), 0)
    episode_count = (rng.random(m) < 0.05).astype(np.int64)
    owner_series = np.concatenate(
        [
            np.repeat(np.arange(n), s_count),
            np.repeat(seasons["_series"], season_count),
            np.repeat(episodes["_series"], episode_count),
        ]
    )
    season_no = np.concatenate(
        [
            np.full(int(s_count.sum()), -1),
            np.repeat(seasons["season_number"], season_count),
            np.repeat(episodes["season_number"], episode_count),
        ]
    )
    episode_no = np.concatenate(
        [np.full(int(s_count.sum() + season_count.sum()), -1), np.repeat(episodes["episode_number"], episode_count)]
    )
    level_air = np.concatenate(
        [
            series["first_air_date"]
            .to_numpy(zero_copy_only=False)
            .astype("datetime64[D]")
            .astype(np.int64)[np.repeat(np.arange(n), s_count)],
            np.asarray(seasons["air_date"].to_numpy(zero_copy_only=False), "datetime64[D]").astype(np.int64)[
                np.repeat(np.arange(n_seasons), season_count)
            ],
            episodes["_air"][np.repeat(np.arange(m), episode_count)],
        ]
    )
    rows = len(owner_series)
    order = np.lexsort((episode_no, season_no, owner_series))
    owner_series, season_no, episode_no, level_air = (
        a[order] for a in (owner_series, season_no, episode_no, level_air)
    )
    kind = weighted_choice(rng, [w for _, w in tv_vocab.VIDEO_TYPES], rows)
    kinds = [t for t, _ in tv_vocab.VIDEO_TYPES]
    # Published a few weeks before the level it belongs to airs, at a round hour UTC.
    published = (level_air - rng.integers(3, 60, rows)).astype("datetime64[D]").astype("datetime64[s]") + rng.integers(
        8, 22, rows
    ).astype("timedelta64[h]")
    published_at = cat(pc.strftime(pa.array(published, pa.timestamp("s")), "%Y-%m-%dT%H:%M:%S"), ".000Z")
    title = cat(
        series["name"].take(pa.array(owner_series)),
        " | ",
        pick(["Official ", "", "Exclusive "], rng.integers(0, 3, rows)),
        pick(kinds, kind),
    )
    group = owner_series * 10_000 + (season_no + 1) * 100 + (episode_no + 1)
    # As for films: a series not made in English has some videos in its own language (TMDB filters
    # videos by `language`). Its own stream, so the columns above keep their values.
    original = series["original_language"].to_numpy(zero_copy_only=False)[owner_series]
    local = (original != "en") & (rng_for(seed, "tv_video_languages").random(rows) < 0.45)
    codes, inverse = np.unique(original, return_inverse=True)
    usual = np.array([vocab.LANGUAGE_COUNTRIES.get(code, ("US",))[0] for code in codes] or ["US"])[inverse]
    return pa.table(
        {
            "series_id": series["id"][owner_series],
            "season_number": pa.array(season_no, pa.int64(), mask=season_no < 0),
            "episode_number": pa.array(episode_no, pa.int64(), mask=episode_no < 0),
            "id": hex_ids(
                np.arange(rows, dtype=np.uint64) + np.uint64(1 << 41), rng.integers(0x52000000, 0x65000000, rows), seed
            ),
            "iso_639_1": pa.array(np.where(local, original, "en"), pa.string()),
            "iso_3166_1": pa.array(np.where(local, usual, "US"), pa.string()),
            "name": title,
            "key": _youtube_keys(np.arange(rows, dtype=np.uint64), seed),
            "site": pa.array(["YouTube"] * rows, pa.string()),
            "size": np.asarray(tv_vocab.VIDEO_SIZES)[rng.integers(0, len(tv_vocab.VIDEO_SIZES), rows)].astype(np.int64),
            "type": pick(kinds, kind),
            "official": rng.random(rows) < 0.85,
            "published_at": published_at,
            "ord": group_ranks(group),
        }
    )
