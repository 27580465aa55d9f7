"""Credits of the synthetic TV series: creators, regular cast, series crew, episode crew, guest stars.

People come from the catalogue's `people` table, drawn in proportion to their popularity (the movie
side's star power), from the pool of their known_for_department. Credit ids follow TMDB's rules:
a regular's credit is one per series; an episode crew member keeps one credit per series and job
however many episodes they work on (which is what aggregate_credits counts); a guest star gets a
new credit in every episode.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import tv_vocab, vocab
from marquee_datasets.columns import (
    cat,
    first_occurrences,
    group_ranks,
    hex_ids,
    pick,
    rng_for,
    weighted_choice,
)

# TV credit counters start far above the movie side's (one per movie credit row), so the two can
# never produce the same credit id for the same ObjectId-like prefix.
_COUNTER_BASE = 1 << 40
_OBJECTID_EPOCHS = (0x4B3D3B00, 0x65900000)


class _Credits:
    """Hands out credit ids from one increasing counter across every TV credit table."""

    def __init__(self, rng: np.random.Generator, seed: int) -> None:
        self.rng, self.seed, self.next = rng, seed, _COUNTER_BASE

    def ids(self, n: int) -> pa.Array:
        counter = np.arange(self.next, self.next + n, dtype=np.uint64)
        self.next += n
        return hex_ids(counter, self.rng.integers(*_OBJECTID_EPOCHS, n), self.seed)


def credit_tables(series: dict, seasons: dict, episodes: dict, people: pa.Table, seed: int) -> dict[str, pa.Table]:
    """{"created_by", "series_cast", "series_crew", "episode_crew", "episode_guest_stars"}."""
    rng = rng_for(seed, "tv_credits")
    credits = _Credits(rng, seed)
    person_ids = people.column("id").to_numpy()
    weight = people.column("popularity").to_numpy() ** 1.33 + 1e-6
    dept = np.asarray(people.column("known_for_department").to_pylist(), object)

    def draw(department: str | tuple[str, ...], size: int) -> np.ndarray:
        pool = np.flatnonzero(np.isin(dept, [department] if isinstance(department, str) else list(department)))
        if len(pool) == 0:
            pool = np.arange(len(person_ids))
        return pool[weighted_choice(rng, weight[pool], size)]

    n = len(series["id"])
    kind = series["_type"]
    scripted = np.isin(kind, ["Scripted", "Miniseries"])
    tables = {"created_by": _created_by(rng, series, scripted, draw, person_ids, credits)}
    tables["series_cast"] = _regulars(rng, series, scripted, draw, person_ids, weight, credits)
    roles = tv_vocab.CREW_ROLES
    per = rng.integers(2, len(roles) + 1, n)
    s_index = np.repeat(np.arange(n), per)
    role = group_ranks(s_index)
    person = np.zeros(len(s_index), np.int64)
    for r, (department, _) in enumerate(roles):
        rows = np.flatnonzero(role == r)
        person[rows] = draw(department, len(rows))
    tables["series_crew"] = pa.table(
        {
            "series_id": series["id"][s_index],
            "person_id": person_ids[person],
            "credit_id": credits.ids(len(s_index)),
            "department": pick([d for d, _ in roles], role),
            "job": pick([j for _, j in roles], role),
        }
    )
    tables["episode_crew"] = _episode_crew(rng, series, episodes, draw, person_ids, credits)
    tables["episode_guest_stars"] = _guest_stars(rng, series, episodes, scripted, draw, person_ids, credits)
    return tables


def _created_by(rng, series, scripted, draw, person_ids, credits) -> pa.Table:
    n = len(series["id"])
    count = np.where(scripted, weighted_choice(rng, [0, 65, 25, 10], n), (rng.random(n) < 0.4).astype(np.int64))
    s_index = np.repeat(np.arange(n), count)
    person = draw(("Writing", "Directing", "Production"), len(s_index))
    keep = first_occurrences(s_index * len(person_ids) + person)
    s_index, person = s_index[keep], person[keep]
    return pa.table(
        {
            "series_id": series["id"][s_index],
            "person_id": person_ids[person],
            "credit_id": credits.ids(len(s_index)),
            "ord": group_ranks(s_index),
        }
    )


def _regulars(rng, series, scripted, draw, person_ids, weight, credits) -> pa.Table:
    n = len(series["id"])
    n_seasons = series["_n_seasons"]
    size = np.where(scripted, np.clip(np.round(rng.lognormal(np.log(7), 0.4, n)), 3, 16), rng.integers(1, 5, n))
    s_index = np.repeat(np.arange(n), size.astype(np.int64))
    person = draw("Acting", len(s_index))
    keep = first_occurrences(s_index * len(person_ids) + person)
    s_index, person = s_index[keep], person[keep]
    billing = np.log(weight[person]) + rng.gumbel(size=len(person))
    order = np.lexsort((-billing, s_index))
    s_index, person = s_index[order], person[order]
    rank = group_ranks(s_index)
    rows = len(s_index)
    # Leads stay for the whole run; a quarter of the others join late or leave early.
    seasons = n_seasons[s_index]
    first = np.where(rng.random(rows) < 0.25, 1 + (rng.random(rows) * seasons).astype(np.int64), 1)
    last = np.where(
        rng.random(rows) < 0.25, first + (rng.random(rows) * (seasons - first + 1)).astype(np.int64), seasons
    )
    first = np.where(rank < 2, 1, first)
    last = np.where(rank < 2, seasons, np.minimum(last, seasons))
    named = cat(
        pick(vocab.FEMALE_NAMES + vocab.MALE_NAMES, rng.integers(0, 1 << 30, rows)),
        " ",
        pick(vocab.SURNAMES, rng.integers(0, 1 << 30, rows)),
    )
    kind = series["_type"][s_index]
    host = np.isin(kind, ["Talk Show", "News"]) & (rank == 0)
    character = pc.if_else(
        pa.array(np.isin(kind, ["Scripted", "Miniseries"])), named, pc.if_else(pa.array(host), "Host", "Self")
    )
    return pa.table(
        {
            "series_id": series["id"][s_index],
            "person_id": person_ids[person],
            "credit_id": credits.ids(rows),
            "character": character,
            "order": rank,
            "first_season": first.astype(np.int64),
            "last_season": last.astype(np.int64),
        }
    )


def _episode_crew(rng, series, episodes, draw, person_ids, credits) -> pa.Table:
    n = len(series["id"])
    e_series = episodes["_series"]
    m = len(e_series)
    per_series_eps = np.bincount(e_series, minlength=n)
    parts = []
    for r, (department, _job, chance, pool_max) in enumerate(tv_vocab.EPISODE_ROLES):
        # The series' pool for this job: a few people who share its episodes, one credit id each.
        pool = np.clip(np.ceil(per_series_eps / 4), 1, pool_max).astype(np.int64)
        pool_series = np.repeat(np.arange(n), pool)
        pool_person = draw(department, len(pool_series))
        _, first_idx, inverse = np.unique(
            pool_series * len(person_ids) + pool_person, return_index=True, return_inverse=True
        )
        canonical = first_idx[inverse.ravel()]  # a person drawn twice keeps one credit for the job
        pool_credit = credits.ids(len(pool_series)).take(pa.array(canonical))
        pool_person = pool_person[canonical]
        rows = np.flatnonzero(rng.random(m) < chance)
        slot = np.r_[0, np.cumsum(pool)[:-1]][e_series[rows]] + (rng.random(len(rows)) * pool[e_series[rows]]).astype(
            np.int64
        )
        parts.append((rows, np.full(len(rows), r), pool_person[slot], pool_credit.take(pa.array(slot))))
    ep_row = np.concatenate([p[0] for p in parts])
    role = np.concatenate([p[1] for p in parts])
    person = np.concatenate([p[2] for p in parts])
    credit = pa.concat_arrays([p[3] for p in parts])
    order = np.lexsort((role, ep_row))
    ep_row, role, person = ep_row[order], role[order], person[order]
    roles = tv_vocab.EPISODE_ROLES
    return pa.table(
        {
            "episode_id": episodes["id"][ep_row],
            "series_id": episodes["series_id"][ep_row],
            "season_number": episodes["season_number"][ep_row],
            "episode_number": episodes["episode_number"][ep_row],
            "person_id": person_ids[person],
            "credit_id": credit.take(pa.array(order)),
            "department": pick([d for d, _, _, _ in roles], role),
            "job": pick([j for _, j, _, _ in roles], role),
        }
    )


def _guest_stars(rng, series, episodes, scripted, draw, person_ids, credits) -> pa.Table:
    e_series = episodes["_series"]
    m = len(e_series)
    count = np.where(scripted[e_series], np.clip(rng.poisson(2.5, m), 0, 8), np.clip(rng.poisson(0.5, m), 0, 3))
    count = np.where(episodes["_aired"], count, 0)  # nobody is announced for episodes still to air
    ep_row = np.repeat(np.arange(m), count)
    person = draw("Acting", len(ep_row))
    keep = first_occurrences(ep_row * len(person_ids) + person)
    ep_row, person = ep_row[keep], person[keep]
    rows = len(ep_row)
    character = pc.if_else(
        pa.array(rng.random(rows) < 0.7),
        cat(
            pick(vocab.FEMALE_NAMES + vocab.MALE_NAMES, rng.integers(0, 1 << 30, rows)),
            " ",
            pick(vocab.SURNAMES, rng.integers(0, 1 << 30, rows)),
        ),
        pick(vocab.CHARACTER_ROLES, rng.integers(0, 1 << 30, rows)),
    )
    return pa.table(
        {
            "episode_id": episodes["id"][ep_row],
            "series_id": episodes["series_id"][ep_row],
            "season_number": episodes["season_number"][ep_row],
            "episode_number": episodes["episode_number"][ep_row],
            "person_id": person_ids[person],
            "credit_id": credits.ids(rows),
            "character": character,
            "order": group_ranks(ep_row),
        }
    )
