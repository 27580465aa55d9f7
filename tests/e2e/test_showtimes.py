"""/3/movie/{id}/showtimes, append_to_response=showtimes and now_playing?with_showtimes through
nginx: the gate, the envelope and the caching policy (tests/test_edge_showtimes.py checks the
showtimes themselves at a moment inside the catalogue's schedule)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_tmdb_error

pytestmark = pytest.mark.e2e


def test_showtimes_through_nginx(api, catalogue):
    key = api.account("showtimes", "pro")
    movie_id = catalogue.execute("SELECT movie_id FROM showtimes LIMIT 1").fetchone()[0]
    summary = api.client.get(f"/3/movie/{movie_id}/showtimes", params={"api_key": key})
    assert summary.status_code == 200 and summary.headers["cache-control"] == "public, max-age=60"
    assert set(summary.json()) == {"id", "countries"} and summary.json()["id"] == movie_id
    here = api.client.get(f"/3/movie/{movie_id}/showtimes", params={"api_key": key, "country": "de"}).json()
    assert here["country"] == "DE" and isinstance(here["cinemas"], list)
    assert (
        api.client.get(f"/3/movie/{movie_id}/showtimes", params={"api_key": key, "country": "XX"}).json()["cinemas"]
        == []
    )
    details = api.client.get(f"/3/movie/{movie_id}", params={"api_key": key, "append_to_response": "credits,showtimes"})
    assert details.status_code == 200 and details.headers["cache-control"] == "public, max-age=60"
    body = details.json()
    assert body["id"] == movie_id and "cast" in body["credits"] and set(body["showtimes"]) == {"countries"}
    plain = api.client.get(f"/3/movie/{movie_id}", params={"api_key": key, "append_to_response": "credits"})
    assert "showtimes" not in plain.json() and plain.headers["cache-control"] != "public, max-age=60"
    playing = api.client.get("/3/movie/now_playing", params={"api_key": key, "with_showtimes": "true", "region": "US"})
    assert playing.status_code == 200 and set(playing.json()) >= {"dates", "results", "total_results"}


def test_showtimes_errors(api):
    key = api.account("showtimes-errors", "pro")
    assert_tmdb_error(api.client.get("/3/movie/999999999/showtimes", params={"api_key": key}), 404, 34)
    assert_tmdb_error(api.client.get("/3/movie/1/showtimes", params={"api_key": key, "country": "123"}), 422, 5)
    assert_tmdb_error(api.client.get("/3/movie/1/showtimes", params={"api_key": "0" * 32}), 401, 7)
    assert_tmdb_error(
        api.client.get("/3/movie/now_playing", params={"api_key": key, "with_showtimes": "maybe"}), 422, 5
    )


def test_an_id_past_64_bits_is_unknown_not_an_error(api):
    key = api.account("showtimes-huge", "pro")
    assert_tmdb_error(api.client.get("/3/movie/99999999999999999999/showtimes", params={"api_key": key}), 404, 34)
