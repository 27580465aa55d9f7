"""Which document answers `?language=` (and our opt-in `?fallback_language=`): one rule for the edge and nginx.

A release holds, for each URI, `X.json` (the first configured language, or a document that does
not depend on language), `X.<tag>.json` for each other language it is translated into, and
`X.und.json`, TMDB's answer when a translation is missing (original title, empty overview): the
names marquee/packs.py defines. `candidates` lists the names to try, in order.

nginx picks the same document in Lua (nginx/lua/marquee_docs.lua): control/services.py hands it
LANGUAGE_CODE and `suffixes()` as data, so both sides parse a value with one pattern and look its
code up in one table; tests compare the two sides' answers byte for byte.

A language outside the configured list behaves like a missing translation (`und`), never an
error and never a path: only the table's suffixes ever become part of a name.
"""

from __future__ import annotations

import functools
import re

from marquee.packs import UNTRANSLATED, variant_suffix

NO_FALLBACK = ".none"  # names no document: the fallback step is skipped
# `xx` or `xx-YY`, any case. A PCRE pattern as well: nginx's Lua matches with this very string.
LANGUAGE_CODE = r"^([A-Za-z]{2})(?:-([A-Za-z]{2}))?$"
_CODE = re.compile(LANGUAGE_CODE)


def suffixes(languages: list[str]) -> dict[str, str]:
    """ISO 639-1 code (lower case) -> the suffix served for it: the first configured language with
    that code (`pt` is pt-BR when pt-BR comes first; the region a client asks for is not matched)."""
    table: dict[str, str] = {}
    for position, tag in enumerate(languages):
        table.setdefault(tag.split("-")[0].lower(), variant_suffix(position, tag))
    return table


def suffix_for(value: str | None, languages: list[str], missing: str) -> str:
    """The suffix for a `language`-style parameter: "" for the default language or none given."""
    if not value:
        return ""
    match = _CODE.match(value)
    if match is None:
        return missing
    return _suffixes(tuple(languages)).get(match.group(1).lower(), missing)


@functools.lru_cache(maxsize=8)
def _suffixes(languages: tuple[str, ...]) -> dict[str, str]:
    return suffixes(list(languages))  # one table per configured list, not one per request


def candidates(uri: str, language: str | None, fallback: str | None, languages: list[str]) -> list[str]:
    """Release-relative document names to try, in order, for one URI."""
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
