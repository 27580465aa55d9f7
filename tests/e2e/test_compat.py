"""The OMDb dialect at /compat/ through nginx, checked against the catalogue: title objects by IMDb id
(from the release's documents), titles and searches through the search index, seasons and episodes,
XML and JSONP, OMDb's errors, and the same keys and window as /3."""

from __future__ import annotations

import re

import httpx
import orjson
import pytest

from marquee import omdb
from tests.e2e.conftest import assert_tmdb_error, eventually, rotating_get

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def compat(api):
    """GET /compat/ with a key (as `apikey`, OMDb's name) and these parameters."""
    get = rotating_get(api, "omdb-", key_name="apikey")
    return lambda path="/compat/", **params: get(path, **params)


def body(response: httpx.Response) -> dict:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    return orjson.loads(response.content)


def all_strings(found: dict) -> bool:
    return all(isinstance(v, str) for k, v in found.items() if k not in ("Ratings", "Episodes", "Search"))


def a_movie(catalogue) -> tuple[int, str, str, int]:
    """(id, IMDb id, English title, year) of a popular film with an IMDb id and an English title."""
    return catalogue.execute(
        "SELECT m.id, m.imdb_id, t.title, year(m.release_date) FROM movies m JOIN movie_translations t "
        "ON t.movie_id = m.id AND t.iso_639_1 = 'en' AND t.iso_3166_1 = 'US' AND t.title <> '' "
        "WHERE m.imdb_id LIKE 'tt%' AND m.release_date IS NOT NULL AND NOT m.adult "
        "ORDER BY m.popularity DESC LIMIT 1"
    ).fetchone()


def a_series(catalogue) -> tuple[int, str, str, int]:
    """(id, IMDb id, name, seasons) of a series with an IMDb id and two seasons or more."""
    return catalogue.execute(
        "SELECT s.id, s.imdb_id, s.name, count(*) FROM tv_series s JOIN tv_seasons x ON x.series_id = s.id "
        "AND x.season_number > 0 WHERE s.imdb_id LIKE 'tt%' GROUP BY s.id, s.imdb_id, s.name, s.popularity "
        "HAVING count(*) >= 2 ORDER BY s.popularity DESC LIMIT 1"
    ).fetchone()


def test_a_film_by_imdb_id_is_omdbs_title_object_from_the_catalogue(compat, api, catalogue):
    movie_id, imdb_id, title, year = a_movie(catalogue)
    response = compat(i=imdb_id)
    found = body(response)
    assert "x-marquee-cache" not in response.headers  # nginx answered from the release's documents
    assert tuple(found) == omdb.MOVIE_FIELDS and all_strings(found)
    assert (found["Title"], found["Year"], found["imdbID"], found["Type"], found["Response"]) == (
        title,
        str(year),
        imdb_id,
        "movie",
        "True",
    )
    ratings = dict(
        catalogue.execute(
            "SELECT source, value FROM movie_ratings WHERE movie_id = ? AND value IS NOT NULL", [movie_id]
        ).fetchall()
    )
    if "imdb" in ratings:
        assert found["imdbRating"] == f"{ratings['imdb']:.1f}"
        assert {"Source": "Internet Movie Database", "Value": f"{ratings['imdb']:.1f}/10"} in found["Ratings"]
    assert all(tuple(r) == omdb.RATING_FIELDS for r in found["Ratings"])
    assert re.fullmatch(r"\d{2} [A-Z][a-z]{2} \d{4}|N/A", found["Released"])
    poster = catalogue.execute("SELECT poster_path FROM movies WHERE id = ?", [movie_id]).fetchone()[0]
    images = api.get("/3/configuration", api.account("omdb-poster")).json()["images"]  # this node's image host
    assert found["Poster"] == (f"{images['secure_base_url']}w342{poster}" if poster else "N/A")
    # The same object without the trailing slash, with names in another case, from the edge (a `t`), and
    # for plot=full (the sample's plots are one sentence: the short document answers).
    assert body(compat("/compat", I=imdb_id)) == found
    assert body(compat(t=title, y=str(year))) == found
    assert body(compat(i=imdb_id, plot="full")) == found


