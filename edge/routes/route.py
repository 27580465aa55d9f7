"""What a route is, and what its answer reads (edge/routes/__init__.py holds the table)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from edge import errors
from edge.assemble import DocumentCache, ReleaseDocuments
from edge.content import ContentError
from marquee.artefacts import MissingArtefact, OpenArtefacts


@dataclass(frozen=True)
class Context:
    """What an answer reads: the release it began on (its documents through the edge's cache, its
    artefacts such as the search index) and the configured languages."""

    root: str
    languages: list[str]
    cache: DocumentCache
    artefacts: OpenArtefacts

    @property
    def documents(self) -> ReleaseDocuments:
        return ReleaseDocuments(self.root, self.languages, self.cache)

    def artefact(self, name: str) -> Any:
        return self.artefacts.open(self.root, name)

    def required(self, name: str) -> Any:
        """The artefact an answer cannot do without; a release built before it existed answers TMDB's
        503/9, "unavailable", rather than an empty answer that would look like "no results"."""
        try:
            return self.artefact(name)
        except MissingArtefact:
            raise ContentError(errors.SERVICE_OFFLINE) from None


Answer = Callable[[Context, str, dict[str, str]], bytes]


@dataclass(frozen=True)
class Route:
    family: str
    # The paths it answers: a Python regex, and a PCRE too (nginx's location is this very string).
    pattern: str
    answer: Answer
    location: bool = True  # nginx has a location of its own for these paths
    cacheable: bool = False  # its 200 answers depend only on the release and the query
    dialect: str = "tmdb"  # whose envelope its errors and the gate's refusals take
    # Its answers cost a millisecond of Python or so (a search): nginx sends them to the edge's
    # answer workers (edge/answer_workers.py), a process a core, not to the content listener.
    apart: bool = False
    cache_control: str = "catalogue"  # its 200 answers' policy (edge/policy.py), nginx's cache of them too
    # The policy of one answer when it depends on what was asked (an append of showtimes), else cache_control.
    cache_policy: Callable[[dict[str, str]], str] | None = None
    # The Lua function (`module.function`) with which nginx answers what the release precomputed for
    # this route (a list page from the list pack, a title by IMDb id), handing the rest to the route:
    # called with the named location that proxies to the edge (nginx adds the route's Cache-Control).
    precomputed: str = ""
    # Its 200 answers carry an ETag, the MD5 hex of the body as a document's (marquee/packs.py), and a
    # request whose If-None-Match holds it gets a 304: for a path nginx used to answer from a document
    # (a credit), so a client's revalidation keeps working. nginx passes If-None-Match to these only.
    etag: bool = False

    def policy(self, params: dict[str, str]) -> str:
        return self.cache_policy(params) if self.cache_policy is not None else self.cache_control

    def matches(self, path: str) -> bool:
        return _compiled(self.pattern).match(path) is not None


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)
