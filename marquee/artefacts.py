"""Named files a release holds beside its pack (marquee/packs.py), each built by the release's
build and read by the doors that need it.

A release is one folder, so an artefact is published, rolled back and pruned with its pack by the
same rename and the same `rm -r`, and a door that reads it opens the one of the release its answer
began on. Artefacts, by name:

- `search.sqlite`: the search index (site_gen/search_index.py writes it; edge/search_index.py reads it).
- `discover.sqlite`: films and series by facet and in each sort order, for /3/discover
  (site_gen/discover_index.py writes it; edge/discover_index.py reads it), with its columns' arrays
  in `discover.columns` beside it (marquee/discover_columns.py).
- `showtimes.sqlite`: cinemas and their showtimes (site_gen/showtimes.py; edge/showtimes.py).
- `changes.sqlite`: what each build changed, kept across builds (site_gen/changes.py; edge/routes/changes.py).
- `credits.sqlite`: every credit by its id, for /3/credit/{credit_id} (site_gen/credit_index.py writes
  it; edge/credit_index.py reads it, through edge/assemble.py's OpenPacks, since a credit is answered
  as the document it used to be), with its TMDB-style credits' rows in `credits.rows` beside it.
- `images.sqlite`: a generated catalogue's image names (hashed) and kinds, which the edge draws on
  request (its format: marquee/image_index.py; site_gen/images.py writes it, edge/image_listener.py
  reads it). Only a release of a generated catalogue has one.
- `openapi.json`: our OpenAPI document of what the release serves (control/openapi.py writes it;
  nginx serves it at /3/openapi.json without a key).

And one link, `originals`: the catalogue's image folder, where nginx's image host and the edge find
an original the image store lacks (site_gen/release.py makes it when the catalogue has the folder).

Readers are opened read-only, once per release, and the two newest releases' stay open (as packs
do), so answers in flight during a publish finish on the release they began with.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

SEARCH_INDEX = "search.sqlite"
DISCOVER_INDEX = "discover.sqlite"
DISCOVER_COLUMNS = "discover.columns"  # the discover index's arrays, beside it
SHOWTIMES = "showtimes.sqlite"
CHANGES = "changes.sqlite"
IMAGE_INDEX = "images.sqlite"
CREDIT_INDEX = "credits.sqlite"
CREDIT_ROWS = "credits.rows"  # the credit index's rows with TMDB-style ids, beside it
# A batch of CREDIT_ROWS' buffers, in the order the build writes them and the edge reads them (the
# format: site_gen/credit_index.py): the fixed-width columns' values (never null), then for each
# binary column its validity bitmap, int32 offsets and bytes.
CREDIT_ROW_BUFFERS = ("key", "role", "media", "person") + tuple(
    f"{column}.{part}" for column in ("character", "episodes") for part in ("validity", "offsets", "values")
)
OPENAPI = "openapi.json"
OPENAPI_PATH = "/3/openapi.json"  # where nginx serves the current release's OPENAPI
# files an artefact's reader reads besides its own
COMPANIONS = {DISCOVER_INDEX: (DISCOVER_COLUMNS,), CREDIT_INDEX: (CREDIT_ROWS,)}
ARTEFACTS = (
    SEARCH_INDEX,
    DISCOVER_INDEX,
    DISCOVER_COLUMNS,
    SHOWTIMES,
    CHANGES,
    IMAGE_INDEX,
    CREDIT_INDEX,
    CREDIT_ROWS,
)
ORIGINALS = "originals"


READ_AHEAD_CHUNK = 8 << 20  # asked for at a time: one call for a whole file reads only its first 8 MB here


def read_ahead(path: Path | str) -> None:
    """Have the kernel read a file into the page cache, from a thread in the background: a reader
    opening an index after a build or a restart would otherwise fault its pages in one random read
    at a time, each request waiting on several (at 1M films the first discover round's p50 was
    18 ms, its p99 over a second). The search index (4.1 GB) is read in ~2.5 s here; a file already
    in the page cache costs a few ms."""

    def read() -> None:
        try:
            descriptor = os.open(path, os.O_RDONLY)
        except OSError:
            return
        try:
            for at in range(0, os.fstat(descriptor).st_size, READ_AHEAD_CHUNK):
                os.posix_fadvise(descriptor, at, READ_AHEAD_CHUNK, os.POSIX_FADV_WILLNEED)
        finally:
            os.close(descriptor)

    threading.Thread(target=read, name=f"read-ahead {path}", daemon=True).start()


class MissingArtefact(LookupError):
    """The release has no such artefact (built by an older Marquee, or a broken release)."""


class OpenArtefacts:
    """Readers of release artefacts by release root and name; `openers` makes a reader from a path."""

    KEEP = 2  # releases whose readers stay open

    def __init__(self, openers: dict[str, Callable[[Path], Any]]) -> None:
        self.openers = openers
        self.roots: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def open(self, root: str, name: str) -> Any:
        readers = self.roots.get(root)
        if readers is None:
            readers = self.roots[root] = {}
            while len(self.roots) > self.KEEP:
                for old in self.roots.popitem(last=False)[1].values():
                    close = getattr(old, "close", None)
                    if close is not None:
                        close()
        reader = readers.get(name)
        if reader is None:
            path = Path(root) / name
            if not path.exists():
                raise MissingArtefact(f"{path}: the release has no {name}")
            reader = readers[name] = self.openers[name](path)
        return reader
