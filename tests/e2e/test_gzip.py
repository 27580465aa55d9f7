"""Documents for clients that take gzip (nginx/lua/marquee_gzip.lua): the gzip of the pack's JSON,
made once per nginx worker, with the JSON's ETag made weak; the JSON itself for everyone else."""

from __future__ import annotations

import gzip

import httpx
import orjson
import pytest

from edge.policy import GZIP_MIN_LENGTH
from marquee import omdb
from marquee.packs import Pack

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def fetch(api):
    key = api.account("gzip-documents", "pro")

    def get(path: str, accept: str, **headers: str) -> tuple[httpx.Response, bytes]:
        """The answer and its bytes as sent (httpx's `content` is them decoded)."""
        params = {"api_key": key, **({"callback": headers.pop("callback")} if "callback" in headers else {})}
        path, _, query = path.partition("?")
        params.update(pair.split("=", 1) for pair in query.split("&") if pair)
        with api.client.stream("GET", path, params=params, headers={"Accept-Encoding": accept, **headers}) as response:
            return response, b"".join(response.iter_raw())

    return get


def documents(release, catalogue) -> tuple[str, bytes, str, bytes]:
    """A film's details (over nginx's gzip threshold) and its keywords (under it): path and stored JSON."""
    movie = catalogue.execute("SELECT id FROM movies WHERE NOT adult ORDER BY popularity DESC LIMIT 1").fetchone()[0]
    with Pack(release) as pack:
        details, keywords = pack.get(f"3/movie/{movie}.json"), pack.get(f"3/movie/{movie}/keywords.json")
    assert len(details) >= GZIP_MIN_LENGTH > len(keywords)
    return f"/3/movie/{movie}", details, f"/3/movie/{movie}/keywords", keywords


def test_a_document_goes_gzipped_to_a_client_that_takes_gzip(fetch, e2e_release, catalogue):
    path, stored, _, _ = documents(e2e_release, catalogue)
    plain, sent = fetch(path, "identity")
    assert "content-encoding" not in plain.headers and sent == stored
    for accept in ("gzip", "gzip, deflate, br", "*", "x-gzip;q=0.8"):
        response, sent = fetch(path, accept)
        assert response.headers.get("content-encoding") == "gzip" and response.headers["vary"] == "Accept-Encoding"
        assert gzip.decompress(sent) == stored, accept
        # Made before the answer, so it has a length (nginx's filter sends what it compresses chunked).
        assert response.headers["content-length"] == str(len(sent)), accept
        assert response.headers["etag"] == "W/" + plain.headers["etag"]  # the JSON's, weak, as nginx's filter's
    again, resent = fetch(path, "gzip")
    assert resent == sent  # the worker's one gzip
    held, _ = fetch(path, "gzip", **{"If-None-Match": response.headers["etag"]})
    assert held.status_code == 304
    for accept in ("gzip;q=0", "deflate", "*;q=0"):
        response, sent = fetch(path, accept)
        assert "content-encoding" not in response.headers and sent == stored, accept


def test_small_documents_and_jsonp_go_as_json(fetch, e2e_release, catalogue):
    path, stored, small, small_stored = documents(e2e_release, catalogue)
    response, sent = fetch(small, "gzip")
    assert "content-encoding" not in response.headers and sent == small_stored
    script, sent = fetch(path, "gzip", callback="show")
    assert "content-encoding" not in script.headers and sent == b"show(" + stored + b")"


def test_an_appended_answer_goes_gzipped_once_made(fetch, e2e_release, catalogue):
    path, _, _, _ = documents(e2e_release, catalogue)
    appended = f"{path}?append_to_response=credits,keywords,images,videos,release_dates"
    plain, json = fetch(appended, "identity")
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert set(orjson.loads(json)) >= {"credits", "keywords", "images", "videos", "release_dates"}
    response, sent = fetch(appended, "gzip")
    assert response.headers.get("content-encoding") == "gzip" and gzip.decompress(sent) == json
    assert response.headers["content-length"] == str(len(sent))  # made whole (the filter's is chunked)
    assert fetch(appended, "gzip")[1] == sent
    _, german = fetch(appended + "&language=de-DE", "gzip")  # another answer, another gzip
    assert gzip.decompress(german) == fetch(appended + "&language=de-DE", "identity")[1] != json
    script, wrapped = fetch(appended, "gzip", callback="show")  # JSONP wraps the plain JSON
    assert "content-encoding" not in script.headers and wrapped == b"show(" + json + b")"


def test_an_omdb_title_goes_gzipped_as_a_document_does(api, e2e_release, catalogue):
    movie, imdb_id = catalogue.execute(
        "SELECT id, imdb_id FROM movies WHERE imdb_id LIKE 'tt%' AND NOT adult ORDER BY popularity DESC LIMIT 1"
    ).fetchone()
    with Pack(e2e_release) as pack:  # as this node serves it: its own image host in the poster's URL
        stored = omdb.with_poster_base(pack.get(f"compat/movie/{movie}.json"), omdb.poster_base(api.settings).encode())
    params = {"apikey": api.account("gzip-omdb", "pro"), "i": imdb_id}
    with api.client.stream("GET", "/compat/", params=params, headers={"Accept-Encoding": "gzip"}) as response:
        sent = b"".join(response.iter_raw())
    if len(stored) >= GZIP_MIN_LENGTH:
        assert response.headers["content-encoding"] == "gzip" and gzip.decompress(sent) == stored
        assert response.headers["content-length"] == str(len(sent))
    else:
        assert "content-encoding" not in response.headers and sent == stored


def test_a_cached_edge_answer_is_gzipped_once_by_the_edge_and_kept_gzipped(fetch, catalogue):
    title = catalogue.execute(
        "SELECT original_title FROM movies WHERE NOT adult AND length(original_title) > 3 "
        "ORDER BY popularity DESC LIMIT 1"
    ).fetchone()[0]
    searched = f"/3/search/movie?query={title[:3]}&page=1"
    _, json = fetch(searched, "identity")
    assert len(json) >= GZIP_MIN_LENGTH
    answers = [fetch(searched, "gzip") for _ in range(3)]  # the third from nginx's cache (asked twice)
    assert [r.headers["x-marquee-cache"] for r, _ in answers] == ["MISS", "MISS", "HIT"]
    for response, sent in answers:
        assert response.headers["content-encoding"] == "gzip" and response.headers["vary"] == "Accept-Encoding"
        # Made whole by the edge, not streamed by nginx's filter (chunked), and cached so.
        assert response.headers["content-length"] == str(len(sent)) and gzip.decompress(sent) == json
    assert answers[1][1] == answers[2][1]
    plain, again = fetch(searched, "identity")  # the plain answer is cached apart
    assert "content-encoding" not in plain.headers and again == json
    script, wrapped = fetch(searched, "gzip", callback="show")  # JSONP wraps the plain JSON
    if script.headers.get("content-encoding") == "gzip":
        wrapped = gzip.decompress(wrapped)
    assert wrapped == b"show(" + json + b")"
