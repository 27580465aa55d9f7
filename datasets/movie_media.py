"""Where to watch, what it sounds like and what it looks like: watch providers and their per-movie
offers, soundtrack albums with tracks, and each movie's image list (posters, backdrops, logos).

Called through marquee_datasets.movie_extras. The movie's own poster_path / backdrop_path are the
top-rated entries of its image list; the other entries get new paths, drawn from their paths on
request (marquee_datasets.images).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import extras_vocab, vocab
from marquee_datasets.columns import (
    cat,
    first_occurrences,
    group_ranks,
    image_paths,
    irregular_ids,
    list_column,
    pick,
    rng_for,
    weighted_choice,
)

# fmt: off
TABLES: tuple[str, ...] = (
    "watch_providers", "watch_provider_regions", "movie_watch_providers", "soundtracks",
    "soundtrack_tracks", "movie_images",
)
# fmt: on
IMAGE_KINDS: tuple[str, ...] = ("poster", "backdrop", "logo")
_POSTER_SIZES = ((2000, 3000), (1000, 1500), (1400, 2100), (680, 1000))
_BACKDROP_SIZES = ((3840, 2160), (1920, 1080), (1280, 720))


def media_tables(tables: dict[str, pa.Table], seed: int) -> dict[str, pa.Table]:
    out = _provider_tables(rng_for(seed, "watch_providers"), tables["movies"], seed)
    out.update(_soundtrack_tables(rng_for(seed, "soundtracks"), tables))
    out["movie_images"] = _images(rng_for(seed, "movie_images"), tables["movies"], seed)
    return out


def _provider_tables(rng: np.random.Generator, movies: pa.Table, seed: int) -> dict[str, pa.Table]:
    providers = extras_vocab.WATCH_PROVIDERS
    provider_ids = np.array([p[0] for p in providers], np.int64)
    regions = extras_vocab.WATCH_REGIONS
    kinds = extras_vocab.OFFER_KINDS
    # Availability: (provider index, region index), each with its regional display priority.
    avail_p, avail_r = [], []
    for pi, (_, _, _, _, where) in enumerate(providers):
        for ri, region in enumerate(regions):
            if not where or region in where:
                avail_p.append(pi)
                avail_r.append(ri)
    avail_p, avail_r = np.array(avail_p), np.array(avail_r)
    base = np.array([p[2] for p in providers], np.int64)
    regional_priority = base[avail_p] + rng.integers(0, 3, len(avail_p))
    # Pools of eligible providers per (region, kind), best display priority first.
    pool_key = []
    for pi, ri in zip(avail_p, avail_r):
        for kind in providers[pi][3]:
            pool_key.append((ri * len(kinds) + kinds.index(kind), base[pi], pi))
    pool_key.sort()
    keys = np.array([k for k, _, _ in pool_key])
    members = np.array([pi for _, _, pi in pool_key])
    size = np.bincount(keys, minlength=len(regions) * len(kinds))
    start = np.r_[0, np.cumsum(size)[:-1]]

    n = movies.num_rows
    released = pc.equal(movies.column("status"), "Released").to_numpy(zero_copy_only=False)
    popularity = movies.column("popularity").to_numpy()
    region_count = np.where(released, np.minimum(rng.poisson(0.8 + 2.5 * np.log1p(popularity)), len(regions)), 0)
    weights = np.array([6.0 if r == "US" else 3.0 if r in ("GB", "CA", "DE", "FR") else 1.0 for r in regions])
    mr_movie = np.repeat(np.arange(n), region_count)
    mr_region = weighted_choice(rng, weights, len(mr_movie))
    keep = first_occurrences(mr_movie * len(regions) + mr_region)
    mr_movie, mr_region = mr_movie[keep], mr_region[keep]
    counts_by_kind = {
        "flatrate": [40, 42, 18],
        "rent": [35, 20, 25, 20],
        "buy": [30, 20, 25, 25],
        "ads": [85, 15],
        "free": [92, 8],
    }
    offer_mr, offer_kind = [], []
    for ki, kind in enumerate(kinds):
        c = weighted_choice(rng, counts_by_kind[kind], len(mr_movie))
        offer_mr.append(np.repeat(np.arange(len(mr_movie)), c))
        offer_kind.append(np.full(int(c.sum()), ki))
    offer_mr, offer_kind = np.concatenate(offer_mr), np.concatenate(offer_kind)
    pool = mr_region[offer_mr] * len(kinds) + offer_kind
    usable = size[pool] > 0
    offer_mr, offer_kind, pool = offer_mr[usable], offer_kind[usable], pool[usable]
    provider = members[start[pool] + (size[pool] * rng.random(len(pool)) ** 1.5).astype(np.int64)]
    order = np.lexsort((provider, offer_kind, offer_mr))
    offer_mr, offer_kind, provider = offer_mr[order], offer_kind[order], provider[order]
    keep = first_occurrences((offer_mr * len(kinds) + offer_kind) * len(providers) + provider)
    offer_mr, offer_kind, provider = offer_mr[keep], offer_kind[keep], provider[keep]
    return {
        "watch_providers": pa.table(
            {
                "provider_id": provider_ids,
                "provider_name": pa.array([p[1] for p in providers], pa.string()),
                "logo_path": image_paths(provider_ids, "provider-logo", seed, ".jpg"),
                "display_priority": base,
            }
        ),
        "watch_provider_regions": pa.table(
            {
                "provider_id": provider_ids[avail_p],
                "iso_3166_1": pick(regions, avail_r),
                "display_priority": regional_priority,
            }
        ),
        "movie_watch_providers": pa.table(
            {
                "movie_id": movies.column("id").to_numpy()[mr_movie[offer_mr]],
                "iso_3166_1": pick(regions, mr_region[offer_mr]),
                "kind": pick(kinds, offer_kind),
                "provider_id": provider_ids[provider],
            }
        ),
    }


def _composers(tables: dict[str, pa.Table]) -> pa.Array:
    """Per movie (movies order): name of its first credited Original Music Composer, or NULL."""
    crew = tables["crew"].filter(pc.equal(tables["crew"].column("job"), "Original Music Composer"))
    ids = tables["movies"].column("id").combine_chunks()
    first = first_occurrences(crew.column("movie_id").to_numpy()) if crew.num_rows else np.zeros(0, np.int64)
    crew = crew.take(pa.array(first, pa.int64())).combine_chunks()
    people = tables["people"].combine_chunks()
    names = (
        people.column("name")
        .combine_chunks()
        .take(pc.index_in(crew.column("person_id").combine_chunks(), people.column("id").combine_chunks()))
    )
    return names.take(pc.index_in(ids, crew.column("movie_id").combine_chunks()))


def _soundtrack_tables(rng: np.random.Generator, tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    movies = tables["movies"]
    n = movies.num_rows
    has_date = pc.is_valid(movies.column("release_date")).to_numpy(zero_copy_only=False)
    released = pc.equal(movies.column("status"), "Released").to_numpy(zero_copy_only=False)
    chosen = np.flatnonzero(has_date & released & (rng.random(n) < 0.55))
    m = len(chosen)
    ids = irregular_ids(rng, max(m, 1), 10_001, 40)[:m]
    songs = rng.random(m) < 0.35
    titles = tables["movie_translations"]
    en = titles.filter(pc.equal(titles.column("iso_639_1"), "en"))
    movie_ids = movies.column("id").take(pa.array(chosen, pa.int64()))
    title = en.column("title").take(pc.index_in(movie_ids, en.column("movie_id")))
    title = pc.coalesce(title, movies.column("original_title").take(pa.array(chosen, pa.int64())))
    albums = pa.table(
        {
            "id": ids,
            "movie_id": movie_ids,
            "title": cat(
                title, pc.if_else(pa.array(songs), " (Original Motion Picture Soundtrack)", " (Original Score)")
            ),
            "type": pa.array(np.where(songs, "songs", "score"), pa.string()),
            "label": pick(extras_vocab.RECORD_LABELS, rng.integers(0, 1 << 30, m)),
            "release_date": movies.column("release_date").take(pa.array(chosen, pa.int64())),
        }
    )

    tracks_per = np.where(songs, rng.integers(8, 17, m), rng.integers(10, 25, m))
    album = np.repeat(np.arange(m), tracks_per)
    t = len(album)
    number = group_ranks(album) + 1
    last = number == tracks_per[album]
    score_title = pc.if_else(
        pa.array(number == 1),
        "Main Title",
        pc.if_else(pa.array(last), "End Credits", pick(extras_vocab.TRACK_WORDS, rng.integers(0, 1 << 30, t))),
    )
    song_title = cat(
        pick(vocab.TITLE_ADJECTIVES, rng.integers(0, 1 << 30, t)),
        " ",
        pick(vocab.TITLE_NOUNS, rng.integers(0, 1 << 30, t)),
    )
    song = songs[album]
    composer = _composers(tables).take(pa.array(chosen[album], pa.int64()))
    person = cat(
        pick(vocab.FEMALE_NAMES + vocab.MALE_NAMES, rng.integers(0, 1 << 30, t)),
        " ",
        pick(vocab.SURNAMES, rng.integers(0, 1 << 30, t)),
    )
    band = cat(
        "The ",
        pick(vocab.TITLE_ADJECTIVES, rng.integers(0, 1 << 30, t)),
        " ",
        pick(extras_vocab.BAND_NOUNS, rng.integers(0, 1 << 30, t)),
    )
    lead = pc.if_else(
        pa.array(song), pc.if_else(pa.array(rng.random(t) < 0.5), band, person), pc.coalesce(composer, person)
    )
    featured = song & (rng.random(t) < 0.2)
    per_track = 1 + featured.astype(np.int64)
    owner = np.repeat(np.arange(t), per_track)
    second = cat(
        pick(vocab.FEMALE_NAMES + vocab.MALE_NAMES, rng.integers(0, 1 << 30, t)),
        " ",
        pick(vocab.SURNAMES, rng.integers(0, 1 << 30, t)),
    )
    artist_values = pc.choose(
        pa.array(group_ranks(owner).astype(np.int8)), lead.take(pa.array(owner)), second.take(pa.array(owner))
    )
    duration = np.where(song, rng.integers(150_000, 300_000, t), rng.integers(45_000, 330_000, t))
    tracks = pa.table(
        {
            "soundtrack_id": ids[album],
            "number": number.astype(np.int64),
            "title": pc.if_else(pa.array(song), song_title, score_title),
            "artists": list_column(np.r_[0, np.cumsum(per_track)], artist_values),
            "duration_ms": duration.astype(np.int64),
        }
    )
    return {"soundtracks": albums, "soundtrack_tracks": tracks}


def _images(rng: np.random.Generator, movies: pa.Table, seed: int) -> pa.Table:
    """Each movie's posters, backdrops and logos; its poster_path/backdrop_path rank first."""
    return owner_images(rng, movies, seed, "movie-image", "movie_id", MOVIE_IMAGE_EXTRAS)


