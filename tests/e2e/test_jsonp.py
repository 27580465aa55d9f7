"""JSONP at /3 through nginx (TMDB's "JSON & JSONP"): `callback=NAME` wraps every door's answer,
documents, appends, the edge's routes, precomputed lists and errors alike, as the same JSON the
request answers without it; a name that could carry script is refused with 400."""

from __future__ import annotations

import re

import orjson
import pytest

from marquee import jsonp
from tests.e2e.conftest import assert_tmdb_error, rotating_get

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def get(api):
    return rotating_get(api, "jsonp-")


def unwrapped(response, callback: str) -> bytes:
    """The JSON inside `callback(...)`, after checking the wrapper and its content type."""
    assert response.headers["content-type"] == jsonp.CONTENT_TYPE, response.text
    assert "etag" not in response.headers
    match = re.fullmatch(rb"([A-Za-z0-9_$.]+)\((.*)\)", response.content, re.S)
    assert match and match.group(1).decode() == callback, response.content[:80]
    return match.group(2)


def a_movie(catalogue) -> int:
    return catalogue.execute("SELECT id FROM movies WHERE NOT adult ORDER BY popularity DESC LIMIT 1").fetchone()[0]


@pytest.mark.parametrize(
    "path, params",
    [
        ("/3/movie/{id}", {}),  # a release document, from nginx
        ("/3/movie/{id}", {"language": "de-DE"}),
        ("/3/movie/{id}", {"append_to_response": "credits,keywords"}),  # the appends, spliced in nginx
        ("/3/movie/{id}", {"append_to_response": "trailers"}),  # an append the edge answers
        ("/3/movie/{id}/images", {"language": "fr"}),  # a list filtered by the edge
        ("/3/search/movie", {"query": "the"}),  # an edge route, through nginx's cache of its answers
        ("/3/movie/popular", {}),  # a precomputed list
        ("/3/discover/movie", {"with_genres": "18"}),
        ("/3/genre/movie/list", {}),
    ],
)
def test_every_door_wraps_the_same_json(get, catalogue, path, params):
    path = path.format(id=a_movie(catalogue))
    plain = get(path, **params)
    assert plain.status_code == 200, plain.text
    for callback in ("cb", "jQuery36005524_1700000000", "app.handlers.got$"):
        wrapped = get(path, callback=callback, **params)
        assert wrapped.status_code == 200, wrapped.text
        assert orjson.loads(unwrapped(wrapped, callback)) == orjson.loads(plain.content)


def test_errors_are_wrapped_too(get, catalogue):
    missing = get("/3/movie/999999999", callback="cb")
    assert missing.status_code == 404
    assert orjson.loads(unwrapped(missing, "cb"))["status_code"] == 34
    bad_page = get("/3/search/movie", query="x", page="0", callback="cb")
    assert bad_page.status_code == 400 and orjson.loads(unwrapped(bad_page, "cb"))["status_code"] == 22


def test_a_refused_key_is_wrapped(api):
    response = api.client.get("/3/movie/1", params={"api_key": "0" * 32, "callback": "cb"})
    assert response.status_code == 401
    assert orjson.loads(unwrapped(response, "cb"))["status_code"] == 7


@pytest.mark.parametrize("callback", ["alert(1)", "a b", "1abc", "x" * 80, "cb;", "<script>", "a-b"])
def test_a_name_that_could_carry_script_is_refused(get, catalogue, callback):
    for path in (f"/3/movie/{a_movie(catalogue)}", "/3/search/movie"):
        response = get(path, callback=callback, query="x")
        body = assert_tmdb_error(response, 400, 47)
        assert "callback" in body["status_message"]


def test_plain_json_keeps_its_etag(get, catalogue):
    path = f"/3/movie/{a_movie(catalogue)}"
    first = get(path)
    etag = first.headers["etag"]
    assert get(path, callback="cb").status_code == 200  # a JSONP answer does not revalidate
    again = get(path)
    assert again.headers["etag"] == etag and again.headers["content-type"].startswith("application/json")


def test_omdb_keeps_its_own_rule(api, catalogue):
    imdb_id = catalogue.execute("SELECT imdb_id FROM movies WHERE imdb_id LIKE 'tt%' LIMIT 1").fetchone()[0]
    key = api.account("jsonp-omdb", "pro")
    wrapped = api.client.get("/compat/", params={"apikey": key, "i": imdb_id, "callback": "cb"})
    assert orjson.loads(unwrapped(wrapped, "cb"))["imdbID"] == imdb_id
    ignored = api.client.get("/compat/", params={"apikey": key, "i": imdb_id, "callback": "alert(1)"})
    assert ignored.status_code == 200 and ignored.json()["imdbID"] == imdb_id  # OMDb ignores a bad name
