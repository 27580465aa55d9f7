"""Synthetic reviews of films and series (/3/movie/{id}/reviews, /3/tv/{id}/reviews, /3/review/{id}).

How many a title gets follows its votes (most have none, the most voted dozens, so their lists page),
and a reviewer's rating follows the title's average. Reviews are written in the sample's languages,
most in English; each is a few sentences of its language's phrases (REVIEW_PHRASES), naming the
title's vote as the reviewer's own. Authors come from a fixed pool of usernames, some with a display
name and an avatar. Ids are 24-hex strings like TMDB's; dates fall between the title's release (or
first air date) and the catalogue's today.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from marquee_datasets.columns import cat, hex_ids, image_paths, null_where, pick, rng_for, weighted_choice

# Sentences reviewers write, by language: a review is three to six of them.
# fmt: off
REVIEW_PHRASES = {
    "en": ("A slow start, but the last act makes up for it.", "The cast carries a thin script.",
           "Beautifully shot; I could watch it again for the images alone.", "It tries to do too much.",
           "The score stayed with me for days.", "Funnier than it had any right to be.",
           "A solid evening's entertainment, nothing more.", "The dialogue sparkles.", "Too long by half an hour.",
           "One of the best of its year.", "The ending divided our group.", "Worth it for the lead performance."),
    "de": ("Ein langsamer Anfang, aber das Ende entschädigt.", "Die Besetzung trägt ein dünnes Drehbuch.",
           "Wunderschön fotografiert.", "Die Musik ist großartig.", "Zu lang, aber sehenswert.",
           "Einer der besten Filme des Jahres."),
    "fr": ("Un début lent, mais la fin rattrape tout.", "Les acteurs portent un scénario mince.",
           "Magnifiquement filmé.", "La musique m'a accompagné pendant des jours.", "Trop long d'une demi-heure.",
           "L'un des meilleurs de l'année."),
    "es": ("Empieza lento, pero el final lo compensa.", "El reparto sostiene un guion flojo.",
           "Una fotografía preciosa.", "La banda sonora es inolvidable.", "Media hora demasiado larga.",
           "Una de las mejores del año."),
    "it": ("Un inizio lento, ma il finale ripaga.", "Il cast regge una sceneggiatura debole.",
           "Fotografia splendida.", "La colonna sonora è memorabile.", "Uno dei migliori dell'anno."),
    "pt": ("Começa devagar, mas o final compensa.", "O elenco sustenta um roteiro fraco.",
           "Fotografia belíssima.", "A trilha sonora é marcante.", "Um dos melhores do ano."),
    "ja": ("序盤は遅いが、最後で取り戻す。", "映像がとても美しい。", "音楽が素晴らしい。", "今年のベストの一本。"),
}
# fmt: on
LANGUAGE_WEIGHTS = {"en": 70, "de": 6, "fr": 6, "es": 6, "it": 4, "pt": 4, "ja": 4}
# fmt: off
USERNAMES = ("CinemaSerf", "Geronimo1967", "Manuel São Bento", "JPV852", "r96sk", "Wuchak", "MovieGuys", "Chris Sawin",
             "garethmb", "SWITCH.", "Brent Marchant", "Nathan", "Ahmetaslan27", "FilmFanatic", "kevin", "Sophie",
             "tmdb44006625", "msbreviews", "Stephen Campbell", "Louisa Moore", "drystyx", "talisencrw", "Peter89Spencer",
             "The Movie Diorama")
# fmt: on
MAX_PER_TITLE = 45  # the most reviewed titles page (20 a page)


def review_table(kind: str, titles: pa.Table, date_column: str, today: np.datetime64, seed: int) -> pa.Table:
    """Reviews of `titles` (movies or tv_series: id, vote_count, vote_average and a date column), `kind`
    'movie' or 'tv'."""
    rng = rng_for(seed, f"reviews:{kind}")
    votes = titles.column("vote_count").to_numpy(zero_copy_only=False).astype(np.float64)
    average = titles.column("vote_average").to_numpy(zero_copy_only=False).astype(np.float64)
    dated = titles.column(date_column).to_numpy(zero_copy_only=False).astype("datetime64[D]")
    released = ~np.isnat(dated) & (dated <= today)
    expected = np.where(released, np.log1p(votes) ** 2.4 / 14.0, 0.0)
    # The most voted titles (a hundredth, three at least) draw dozens, so whatever the catalogue's size
    # some titles' reviews run to a second page in English.
    top = np.argsort(-votes, kind="stable")[: max(3, len(votes) // 100)]
    expected[top] = np.where(released[top], 40.0, expected[top])
    counts = np.minimum(rng.poisson(expected), MAX_PER_TITLE)
    owner = np.repeat(np.arange(titles.num_rows), counts)
    n = len(owner)
    ids = titles.column("id").to_numpy()[owner]
    languages = np.asarray(list(LANGUAGE_WEIGHTS), object)[weighted_choice(rng, list(LANGUAGE_WEIGHTS.values()), n)]
    content = np.empty(n, object)
    sentences = rng.integers(3, 7, n)
    picks = rng.integers(0, 1 << 30, (n, 6))
    for code, phrases in REVIEW_PHRASES.items():
        rows = np.flatnonzero(languages == code)
        if len(rows) == 0:
            continue
        table = np.asarray(phrases, object)
        parts = table[picks[rows] % len(table)]
        content[rows] = [" ".join(dict.fromkeys(p[:k])) for p, k in zip(parts, sentences[rows])]
    rating = np.clip(np.round(average[owner] + rng.normal(0, 1.6, n)), 1, 10)
    rating = np.where(average[owner] > 0, rating, rng.integers(4, 9, n).astype(np.float64))
    start = np.where(np.isnat(dated[owner]), today - 365, dated[owner]).astype("datetime64[D]")
    span = np.maximum((today - start).astype(np.int64), 1)
    created = start.astype("datetime64[s]") + (rng.random(n) * span * 86400).astype(np.int64)
    edited = rng.random(n) < 0.2
    updated = created + np.where(edited, (rng.random(n) * 30 * 86400).astype(np.int64), 0)
    updated = np.minimum(updated, today.astype("datetime64[s]"))
    author = rng.integers(0, len(USERNAMES), n)
    named = rng.random(n) < 0.5
    with_avatar = rng.random(n) < 0.6
    username = pick(USERNAMES, author)
    return pa.table(
        {
            # An ObjectId's first 4 bytes are its creation time, as TMDB's review ids are.
            "id": hex_ids(
                np.arange(n, dtype=np.uint64) + np.uint64(0 if kind == "movie" else 1 << 40),
                created.astype(np.int64).astype(np.uint64),
                seed,
            ),
            "media_type": pa.array([kind] * n, pa.string()),
            "media_id": pa.array(ids, pa.int64()),
            "author": username,
            "username": username,
            "name": null_where(cat(username, ""), ~named),
            "avatar_path": null_where(image_paths(author.astype(np.int64), "avatar", seed, ".jpg"), ~with_avatar),
            "rating": null_where(pa.array(rating, pa.float64()), rng.random(n) < 0.15),
            "iso_639_1": pa.array(languages, pa.string()),
            "content": pa.array(content, pa.string()),
            "created_at": pa.array(created.astype("datetime64[ms]"), pa.timestamp("ms")),
            "updated_at": pa.array(updated.astype("datetime64[ms]"), pa.timestamp("ms")),
        }
    )


def review_tables(tables: dict[str, pa.Table], seed: int, today: np.datetime64) -> dict[str, pa.Table]:
    movies = review_table("movie", tables["movies"], "release_date", today, seed)
    series = review_table("tv", tables["tv_series"], "first_air_date", today, seed)
    return {"reviews": pa.concat_tables([movies, series])}
