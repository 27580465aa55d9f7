"""Build one dynamic answer from release documents: the document, its page, its filters, its appends."""

from __future__ import annotations

import re
from collections import OrderedDict

import orjson

from edge import errors
from edge.content import (
    APPENDABLE,
    LEGACY,
    ContentError,
    Query,
    append_names,
    empty_page,
    language_filter,
    legacy_trailers,
    namespace_of,
    page_number,
    without_id,
)
from edge.credit_index import NAME_PREFIX as CREDIT_NAMES
from edge.credit_index import CreditIndex, credit_id_of
from edge.languages import candidates, suffix_for
from marquee import omdb
from marquee.artefacts import CREDIT_INDEX, MissingArtefact, OpenArtefacts
from marquee.configuration import CONFIGURATION_NAME, configuration_body
from marquee.packs import UNTRANSLATED, Pack, variant_suffix
from marquee.settings import Settings

# Only plain segments: the path comes from the raw request line, and a dot could climb out of the release.
SAFE_PATH = re.compile(r"^/3(/[A-Za-z0-9_-]+)+/?$")
OMDB_NAMES = "compat/"  # the OMDb dialect's documents (site_gen/compat.py)
FILTERED = {"images": ("backdrops", "logos", "posters", "profiles", "stills"), "videos": ("results",)}


class OpenPacks:
    """Read-only connections to release packs (marquee/packs.py) by release root: the current
    release's and the one before, so an answer begun before a publish finishes on its own release.

    A credit (`3/credit/{credit_id}.json`) is read from the release's credit index, not its pack
    (edge/credit_index.py): the document it used to be, rebuilt, so every answer that read it reads
    the same bytes. A release built before the index holds its credits in its pack, and is read so.
    What the node answers about itself (`node`, by name: /3/configuration, set by `answer_as_node`)
    is its own in every release, as nginx answers it, and so are the OMDb documents' posters
    (`poster_base`: omdb.with_poster_base)."""

    KEEP = 2

    def __init__(self) -> None:
        self.packs: OrderedDict[str, Pack] = OrderedDict()
        self.indexes = OpenArtefacts({CREDIT_INDEX: CreditIndex})
        self.node: dict[str, bytes] = {}
        self.poster_base = b""

    def read(self, root: str, name: str) -> bytes | None:
        try:
            pack = self.packs[root]
        except KeyError:
            try:
                pack = Pack(root)
            except FileNotFoundError:  # not a release (yet): nothing in it exists
                return None
            self.packs[root] = pack
            while len(self.packs) > self.KEEP:
                self.packs.popitem(last=False)[1].close()
        if name in self.node:
            return self.node[name]
        credit_id = credit_id_of(name) if name.startswith(CREDIT_NAMES) else None
        if credit_id is not None:
            try:
                return self.indexes.open(root, CREDIT_INDEX).document(credit_id, pack.raw)
            except MissingArtefact:
                pass  # built before the index: the credit is a document of the pack
        body = pack.get(name)
        if body is not None and self.poster_base and name.startswith(OMDB_NAMES):
            return omdb.with_poster_base(body, self.poster_base)
        return body


PACKS = OpenPacks()


def answer_as_node(settings: Settings) -> None:
    """This process answers /3/configuration and OMDb's posters from `settings` (its node's image host),
    whatever release it reads: marquee/configuration.py."""
    PACKS.node = {CONFIGURATION_NAME: configuration_body(settings)}
    PACKS.poster_base = omdb.poster_base(settings).encode()


