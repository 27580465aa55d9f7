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


def test_texts_from_the_search_index_are_the_details_bytes(api, e2e_release, tmp_path):
    """nginx takes a listed title's texts from the search index's `texts` table and writes them as
    JSON itself: with quotes, backslashes and control characters in a translation, the list is
    still the edge's bytes (which copies them from the details); a release whose search index has
    no such table is localised from the details, the same bytes."""
    import shutil
    import sqlite3

    from marquee.artefacts import SEARCH_INDEX
    from marquee.packs import add_document
    from tests.e2e.conftest import point_current

    path = next(p for p in localized_lists(e2e_release) if p.startswith("/3/movie/") and p.endswith("/similar"))
    escaped = tmp_path / "escaped"
    shutil.copytree(e2e_release, escaped, symlinks=True)
    con = sqlite3.connect(escaped / SEARCH_INDEX)
    with Pack(e2e_release) as pack, con:
        listed = [item["id"] for item in orjson.loads(pack.get(path.lstrip("/") + ".json"))["results"]]
        film = next(i for i in listed if pack.get(f"3/movie/{i}.de-DE.json"))
        title, overview = 'Der "Film" \\ a/b\tc\x01 é', "Zeile 1\r\nZeile\x1f 2\x7f"
        details = orjson.loads(pack.get(f"3/movie/{film}.de-DE.json")) | {"title": title, "overview": overview}
        updated = con.execute(
            "UPDATE texts SET title = ?, overview = ? WHERE kind = 'movie' AND id = ? AND suffix = '.de-DE'",
            (title, overview, film),
        ).rowcount
        assert updated == 1
    con.close()
    add_document(escaped, f"3/movie/{film}.de-DE.json", orjson.dumps(details))
    untabled = tmp_path / "untabled"
    shutil.copytree(escaped, untabled, symlinks=True)
    with sqlite3.connect(untabled / SEARCH_INDEX) as con:
        con.execute("DROP TABLE texts")
    con.close()
    get = rotating_get(api, "localized-texts")
    current = api.settings.current_link.readlink()
    try:
        for release in (escaped, untabled):
            point_current(api.settings, release)
            expected = assemble(str(release), Query(path, language="de-DE"), api.settings.languages)
            assert {"title": title, "overview": overview}.items() <= next(
                item for item in orjson.loads(expected)["results"] if item["id"] == film
            ).items()
            for _ in range(2):  # both workers
                assert get(path, language="de-DE").content == expected, release.name
    finally:
        point_current(api.settings, current)
