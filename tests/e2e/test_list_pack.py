"""The precomputed title lists and trending (edge/list_pack.py) through nginx: plain pages come from
the list pack, byte for byte what the edge answers; everything else, and a pack of another day,
still reaches the edge; `marquee refresh-lists` publishes a new pack while nginx serves."""

from __future__ import annotations

import gzip
import sqlite3

import httpx
import orjson
import pytest

from edge import list_pack
from tests.e2e.conftest import assert_tmdb_error, rotating_get

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def get(api):
    return rotating_get(api, "list-pack")


@pytest.fixture(scope="module")
def edge(api):
    """GET straight from an answer worker, as nginx sends what its gate admitted."""
    client = httpx.Client(
        transport=httpx.HTTPTransport(uds=str(api.settings.answer_sockets[0])),
        base_url="http://edge",
        headers={"X-Marquee-Admitted": "40 39 60"},
        timeout=10,
    )
    yield lambda path, **params: client.get(path, params=params)
    client.close()


def from_pack(response: httpx.Response) -> bool:
    """nginx marks what it proxied to the edge with its cache status; the list pack's answers have none."""
    return response.status_code == 200 and "x-marquee-cache" not in response.headers


def pages_in_pack(release) -> dict[str, int]:
    """The last page of each list (in the first language, whose every page is there) in the pack."""
    with sqlite3.connect(list_pack.current(release)) as con:
        names = [name for (name,) in con.execute("SELECT name FROM docs WHERE name != ?", (list_pack.DAY_ROW,))]
    last: dict[str, int] = {}
    for name in names:
        if name.endswith(list_pack.GZIP_SUFFIX):
            continue
        path, page = name.split("?page=")
        if "." not in path:
            last["/" + path] = max(last.get("/" + path, 0), int(page))
    return last


def test_every_list_page_is_in_the_pack_and_served_as_the_edge_answers_it(api, get, edge, e2e_release):
    last = pages_in_pack(e2e_release)
    assert set(last) == set(list_pack.PRECOMPUTED)
    for path in list_pack.PRECOMPUTED:
        for page in sorted({1, last[path]}):
            served = get(path, page=str(page))
            assert from_pack(served), (path, page)
            assert served.headers["cache-control"] == "public, max-age=1800"
            assert served.headers["x-ratelimit-limit"] == "30"  # the gate ran
            expected = edge(path, page=str(page))
            assert expected.status_code == 200 and served.content == expected.content, (path, page)
            body = orjson.loads(served.content)
            assert body["page"] == page
            assert last[path] == min(body["total_pages"], 500)
    # The first language by name (what most clients send), and the first pages in every other one.
    for params in (
        {"language": "en-US"},
        {"language": "de-DE", "page": "2"},
        {"language": "ja"},
        {"language": "pt-BR", "page": str(list_pack.LOCALIZED_PAGES)},
    ):
        for path in ("/3/person/popular", "/3/trending/all/week", "/3/movie/top_rated"):
            if int(params.get("page", 1)) > last[path]:
                continue
            served = get(path, **params)
            assert from_pack(served) and served.content == edge(path, **params).content, (path, params)
    assert get("/3/movie/popular", language="de-DE").json()["results"] != get("/3/movie/popular").json()["results"]


def test_what_changes_an_answer_goes_to_the_edge(api, get, edge, e2e_release):
    last = pages_in_pack(e2e_release)["/3/movie/popular"]
    deep = str(list_pack.LOCALIZED_PAGES + 1)
    for params in (
        {"language": "de-DE", "page": deep},
        {"language": "xx-XX"},
        {"region": "US"},
        {"fallback_language": "fr-FR"},
        {"page": str(last + 1)},
    ):
        response = get("/3/movie/popular", **params)
        assert response.status_code == 200 and not from_pack(response), params
        assert response.content == edge("/3/movie/popular", **params).content
    assert not from_pack(get("/3/tv/airing_today", timezone="Asia/Tokyo"))
    assert not from_pack(get("/3/movie/now_playing", with_showtimes="true"))
    assert_tmdb_error(get("/3/trending/all/day", page="501"), 400, 22)
    assert_tmdb_error(get("/3/movie/popular", page="x"), 400, 22)
    assert_tmdb_error(get("/3/movie/popular", page="01"), 400, 22)
    assert_tmdb_error(api.get("/3/trending/movie/week"), 401, 7)  # no key: the gate refuses before the pack