class DocumentCache:
    """Release documents by release and name (absent ones too), least recently used first out.

    A published release never changes, and a new one has a new root, so entries never go stale:
    the content listener clears the cache only to free memory when `current` moves. An appended
    answer reads six or more documents, most of them the same hot titles; serving them from
    memory keeps append_to_response within twice a plain call (`make bench`).
    """

    ENTRY_OVERHEAD = 128  # so that a flood of misses is bounded too

    def __init__(self, max_bytes: int = 64 << 20, packs: OpenPacks = PACKS) -> None:
        self.max_bytes = max_bytes
        self.packs = packs
        self.size = 0
        self.entries: OrderedDict[tuple[str, str], bytes | None] = OrderedDict()
        self.hits = self.misses = 0  # edge/metrics.py reports them

    def read(self, root: str, name: str) -> bytes | None:
        key = (root, name)
        try:
            value = self.entries[key]
        except KeyError:
            self.misses += 1
            value = self.packs.read(root, name)
            cost = len(value or b"") + self.ENTRY_OVERHEAD
            if cost <= self.max_bytes // 8:  # one large document must not flush the rest
                self.entries[key] = value
                self.size += cost
                while self.size > self.max_bytes:
                    _, old = self.entries.popitem(last=False)
                    self.size -= len(old or b"") + self.ENTRY_OVERHEAD
            return value
        self.hits += 1
        self.entries.move_to_end(key)
        return value

    def clear(self) -> None:
        self.entries.clear()
        self.size = 0


class ReleaseDocuments:
    """One release's documents as an answer reads them: by the language rule, through the cache if any."""

    def __init__(self, root: str, languages: list[str], cache: DocumentCache | None = None) -> None:
        self.root = root
        self.languages = languages
        self.read = cache.read if cache is not None else PACKS.read

    def first(self, names: list[str]) -> bytes | None:
        """The first of `names` (release-relative, as edge/languages.py names them) that exists."""
        for name in names:
            body = self.read(self.root, name)
            if body is not None:
                return body
        return None

    def document(self, uri: str, query: Query) -> bytes | None:
        return self.first(candidates(uri, query.language, query.fallback_language, self.languages))

    def page(self, uri: str, page: int, query: Query) -> bytes | None:
        """Page `page` of a paged document: the first is `uri` itself, the others `uri.page<n>`."""
        return self.document(uri if page == 1 else f"{uri}.page{page}", query)


def merged_videos(documents: ReleaseDocuments, uri: str, body: bytes, query: Query) -> bytes:
    """`include_video_language`: the videos of every language asked for, newest first.

    Videos are rendered per language (`videos.json` holds the default language's, `videos.de-DE.json`
    the German ones), so `language` alone is a file choice; the list of languages merges those documents.
    Languages outside the served list have no videos here, like any missing translation.
    """
    wanted = {code.strip().lower().split("-")[0] for code in query.include_video_language.split(",")}
    if query.language:
        wanted.add(query.language.split("-")[0].lower())
    results: dict[str, dict] = {}
    for position, tag in enumerate(documents.languages):
        if tag.split("-")[0].lower() in wanted:
            part = documents.first([f"{uri.lstrip('/')}{variant_suffix(position, tag)}.json"])
            for video in orjson.loads(part)["results"] if part else ():
                results.setdefault(video.get("id") or video.get("key"), video)
    doc = orjson.loads(body)
    doc["results"] = sorted(
        results.values(), key=lambda v: (v.get("published_at") or "", str(v.get("id"))), reverse=True
    )
    return orjson.dumps(doc)


# List documents whose items are titles (similar, recommendations, a keyword's movies, a person's
# credits, a public list), rendered once in the default language, and the item lists inside each.
# fmt: off
LOCALIZED_LISTS = {"similar": ("results",), "recommendations": ("results",), "movies": ("results",),
                   "movie_credits": ("cast", "crew"), "tv_credits": ("cast", "crew"),
                   "combined_credits": ("cast", "crew"), "list": ("items",), "credit": ("media",)}
# fmt: on
# Documents named by an id of their own, not by a last segment: /3/list/{list_id}, /3/credit/{credit_id}
# (whose `media` is one title, not a list of them; edge/credit_index.py makes it, as OpenPacks reads it).
ID_DOCUMENTS = {"list": re.compile(r"^/3/list/[^/]+$"), "credit": re.compile(r"^/3/credit/[^/]+$")}


def list_kind(uri: str) -> str:
    """The kind of document at `uri` as LOCALIZED_LISTS and FILTERED name them: its last segment, or
    the kind of an ID_DOCUMENTS path."""
    return next((kind for kind, pattern in ID_DOCUMENTS.items() if pattern.match(uri)), uri.rsplit("/", 1)[-1])


