"""TV series, seasons and episodes of the synthetic catalogue (with genres, networks and companies).

`tv_tables()` owns every TV table (TV_TABLES); credits come from `marquee_datasets.tv_credits` and
ratings, titles, keywords and videos from `marquee_datasets.tv_extras`. Shapes follow TMDB: 1-15
seasons (most shows have one to three), 6-24 episodes a season airing weekly, a specials season 0
for some shows. Air dates are laid out relative to the catalogue's fixed reference date, so a
series' status agrees with its episodes: an Ended show aired everything before it, a Returning one
may be mid-season (next_episode_to_air set), Planned and In Production shows air after it.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import people_details, tv_credits, tv_extras, tv_groups, tv_vocab, vocab
from marquee_datasets.columns import (
    cat,
    first_occurrences,
    group_ranks,
    hex_ids,
    image_paths,
    irregular_ids,
    list_column,
    null_where,
    pick,
    prefixed_numbers,
    rng_for,
    weighted_choice,
)

# fmt: off
TV_TABLES: tuple[str, ...] = (
    "tv_series", "tv_genres", "series_genres", "networks", "series_networks", "series_companies",
    "tv_seasons", "tv_episodes", "created_by", "series_cast", "series_crew", "episode_crew",
    "episode_guest_stars", "series_content_ratings", "series_alternative_titles", "tv_keywords",
    "series_keywords", "tv_videos", "series_watch_providers", "network_alternative_names", "network_images",
    "episode_groups", "episode_group_episodes", "screened_episodes",
)
# fmt: on
MAX_SEASONS = 15
_STATUS = np.array([s for s, _ in tv_vocab.STATUSES])
_TYPE = np.array([t[0] for t in tv_vocab.TYPES])


def tv_tables(
    n: int,
    people: pa.Table,
    companies: pa.Table,
    seed: int,
    reference_date: np.datetime64,
    keywords: pa.Table | None = None,
    provider_regions: pa.Table | None = None,
) -> dict[str, pa.Table]:
    """Every table in TV_TABLES for n series, drawing credits from `people`, studios from `companies`
    and, when the movie side has made them, keywords from `keywords` and streaming offers from
    `provider_regions` (watch_provider_regions)."""
    if n < 1:
        raise ValueError("series must be at least 1")
    rng = rng_for(seed, "tv_series")
    series = _series_columns(rng, n, seed)
    seasons, episodes = _seasons_and_episodes(rng_for(seed, "tv_episodes"), series, seed, reference_date)
    _finish_series(series, seasons, episodes, reference_date)
    tables = {
        "tv_series": pa.table({k: v for k, v in series.items() if not k.startswith("_")}),
        "tv_seasons": pa.table({k: v for k, v in seasons.items() if not k.startswith("_")}),
        "tv_episodes": pa.table({k: v for k, v in episodes.items() if not k.startswith("_")}),
    }
    tables.update(_genre_tables(rng_for(seed, "tv_genres"), series))
    tables.update(_network_tables(rng_for(seed, "networks"), series, companies, seed))
    names, logos = people_details.organisation_tables("network", tables["networks"], seed, 1 << 41)
    tables.update({"network_alternative_names": names, "network_images": logos})
    tables.update(tv_groups.group_tables(tables["tv_series"], tables["tv_episodes"], tables["series_networks"], seed))
    tables.update(tv_credits.credit_tables(series, seasons, episodes, people, seed))
    tables.update(tv_extras.extra_tables(series, seasons, episodes, seed, keywords, provider_regions))
    assert set(tables) == set(TV_TABLES)
    return tables


def _series_columns(rng: np.random.Generator, n: int, seed: int) -> dict:
    ids = irregular_ids(rng, n, 1, 60)
    lang_codes = np.array([lang[0] for lang in vocab.LANGUAGES])
    lang_idx = weighted_choice(rng, vocab.LANGUAGE_WEIGHTS, n)
    languages = lang_codes[lang_idx]
    type_idx = weighted_choice(rng, [t[1] for t in tv_vocab.TYPES], n)
    status_idx = weighted_choice(rng, [w for _, w in tv_vocab.STATUSES], n)
    kind = _TYPE[type_idx]
    # Talk shows and news run for years; everything else leans to one to three seasons.
    n_seasons = np.clip(rng.geometric(np.where(np.isin(kind, ["Talk Show", "News"]), 0.4, 0.55)), 1, MAX_SEASONS)
    future = np.isin(_STATUS[status_idx], ["In Production", "Planned"])
    n_seasons = np.where((kind == "Miniseries") | future, 1, n_seasons)

    article = pick(("", "The ", "", "", "A "), rng.integers(0, 5, n))
    adjective = pc.if_else(
        pa.array(rng.random(n) < 0.5), cat(pick(vocab.TITLE_ADJECTIVES, rng.integers(0, 1 << 30, n)), " "), ""
    )
    name = cat(article, adjective, pick(vocab.TITLE_NOUNS, rng.integers(0, 1 << 30, n)))
    original = name.to_numpy(zero_copy_only=False).astype(object)
    word = rng.integers(0, 1 << 30, n)
    for code in np.unique(languages):  # one pass per language (~30), not per series
        if code != "en":
            rows = np.flatnonzero(languages == code)
            words = np.asarray(vocab.NATIVE_TITLE_WORDS.get(code, vocab.LATIN_TITLE_WORDS), object)
            original[rows] = words[word[rows] % len(words)]
    country_codes = np.array([c[0] for c in vocab.COUNTRIES])
    country_pos = {code: i for i, code in enumerate(country_codes)}
    origin = np.zeros(n, np.int64)
    for code in np.unique(languages):
        rows = np.flatnonzero(languages == code)
        usual = np.array([country_pos[c] for c in vocab.LANGUAGE_COUNTRIES[code]])
        origin[rows] = usual[word[rows] % len(usual)]
    # Spoken languages: the original one, sometimes English as well.
    extra_en = (languages != "en") & (rng.random(n) < 0.2)
    lang_counts = 1 + extra_en
    lang_values = np.empty(int(lang_counts.sum()), object)
    starts = np.r_[0, np.cumsum(lang_counts)[:-1]]
    lang_values[starts] = languages
    lang_values[starts[extra_en] + 1] = "en"

    runtime_base = np.array([t[3] for t in tv_vocab.TYPES])[type_idx]
    runtime_base = np.where(kind == "Scripted", np.array([22, 30, 45, 60])[rng.integers(0, 4, n)], runtime_base)
    has_run_time = rng.random(n) < 0.6
    popularity = np.round(rng.lognormal(1.2, 1.4, n), 3)
    vote_count = np.where(future, 0, np.floor(popularity**1.4 * rng.lognormal(1.5, 0.9, n))).astype(np.int64)
    slug = pc.replace_substring_regex(pc.utf8_lower(name), r"[^a-z0-9]+", "")
    social = rng.random(n) < 0.35
    first_names = pick(vocab.FEMALE_NAMES + vocab.MALE_NAMES, rng.integers(0, 1 << 30, n))
    return {
        "id": ids,
        "name": name,
        "original_name": pa.array(original, pa.string()),
        "original_language": pa.array(languages, pa.string()),
        "overview": cat(
            "When ",
            first_names,
            ", a ",
            pick(vocab.PROFESSIONS, rng.integers(0, 1 << 30, n)),
            ", ",
            pick(vocab.GOALS, rng.integers(0, 1 << 30, n)),
            ", nothing stays the same.",
        ),
        "tagline": pc.if_else(pa.array(rng.random(n) < 0.4), pick(vocab.TAGLINES, rng.integers(0, 1 << 30, n)), ""),
        "status": pa.array(_STATUS[status_idx], pa.string()),
        "type": pa.array(kind, pa.string()),
        "in_production": np.isin(_STATUS[status_idx], ["Returning Series", "In Production", "Planned"]),
        "homepage": pc.if_else(pa.array(rng.random(n) < 0.4), cat("https://www.", slug, "tv.com/"), ""),
        "popularity": popularity,
        "vote_average": np.where(vote_count > 0, np.round(np.clip(rng.normal(7.0, 1.0, n), 1, 10), 1), 0.0),
        "vote_count": vote_count,
        "adult": rng.random(n) < 0.005,
        "poster_path": null_where(image_paths(ids, "tv-poster", seed, ".jpg"), rng.random(n) < 0.03),
        "backdrop_path": null_where(image_paths(ids, "tv-backdrop", seed, ".jpg"), rng.random(n) < 0.05),
        "origin_country": list_column(np.arange(n + 1), pick(country_codes, origin)),
        "languages": list_column(np.r_[0, np.cumsum(lang_counts)], pa.array(lang_values, pa.string())),
        "episode_run_time": list_column(
            np.r_[0, np.cumsum(has_run_time)], pa.array(runtime_base[has_run_time], pa.int64())
        ),
        "imdb_id": null_where(
            prefixed_numbers("tt", irregular_ids(rng, n, 20_000, 900)[rng.permutation(n)], 7), rng.random(n) < 0.08
        ),
        "tvdb_id": pa.array(
            irregular_ids(rng, n, 70_000, 900)[rng.permutation(n)], pa.int64(), mask=rng.random(n) < 0.05
        ),
        "wikidata_id": null_where(
            cat("Q", pa.array(irregular_ids(rng, n, 1_000_000, 9_000)).cast(pa.string())), rng.random(n) < 0.3
        ),
        "tvrage_id": pa.array(irregular_ids(rng, n, 2_000, 30), pa.int64(), mask=rng.random(n) < 0.7),
        "facebook_id": null_where(slug, ~social),
        "instagram_id": null_where(slug, ~social),
        "twitter_id": null_where(slug, ~social | (rng.random(n) < 0.3)),
        "_n_seasons": n_seasons,
        "_status": _STATUS[status_idx],
        "_type": kind,
        "_runtime": runtime_base,
        "_origin": pick(country_codes, origin),
        "_language": languages,
    }


def _group_offsets(lengths: np.ndarray) -> np.ndarray:
    """For rows holding each season's (length + gap), its start offset inside its series."""
    return np.r_[0, np.cumsum(lengths)[:-1]]