def test_a_client_holding_the_page_gets_a_304(get, api):
    first = get("/3/trending/movie/week")
    assert from_pack(first)
    again = api.client.get(
        "/3/trending/movie/week",
        params={"api_key": api.account("list-pack-etag", "pro")},
        headers={"If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304


def test_a_client_that_takes_gzip_gets_the_stored_gzip_of_the_edge_answer(api, edge, e2e_release):
    key = api.account("list-pack-gzip", "pro")

    def fetch(accept: str, **params: str) -> tuple[httpx.Response, bytes]:
        """The answer, and its bytes as sent (httpx's `content` is them decoded)."""
        with api.client.stream(
            "GET",
            "/3/movie/popular",
            params={"api_key": key, "page": "2", **params},
            headers={"Accept-Encoding": accept},
        ) as response:
            return response, b"".join(response.iter_raw())

    expected = edge("/3/movie/popular", page="2").content
    with sqlite3.connect(list_pack.current(e2e_release)) as con:
        stored = con.execute(
            "SELECT body FROM docs WHERE name = ?",
            (list_pack.page_name("/3/movie/popular", 2) + list_pack.GZIP_SUFFIX,),
        ).fetchone()[0]
    assert gzip.decompress(stored) == expected
    for accept in ("gzip", "br, gzip;q=0.5, deflate", "GZIP", "*"):
        response, sent = fetch(accept)  # the stored bytes, not nginx compressing the page again
        assert from_pack(response) and response.headers.get("content-encoding") == "gzip", accept
        assert response.headers["vary"] == "Accept-Encoding" and sent == stored, accept
        assert response.headers["content-length"] == str(len(stored)), accept
    for accept in ("identity", "gzip;q=0", "deflate", "*, gzip;q=0"):
        response, sent = fetch(accept)
        assert from_pack(response) and "content-encoding" not in response.headers, accept
        assert sent == expected, accept
    held, _ = fetch("gzip")
    again = api.client.get(
        "/3/movie/popular",
        params={"api_key": key, "page": "2"},
        headers={"Accept-Encoding": "gzip", "If-None-Match": held.headers["etag"]},
    )
    assert again.status_code == 304
    assert held.headers["etag"] == "W/" + fetch("identity")[0].headers["etag"]  # the JSON's, weak: as nginx's filter
    script = api.client.get("/3/movie/popular", params={"api_key": key, "page": "2", "callback": "show"})
    assert script.content == b"show(" + expected + b")"  # JSONP wraps the plain JSON


def test_refresh_lists_publishes_a_new_pack_and_a_stale_one_is_not_served(api, get, e2e_release, monkeypatch):
    before = list_pack.current(e2e_release)
    result = api.cli("refresh-lists")
    assert result.exit_code == 0 and result.stdout.startswith(f"lists for {list_pack.today().isoformat()}: ")
    after = list_pack.current(e2e_release)
    assert after != before and after.exists() and before.exists()  # the previous one stays for answers in flight
    assert from_pack(get("/3/person/popular", page="2"))
    try:
        # A pack no one refreshed since yesterday: the edge answers today's lists instead.
        monkeypatch.setattr(list_pack, "today", lambda: list_pack.date(2001, 1, 1))
        stale = list_pack.publish(e2e_release, api.settings.languages)
        assert stale.day.isoformat() == "2001-01-01" and not before.exists()  # two packs are kept
        response = get("/3/person/popular", page="2")
        assert response.status_code == 200 and not from_pack(response)
    finally:
        monkeypatch.undo()
        list_pack.publish(e2e_release, api.settings.languages)
    assert from_pack(get("/3/person/popular", page="2"))
