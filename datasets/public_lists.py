"""Synthetic public lists, as TMDB's users make them (/3/list/{list_id}, /3/movie/{id}/lists,
/3/tv/{id}/lists): one list per twenty films, ten at least.

A list has a theme, a genre: its films are that genre's, drawn by popularity (the famous ones are on
many lists), with a series of a TV genre of the same id now and then; one in five (and the first) is
a watchlist of any films. Lists are named in their
author's language (most in English) from LIST_NAMES, with the genre's English name as TMDB users
often write it; the poster is the first title's. Favourites follow a long tail.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from marquee_datasets import vocab
from marquee_datasets.columns import rng_for, weighted_choice
from marquee_datasets.reviews import LANGUAGE_WEIGHTS, USERNAMES

# fmt: off
LIST_NAMES = {
    "en": ("Best {genre} movies", "My favourite {genre} films", "{genre} to watch this year",
           "Underrated {genre}", "The essential {genre} collection", "{genre} night"),
    "de": ("Die besten {genre}-Filme", "Meine liebsten {genre}-Filme", "{genre}: Pflichtprogramm"),
    "fr": ("Les meilleurs films {genre}", "Mes films {genre} préférés", "{genre} à voir"),
    "es": ("Las mejores películas de {genre}", "Mis favoritas de {genre}", "{genre} imprescindible"),
    "it": ("I migliori film {genre}", "I miei preferiti: {genre}"),
    "pt": ("Os melhores filmes de {genre}", "Meus favoritos de {genre}"),
    "ja": ("おすすめの{genre}映画", "{genre}ベスト"),
}
# fmt: on
# A list of no genre (one in five) draws from every film: a watchlist.
# fmt: off
WATCHLISTS = {"en": "My watchlist", "de": "Meine Watchlist", "fr": "Ma liste à voir", "es": "Mi lista para ver",
              "it": "Da vedere", "pt": "Minha lista", "ja": "見たい映画"}
# fmt: on
# fmt: off
DESCRIPTIONS = {"en": "A list of {genre} titles I keep coming back to.", "de": "Meine {genre}-Sammlung.",
                "fr": "Ma sélection {genre}.", "es": "Mi selección de {genre}.", "it": "La mia selezione {genre}.",
                "pt": "Minha seleção de {genre}.", "ja": "{genre}のリスト。"}
# fmt: on


def list_tables(tables: dict[str, pa.Table], seed: int, today: np.datetime64) -> dict[str, pa.Table]:
    rng = rng_for(seed, "public_lists")
    movies = tables["movies"]
    n = max(10, movies.num_rows // 20)
    genre_names = dict(vocab.GENRES)
    movie_ids = movies.column("id").to_numpy()
    popularity = movies.column("popularity").to_numpy(zero_copy_only=False)
    posters = dict(zip(movie_ids.tolist(), movies.column("poster_path").to_pylist()))
    by_genre: dict[int, np.ndarray] = {}
    links = tables["movie_genres"]
    link_movie = links.column("movie_id").to_numpy()
    link_genre = links.column("genre_id").to_numpy()
    index_of = {movie_id: i for i, movie_id in enumerate(movie_ids.tolist())}
    for genre in np.unique(link_genre):
        by_genre[int(genre)] = np.array([index_of[m] for m in link_movie[link_genre == genre]], np.int64)
    # Popularity-weighted draws by inverse CDF: O(size log n) a list, so 50k lists over 1M films take seconds.
    cumulative = {genre: np.cumsum(popularity[pool] + 1.0) for genre, pool in by_genre.items()}
    series_genres = tables["series_genres"]
    tv_pools = {
        int(genre): series_genres.column("series_id").to_numpy()[series_genres.column("genre_id").to_numpy() == genre]
        for genre in np.unique(series_genres.column("genre_id").to_numpy())
    }
    genres = [g for g in by_genre if len(by_genre[g])]
    by_genre[0] = np.arange(len(movie_ids))  # genre 0: a watchlist, every film
    cumulative[0] = np.cumsum(popularity + 1.0)
    tv_pools[0] = tables["tv_series"].column("id").to_numpy()
    languages = np.asarray(list(LANGUAGE_WEIGHTS), object)[weighted_choice(rng, list(LANGUAGE_WEIGHTS.values()), n)]
    rows: dict[str, list] = {
        k: []
        for k in (
            "id",
            "name",
            "description",
            "created_by",
            "iso_639_1",
            "iso_3166_1",
            "favorite_count",
            "poster_path",
            "created_at",
            "updated_at",
        )
    }
    items: dict[str, list] = {"list_id": [], "media_type": [], "media_id": [], "ord": []}
    list_ids = 8_000_000 + np.cumsum(rng.integers(1, 400, n))
    for k in range(n):
        genre = 0 if k == 0 or rng.random() < 0.2 else genres[int(rng.integers(0, len(genres)))]
        pool = by_genre[genre]
        size = int(rng.integers(5, 61))
        cum = cumulative[genre]
        drawn = np.searchsorted(cum, rng.random(size) * cum[-1], side="right")
        chosen = pool[np.minimum(list(dict.fromkeys(drawn.tolist())), len(pool) - 1)]  # repeats drawn once
        chosen = chosen[np.argsort(-popularity[chosen], kind="stable")] if rng.random() < 0.5 else chosen
        entries = [("movie", int(movie_ids[i])) for i in chosen]
        tv_pool = tv_pools.get(genre, np.empty(0, np.int64))
        if len(tv_pool) and (k == 0 or rng.random() < 0.3):  # a series of the same genre, now and then
            entries.insert(
                int(rng.integers(0, len(entries) + 1)), ("tv", int(tv_pool[int(rng.integers(0, len(tv_pool)))]))
            )
        language = str(languages[k])
        names = LIST_NAMES[language]
        label = genre_names.get(genre, "")
        created = today.astype("datetime64[s]") - int(rng.integers(1, 3000 * 86400))
        rows["id"].append(int(list_ids[k]))
        rows["name"].append(
            names[int(rng.integers(0, len(names)))].format(genre=label) if genre else WATCHLISTS[language]
        )
        rows["description"].append(DESCRIPTIONS[language].format(genre=label) if genre and rng.random() < 0.7 else "")
        rows["created_by"].append(USERNAMES[int(rng.integers(0, len(USERNAMES)))])
        rows["iso_639_1"].append(language)
        rows["iso_3166_1"].append({"en": "US", "ja": "JP", "pt": "BR"}.get(language, language.upper()))
        rows["favorite_count"].append(int(rng.lognormal(1.0, 1.5)))
        first = entries[0]
        rows["poster_path"].append(posters.get(first[1]) if first[0] == "movie" else None)
        rows["created_at"].append(created)
        rows["updated_at"].append(min(created + int(rng.integers(0, 400 * 86400)), today.astype("datetime64[s]")))
        for position, (media_type, media_id) in enumerate(entries):
            items["list_id"].append(int(list_ids[k]))
            items["media_type"].append(media_type)
            items["media_id"].append(media_id)
            items["ord"].append(position)
    timestamps = {
        name: pa.array(np.array(rows[name], "datetime64[ms]"), pa.timestamp("ms"))
        for name in ("created_at", "updated_at")
    }
    return {
        "lists": pa.table({**{k: v for k, v in rows.items() if k not in timestamps}, **timestamps}),
        "list_items": pa.table(
            {
                k: pa.array(v, pa.int64() if k in ("list_id", "media_id", "ord") else pa.string())
                for k, v in items.items()
            }
        ),
    }