# The lists of LOCALIZED_LISTS named by their path's last segment, as one pattern: a keyword's
# `movies` only (a company's or a genre's are not title lists in TMDB's shape). nginx localises
# these itself, by the same rule (nginx/lua/marquee_localize.lua); the ID_DOCUMENTS come here.
LOCALIZED_PATHS = re.compile(
    r"^/3/(?:[^/]+/[^/]+/(?:{})|keyword/[^/]+/movies)$".format(
        "|".join(kind for kind in LOCALIZED_LISTS if kind not in ID_DOCUMENTS and kind != "movies")
    )
)
# The text fields a localised list takes from each title's details, by the title's media.
ITEM_TEXT = {"movie": ("title", "overview"), "tv": ("name", "overview")}


def localized(documents: ReleaseDocuments, body: bytes, uri: str, query: Query) -> bytes:
    """A list in another language: each item's title (or name) and overview from that title's own
    document in the language asked for, so the fallbacks are exactly the details' (original title,
    empty overview, or the opt-in fallback_language). Rendering every list in 14 languages would
    multiply the release's documents; these reads come from the document cache."""
    kind = list_kind(uri)
    if kind not in ID_DOCUMENTS and not LOCALIZED_PATHS.match(uri):
        return body
    if suffix_for(query.language, documents.languages, UNTRANSLATED) == "":
        return body  # no language, or the default one: the list is already in it
    media = "tv" if uri.startswith("/3/tv/") or kind == "tv_credits" else "movie"
    doc = orjson.loads(body)
    texts: dict[tuple[str, int], dict] = {}
    for key in LOCALIZED_LISTS[kind]:
        found_items = doc.get(key)
        for item in [found_items] if isinstance(found_items, dict) else found_items or ():
            item_media = item.get("media_type", media)
            fields = ITEM_TEXT.get(item_media)
            if fields is None or not isinstance(item.get("id"), int):
                continue
            found = texts.get((item_media, item["id"]))
            if found is None:
                detail = documents.document(f"/3/{item_media}/{item['id']}", query)
                found = texts[(item_media, item["id"])] = orjson.loads(detail) if detail else {}
            for field in fields:
                if field in found and field in item:
                    item[field] = found[field]
    return orjson.dumps(doc)


def filtered(documents: ReleaseDocuments, body: bytes, uri: str, query: Query) -> bytes:
    kind = list_kind(uri)
    if kind in LOCALIZED_LISTS:
        return localized(documents, body, uri, query)
    if kind == "images":
        return language_filter(body, query.language, query.include_image_language, FILTERED["images"])
    if kind == "videos" and query.include_video_language:
        return merged_videos(documents, uri, body, query)
    return body


def assemble(root: str, query: Query, languages: list[str], cache: DocumentCache | None = None) -> bytes:
    """The answer body for `query`, or ContentError with TMDB's error; documents come through `cache` if given."""
    if not SAFE_PATH.match(query.path):
        raise ContentError(errors.NOT_FOUND)
    documents = ReleaseDocuments(root, languages, cache)
    page = page_number(query.page)
    names = append_names(query.append_to_response) if query.append_to_response else []
    uri = query.path.rstrip("/")
    body = documents.page(uri, page, query)
    if body is None and page > 1:
        first = documents.document(uri, query)
        if first is not None and b'"total_pages"' in first:
            return empty_page(first, page)
    if body is None:
        raise ContentError(errors.NOT_FOUND)
    body = filtered(documents, body, uri, query)
    namespace = namespace_of(uri)
    if not names or namespace is None:
        return body
    parts = [body[:-1]]
    for name in names:
        resource = LEGACY.get(name, name)
        if resource not in APPENDABLE[namespace] or (name in LEGACY and namespace != "movie"):
            continue  # unknown names are ignored, as at TMDB
        part = documents.document(f"{uri}/{resource}", query)
        if part is None:
            continue
        part = filtered(documents, part, f"{uri}/{resource}", query)
        part = legacy_trailers(part) if name == "trailers" else without_id(part)
        parts.append(b',"' + name.encode() + b'":' + part)
    return b"".join(parts) + b"}"
