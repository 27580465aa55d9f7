"""People, cast and crew of the synthetic catalogue.

About five people per movie with a heavy-tailed "star power" weight: credits are drawn in proportion
to it, so a few people appear in many films, and popularity follows it. Cast sizes run from 1 to 60
with most films at 5-20; every film's crew starts with the core jobs (Director, Screenplay, ...).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import vocab
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

MAX_CAST = 60
# fmt: off
_ROLE_NOUNS = {
    "Acting": "actor", "Directing": "film director", "Writing": "screenwriter",
    "Production": "film producer", "Sound": "composer", "Camera": "cinematographer",
    "Editing": "film editor", "Art": "production designer", "Costume & Make-Up": "costume designer",
    "Visual Effects": "visual effects artist", "Crew": "stunt performer", "Lighting": "gaffer",
}
# fmt: on
_ALL_JOBS: tuple[tuple[str, str], ...] = tuple(
    (dept, job) for dept, jobs in vocab.DEPARTMENT_JOBS.items() for job in jobs
)
# ObjectId-like timestamps (2010..2024) for the first 8 hex digits of credit ids.
_OBJECTID_EPOCHS = (0x4B3D3B00, 0x65900000)


def people_tables(movies: pa.Table, seed: int) -> dict[str, pa.Table]:
    """{"people", "cast", "crew"} for the given movies table."""
    rng = rng_for(seed, "people")
    n_movies = movies.num_rows
    n = max(40, n_movies * 5)
    ids = irregular_ids(rng, n, 1, 5)
    departments = np.array([d for d, _ in vocab.PERSON_DEPARTMENTS])
    dept_idx = weighted_choice(rng, [w for _, w in vocab.PERSON_DEPARTMENTS], n)
    # Star power: Pareto-distributed, so credits (drawn in proportion to it) pile up on a few people.
    weight = rng.pareto(1.2, n) + 1.0
    gender = weighted_choice(rng, [10, 40, 48, 2], n)
    female = pick(vocab.FEMALE_NAMES, rng.integers(0, 1 << 30, n))
    male = pick(vocab.MALE_NAMES, rng.integers(0, 1 << 30, n))
    first = pc.if_else(pa.array((gender == 1) | ((gender != 2) & (rng.random(n) < 0.5))), female, male)
    surname = pick(vocab.SURNAMES, rng.integers(0, 1 << 30, n))
    initial = pc.if_else(
        pa.array(rng.random(n) < 0.4),
        cat(" ", pick(list("ABCDEFGHIJKLMNOPRSTVW"), rng.integers(0, 1 << 30, n)), "."),
        "",
    )
    name = cat(first, initial, " ", surname)

    birth_year = np.clip(np.round(rng.normal(1968, 18, n)), 1900, 2012).astype(np.int64)
    birthday = (birth_year - 1970).astype("datetime64[Y]").astype("datetime64[D]") + rng.integers(0, 365, n)
    no_birthday = rng.random(n) < 0.15
    age_at_death = rng.integers(45, 100, n)
    dies = (rng.random(n) < np.where(birth_year < 1950, 0.6, 0.02)) & (birth_year + age_at_death < 2026)
    deathday = birthday + (age_at_death * 365.25).astype("timedelta64[D]") + rng.integers(0, 300, n)
    city = pick(vocab.CITIES, rng.integers(0, 1 << 30, n))
    role = pc.if_else(
        pa.array((departments[dept_idx] == "Acting") & (gender == 1)),
        "actress",
        pick([_ROLE_NOUNS[d] for d in departments], dept_idx),
    )
    biography = pc.if_else(pa.array(rng.random(n) < 0.6), cat(name, " is a ", role, " born in ", city, "."), "")

    aka_count = weighted_choice(rng, [70, 20, 10], n)
    aka_owner = np.repeat(np.arange(n), aka_count)
    short = cat(pc.utf8_slice_codeunits(first, 0, 1), ". ", surname)
    inverted = cat(surname, ", ", first)
    aka_values = pc.choose(
        pa.array(group_ranks(aka_owner).astype(np.int8)),
        short.take(pa.array(aka_owner)),
        inverted.take(pa.array(aka_owner)),
    )

    people = pa.table(
        {
            "id": ids,
            "name": name,
            "gender": gender.astype(np.int64),
            "known_for_department": pick(departments, dept_idx),
            "popularity": np.round(0.6 * weight**0.75 * rng.lognormal(0, 0.35, n), 3),
            "profile_path": null_where(image_paths(ids, "person-profile", seed, ".jpg"), rng.random(n) < 0.2),
            "adult": rng.random(n) < 0.005,
            "imdb_id": prefixed_numbers("nm", irregular_ids(rng, n, 1000, 30)[rng.permutation(n)], 7),
            "birthday": pa.array(birthday, pa.date32(), mask=no_birthday),
            "deathday": pa.array(deathday, pa.date32(), mask=no_birthday | ~dies),
            "place_of_birth": null_where(city, rng.random(n) < 0.12),
            "biography": biography,
            "also_known_as": list_column(np.r_[0, np.cumsum(aka_count)], aka_values),
        }
    )
    movie_ids = movies.column("id").to_numpy()
    popularity = movies.column("popularity").to_numpy()
    cast = _cast(rng_for(seed, "cast"), movie_ids, popularity, ids, weight, dept_idx == 0, seed)
    crew = _crew(rng_for(seed, "crew"), movie_ids, ids, weight, departments[dept_idx], cast.num_rows, seed)
    return {"people": people, "cast": cast, "crew": crew}


def _draw_people(rng: np.random.Generator, weight: np.ndarray, pool: np.ndarray, size: int) -> np.ndarray:
    """`size` person indices from `pool` (indices), in proportion to their weight."""
    if len(pool) == 0:
        pool = np.arange(len(weight))
    return pool[weighted_choice(rng, weight[pool], size)]


def _credit_prefixes(rng: np.random.Generator, movie_index: np.ndarray, n_movies: int) -> np.ndarray:
    base = rng.integers(*_OBJECTID_EPOCHS, n_movies)
    return base[movie_index] + group_ranks(movie_index)


def _cast(
    rng: np.random.Generator,
    movie_ids: np.ndarray,
    movie_popularity: np.ndarray,
    person_ids: np.ndarray,
    weight: np.ndarray,
    is_actor: np.ndarray,
    seed: int,
) -> pa.Table:
    n_movies = len(movie_ids)
    # Long tail: lognormal around 11, bigger for popular films; a few tiny casts (documentaries, shorts).
    log_pop = np.log(movie_popularity + 0.1)
    z = (log_pop - log_pop.mean()) / (log_pop.std() or 1.0)
    sizes = np.round(rng.lognormal(np.log(11) + 0.2 * z, 0.55))
    sizes = np.where(rng.random(n_movies) < 0.05, rng.integers(1, 4, n_movies), sizes)
    sizes = np.clip(sizes, 1, MAX_CAST).astype(np.int64)
    movie_index = np.repeat(np.arange(n_movies), sizes)
    person = _draw_people(rng, weight, np.flatnonzero(is_actor), len(movie_index))
    keep = first_occurrences(movie_index * len(person_ids) + person)
    movie_index, person = movie_index[keep], person[keep]
    # Billing: stars first, with noise so the order is not a pure popularity sort.
    billing = np.log(weight[person]) + rng.gumbel(size=len(person))
    order = np.lexsort((-billing, movie_index))
    movie_index, person = movie_index[order], person[order]
    rows = len(person)
    shuffled = np.lexsort((rng.random(rows), movie_index))
    cast_rank = np.empty(rows, np.int64)
    cast_rank[shuffled] = group_ranks(movie_index[shuffled])
    cast_id = cast_rank + 1 + rng.integers(0, 30, n_movies)[movie_index]
    named = cat(
        pick(vocab.FEMALE_NAMES + vocab.MALE_NAMES, rng.integers(0, 1 << 30, rows)),
        " ",
        pick(vocab.SURNAMES, rng.integers(0, 1 << 30, rows)),
    )
    character = pc.if_else(
        pa.array(rng.random(rows) < 0.8), named, pick(vocab.CHARACTER_ROLES, rng.integers(0, 1 << 30, rows))
    )
    return pa.table(
        {
            "movie_id": movie_ids[movie_index],
            "person_id": person_ids[person],
            "credit_id": hex_ids(np.arange(rows, dtype=np.uint64), _credit_prefixes(rng, movie_index, n_movies), seed),
            "cast_id": cast_id,
            "character": character,
            "order": group_ranks(movie_index),
        }
    )


def _crew(
    rng: np.random.Generator,
    movie_ids: np.ndarray,
    person_ids: np.ndarray,
    weight: np.ndarray,
    person_departments: np.ndarray,
    first_counter: int,
    seed: int,
) -> pa.Table:
    n_movies = len(movie_ids)
    core = rng.integers(2, len(vocab.CORE_CREW) + 1, n_movies)
    extra = np.clip(np.floor(rng.lognormal(np.log(4), 1.0, n_movies)), 0, 70).astype(np.int64)
    movie_index = np.repeat(np.arange(n_movies), core + extra)
    position = group_ranks(movie_index)
    core_jobs = np.array([_ALL_JOBS.index(pair) for pair in vocab.CORE_CREW])
    job_weights = [3.0 if job == vocab.DEPARTMENT_JOBS[dept][0] else 1.0 for dept, job in _ALL_JOBS]
    random_jobs = weighted_choice(rng, job_weights, len(movie_index))
    is_core = position < core[movie_index]
    job = np.where(is_core, core_jobs[np.minimum(position, len(core_jobs) - 1)], random_jobs)
    job_department = np.array([dept for dept, _ in _ALL_JOBS])[job]
    person = np.zeros(len(job), np.int64)
    for dept in vocab.DEPARTMENT_JOBS:
        rows = np.flatnonzero(job_department == dept)
        person[rows] = _draw_people(rng, weight, np.flatnonzero(person_departments == dept), len(rows))
    keep = first_occurrences((movie_index * len(_ALL_JOBS) + job) * len(person_ids) + person)
    movie_index, job, person = movie_index[keep], job[keep], person[keep]
    rows = len(job)
    return pa.table(
        {
            "movie_id": movie_ids[movie_index],
            "person_id": person_ids[person],
            "credit_id": hex_ids(
                np.arange(first_counter, first_counter + rows, dtype=np.uint64),
                _credit_prefixes(rng, movie_index, n_movies),
                seed,
            ),
            "department": pick([dept for dept, _ in _ALL_JOBS], job),
            "job": pick([j for _, j in _ALL_JOBS], job),
        }
    )
