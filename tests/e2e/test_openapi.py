"""Our OpenAPI document through nginx (control/openapi.py): served without a key as the release wrote
it, every path in it answers, and a client generated from it (openapi-python-client) calls details,
search and discover against the running service."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys

import httpx
import orjson
import pytest

from marquee.artefacts import OPENAPI, OPENAPI_PATH
from tests.release_files import DEFAULT_LANGUAGES, real_parameters, unpacked

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def served(start_stack):
    """A stack whose plan admits a request per path, a key on it, and the document it serves."""
    stack = start_stack(MARQUEE_PLANS="free=5,standard=10,pro=30,wide=100000")
    response = stack.client.get(OPENAPI_PATH)  # no key
    assert response.status_code == 200, response.text
    return stack, stack.account("openapi", "wide"), response


def test_served_without_a_key_as_the_release_wrote_it(served):
    stack, _, response = served
    assert response.headers["content-type"].startswith("application/json")
    assert response.content == (stack.settings.current_link / OPENAPI).read_bytes()
    document = orjson.loads(response.content)
    assert document["openapi"] == "3.1.0" and ", ".join(DEFAULT_LANGUAGES) in document["info"]["description"]


def values_from(catalogue) -> dict[str, str]:
    """A real value for each placeholder the release's documents do not name (the edge's paths)."""
    one = lambda sql: str(catalogue.execute(sql).fetchone()[0])  # noqa: E731
    return {
        "movie_id": one("SELECT id FROM movies WHERE NOT adult ORDER BY popularity DESC LIMIT 1"),
        "series_id": one("SELECT id FROM tv_series ORDER BY popularity DESC LIMIT 1"),
        "person_id": one("SELECT id FROM people ORDER BY popularity DESC LIMIT 1"),
        "season_id": one("SELECT id FROM tv_seasons LIMIT 1"),
        "episode_id": one("SELECT id FROM tv_episodes LIMIT 1"),
        "credit_id": one('SELECT credit_id FROM "cast" LIMIT 1'),
        "external_id": one("SELECT imdb_id FROM movies WHERE imdb_id LIKE 'tt%' LIMIT 1"),
        "list_id": one("SELECT id FROM lists LIMIT 1"),
        "time_window": "week",
        "size": "w92",
    }


# A value for each required query parameter, and what asks OMDb's and the image host's paths.
QUERIES = {"query": "the", "external_source": "imdb_id"}


def test_every_path_in_it_answers(served, catalogue):
    stack, key, response = served
    document = orjson.loads(response.content)
    real = real_parameters(unpacked(stack.settings.current_link), document["paths"])
    fallback = values_from(catalogue)
    statuses = {}
    poster = orjson.loads(stack.get(f"/3/movie/{fallback['movie_id']}", key).content)["poster_path"]
    for path, item in document["paths"].items():
        operation = item["get"]
        found = (real.get(path) or [{}])[0]
        values = {name: found.get(name) or fallback.get(name) for name in re.findall(r"\{(\w+)\}", path)}
        values["file_path"] = poster.lstrip("/")  # the image host's
        values["export_file"] = sorted(p.name for p in (stack.settings.current_link / "exports").iterdir())[0]
        assert None not in values.values(), (path, values)  # the release names none, nor does the catalogue
        url = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)
        query = {p["name"]: QUERIES[p["name"]] for p in operation.get("parameters", []) if p["name"] in QUERIES}
        if path == "/compat/":
            query = {"apikey": key, "i": fallback["external_id"]}
        elif path.startswith(("/t/p/", "/p/exports/")):
            url = stack.images + url
        elif operation.get("security") != []:
            query["api_key"] = key
        answer = stack.client.get(url, params=query)
        statuses[path] = answer.status_code
        if path.startswith("/compat/"):
            assert answer.json()["Response"] == "True", answer.text
    assert all(status == 200 for status in statuses.values()), {p: s for p, s in statuses.items() if s != 200}


def test_a_client_generated_from_it_calls_details_search_and_discover(served, catalogue, tmp_path):
    stack, key, response = served
    spec, config = tmp_path / "openapi.json", tmp_path / "config.yml"
    spec.write_bytes(response.content)
    # The image host's two content types are one for the generator (it takes a single one).
    config.write_text(
        "content_type_overrides:\n  image/jpeg: application/octet-stream\n  image/png: application/octet-stream\n"
    )
    bin_dir = os.path.dirname(sys.executable)
    generated = subprocess.run(
        [os.path.join(bin_dir, "openapi-python-client"), "generate", "--path", str(spec), "--meta", "none",
         "--config", str(config), "--output-path", str(tmp_path / "marquee_client")],
        capture_output=True, text=True, env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"]},
    )  # fmt: skip
    assert generated.returncode == 0 and "Warning" not in generated.stdout, generated.stdout + generated.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        client_module = importlib.import_module("marquee_client")
        details = importlib.import_module("marquee_client.api.tmdb.movie_details")
        search = importlib.import_module("marquee_client.api.tmdb.search_movie")
        discover = importlib.import_module("marquee_client.api.tmdb.discover_movie")
    finally:
        sys.path.remove(str(tmp_path))
    client = client_module.AuthenticatedClient(base_url=stack.settings.api_base_url, token=key)
    movie_id, title, genre = catalogue.execute(
        "SELECT m.id, t.title, g.genre_id FROM movies m JOIN movie_translations t ON t.movie_id = m.id AND "
        "t.iso_639_1 = 'en' AND t.iso_3166_1 = 'US' AND t.title <> '' JOIN movie_genres g ON g.movie_id = m.id "
        "WHERE NOT m.adult AND NOT m.video ORDER BY m.popularity DESC, g.genre_id LIMIT 1"
    ).fetchone()
    movie = details.sync(movie_id=movie_id, client=client)
    assert (movie.id, movie.title) == (movie_id, title)
    found = search.sync(client=client, query=title)
    assert movie_id in [r.id for r in found.results]
    page = discover.sync(client=client, with_genres=str(genre))
    expected = [
        i
        for (i,) in catalogue.execute(
            "SELECT m.id FROM movies m JOIN movie_genres g ON g.movie_id = m.id AND g.genre_id = ? "
            "WHERE NOT m.adult AND NOT m.video ORDER BY m.popularity DESC, m.id LIMIT 20",
            [genre],
        ).fetchall()
    ]
    assert [r.id for r in page.results] == expected and page.total_results >= len(expected)
    with httpx.Client(base_url=stack.settings.api_base_url) as plain:  # the key is what the client sent
        assert plain.get(f"/3/movie/{movie_id}").status_code == 401
