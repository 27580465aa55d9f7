"""The release's change log, `changes.sqlite` (marquee/artefacts.py): what each build changed in the
films, series, seasons, episodes and people, kept across builds, for /3/{movie,tv,person}/changes
and the per-item /changes paths (edge/routes/changes.py).

A build compares its details documents (the default language's) with the previous release's: the
manifests name the ones whose content hash differs, and only those are read from both packs and
compared key by key, as TMDB reports a change: per top-level key, `added`, `updated` or `deleted`,
with the new `value` and the `original_value`. A film that is new has every key added; one that is
gone, every key deleted. The previous release's log is carried over (KEEP_DAYS), so the log is the
history of the releases built one after another.

Format (SQLite, written once, opened read-only and immutable):
`changes(kind, id, time, key, item)`: `time` in Unix seconds (the build's), `item` TMDB's change item
as JSON (`id`, `action`, `time`, `iso_639_1`, `iso_3166_1`, `value`, `original_value`); `adult` per
entity in `entities(kind, id, adult)` for the lists of changed ids. Indexed by (kind, time) and
(kind, id, time).
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import orjson

from marquee.artefacts import CHANGES
from marquee.manifests import MANIFEST_NAME, manifest_key, manifest_rows
from marquee.packs import Pack

KEEP_DAYS = 90
# kind -> (path template, the default-language document names of its details)
# fmt: off
DETAILS = {
    "movie": ("/3/movie/{movie_id}", r"^3/movie/[0-9]+\.json$"),
    "tv": ("/3/tv/{series_id}", r"^3/tv/[0-9]+\.json$"),
    "season": ("/3/tv/{series_id}/season/{season_number}", r"^3/tv/[0-9]+/season/[0-9]+\.json$"),
    "episode": ("/3/tv/{series_id}/season/{season_number}/episode/{episode_number}",
                r"^3/tv/[0-9]+/season/[0-9]+/episode/[0-9]+\.json$"),
    "person": ("/3/person/{person_id}", r"^3/person/[0-9]+\.json$"),
}
# fmt: on
SCHEMA = """
CREATE TABLE changes(kind TEXT, id INTEGER, time INTEGER, key TEXT, item TEXT);
CREATE TABLE entities(kind TEXT, id INTEGER, adult INTEGER, PRIMARY KEY (kind, id)) WITHOUT ROWID;
"""


def changed_names(previous: Path, release: Path) -> list[tuple[str, str]]:
    """(kind, name) of every default-language details document added, changed or removed."""
    con = duckdb.connect()
    try:
        out = []
        for kind, (template, pattern) in DETAILS.items():
            keys = {manifest_key(template)}
            old = manifest_rows(previous / MANIFEST_NAME, keys, where=f"regexp_matches(name, '{pattern}')")
            new = manifest_rows(release / MANIFEST_NAME, keys, where=f"regexp_matches(name, '{pattern}')")
            out.extend(
                (kind, name)
                for (name,) in con.execute(
                    f"SELECT coalesce(n.name, o.name) FROM {new} n FULL JOIN {old} o ON o.name = n.name "
                    f"WHERE n.digest IS DISTINCT FROM o.digest ORDER BY 1"
                ).fetchall()
            )
        return out
    finally:
        con.close()


def diff(before: dict, after: dict, when: str) -> list[tuple[str, dict]]:
    """(key, TMDB change item) for each top-level key that differs."""
    items = []
    for key in sorted(set(before) | set(after)):
        if key == "id" or before.get(key) == after.get(key):
            continue
        action = "added" if key not in before else "deleted" if key not in after else "updated"
        item = {
            "id": hashlib.md5(f"{key}|{when}|{after.get('id', before.get('id'))}".encode()).hexdigest()[:24],
            "action": action,
            "time": when,
            "iso_639_1": "",
            "iso_3166_1": "",
        }
        if key in after:
            item["value"] = after[key]
        if key in before:
            item["original_value"] = before[key]
        items.append((key, item))
    return items


def for_release(release_dir: Path, previous: Path | None, now: float | None = None) -> int:
    """Write the release's change log: the previous release's (its last KEEP_DAYS) and this build's
    changes against it; the number of change items this build added."""
    release_dir = Path(release_dir)
    target = release_dir / CHANGES
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    now = time.time() if now is None else now
    stamp = int(now)
    when = datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    carried = previous is not None and (Path(previous) / CHANGES).is_file()
    if carried:
        shutil.copyfile(Path(previous) / CHANGES, partial)
    out = sqlite3.connect(partial)
    added = 0
    try:
        if carried:
            out.execute("DELETE FROM changes WHERE time < ?", (stamp - KEEP_DAYS * 86400,))
        else:
            out.executescript(SCHEMA)
        if previous is not None and (Path(previous) / MANIFEST_NAME).is_dir():
            with Pack(previous) as old, Pack(release_dir) as new:
                for kind, name in changed_names(Path(previous), release_dir):
                    before, after = (orjson.loads(body) if (body := pack.get(name)) else {} for pack in (old, new))
                    entity = after.get("id", before.get("id"))
                    if not isinstance(entity, int):
                        continue
                    rows = [
                        (kind, entity, stamp, key, orjson.dumps(item).decode())
                        for key, item in diff(before, after, when)
                    ]
                    out.executemany("INSERT INTO changes VALUES (?, ?, ?, ?, ?)", rows)
                    out.execute(
                        "INSERT OR REPLACE INTO entities VALUES (?, ?, ?)",
                        (kind, entity, int(bool((after or before).get("adult")))),
                    )
                    added += len(rows)
        out.executescript(
            "CREATE INDEX IF NOT EXISTS changes_time ON changes(kind, time);"
            "CREATE INDEX IF NOT EXISTS changes_entity ON changes(kind, id, time);"
        )
        out.commit()
    finally:
        out.close()
    partial.replace(target)
    return added
