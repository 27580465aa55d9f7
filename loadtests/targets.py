"""What the load test asks for: ids of real documents and image files, read from a published release.

Every request of the mix names a document the release has (or, on purpose, one no release has), so
a 404 where none was expected is a failure of the service, not of the load test. Ids are read from
the pack's names (`3/movie/603.json`, `3/tv/1/season/1/episode/2.json`), never from the catalogue:
what is served is what the release holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import orjson

from marquee.packs import Pack

# Ids per kind: enough to spread requests over the pack, few enough that reading them from a
# million-title release stops after a short index scan, not after all of its names.
LIMIT = 2000
POSTERS = 200  # movies whose details are read for their poster_path

# Each kind's document name, one `{}` per id. Only default-language documents match (a language
# variant, `603.de-DE.json`, has a dot the pattern does not admit), and every name starts with `3/`,
# so the items of composite documents (`_items/...`, internal) never do.
# fmt: off
KINDS = {
    "movies": "3/movie/{}.json",
    "series": "3/tv/{}.json",
    "seasons": "3/tv/{}/season/{}.json",
    "episodes": "3/tv/{}/season/{}/episode/{}.json",
    "people": "3/person/{}.json",
    "collections": "3/collection/{}.json",
    "keywords": "3/keyword/{}.json",
}
# fmt: on


@dataclass(frozen=True)
class Targets:
    """Ids by kind (a season is (series, season), an episode (series, season, episode)), and from
    some films' details: poster paths as they give them (`/abc.jpg`), titles (what searches type)
    and IMDb ids (what /3/find is asked)."""

    movies: list[tuple[int]]
    series: list[tuple[int]]
    seasons: list[tuple[int, int]]
    episodes: list[tuple[int, int, int]]
    people: list[tuple[int]]
    collections: list[tuple[int]]
    keywords: list[tuple[int]]
    posters: list[str]
    titles: list[str]
    imdb_ids: list[str]

    def counts(self) -> str:
        return ", ".join(f"{len(getattr(self, kind))} {kind}" for kind in (*KINDS, "posters", "titles", "imdb_ids"))


def _pattern(template: str) -> re.Pattern:
    return re.compile(re.escape(template).replace(r"\{\}", r"(\d+)"))


def _prefix(template: str) -> str:
    return template.split("{}")[0]


def read_targets(release: Path | str, limit: int = LIMIT) -> Targets:
    """Ids of every kind and some posters from `release`; LookupError naming the kinds it lacks."""
    found: dict[str, list[tuple[int, ...]]] = {kind: [] for kind in KINDS}
    with Pack(release) as pack:
        # One scan per prefix (`3/tv/` serves three kinds), in name order,
        # stopping once every kind under it has `limit` ids.
        for prefix in dict.fromkeys(map(_prefix, KINDS.values())):
            kinds = {kind: _pattern(t) for kind, t in KINDS.items() if _prefix(t) == prefix}
            for name in pack.iter_names(prefix + "%"):
                for kind, pattern in kinds.items():
                    match = pattern.fullmatch(name)
                    if match and len(found[kind]) < limit:
                        found[kind].append(tuple(map(int, match.groups())))
                if all(len(found[kind]) >= limit for kind in kinds):
                    break
        details = [
            orjson.loads(body)
            for (movie,) in found["movies"][:POSTERS]
            if (body := pack.get(KINDS["movies"].format(movie)))
        ]
    read = {
        "posters": [d["poster_path"] for d in details if d.get("poster_path")],
        "titles": [d["title"] for d in details if d.get("title")],
        "imdb_ids": [d["imdb_id"] for d in details if d.get("imdb_id")],
    }
    missing = [kind for kind, ids in {**found, **read}.items() if not ids]
    if missing:
        raise LookupError(f"the release {release} has no {', '.join(missing)} to ask for")
    return Targets(**found, **read)
