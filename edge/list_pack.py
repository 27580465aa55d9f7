"""The title lists and trending, precomputed for one UTC day, for nginx to serve like documents.

What the edge answers for /3/movie/popular, /3/trending/all/day and the other paths of
PRECOMPUTED depends only on the release and today's UTC date when a request names nothing but a
`page` and a `language` (or none): a home screen's rows. `compute` asks the edge's own answers
(edge/routes/lists.py, trending.py) for them and writes them into a pack (marquee/packs.py's
format, one full pack), so the bodies nginx serves are the edge's bytes:
- in the first configured language (asked for by name or not), every page, 1 to MAX_PAGE;
- in each other language, the first LOCALIZED_PAGES: a home screen's rows and a few scrolls.
Why not every page in every language: at 100k titles a language has ~6,000 pages, 0.35 ms and
16 KB each: ~2 s and ~100 MB, 14 times that for all of them (docs/benchmarks.md). The rest (another
language's deeper pages, VARYING, a page past the last) still go to the edge, and nginx keeps its
answers.

A page is the row `3/movie/popular.de-DE?page=2`: the path, the language's variant suffix as
documents have it (marquee/packs.py), the page. The edge localises by that suffix alone
(edge/languages.py's candidates), so every `language` value nginx maps to it gets these bytes.
Each page is also stored gzipped, as the row of its name and GZIP_SUFFIX, for the clients that
accept it (most do): nginx would otherwise compress each answer again, and a page's compression cost
more than the rest of its answer (docs/benchmarks.md).

Where it lives: a dated overlay of a published release, not part of it, since it changes each
day while the release does not. `RELEASE/lists/current` is a symbolic link to
`RELEASE/lists/<stamp>.sqlite`; `publish` writes the new pack beside the old one and renames a new
link over `current`, so nginx (nginx/lua/marquee_docs.lua `serve_list`) sees the old pack or the new
one, never a half-written one, and keeps the previous file open until answers in flight finish.
nginx reads that link through `current` at most once a millisecond, so `publish` returns only
after that long (marquee/releases.py `settle_links`): the new pack is served when it returns.
The stamp names a pack uniquely within a home, so nginx keys its open packs and pages by it.
The pack holds a row DAY_ROW with the day it was computed for: nginx serves it on that UTC day
only, so a pack that no one refreshed after midnight sends requests to the edge, which computes
them for the new day. `marquee build` writes one for the day of the build; `marquee refresh-lists`
(cron, every 30 minutes) writes today's.
"""

from __future__ import annotations

import gzip
import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import orjson

from edge.assemble import DocumentCache
from edge.content import MAX_PAGE
from edge.content_listener import ARTEFACT_READERS
from edge.routes import lists, trending
from edge.routes.route import Context
from marquee import releases
from marquee.artefacts import OpenArtefacts
from marquee.packs import PAGE_SIZE, etag_of, variant_suffix

FOLDER = "lists"
CURRENT = "current"
DAY_ROW = "day"
KEEP = 2  # packs on disk: the current one and the one answers in flight may still read
# Parameters (besides `page` and `language`) that change a precomputed list's answer: a request
# naming any of them goes to the edge. The routes ignore every other parameter, as TMDB does.
VARYING = ("region", "timezone", "with_showtimes", "fallback_language")
LOCALIZED_PAGES = 5
GZIP_SUFFIX = "+gzip"  # the row of a page's gzipped bytes: its name and this
GZIP_LEVEL = 6  # gzip's own default: level 9 saves 1% more bytes at twice the time
# fmt: off
PRECOMPUTED = (*lists.LISTS, "/3/person/popular",
               *(f"/3/trending/{kind}/{window}" for kind in ("all", "movie", "tv", "person")
                 for window in trending.WINDOW_DAYS))
# fmt: on


def page_name(path: str, page: int, suffix: str = "") -> str:
    """The pack row of `path`'s page in the language of variant `suffix` (nginx/lua/marquee_docs.lua
    builds the same from the request)."""
    return f"{path[1:]}{suffix}?page={page}"


def today() -> date:
    return datetime.now(UTC).date()