# Extra images per owner beyond its main path, drawn per kind (in this order: it fixes the draws).
# fmt: off
MOVIE_IMAGE_EXTRAS: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "poster": lambda rng, n: rng.integers(0, 5, n),
    "backdrop": lambda rng, n: rng.integers(0, 6, n),
    "logo": lambda rng, n: weighted_choice(rng, [30, 50, 20], n),
}
# fmt: on


def owner_images(
    rng: np.random.Generator,
    owners: pa.Table,
    seed: int,
    namespace: str,
    owner_column: str,
    extras: dict[str, Callable[[np.random.Generator, int], np.ndarray]],
) -> pa.Table:
    """The image list of each row of `owners` (a table with id and original_language, and for each kind
    that has one a `<kind>_path` column ranked first): posters, backdrops, logos or stills.

    Shared by films, series, seasons, episodes and collections; sorted by owner, one row per image.
    """
    n = owners.num_rows
    ids = owners.column("id").to_numpy()
    language = owners.column("original_language").to_numpy(zero_copy_only=False).astype(object)
    parts = []
    for kind, draw in extras.items():
        column = f"{kind}_path"
        main_path = owners.column(column).combine_chunks() if column in owners.schema.names else None
        extra = draw(rng, n)
        owner = np.repeat(np.arange(n), extra)
        slot = group_ranks(owner)
        ext = ".png" if kind == "logo" else ".jpg"
        paths = image_paths(ids[owner] * 16 + slot, f"{namespace}-{kind}", seed, ext)
        rows = len(owner)
        lang_draw = rng.random(rows)
        if kind == "poster":
            lang = np.where(lang_draw < 0.5, "en", np.where(lang_draw < 0.7, language[owner], "xx"))
        elif kind in ("backdrop", "still"):
            lang = np.where(lang_draw < 0.8, "xx", "en")
        else:
            lang = np.where(lang_draw < 0.7, "en", language[owner])
        vote_average = np.round(rng.uniform(0, 5.2, rows), 3)
        vote_count = rng.integers(0, 12, rows)
        vote_average[vote_count == 0] = 0.0
        if main_path is not None:
            present = np.flatnonzero(pc.is_valid(main_path).to_numpy(zero_copy_only=False))
            owner = np.concatenate([present, owner])
            paths = pa.concat_arrays([main_path.take(pa.array(present, pa.int64())), paths])
            main_lang = np.where(kind == "poster", language[present], "xx")
            lang = np.concatenate([main_lang, lang])
            vote_average = np.concatenate([np.round(rng.uniform(5.3, 6.0, len(present)), 3), vote_average])
            vote_count = np.concatenate([rng.integers(3, 30, len(present)), vote_count])
        rows = len(owner)
        if kind == "poster":
            width, height = np.array(_POSTER_SIZES)[rng.integers(0, len(_POSTER_SIZES), rows)].T
        elif kind in ("backdrop", "still"):
            width, height = np.array(_BACKDROP_SIZES)[rng.integers(0, len(_BACKDROP_SIZES), rows)].T
        else:
            width = rng.integers(5, 21, rows) * 100
            height = np.round(width / rng.uniform(1.8, 5.0, rows)).astype(np.int64)
        parts.append(
            pa.table(
                {
                    owner_column: ids[owner],
                    "kind": pa.array([kind] * rows, pa.string()),
                    "file_path": paths,
                    "width": width.astype(np.int64),
                    "height": height.astype(np.int64),
                    "aspect_ratio": np.round(width / height, 3),
                    "iso_639_1": pa.array(lang.astype(str), pa.string()),
                    "vote_average": vote_average.astype(np.float64),
                    "vote_count": vote_count.astype(np.int64),
                }
            )
        )
    table = pa.concat_tables(parts)
    order = pc.sort_indices(table, [(owner_column, "ascending")])
    return table.take(order)
