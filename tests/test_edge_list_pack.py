"""edge/list_pack.py: what nginx may answer from the list pack, and how a pack is computed and published
(tests/e2e/test_list_pack.py serves it through nginx)."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
from datetime import date
from pathlib import Path

import orjson
import pytest

from edge import list_pack
from edge.content_listener import ARTEFACT_READERS
from marquee.packs import variant_suffix
from marquee.settings import PROJECT_ROOT

OPERATIONS = PROJECT_ROOT / "site_gen" / "schemas" / "tmdb_v3_operations.json"
ANSWER_SHAPING = {"page", "language", "api_key"}  # the pack's own key; the gate's


@pytest.fixture
def release(built_pack, tmp_path) -> Path:
    """The session's release, seen through links, so publishing lists leaves the shared folder alone."""
    folder = tmp_path / "release"
    folder.mkdir()
    for entry in built_pack.iterdir():
        (folder / entry.name).symlink_to(entry)
    return folder


def test_every_parameter_that_changes_a_precomputed_list_sends_it_to_the_edge():
    # TMDB's own parameters of each operation (extracted from its OpenAPI), and ours.
    operations = json.loads(OPERATIONS.read_text())
    for path in list_pack.PRECOMPUTED:
        template = re.sub(r"/(day|week)$", "/{time_window}", path)
        names = {p["name"] for p in operations[template]["parameters"] if p["in"] == "query"}
        assert names - ANSWER_SHAPING <= set(list_pack.VARYING), path
    assert "with_showtimes" in list_pack.VARYING  # now playing with its showtimes


def test_a_pack_holds_every_page_the_edge_answers_and_its_day(release, release_settings, tmp_path):
    target = tmp_path / "lists.sqlite"
    summary = list_pack.compute(release, release_settings.languages, target)
    with sqlite3.connect(target) as con:
        rows = dict(con.execute("SELECT name, body FROM docs").fetchall())
    assert rows.pop(list_pack.DAY_ROW) == summary.day.isoformat().encode()
    gzipped = {
        name.removesuffix(list_pack.GZIP_SUFFIX): rows.pop(name)
        for name in list(rows)
        if name.endswith(list_pack.GZIP_SUFFIX)
    }
    assert len(rows) == summary.pages
    assert {name: gzip.decompress(body) for name, body in gzipped.items()} == rows  # each page, gzipped too
    assert sum(map(len, gzipped.values())) == summary.gzipped_bytes < summary.bytes / 3
    for path in list_pack.PRECOMPUTED:
        first = orjson.loads(rows[list_pack.page_name(path, 1)])
        last = min(first["total_pages"], 500)
        pages = [orjson.loads(rows[list_pack.page_name(path, page)]) for page in range(1, last + 1)]
        assert list_pack.page_name(path, last + 1) not in rows
        ids = [(item.get("media_type"), item["id"]) for page in pages for item in page["results"]]
        assert len(ids) == len(set(ids)) == min(first["total_results"], 500 * 20), path  # no overlap, no gap
        for position, language in enumerate(release_settings.languages[1:], start=1):
            suffix = variant_suffix(position, language)
            held = [page for page in range(1, last + 2) if list_pack.page_name(path, page, suffix) in rows]
            assert held == list(range(1, min(last, list_pack.LOCALIZED_PAGES) + 1)), (path, language)


def test_a_run_across_midnight_computes_the_new_day(release, release_settings, tmp_path, monkeypatch):
    days = iter([date(2026, 6, 1), date(2026, 6, 2), date(2026, 6, 2), date(2026, 6, 2)])
    monkeypatch.setattr(list_pack, "today", lambda: next(days))
    summary = list_pack.compute(release, release_settings.languages, tmp_path / "lists.sqlite")
    assert summary.day == date(2026, 6, 2)


def test_publishing_swaps_the_link_and_keeps_two_packs(release, release_settings):
    assert list_pack.current(release) is None
    published = []
    for _ in range(3):
        list_pack.publish(release, release_settings.languages)
        published.append(list_pack.current(release))
    assert len(set(published)) == 3
    assert sorted((release / list_pack.FOLDER).glob("*.sqlite")) == published[1:]
    assert not list(release.joinpath(list_pack.FOLDER).glob(".*"))  # nothing partial left behind


def test_readers_of_every_artefact_the_lists_read_are_known():
    # compute() opens the release's artefacts as the edge does, with the same readers.
    assert list_pack.ARTEFACT_READERS is ARTEFACT_READERS