def test_a_series_its_season_and_an_episode(compat, catalogue):
    series_id, imdb_id, name, seasons = a_series(catalogue)
    found = body(compat(i=imdb_id))
    assert tuple(found) == omdb.SERIES_FIELDS and all_strings(found)
    assert (found["Title"], found["Type"], found["totalSeasons"]) == (name, "series", str(seasons))
    assert re.fullmatch(r"\d{4}(–(\d{4})?)?", found["Year"])
    episodes = catalogue.execute(
        "SELECT episode_number, name, imdb_id, air_date FROM tv_episodes WHERE series_id = ? "
        "AND season_number = 1 ORDER BY episode_number",
        [series_id],
    ).fetchall()
    listing = body(compat(i=imdb_id, Season="1"))
    assert tuple(listing) == omdb.SEASON_FIELDS
    assert (listing["Title"], listing["Season"], listing["totalSeasons"]) == (name, "1", str(seasons))
    assert [(e["Episode"], e["Title"]) for e in listing["Episodes"]] == [(str(n), t) for n, t, _, _ in episodes]
    assert all(tuple(e) == omdb.SEASON_EPISODE_FIELDS for e in listing["Episodes"])
    assert listing["Episodes"][0]["Released"] == (episodes[0][3].isoformat() if episodes[0][3] else "N/A")
    number, title, episode_imdb, _ = episodes[-1]
    episode = body(compat(t=name, season="1", EPISODE=str(number)))
    assert tuple(episode) == omdb.EPISODE_FIELDS and all_strings(episode)
    assert (episode["Season"], episode["Episode"], episode["seriesID"], episode["Type"]) == (
        "1",
        str(number),
        imdb_id,
        "episode",
    )
    assert episode["imdbID"] == (episode_imdb or "N/A")
    if episode_imdb:
        assert body(compat(i=episode_imdb)) == episode  # an episode by its own id, from nginx
    assert body(compat(i=imdb_id, Season="99"))["Error"] == omdb.SERIES_NOT_FOUND
    assert body(compat(i=imdb_id, Season="1", Episode="999"))["Error"] == omdb.SERIES_NOT_FOUND


def test_search_pages_of_ten_filtered_by_type_and_year(compat, catalogue):
    word = catalogue.execute(
        "SELECT w FROM (SELECT unnest(string_split(lower(t.title), ' ')) AS w FROM movie_translations t "
        "WHERE t.iso_639_1 = 'en') WHERE length(w) >= 5 GROUP BY w ORDER BY count(*) DESC, w LIMIT 1"
    ).fetchone()[0]
    first, second = body(compat(s=word)), body(compat(s=word, page="2"))
    assert tuple(first) == omdb.SEARCH_FIELDS and int(first["totalResults"]) > 10
    assert len(first["Search"]) == 10 and all(tuple(item) == omdb.SEARCH_ITEM_FIELDS for item in first["Search"])
    assert not {i["imdbID"] for i in first["Search"]} & {i["imdbID"] for i in second["Search"]}
    assert all(isinstance(v, str) for item in first["Search"] for v in item.values())
    films = body(compat(s=word, type="movie"))
    assert all(item["Type"] == "movie" for item in films["Search"])
    year = films["Search"][0]["Year"]
    in_year = body(compat(s=word, type="movie", y=year))
    assert in_year["Search"] and all(item["Year"] == year for item in in_year["Search"])
    series = body(compat(s=word, type="series"))
    assert series.get("Error") == omdb.MOVIE_NOT_FOUND or all(i["Type"] == "series" for i in series["Search"])


