"""The build database kept between builds, so that a rebuild loads only what changed.

One database is kept beside the releases (`RELEASES/.build-state/catalogue.duckdb`), with a note
of the release it was built for, the code that built it and the digests of the Parquet files it
holds. A build whose previous release is that release, with the same code, updates it in place
(marquee_build.catalogue.load_database runs only the steps a changed file reaches). Any other build
loads from scratch into the same place. The note is cleared before the database changes and written
again only after the release is complete, so a failed build leaves nothing a later build would trust.
A second build running at the same time gets a private database instead of waiting.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

STATE_DIR = ".build-state"
DATABASE = "catalogue.duckdb"
NOTE = "state.json"


@dataclass
class KeptDatabase:
    path: Path  # where the build's database is
    digests: dict[str, str] | None  # the Parquet digests the database holds, when it can be updated
    keep: Callable[[str, dict[str, str]], None]  # keep(release folder, digests) once the release is complete


@contextmanager
def kept_database(releases_dir: Path, previous: str | None, code: str) -> Iterator[KeptDatabase]:
    """The database for a build of the release after `previous` (a release folder's absolute path, or None)."""
    folder = Path(releases_dir) / STATE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            with tempfile.TemporaryDirectory(prefix=".build-", dir=releases_dir) as work:
                yield KeptDatabase(Path(work) / DATABASE, None, lambda release, digests: None)
            return
        database, note = folder / DATABASE, folder / NOTE
        try:
            state = json.loads(note.read_text())
        except (OSError, ValueError):
            state = {}
        note.unlink(missing_ok=True)  # from here on the database is being changed
        usable = (
            previous is not None
            and state.get("release") == previous
            and state.get("code") == code
            and database.is_file()
        )
        if not usable:
            for stale in (database, folder / (DATABASE + ".wal")):
                stale.unlink(missing_ok=True)

        def keep(release: str, digests: dict[str, str]) -> None:
            written = folder / (NOTE + ".new")
            written.write_text(json.dumps({"release": release, "code": code, "digests": digests}))
            os.replace(written, note)

        yield KeptDatabase(database, state.get("digests") if usable else None, keep)