@dataclass(frozen=True)
class ListPackSummary:
    day: date
    pages: int
    bytes: int
    gzipped_bytes: int
    seconds: float

    def line(self) -> str:
        return (
            f"lists for {self.day.isoformat()}: {self.pages} pages of {len(PRECOMPUTED)} lists, "
            f"{self.bytes:,} bytes ({self.gzipped_bytes:,} gzipped) in {self.seconds:.2f} s"
        )


def answer_for(context: Context, path: str, params: dict[str, str]) -> bytes:
    module = trending if path.startswith("/3/trending/") else lists
    return module.answer(context, path, params)


def pages_of(context: Context, path: str, language: str | None, last: int):
    """(page, body) of the pages of `path` the edge answers with results, up to `last`."""
    page = 1
    while True:
        params = {"page": str(page)} if language is None else {"page": str(page), "language": language}
        body = answer_for(context, path, params)
        yield page, body
        if page >= min(orjson.loads(body)["total_pages"], last):
            return
        page += 1


def rows_for(context: Context, path: str):
    """(name, body, etag) of each of `path`'s precomputed pages, in every language, and of each one's
    gzipped bytes (mtime 0: the same page, the same bytes) with the JSON's ETag, which nginx sends weak
    with them, as its gzip filter does."""
    for position, language in enumerate(context.languages):
        suffix = variant_suffix(position, language)
        pages = pages_of(
            context, path, None if position == 0 else language, MAX_PAGE if position == 0 else LOCALIZED_PAGES
        )
        for page, body in pages:
            name, etag = page_name(path, page, suffix), etag_of(body)
            yield name, body, etag
            yield name + GZIP_SUFFIX, gzip.compress(body, GZIP_LEVEL, mtime=0), etag


def compute(release: Path | str, languages: list[str], target: Path) -> ListPackSummary:
    """Write every page of PRECOMPUTED, as the edge answers them today, into the new pack `target`.
    The day is checked again at the end: a run across midnight computes the new day's instead."""
    started = time.perf_counter()
    context = Context(str(Path(release).resolve()), list(languages), DocumentCache(), OpenArtefacts(ARTEFACT_READERS))
    while True:
        day = today()
        rows = [row for path in PRECOMPUTED for row in rows_for(context, path)]
        if today() == day:
            break
    day_body = day.isoformat().encode()
    rows.append((DAY_ROW, day_body, etag_of(day_body)))
    target.unlink(missing_ok=True)
    con = sqlite3.connect(target)
    try:
        con.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("CREATE TABLE docs (name TEXT NOT NULL, body BLOB NOT NULL, etag TEXT NOT NULL)")
        con.executemany("INSERT INTO docs VALUES (?, ?, ?)", rows)
        con.execute("CREATE UNIQUE INDEX docs_name ON docs (name)")
        con.commit()
    finally:
        con.close()
    pages = [body for name, body, _ in rows[:-1] if not name.endswith(GZIP_SUFFIX)]
    gzipped = sum(len(body) for name, body, _ in rows if name.endswith(GZIP_SUFFIX))
    return ListPackSummary(day, len(pages), sum(map(len, pages)), gzipped, time.perf_counter() - started)


def current(release: Path | str) -> Path | None:
    """The list pack nginx serves for `release`, or None."""
    link = Path(release) / FOLDER / CURRENT
    return link.resolve() if link.is_symlink() and link.resolve().exists() else None


def publish(release: Path | str, languages: list[str]) -> ListPackSummary:
    """Compute today's lists for `release` and make them the ones nginx serves, atomically; older
    packs beyond KEEP are removed."""
    folder = Path(release) / FOLDER
    folder.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    partial = folder / f".{stamp}.partial"
    try:
        summary = compute(release, languages, partial)
        final = folder / f"{stamp}.sqlite"
        partial.rename(final)
    finally:
        partial.unlink(missing_ok=True)
    link = folder / f".{stamp}.link"
    os.symlink(final.name, link)
    os.replace(link, folder / CURRENT)  # rename(2): readers see the old link or the new one
    releases.settle_links()
    packs = sorted(folder.glob("*.sqlite"))
    for old in packs[:-KEEP]:
        old.unlink()
    return summary
