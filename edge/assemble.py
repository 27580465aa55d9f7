"""Build one dynamic answer from release files: the document, its page, its filters, its appends."""

from __future__ import annotations

import os
import re

import orjson

from edge import errors
from edge.content import (
    APPENDABLE, LEGACY, ContentError, Query, append_names, empty_page, language_filter, legacy_trailers,
    namespace_of, page_number, without_id,
)
from edge.languages import candidates

# Only plain segments: the path comes from the raw request line, and a dot could climb out of the release.
SAFE_PATH = re.compile(r"^/3(/[A-Za-z0-9_-]+)+/?$")
FILTERED = {"images": ("backdrops", "logos", "posters", "profiles", "stills"), "videos": ("results",)}


def read_first(root: str, names: list[str]) -> bytes | None:
    """The first of `names` (relative to root) that exists; raw fds: this runs several times per request."""
    for name in names:
        try:
            fd = os.open(f"{root}/{name}", os.O_RDONLY)
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            chunks = []
            while chunk := os.read(fd, 1 << 18):
                chunks.append(chunk)
            return b"".join(chunks)
        except IsADirectoryError:
            continue
        finally:
            os.close(fd)
    return None


def document(root: str, uri: str, query: Query, languages: list[str]) -> bytes | None:
    return read_first(root, candidates(uri, query.language, query.fallback_language, languages))


def merged_videos(root: str, uri: str, body: bytes, query: Query, languages: list[str]) -> bytes:
    """`include_video_language`: the videos of every language asked for, newest first.

    Videos are rendered per language (`videos.json` holds the default language's, `videos.de-DE.json`
    the German ones), so `language` alone is a file choice; the list of languages merges those files.
    Languages outside the served list have no videos here, like any missing translation.
    """
    wanted = {code.strip().lower().split("-")[0] for code in query.include_video_language.split(",")}
    if query.language:
        wanted.add(query.language.split("-")[0].lower())
    results: dict[str, dict] = {}
    for position, tag in enumerate(languages):
        if tag.split("-")[0].lower() in wanted:
            part = read_first(root, [f"{uri.lstrip('/')}{'' if position == 0 else '.' + tag}.json"])
            for video in orjson.loads(part)["results"] if part else ():
                results.setdefault(video.get("id") or video.get("key"), video)
    doc = orjson.loads(body)
    doc["results"] = sorted(results.values(), key=lambda v: (v.get("published_at") or "", str(v.get("id"))),
                            reverse=True)
    return orjson.dumps(doc)


def filtered(root: str, body: bytes, uri: str, query: Query, languages: list[str]) -> bytes:
    kind = uri.rsplit("/", 1)[-1]
    if kind == "images":
        return language_filter(body, query.language, query.include_image_language, FILTERED["images"])
    if kind == "videos" and query.include_video_language:
        return merged_videos(root, uri, body, query, languages)
    return body


def assemble(root: str, query: Query, languages: list[str]) -> bytes:
    """The answer body for `query`, or ContentError with TMDB's error."""
    if not SAFE_PATH.match(query.path):
        raise ContentError(errors.NOT_FOUND)
    page = page_number(query.page)
    names = append_names(query.append_to_response) if query.append_to_response else []
    uri = query.path.rstrip("/")
    body = document(root, uri if page == 1 else f"{uri}.page{page}", query, languages)
    if body is None and page > 1:
        first = document(root, uri, query, languages)
        if first is not None and b'"total_pages"' in first:
            return empty_page(first, page)
    if body is None:
        raise ContentError(errors.NOT_FOUND)
    body = filtered(root, body, uri, query, languages)
    namespace = namespace_of(uri)
    if not names or namespace is None:
        return body
    parts = [body[:-1]]
    for name in names:
        resource = LEGACY.get(name, name)
        if resource not in APPENDABLE[namespace] or (name in LEGACY and namespace != "movie"):
            continue  # unknown names are ignored, as at TMDB
        part = document(root, f"{uri}/{resource}", query, languages)
        if part is None:
            continue
        part = filtered(root, part, f"{uri}/{resource}", query, languages)
        part = legacy_trailers(part) if name == "trailers" else without_id(part)
        parts.append(b',"' + name.encode() + b'":' + part)
    return b"".join(parts) + b"}"
