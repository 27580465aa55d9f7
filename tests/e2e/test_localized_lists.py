"""Title lists in a language, made by nginx (nginx/lua/marquee_localize.lua): the same bytes and
ETag as the edge's `localized` (edge/assemble.py) for every kind of list, in a served language, an
unknown one (the untranslated fallback) and one with a fallback_language."""

from __future__ import annotations

import orjson
import pytest

from edge.assemble import LOCALIZED_PATHS, assemble
from edge.content import Query
from marquee.packs import Pack, etag_of
from tests.e2e.conftest import rotating_get

pytestmark = pytest.mark.e2e

# Lists per kind: every kind, first the longest lists (most titles to localise).
PER_KIND = 6
LANGUAGES = [{"language": "de-DE"}, {"language": "xx-XX"}, {"language": "ko-KR", "fallback_language": "fr-FR"}]


def localized_lists(release) -> list[str]:
    """PER_KIND paths of each kind of list nginx localises, from the release's pack."""
    by_kind: dict[str, list[tuple[int, str]]] = {}
    with Pack(release) as pack:
        for name in pack.iter_names("3/%"):
            path = "/" + name.removesuffix(".json")
            if "." in path or not LOCALIZED_PATHS.match(path):
                continue
            kind = "/".join(path.split("/")[2::2])  # movie/similar, person/combined_credits, keyword/movies
            by_kind.setdefault(kind, []).append((-len(pack.get(name)), path))
    assert len(by_kind) >= 7, by_kind.keys()  # films' and series' similar and recommendations, a keyword's, people's
    return [path for entries in by_kind.values() for _, path in sorted(entries)[:PER_KIND]]


def test_nginx_localizes_title_lists_as_the_edge_does(api, e2e_release):
    get = rotating_get(api, "localized")
    changed = 0
    for path in localized_lists(e2e_release):
        plain = get(path).json()
        for params in LANGUAGES:
            response = get(path, **params)
            assert response.status_code == 200, (path, params, response.text)
            expected = assemble(str(e2e_release), Query(path, **params), api.settings.languages)
            assert response.content == expected, (path, params)
            assert response.headers["ETag"].removeprefix("W/") == f'"{etag_of(expected)}"'
            changed += orjson.loads(response.content) != plain
    assert changed >= 10  # the languages do change titles: the comparison is not of default lists


def test_a_localized_title_is_the_details_title_in_that_language(api, e2e_release):
    get = rotating_get(api, "localized-details")
    path = next(p for p in localized_lists(e2e_release) if p.startswith("/3/movie/") and p.endswith("/similar"))
    listed = get(path, language="de-DE").json()["results"]
    for item in listed[:5]:
        details = get(f"/3/movie/{item['id']}", language="de-DE").json()
        assert (item["title"], item["overview"]) == (details["title"], details["overview"])
    gzipped = get(path, language="de-DE")  # httpx asks for gzip: nginx sends it, under a weak ETag
    assert gzipped.headers.get("Content-Encoding") == "gzip" and gzipped.headers["ETag"].startswith('W/"')
