"""Merge another catalogue into this one by external id: `marquee import merge FOLDER`.

An operator's data comes in pieces: a TMDB crawl without ratings and IMDb's dumps with them, or
TMDB-5000's films and IMDb's series. Each import writes a whole catalogue; this adds one (FOLDER,
the *other*) to the catalogue there is (the *base*), and the base wins wherever both say something:

- Films, people and series are the same when their IMDb ids are equal, or when both catalogues
  number them with TMDB's ids (`catalogue.json`, written by the importers) and their ids are equal.
  Seasons and episodes are the same when their series is and their numbers are.
- A title both have keeps the base's row, with the other's values where the base has none (null, an
  empty string or list, TMDB's 0 for an unknown budget or runtime): a crawl's film gains the IMDb id IMDb's dump gives. Its sub-resources come
  table by table: the other's rows for it are taken only where the base has none in that table (a
  crawl's film gets IMDb's ratings; its cast and translations stay the crawl's).
- A title only the other has is added under its own id, or, when the base uses that id for another
  title, under its id + ID_OFFSET: stable, so a re-import of a newer dump followed by a merge and a
  build is an incremental rebuild.
- Reference lists (genres, keywords, companies, networks, collections, providers, countries,
  languages, certifications, cinemas) are TMDB's ids in every importer: the base's rows win by key.
- Rows of the other that name a film, person or series it does not have are dropped.

Popularity is each catalogue's own: an IMDb import's (from votes) is on another scale than TMDB's.
DuckDB does the whole merge in SQL, written straight to Parquet, so memory stays flat.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path

from marquee_build import contract
from marquee_datasets.importing import ImportFailed, ImportSummary, connect, id_space, sql_string, staged, write_tables

ID_OFFSET = 1_000_000_000  # added to an id of the other's that the base uses for another title
# The entities whose ids tables refer to (`<family>_id`), their table, and what makes two the same.
# fmt: off
FAMILIES = {"movie": "movies", "person": "people", "series": "tv_series", "season": "tv_seasons",
            "episode": "tv_episodes", "soundtrack": "soundtracks"}
# fmt: on
REFERRING = {f"{family}_id": family for family in FAMILIES}
MATCHED_BY_ID = ("movie", "person", "series")  # by IMDb id, or by id when both number by TMDB's
MATCHED_BY_NUMBER = {"season": ("season_number",), "episode": ("season_number", "episode_number")}
# The entity a row hangs under, most specific first: episode_crew's row belongs to its episode.
# fmt: off
OWNER_ORDER = ("episode_id", "season_id", "series_id", "movie_id", "soundtrack_id", "person_id", "company_id", "network_id",
               "collection_id", "genre_id", "provider_id")
# fmt: on
# fmt: off
KEYS = {"countries": ("iso_3166_1",), "languages": ("iso_639_1",), "certifications": ("iso_3166_1", "certification"),
        "activity": ("kind", "id"), "reviews": ("media_type", "media_id"), "list_items": ("list_id",)}
# fmt: on
# Tables whose rows name their title by (kind column, id column): the kind's value → family.
# fmt: off
KINDED = {"activity": ("kind", "id", {"movie": "movie", "tv": "series", "person": "person"}),
          "reviews": ("media_type", "media_id", {"movie": "movie", "tv": "series"}),
          "list_items": ("media_type", "media_id", {"movie": "movie", "tv": "series"}),
          "tagged_images": ("media_type", "media_id", {"movie": "movie", "tv": "series"})}
# fmt: on


def merge(other: Path, target: Path, status: Callable[[str], None] | None = None) -> ImportSummary:
    """Merge the catalogue `other` into `target` (replaced only when the merge succeeds)."""
    started = time.perf_counter()
    other, target = Path(other), Path(target)
    summary = ImportSummary(status=status)
    for folder in (other, target):
        try:
            contract.check(folder)
        except contract.ContractError as exc:
            raise ImportFailed(f"cannot merge: {exc}") from None
    same_ids = id_space(target) == id_space(other) == "tmdb"
    with staged(target) as staging, contextlib.closing(connect(staging)) as con:
        for name in contract.TABLES:
            for side, folder in (("base", target), ("other", other)):
                path = folder / f"{name}.parquet"
                source = f"read_parquet({sql_string(path)})" if path.is_file() else None
                if source is None:  # an optional table one side lacks: as if empty
                    con.register(f"{side}_{name}_empty", contract.empty(name))
                    source = f"{side}_{name}_empty"
                con.execute(f"CREATE VIEW {side}_{name} AS SELECT * FROM {source}")
            summary.read += con.execute(f"SELECT count(*) FROM other_{name}").fetchall()[0][0]
        summary.say("matching titles")
        for family in ("movie", "person", "series", "season", "episode", "soundtrack"):
            con.execute(_map_sql(family, same_ids))
        tables = {
            name: _merged_sql(name)
            for name in contract.TABLES
            if (target / f"{name}.parquet").is_file() or (other / f"{name}.parquet").is_file()
        }
        for family in ("movie", "person", "series"):
            matched, added = con.execute(
                f"SELECT count(*) FILTER (matched), count(*) FILTER (NOT matched AND id IS NOT NULL) FROM map_{family}"
            ).fetchall()[0]
            summary.notes.append(
                f"{FAMILIES[family]}: {matched:,} matched (the base's, filled in from {other.name}), {added:,} added"
            )
        # Generated images stay generated: the merged catalogue's paths without a file are drawn.
        generated = contract.images_generated(target) or contract.images_generated(other)
        write_tables(staging, tables, summary, con, ids=id_space(target), images="generated" if generated else None)
        _link_images(target / "images", other / "images", staging / "images")
    summary.seconds = time.perf_counter() - started
    return summary


def _map_sql(family: str, same_ids: bool) -> str:
    """map_<family>(other_id, id, matched): where each of the other's entities goes. `id` is NULL for
    one that is dropped (a second entity matching a title already matched). Joins, not correlated
    subqueries: at a million titles a side, DuckDB hashes them."""
    table = FAMILIES[family]
    joins = [f"LEFT JOIN (SELECT DISTINCT id FROM base_{table}) taken ON taken.id = o.id"]
    if family in MATCHED_BY_ID:
        joins.append(
            f"LEFT JOIN (SELECT imdb_id, min(id) AS id FROM base_{table} WHERE coalesce(imdb_id, '') <> '' "
            "GROUP BY imdb_id) by_imdb ON by_imdb.imdb_id = o.imdb_id"
        )
        match = "coalesce(by_imdb.id, taken.id)" if same_ids else "by_imdb.id"
    elif family in MATCHED_BY_NUMBER:
        numbers = ", ".join(MATCHED_BY_NUMBER[family])
        joins.insert(0, "JOIN map_series s ON s.other_id = o.series_id AND s.id IS NOT NULL")
        joins.append(
            f"LEFT JOIN (SELECT series_id, {numbers}, min(id) AS id FROM base_{table} GROUP BY ALL) by_number "
            "ON by_number.series_id = s.id AND "
            + " AND ".join(f"by_number.{n} = o.{n}" for n in MATCHED_BY_NUMBER[family])
        )
        match = "by_number.id"
    else:  # soundtracks: never the same; kept with their film when the base has none for it
        joins.insert(0, "JOIN map_movie m ON m.other_id = o.movie_id AND m.id IS NOT NULL")
        joins.append("LEFT JOIN (SELECT DISTINCT movie_id FROM base_soundtracks) has ON has.movie_id = m.id")
        match = "NULL"
    keep = "has.movie_id IS NULL" if family == "soundtrack" else "TRUE"
    return f"""CREATE TEMP TABLE map_{family} AS
        WITH candidates AS (SELECT o.id AS other_id, {match} AS base_id,
                                   CASE WHEN taken.id IS NULL THEN o.id ELSE o.id + {ID_OFFSET} END AS fresh_id
                            FROM other_{table} o {" ".join(joins)} WHERE {keep})
        SELECT other_id, CASE WHEN base_id IS NULL THEN fresh_id
                              WHEN row_number() OVER (PARTITION BY base_id ORDER BY other_id) = 1 THEN base_id END AS id,
               base_id IS NOT NULL AS matched
        FROM candidates"""


def _owner(name: str) -> str | None:
    columns = contract.TABLES[name].names
    return next((column for column in OWNER_ORDER if column in columns), None)


def _merged_sql(name: str) -> str:
    """The merged table `name`: the base's rows, then the other's that the rules above take, with
    their ids as the merged catalogue numbers them."""
    schema = contract.TABLES[name]
    family = next((f for f, table in FAMILIES.items() if table == name), None)
    joins, renamed, resolved = [], {}, []
    for column in schema.names:
        referred = REFERRING.get(column) or (family if column == "id" else None)
        if referred is not None:
            alias = f"j_{column}"
            joins.append(f"LEFT JOIN map_{referred} {alias} ON {alias}.other_id = o.{column}")
            renamed[column] = f"{alias}.id"
            resolved.append(f"{alias}.id IS NOT NULL")
    if name in KINDED:
        kind_column, id_column, kinds = KINDED[name]
        joins += [
            f"LEFT JOIN map_{f} j_{f} ON o.{kind_column} = '{kind}' AND j_{f}.other_id = o.{id_column}"
            for kind, f in kinds.items()
        ]
        renamed[id_column] = "coalesce(" + ", ".join(f"j_{f}.id" for f in kinds.values()) + ")"
        resolved.append(f"{renamed[id_column]} IS NOT NULL")
    columns = ", ".join(f'{renamed.get(c, f"o.{c}")} AS "{c}"' for c in schema.names)
    taken = f"SELECT {columns} FROM other_{name} o {' '.join(joins)}"
    if family is not None and family != "soundtrack":  # an entity: the base's rows filled in, the other's new ones
        where = " AND ".join([*resolved, "NOT j_id.matched"])
        return f"{_filled_sql(name)} UNION ALL SELECT * FROM ({taken} WHERE {where})"
    owner = _owner(name)
    if name in KEYS or owner is None:
        key = KEYS.get(name, ("id",))
        absent = " AND ".join(f'b."{k}" = t."{k}"' for k in key)
    else:  # a sub-resource: the other's rows for a title only when the base has none in this table
        absent = f'b."{owner}" = t."{owner}"'
    where = " AND ".join(resolved) or "TRUE"
    return (
        f"SELECT * FROM base_{name} UNION ALL BY NAME SELECT * FROM ({taken} WHERE {where}) t "
        f"WHERE NOT EXISTS (SELECT 1 FROM base_{name} b WHERE {absent})"
    )


def _filled_sql(name: str) -> str:
    """The base's rows of entity table `name`, each value it lacks taken from the other's same title."""
    schema = contract.TABLES[name]
    family = next(f for f, table in FAMILIES.items() if table == name)
    values = []
    for field in schema:
        c = f'"{field.name}"'
        if field.name == "id" or field.name in REFERRING:
            values.append(f"b.{c}")
        elif field.type == contract.TEXT:
            values.append(f"coalesce(nullif(b.{c}, ''), o.{c}, b.{c}) AS {c}")
        elif str(field.type).startswith("list"):
            values.append(f"CASE WHEN len(b.{c}) > 0 THEN b.{c} ELSE coalesce(o.{c}, b.{c}) END AS {c}")
        elif field.type in (contract.INT, contract.FLOAT):  # TMDB's 0 is "unknown" (budget, runtime, votes)
            values.append(f"coalesce(nullif(b.{c}, 0), o.{c}, b.{c}) AS {c}")
        else:
            values.append(f"coalesce(b.{c}, o.{c}) AS {c}")
    same = (
        f"SELECT m.id AS merged_id, o.* FROM other_{name} o JOIN map_{family} m ON m.other_id = o.id "
        "WHERE m.matched AND m.id IS NOT NULL"
    )
    return f"SELECT {', '.join(values)} FROM base_{name} b LEFT JOIN ({same}) o ON o.merged_id = b.id"


def _link_images(base: Path, other: Path, target: Path) -> None:
    """The catalogues' image originals (a synthetic catalogue's), the base's where both have a path."""
    for source in (base, other):
        if not source.is_dir():
            continue
        for folder, _, files in os.walk(source):
            into = target / Path(folder).relative_to(source)
            into.mkdir(parents=True, exist_ok=True)
            for file in files:
                if not (into / file).exists():
                    os.link(Path(folder) / file, into / file)
