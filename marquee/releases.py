"""Release folders, the `current` symlink, publish history, rollback and pruning.

Releases live in HOME/releases/<UTC stamp>. Publishing points HOME/current at `releases/<name>`
(a relative target, so HOME can move) by creating a temporary symlink and renaming it over
`current` with os.replace: nginx sees either the old release or the new one, never a missing link.
HOME/releases/HISTORY lists published releases oldest first; rollback pops the current one and
re-points the link at the one before, so repeated rollbacks walk further back. All changes happen
under an exclusive lock file, and history is rewritten atomically too.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from marquee.packs import BASE_NAME, PACK_NAME, base_path, is_delta, pack_path
from marquee.settings import RELEASES_FOLDER, Settings

BUILD_FILE = "BUILD"
HISTORY_FILE = "HISTORY"
RELEASE_NAME = re.compile(r"^\d{8}T\d{6}Z(-\d{2,})?$")  # a UTC stamp (new_release_dir)


class ReleaseError(Exception):
    """A release operation was refused; the message says why, in user terms."""


@dataclass(frozen=True)
class ReleaseInfo:
    name: str
    path: Path
    complete: bool  # has a BUILD file
    current: bool


def release_path(settings: Settings, name: str) -> Path:
    if not RELEASE_NAME.match(name):
        raise ReleaseError(f"{name!r} is not a release name (expected e.g. 20261122T101500Z)")
    return settings.releases_dir / name


def new_release_dir(settings: Settings, now: datetime | None = None) -> Path:
    """Create and return an empty, uniquely named release folder (`-02`, `-03`... within one second)."""
    settings.releases_dir.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    for attempt in range(1, 100):
        path = settings.releases_dir / (stamp if attempt == 1 else f"{stamp}-{attempt:02d}")
        try:
            path.mkdir()
            return path
        except FileExistsError:
            continue
    raise ReleaseError(f"too many releases named {stamp}*")


def current_release(settings: Settings) -> str | None:
    """Name of the release `current` points at, or None if nothing is published."""
    try:
        target = os.readlink(settings.current_link)
    except (FileNotFoundError, OSError):
        return None
    return Path(target).name


def list_releases(settings: Settings) -> list[ReleaseInfo]:
    """Every release folder, oldest first."""
    if not settings.releases_dir.is_dir():
        return []
    current = current_release(settings)
    return [
        ReleaseInfo(p.name, p, (p / BUILD_FILE).is_file(), p.name == current)
        for p in sorted(settings.releases_dir.iterdir())
        if p.is_dir() and RELEASE_NAME.match(p.name)
    ]


def history(settings: Settings) -> list[str]:
    """Published releases, oldest first; the last one is current (unless the link was changed by hand)."""
    path = settings.releases_dir / HISTORY_FILE
    if not path.is_file():
        return []
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def _write_history(settings: Settings, names: list[str]) -> None:
    path = settings.releases_dir / HISTORY_FILE
    tmp = path.with_name(f".{HISTORY_FILE}.{os.getpid()}.tmp")
    tmp.write_text("".join(f"{n}\n" for n in names))
    os.replace(tmp, path)


@contextmanager
def _locked(settings: Settings) -> Iterator[None]:
    settings.releases_dir.mkdir(parents=True, exist_ok=True)
    with open(settings.releases_dir / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


# nginx reads the link to a release's lists (current/lists/current, edge/list_pack.py) at most
# this often per worker, not on every request: through `current`, that readlink cost the lists 6%
# of their throughput (docs/benchmarks.md). Whatever re-points either link (a publish, a rollback,
# a refresh of the lists) waits twice as long before it returns, so the new lists are in effect
# when its command returns, as a new release's documents are.
LIST_LINK_SECONDS = 0.001


def settle_links() -> None:
    time.sleep(2 * LIST_LINK_SECONDS)


def _point_current(settings: Settings, name: str) -> None:
    """Atomically re-point `current` at releases/<name> (temp symlink + rename, never unlink first)."""
    link = settings.current_link
    tmp = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(f"{RELEASES_FOLDER}/{name}", tmp)
    os.replace(tmp, link)
    settle_links()


def servable(path: Path) -> bool:
    """Complete (BUILD is written last) and in today's layout: a pack of documents (with its base,
    when the pack is a delta)."""
    return (path / BUILD_FILE).is_file() and pack_path(path).is_file() and not _missing_base(path)


def _missing_base(path: Path) -> bool:
    # The base is a hard link made by the build: only a hand-edited folder lacks it, and serving the
    # delta alone would answer 404 for every unchanged document.
    return is_delta(pack_path(path)) and not base_path(path).is_file()


def check_complete(settings: Settings, name: str) -> None:
    """Refuse (ReleaseError) a release nginx could not serve."""
    path = release_path(settings, name)
    if not path.is_dir():
        raise ReleaseError(f"no release named {name} in {settings.releases_dir}")
    if not (path / BUILD_FILE).is_file():
        raise ReleaseError(f"release {name} is incomplete (no {BUILD_FILE} file); refusing to publish it")
    if not pack_path(path).is_file():
        raise ReleaseError(
            f"release {name} has no {PACK_NAME} (built before releases were packs, one file per "
            "document); nginx cannot serve it: run `marquee build` for a new release"
        )
    if _missing_base(path):
        raise ReleaseError(
            f"release {name} has a delta {PACK_NAME} but no {BASE_NAME} (the full pack under it); "
            "refusing to publish it: run `marquee build --full` for a new release"
        )


def publish(settings: Settings, release_name: str) -> str:
    """Make release_name current, record it in the history and prune old releases; returns the name."""
    with _locked(settings):
        check_complete(settings, release_name)
        _point_current(settings, release_name)
        names = history(settings)
        if not names or names[-1] != release_name:
            names.append(release_name)
        _write_history(settings, names)
        _prune(settings)
    return release_name


def rollback(settings: Settings) -> str:
    """Re-publish the release published before the current one; returns its name."""
    with _locked(settings):
        names = _rolled_back(settings)
        _point_current(settings, names[-1])
        _write_history(settings, names)
        return names[-1]


def rollback_target(settings: Settings) -> str:
    """The release a rollback now would serve (to warm it first: marquee/warm.py)."""
    with _locked(settings):
        return _rolled_back(settings)[-1]


def _rolled_back(settings: Settings) -> list[str]:
    """The history after a rollback: its last name is the release to serve."""
    names = history(settings)
    current = current_release(settings)
    if names and names[-1] == current:
        names.pop()
    # Skip entries whose folder has gone (removed by hand) or that predate packs; pruning never
    # removes the target.
    while names and not servable(settings.releases_dir / names[-1]):
        names.pop()
    if not names:
        where = f"{current} is the oldest published release" if current else "nothing is published"
        raise ReleaseError(f"nothing to roll back to: {where}")
    return names


def prune(settings: Settings) -> list[str]:
    """Delete complete releases beyond settings.keep_releases; returns the deleted names."""
    with _locked(settings):
        return _prune(settings)


def _prune(settings: Settings) -> list[str]:
    names = history(settings)
    protected = {current_release(settings)}
    if names:
        protected.add(names[-1])
        if len(names) > 1:
            protected.add(names[-2])  # the rollback target
    # Incomplete folders may be builds in progress: never touch them.
    complete = [r.name for r in list_releases(settings) if r.complete]
    keep = set(complete[-max(settings.keep_releases, 1) :]) | protected
    removed = [name for name in complete if name not in keep]
    for name in removed:
        shutil.rmtree(settings.releases_dir / name)
    if removed:
        _write_history(settings, [n for n in names if n not in removed])
    return removed