def test_a_two_character_word_in_han_kana_or_hangul_is_searched(compat, api, catalogue):
    # Two characters are a whole word there (and /3/search finds it): not OMDb's "Too many results.".
    imdb_id, movie_id, title = catalogue.execute(
        "SELECT m.imdb_id, m.id, t.title FROM movies m JOIN movie_translations t ON t.movie_id = m.id "
        "WHERE t.iso_639_1 IN ('ja', 'ko', 'zh') AND length(t.title) = 2 AND m.imdb_id LIKE 'tt%' AND NOT m.adult "
        "ORDER BY m.popularity DESC LIMIT 1"
    ).fetchone()
    key = api.account("omdb-cjk", "pro")
    tmdb = api.client.get("/3/search/movie", params={"api_key": key, "query": title}).json()
    assert movie_id in {film["id"] for film in tmdb["results"]}
    for params in ({"s": title}, {"s": title, "type": "movie"}):
        found = body(compat(**params))
        assert found["Response"] == "True", (title, found)
        pages = [found] + [body(compat(page=str(n), **params)) for n in range(2, int(found["totalResults"]) // 10 + 2)]
        assert imdb_id in {item["imdbID"] for page in pages for item in page.get("Search", [])}
    assert body(compat(s=title[0]))["Error"] == omdb.TOO_MANY  # one character is still too little


@pytest.mark.parametrize(
    "params, error",
    [
        ({"i": "603"}, omdb.INCORRECT_ID),
        ({"i": "tt0000001"}, omdb.INCORRECT_ID),
        ({"t": "zzqxv nothing"}, omdb.MOVIE_NOT_FOUND),
        ({"s": "ab"}, omdb.TOO_MANY),
        ({}, omdb.SOMETHING_WRONG),
        ({"v": "1"}, omdb.SOMETHING_WRONG),
        ({"s": "night", "page": "101"}, omdb.SOMETHING_WRONG),
        ({"t": "zzqxv", "Season": "1"}, omdb.SERIES_NOT_FOUND),
    ],
)
def test_errors_are_omdbs_texts_with_http_200(compat, params, error):
    assert body(compat(**params)) == {"Response": "False", "Error": error}


def test_xml_and_jsonp_for_answers_and_errors(compat, api, catalogue):
    _, imdb_id, title, _ = a_movie(catalogue)
    xml = compat(i=imdb_id, r="xml")
    assert xml.status_code == 200 and xml.headers["content-type"].startswith("application/xml")
    assert xml.text.startswith('<?xml version="1.0" encoding="UTF-8"?><root response="True"><movie title=')
    assert f'imdbID="{imdb_id}"' in xml.text
    jsonp = compat(i=imdb_id, callback="show")
    assert jsonp.headers["content-type"].startswith("text/javascript")
    assert jsonp.text.startswith("show({") and orjson.loads(jsonp.text[5:-1])["Title"] == title
    assert compat(i="603", R="XML").text.endswith('<root response="False"><error>Incorrect IMDb ID.</error></root>')
    refused = api.client.get("/compat/", params={"apikey": "f" * 32, "r": "xml"})
    assert refused.status_code == 401 and "<error>Invalid API key!</error>" in refused.text
    refused = api.client.get("/compat/", params={"callback": "cb"})
    assert refused.status_code == 401 and refused.text == 'cb({"Response":"False","Error":"No API key provided."})'


def test_the_gate_speaks_omdb_and_shares_the_window_and_key_state_with_tmdb(api, catalogue):
    _, imdb_id, _, _ = a_movie(catalogue)
    assert api.client.get("/compat/", params={"i": imdb_id}).json() == {"Response": "False", "Error": omdb.NO_KEY}
    bad = api.client.get("/compat/", params={"apikey": "nope", "i": imdb_id})
    assert bad.status_code == 401 and bad.json()["Error"] == omdb.INVALID_KEY
    key = api.account("omdb-shared", "free")  # 5 a window, across both dialects
    statuses = [api.client.get("/3/configuration", params={"api_key": key}).status_code for _ in range(3)]
    statuses += [api.client.get("/compat", params={"APIKEY": key, "i": imdb_id}).status_code for _ in range(2)]
    assert statuses == [200] * 5
    limited = api.client.get("/compat/", params={"apikey": key, "i": imdb_id})
    assert limited.status_code == 429 and limited.json()["Error"] == omdb.RATE_LIMITED
    assert int(limited.headers["retry-after"]) >= 1
    assert_tmdb_error(api.get("/3/configuration", key), 429, 25)
    assert api.cli("accounts", "create", "omdb-states", "--plan", "pro").exit_code == 0
    other = api.new_key("omdb-states", label="k")
    key_id = api.key_id("omdb-states", "k")
    assert api.cli("keys", "suspend", key_id).exit_code == 0
    suspended = api.client.get("/compat/", params={"apikey": other, "i": imdb_id})
    assert suspended.status_code == 401 and suspended.json()["Error"] == omdb.SUSPENDED_KEY
    assert api.cli("keys", "unsuspend", key_id).exit_code == 0
    assert api.client.get("/compat/", params={"apikey": other, "i": imdb_id}).status_code == 200
    assert api.cli("accounts", "expire", "omdb-states").exit_code == 0
    expired = api.client.get("/compat/", params={"apikey": other, "i": imdb_id})
    assert expired.status_code == 402 and expired.json()["Error"] == omdb.PLAN_EXPIRED
    assert api.cli("keys", "delete", key_id).exit_code == 0
    assert api.client.get("/compat/", params={"apikey": other, "i": imdb_id}).json()["Error"] == omdb.INVALID_KEY


def test_the_key_is_never_logged(api, compat, catalogue):
    _, imdb_id, _, _ = a_movie(catalogue)
    key = api.account("omdb-logged", "pro")
    api.client.get("/compat/", params={"APIKEY": key, "i": imdb_id, "r": "json"})
    log = api.settings.log_dir / "nginx-access.log"
    # nginx writes its buffered access log within a second: this request's line, the only one with the key.
    eventually(lambda: f"i={imdb_id}&r=json" in log.read_text() or "r=json&i=" in log.read_text())
    assert key not in log.read_text()


def test_hostile_input_gets_an_omdb_answer(compat, api):
    assert body(compat(i="tt\x00123"))["Error"] == omdb.INCORRECT_ID
    assert body(compat(s="night", page="abc"))["Error"] == omdb.SOMETHING_WRONG
    assert body(compat(s="x" * 3000))["Response"] in ("True", "False")
    unsafe = compat(i="603", callback="alert(1)//")  # not a function name: plain JSON, never script
    assert unsafe.text == '{"Response":"False","Error":"Incorrect IMDb ID."}'
    posted = api.client.post("/compat/", params={"apikey": api.account("omdb-post", "pro"), "i": "tt0000001"})
    assert posted.status_code == 405 and posted.json() == {"Response": "False", "Error": omdb.SOMETHING_WRONG}
    traced = api.client.request("TRACE", "/compat/", params={"apikey": api.account("omdb-trace", "pro"), "i": "x"})
    assert traced.status_code == 405 and traced.json() == posted.json()  # refused by nginx, before any location


@pytest.fixture(scope="module")
def plots(start_stack, tmp_path_factory):
    """A handmade release with a film whose plot has two sentences: its short and full documents."""
    root = tmp_path_factory.mktemp("omdb-release")
    short = {field: "N/A" for field in omdb.MOVIE_FIELDS} | {
        "Title": "Two Plots",
        "Plot": "One.",
        "Ratings": [],
        "imdbID": "tt0000042",
        "Type": "movie",
        "Response": "True",
    }
    for name, body in (
        ("compat/imdb/tt0000042", {"name": "compat/movie/42"}),
        ("compat/movie/42", short),
        ("compat/movie/42/full", short | {"Plot": "One. Two."}),
    ):
        (root / f"{name}.json").parent.mkdir(parents=True, exist_ok=True)
        (root / f"{name}.json").write_bytes(orjson.dumps(body))
    (root / "BUILD").write_text("omdb\n")
    stack = start_stack(release=root)
    return stack, stack.account("omdb-plots", "pro")


def test_plot_full_is_the_full_document_from_nginx_and_the_edge(plots):
    stack, key = plots
    get = lambda **params: stack.client.get("/compat/", params={"apikey": key, **params})  # noqa: E731
    assert get(i="tt0000042").json()["Plot"] == "One."
    from_nginx = get(i="tt0000042", plot="FULL")
    assert from_nginx.json()["Plot"] == "One. Two." and "x-marquee-cache" not in from_nginx.headers
    from_edge = get(i="tt0000042", Plot="full", r="xml")  # XML: the edge words it
    assert 'plot="One. Two."' in from_edge.text and "x-marquee-cache" in from_edge.headers
