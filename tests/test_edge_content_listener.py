"""edge/content_listener.py's CurrentRelease: what a publish does to the readers of the release before."""

from __future__ import annotations

import os

from edge.content_listener import CurrentRelease
from marquee.artefacts import OpenArtefacts


class Reader:
    """A reader with a cache, as the search and discover indexes have."""

    def __init__(self, path) -> None:
        self.cached = {"query": "answer"}
        self.closed = False

    def forget_caches(self) -> None:
        self.cached.clear()

    def close(self) -> None:
        self.closed = True


def test_a_publish_empties_the_caches_of_the_release_before_and_keeps_it_open(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "index").write_text("")
    current = tmp_path / "current"
    os.symlink("a", current)
    release = CurrentRelease(current, artefacts=OpenArtefacts({"index": Reader}))
    release.open_now(("index", "absent"))  # an artefact the release lacks is left to its requests
    first = release.artefacts.open(release.root(), "index")
    assert first.cached
    os.unlink(current)
    os.symlink("b", current)
    second = release.artefacts.open(release.root(), "index")
    assert not first.cached and not first.closed  # answers that began on it still finish
    assert second.cached and second is not first
    release.artefacts.open(release.root(), "index")
    assert second.cached
