"""Which file answers `?language=` (and our opt-in `?fallback_language=`): one rule for nginx and the edge.

A release holds, for each URI, `X.json` (the default language, or a document that does not depend
on language), `X.<lang>.json` for each other language it is translated into, and `X.und.json`,
TMDB's answer when a translation is missing (original title, empty overview). The candidates
below are tried in order; nginx/marquee.conf.j2 renders the same rule as `map` + `try_files`.

A language outside the configured list behaves like a missing translation (`und`), never an
error and never a path: only whitelisted suffixes ever reach the file system.
"""

from __future__ import annotations

import re

UNTRANSLATED = ".und"
NO_FALLBACK = ".none"  # names no file: the fallback step is skipped
_CODE = re.compile(r"^([A-Za-z]{2})(?:-([A-Za-z]{2}))?$")


def suffix_for(value: str | None, languages: list[str], missing: str) -> str:
    """The file suffix for a `language`-style parameter: "" for the default language or none given."""
    if not value:
        return ""
    match = _CODE.match(value)
    if match is None:
        return missing
    wanted = match.group(1).lower()
    for position, language in enumerate(languages):
        if language.split("-")[0].lower() == wanted:
            return "" if position == 0 else f".{language}"
    return missing


def candidates(uri: str, language: str | None, fallback: str | None, languages: list[str]) -> list[str]:
    """Release-relative file names to try, in order, for one URI."""
    base = uri.lstrip("/")
    if not language and not fallback:
        return [f"{base}.json"]  # the common case: the default document, nothing else to try
    lang = suffix_for(language, languages, UNTRANSLATED)
    names = [f"{base}{lang}.json"]
    fb = suffix_for(fallback, languages, NO_FALLBACK) if fallback else NO_FALLBACK
    if fb != NO_FALLBACK:
        names.append(f"{base}{fb}.json")
    names += [f"{base}{UNTRANSLATED}.json", f"{base}.json"]
    return list(dict.fromkeys(names))  # keep order, drop repeats


def nginx_map_entries(languages: list[str]) -> list[tuple[str, str]]:
    """(regex, suffix) rows for an nginx `map` implementing suffix_for()."""
    rows = []
    for position, language in enumerate(languages):
        code = language.split("-")[0].lower()
        rows.append((f"~*^{code}(-[a-z][a-z])?$", "" if position == 0 else f".{language}"))
    return rows
