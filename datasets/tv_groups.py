"""Episode groups and theatrical screenings of the synthetic series (/3/tv/{id}/episode_groups,
/3/tv/episode_group/{id}, /3/tv/{id}/screened_theatrically).

A third of the series with eight episodes or more have groups, as TMDB's editors make them: an
absolute order (every regular episode, numbered through), often a DVD order (volumes of four to eight
episodes) and sometimes story arcs (runs of three to ten). Groups and their parts get ObjectId-like
ids. A few popular series had episodes in cinemas (the most popular always): the pilot, and now and then
a season finale.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from marquee_datasets.columns import hex_ids, rng_for

# fmt: off
ARC_WORDS = ("Awakening", "Reckoning", "Exile", "Homecoming", "The Long Night", "Ashes", "Crossroads", "Legacy",
             "Fracture", "Dawn")
# fmt: on
TYPES = {"absolute": 2, "dvd": 3, "arcs": 5}  # TMDB's group types: 1 original air date ... 7 TV


def group_tables(series: pa.Table, episodes: pa.Table, series_networks: pa.Table, seed: int) -> dict[str, pa.Table]:
    rng = rng_for(seed, "episode_groups")
    order = np.lexsort(
        (
            episodes.column("episode_number").to_numpy(),
            episodes.column("season_number").to_numpy(),
            episodes.column("series_id").to_numpy(),
        )
    )
    owner = episodes.column("series_id").to_numpy()[order]
    season = episodes.column("season_number").to_numpy()[order]
    episode_ids = episodes.column("id").to_numpy()[order]
    regular = season > 0
    owner, season, episode_ids = owner[regular], season[regular], episode_ids[regular]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]]) if len(owner) else np.empty(0, np.int64)
    ends = np.r_[starts[1:], len(owner)]
    first_network = {}
    for series_id, network_id in zip(
        series_networks.column("series_id").to_pylist(), series_networks.column("network_id").to_pylist()
    ):
        first_network.setdefault(series_id, network_id)
    popularity = dict(zip(series.column("id").to_pylist(), series.column("popularity").to_pylist()))
    top = np.quantile(list(popularity.values()), 0.9) if popularity else 0.0
    most_popular = max(popularity, key=popularity.get) if popularity else None
    groups: dict[str, list] = {k: [] for k in ("series_id", "name", "description", "type", "network_id")}
    parts: dict[str, list] = {k: [] for k in ("group", "part_name", "part_order", "locked", "episode_id", "ord")}
    screened: dict[str, list] = {"series_id": [], "episode_id": []}
    for start, end in zip(starts.tolist(), ends.tolist()):
        series_id = int(owner[start])
        run, seasons = episode_ids[start:end], season[start:end]
        if popularity.get(series_id, 0.0) >= top and (rng.random() < 0.3 or series_id == most_popular):
            screened["series_id"].append(series_id)
            screened["episode_id"].append(int(run[0]))
            finales = np.flatnonzero(np.r_[seasons[1:] != seasons[:-1], True])
            if len(finales) > 1 and rng.random() < 0.5:
                screened["series_id"].append(series_id)
                screened["episode_id"].append(int(run[finales[0]]))
        first = not groups["series_id"]  # the first series that can have groups has all three kinds
        if len(run) < 8 or (not first and rng.random() >= 1 / 3):
            continue
        chosen = [("absolute", "Absolute Order", [("Episodes", run)])]
        if first or rng.random() < 0.6:
            chosen.append(
                ("dvd", "DVD Order", [(f"Volume {n + 1}", chunk) for n, chunk in enumerate(_chunks(rng, run, 4, 8))])
            )
        if first or rng.random() < 0.35:
            chosen.append(
                (
                    "arcs",
                    "Story Arcs",
                    [
                        (f"Arc {n + 1}: {ARC_WORDS[int(rng.integers(0, len(ARC_WORDS)))]}", chunk)
                        for n, chunk in enumerate(_chunks(rng, run, 3, 10))
                    ],
                )
            )
        for kind, name, chunks in chosen:
            group = len(groups["series_id"])
            groups["series_id"].append(series_id)
            groups["name"].append(name)
            groups["description"].append("" if kind == "absolute" else f"{name} of the series.")
            groups["type"].append(TYPES[kind])
            groups["network_id"].append(first_network.get(series_id) if kind == "dvd" else None)
            for part_order, (part_name, chunk) in enumerate(chunks):
                for ord_, episode_id in enumerate(chunk.tolist()):
                    parts["group"].append(group)
                    parts["part_name"].append(part_name)
                    parts["part_order"].append(part_order)
                    parts["locked"].append(kind != "arcs")
                    parts["episode_id"].append(episode_id)
                    parts["ord"].append(ord_)
    n = len(groups["series_id"])
    group_ids = hex_ids(np.arange(n, dtype=np.uint64), np.full(n, 0x5B0E6000, np.uint64), seed)
    group_of = np.asarray(parts["group"], np.int64)
    part_key = group_of * 1000 + np.asarray(parts["part_order"], np.int64)
    part_ids = hex_ids(
        part_key.astype(np.uint64) + np.uint64(1 << 41), np.full(len(part_key), 0x5B0E7000, np.uint64), seed
    )
    return {
        "episode_groups": pa.table(
            {
                "id": group_ids,
                "series_id": pa.array(groups["series_id"], pa.int64()),
                "name": pa.array(groups["name"], pa.string()),
                "description": pa.array(groups["description"], pa.string()),
                "type": pa.array(groups["type"], pa.int64()),
                "network_id": pa.array(groups["network_id"], pa.int64()),
            }
        ),
        "episode_group_episodes": pa.table(
            {
                "group_id": group_ids.take(pa.array(group_of)) if n else pa.array([], pa.string()),
                "part_id": part_ids,
                "part_name": pa.array(parts["part_name"], pa.string()),
                "part_order": pa.array(parts["part_order"], pa.int64()),
                "locked": pa.array(parts["locked"], pa.bool_()),
                "episode_id": pa.array(parts["episode_id"], pa.int64()),
                "ord": pa.array(parts["ord"], pa.int64()),
            }
        ),
        "screened_episodes": pa.table(
            {
                "series_id": pa.array(screened["series_id"], pa.int64()),
                "episode_id": pa.array(screened["episode_id"], pa.int64()),
            }
        ),
    }


def _chunks(rng: np.random.Generator, run: np.ndarray, low: int, high: int) -> list[np.ndarray]:
    """`run` cut into consecutive pieces of `low` to `high` episodes."""
    out, at = [], 0
    while at < len(run):
        size = int(rng.integers(low, high + 1))
        out.append(run[at : at + size])
        at += size
    return out