def _seasons_and_episodes(
    rng: np.random.Generator, series: dict, seed: int, reference_date: np.datetime64
) -> tuple[dict, dict]:
    n = len(series["id"])
    n_seasons = series["_n_seasons"]
    status = series["_status"]
    base = np.array([c for c, _ in tv_vocab.EPISODE_COUNTS])[
        weighted_choice(rng, [w for _, w in tv_vocab.EPISODE_COUNTS], n)
    ]
    base = np.where(np.isin(series["_type"], ["Talk Show", "News"]), 12, base)
    # Regular seasons, in series order.
    s_series = np.repeat(np.arange(n), n_seasons)
    s_number = group_ranks(s_series) + 1
    eps = np.clip(base[s_series] + rng.integers(-2, 3, len(s_series)), 6, 24)
    length = (eps - 1) * 7
    step = length + rng.integers(120, 420, len(s_series))
    excl = _group_offsets(step)
    series_first_row = np.r_[0, np.cumsum(n_seasons)[:-1]]
    start_off = excl - excl[series_first_row][s_series]
    last_row = np.cumsum(n_seasons) - 1
    span = start_off[last_row] + length[last_row]

    ref = reference_date.astype("datetime64[D]").astype(np.int64)
    back = np.floor(rng.exponential(6 * 365.25, n)).astype(np.int64)
    first = ref - span - 1 - np.minimum(back, 50 * 365)  # Ended, Canceled
    airing = (status == "Returning Series") & (rng.random(n) < 0.5)
    aired_in_last = (rng.random(n) * (eps[last_row] - 1)).astype(np.int64)  # episodes 0..k aired
    first = np.where(airing, ref - start_off[last_row] - aired_in_last * 7 - rng.integers(0, 7, n), first)
    first = np.where((status == "Returning Series") & ~airing, ref - span - rng.integers(10, 300, n), first)
    first = np.where(np.isin(status, ["In Production", "Planned"]), ref + rng.integers(20, 400, n), first)

    # Specials (season 0): 1-4 episodes scattered over the run of some aired shows.
    specials = (rng.random(n) < 0.15) & (first < ref)
    sp_series = np.flatnonzero(specials)
    sp_eps = rng.integers(1, 5, len(sp_series))
    all_series = np.r_[s_series, sp_series]
    all_number = np.r_[s_number, np.zeros(len(sp_series), np.int64)]
    all_eps = np.r_[eps, sp_eps]
    all_start = np.r_[first[s_series] + start_off, np.zeros(len(sp_series), np.int64)]
    order = np.lexsort((all_number, all_series))
    all_series, all_number, all_eps, all_start = all_series[order], all_number[order], all_eps[order], all_start[order]
    n_rows = len(all_series)

    e_season = np.repeat(np.arange(n_rows), all_eps)
    e_series = all_series[e_season]
    e_number = group_ranks(e_season) + 1
    e_snum = all_number[e_season]
    air = all_start[e_season] + (e_number - 1) * 7
    is_special = e_snum == 0
    sp = np.flatnonzero(is_special)
    if len(sp):  # specials keep their numbering in air-date order
        when = first[e_series[sp]] + rng.integers(0, np.maximum(span, 1)[e_series[sp]])
        air[sp] = when[np.lexsort((when, e_season[sp]))]

    m = len(e_season)
    aired = air <= ref
    stype = series["_type"][e_series]
    named = pick(tv_vocab.EPISODE_WORDS, rng.integers(0, 1 << 30, m))
    numbered = cat("Episode ", pa.array(e_number).cast(pa.string()))
    name = pc.if_else(pa.array(np.isin(stype, ["Talk Show", "News"])), numbered, named)
    name = pc.if_else(
        pa.array((e_snum == 1) & (e_number == 1) & (stype == "Scripted") & (rng.random(m) < 0.5)), "Pilot", name
    )
    vote_count = np.where(aired, rng.poisson(np.maximum(series["vote_count"][e_series] / 40, 0.5)), 0)
    base_vote = np.where(series["vote_average"] > 0, series["vote_average"], 7.0)[e_series]
    ep_vote = np.where(vote_count > 0, np.round(np.clip(base_vote + rng.normal(0, 0.6, m), 1, 10), 3), 0.0)
    season_len = all_eps[e_season]
    ep_type = np.where(
        e_number == season_len,
        "finale",
        np.where((season_len >= 20) & (e_number == season_len // 2), "mid_season", "standard"),
    )
    ep_type = np.where(is_special, "standard", ep_type)
    code_series = rng.random(n) < 0.3
    letters = pick([a + b for a in "ABCDEFGHJK" for b in "LMNPRSTVWX"], np.arange(n))
    code = cat(
        pa.array(e_snum).cast(pa.string()),
        letters.take(pa.array(e_series)),
        pc.utf8_lpad(pa.array(e_number).cast(pa.string()), 2, "0"),
    )
    ep_ids = irregular_ids(rng, m, 1_000_000, 40)
    episodes = {
        "id": ep_ids,
        "series_id": series["id"][e_series],
        "season_number": e_snum.astype(np.int64),
        "episode_number": e_number.astype(np.int64),
        "name": name,
        "overview": pc.if_else(
            pa.array(rng.random(m) < 0.85), pick(tv_vocab.EPISODE_GOALS, rng.integers(0, 1 << 30, m)), ""
        ),
        "air_date": pa.array(air.astype("datetime64[D]"), pa.date32()),
        "air_year": pa.nulls(m, pa.int64()),  # the dates say it
        "runtime": (series["_runtime"][e_series] + rng.integers(-3, 4, m)).astype(np.int64),
        "still_path": null_where(
            image_paths(ep_ids, "tv-still", seed, ".jpg"), rng.random(m) < np.where(aired, 0.08, 0.5)
        ),
        "production_code": pc.if_else(pa.array(code_series[e_series] & ~is_special), code, ""),
        "vote_average": ep_vote,
        "vote_count": vote_count.astype(np.int64),
        "episode_type": pa.array(ep_type, pa.string()),
        "imdb_id": null_where(
            prefixed_numbers("tt", irregular_ids(rng, m, 30_000, 400)[rng.permutation(m)], 7), rng.random(m) < 0.35
        ),
        "tvdb_id": pa.array(
            irregular_ids(rng, m, 300_000, 500)[rng.permutation(m)], pa.int64(), mask=rng.random(m) < 0.1
        ),
        "_series": e_series,
        "_season_row": e_season,
        "_aired": aired,
        "_air": air,
    }
    # Season votes: the mean of its voted episodes (TMDB averages them too), 0 before any vote.
    voted = vote_count > 0
    sums = np.bincount(e_season, weights=np.where(voted, ep_vote, 0.0), minlength=n_rows)
    counts = np.bincount(e_season, weights=voted, minlength=n_rows)
    season_ids = irregular_ids(rng, n_rows, 3_000, 40)
    first_air_of_season = np.full(n_rows, np.iinfo(np.int64).max)
    np.minimum.at(first_air_of_season, e_season, air)
    overview_words = cat(
        "Season ",
        pa.array(all_number).cast(pa.string()),
        " of ",
        series["name"].take(pa.array(all_series)),
        ". ",
        pick(tv_vocab.EPISODE_GOALS, rng.integers(0, 1 << 30, n_rows)),
    )
    seasons = {
        "id": season_ids,
        "series_id": series["id"][all_series],
        "season_number": all_number.astype(np.int64),
        "name": pc.if_else(
            pa.array(all_number == 0), "Specials", cat("Season ", pa.array(all_number).cast(pa.string()))
        ),
        "overview": pc.if_else(pa.array(rng.random(n_rows) < 0.45), overview_words, ""),
        "air_date": pa.array(first_air_of_season.astype("datetime64[D]"), pa.date32()),
        "poster_path": null_where(image_paths(season_ids, "tv-season-poster", seed, ".jpg"), rng.random(n_rows) < 0.1),
        "vote_average": np.round(np.divide(sums, counts, out=np.zeros(n_rows), where=counts > 0), 1),
        "object_id": hex_ids(
            np.arange(n_rows, dtype=np.uint64), rng.integers(0x52000000, 0x65000000, n_rows), seed + 40
        ),
        "tvdb_id": pa.array(irregular_ids(rng, n_rows, 20_000, 60), pa.int64(), mask=rng.random(n_rows) < 0.1),
        "wikidata_id": null_where(
            cat("Q", pa.array(irregular_ids(rng, n_rows, 5_000_000, 900)).cast(pa.string())), rng.random(n_rows) < 0.8
        ),
        "_series": all_series,
        "_episodes": all_eps,
    }
    return seasons, episodes


def _finish_series(series: dict, seasons: dict, episodes: dict, reference_date: np.datetime64) -> None:
    """first/last air dates and the last/next episode ids, from the episodes' air dates."""
    n = len(series["id"])
    e_series, aired, air = episodes["_series"], episodes["_aired"], episodes["_air"]
    regular = np.asarray(episodes["season_number"]) > 0
    # Regular episodes are sorted by series, season, number, and air in that order within a series.
    last_id = np.full(n, -1, np.int64)
    rows = np.flatnonzero(regular & aired)
    ends = rows[np.r_[e_series[rows][1:] != e_series[rows][:-1], True]] if len(rows) else rows
    last_id[e_series[ends]] = episodes["id"][ends]
    last_air = np.full(n, 0, np.int64)
    last_air[e_series[ends]] = air[ends]
    next_id = np.full(n, -1, np.int64)
    rows = np.flatnonzero(regular & ~aired)
    heads = rows[np.r_[True, e_series[rows][1:] != e_series[rows][:-1]]] if len(rows) else rows
    next_id[e_series[heads]] = episodes["id"][heads]
    first_air = np.full(n, np.iinfo(np.int64).max)
    np.minimum.at(first_air, e_series[regular], air[regular])
    series["first_air_date"] = pa.array(first_air.astype("datetime64[D]"), pa.date32())
    series["last_air_date"] = pa.array(last_air.astype("datetime64[D]"), pa.date32(), mask=last_id < 0)
    series["first_air_year"] = series["last_air_year"] = pa.nulls(n, pa.int64())  # the dates say them
    series["last_episode_id"] = pa.array(last_id, pa.int64(), mask=last_id < 0)
    series["next_episode_id"] = pa.array(next_id, pa.int64(), mask=next_id < 0)


def _genre_tables(rng: np.random.Generator, series: dict) -> dict[str, pa.Table]:
    n = len(series["id"])
    genre_ids = np.array([g for g, _ in tv_vocab.TV_GENRES])
    scores = rng.gumbel(size=(n, len(genre_ids))) + np.log(np.asarray(tv_vocab.TV_GENRE_WEIGHTS))
    type_genre = {t[0]: t[2] for t in tv_vocab.TYPES}
    for kind, genre in type_genre.items():
        if genre:
            scores[series["_type"] == kind, np.flatnonzero(genre_ids == genre)[0]] += 100.0
    ranked = np.argsort(-scores, axis=1)
    per_series = weighted_choice(rng, [35, 40, 20, 5], n) + 1
    mask = np.arange(len(genre_ids))[None, :] < per_series[:, None]
    rows, ords = np.nonzero(mask)
    return {
        "tv_genres": pa.table({"id": pa.array(genre_ids, pa.int64()), "name": [g for _, g in tv_vocab.TV_GENRES]}),
        "series_genres": pa.table(
            {"series_id": series["id"][rows], "genre_id": genre_ids[ranked[mask]], "ord": ords.astype(np.int64)}
        ),
    }


def _network_tables(rng: np.random.Generator, series: dict, companies: pa.Table, seed: int) -> dict[str, pa.Table]:
    n = len(series["id"])
    k = max(8, n // 8)
    ids = irregular_ids(rng, k, 1, 60)
    name = cat(
        pick(tv_vocab.NETWORK_WORDS, rng.integers(0, 1 << 30, k)),
        " ",
        pick(tv_vocab.NETWORK_SUFFIXES, rng.integers(0, 1 << 30, k)),
    )
    slug = pc.replace_substring_regex(pc.utf8_lower(name), r"[^a-z0-9]+", "")
    country_codes = np.array([c[0] for c in vocab.COUNTRIES])
    weights = np.where(
        country_codes == "US", 20.0, np.where(np.isin(country_codes, ["GB", "DE", "FR", "JP"]), 4.0, 1.0)
    )
    networks = pa.table(
        {
            "id": ids,
            "name": name,
            "logo_path": null_where(image_paths(ids, "network-logo", seed, ".png"), rng.random(k) < 0.15),
            "origin_country": pa.array(country_codes[weighted_choice(rng, weights, k)], pa.string()),
            "headquarters": pick(vocab.CITIES, rng.integers(0, 1 << 30, k)),
            "homepage": pc.if_else(pa.array(rng.random(k) < 0.7), cat("https://www.", slug, ".com"), ""),
        }
    )
    zipf = 1.0 / (np.arange(k) + 1.0)
    per_series = 1 + (rng.random(n) < 0.15)
    s_index = np.repeat(np.arange(n), per_series)
    net = weighted_choice(rng, zipf, len(s_index))
    keep = first_occurrences(s_index * k + net)
    s_index, net = s_index[keep], net[keep]

    n_comp = companies.num_rows
    per = weighted_choice(rng, [20, 45, 25, 10], n)
    c_index = np.repeat(np.arange(n), per)
    comp = weighted_choice(rng, 1.0 / (np.arange(n_comp) + 1.0) ** 1.05, len(c_index))
    keep = first_occurrences(c_index * n_comp + comp)
    c_index, comp = c_index[keep], comp[keep]
    return {
        "networks": networks,
        "series_networks": pa.table(
            {"series_id": series["id"][s_index], "network_id": ids[net], "ord": group_ranks(s_index)}
        ),
        "series_companies": pa.table(
            {
                "series_id": series["id"][c_index],
                "company_id": companies.column("id").to_numpy()[comp],
                "ord": group_ranks(c_index),
            }
        ),
    }
