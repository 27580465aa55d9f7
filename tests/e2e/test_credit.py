"""/3/credit/{credit_id} through nginx, for each kind of credit a credits document shows, checked
against the catalogue: the credit's type, department and job, its title (the film's or series'
list item, plus the character and, for an episode's credit, that episode) and its person."""

from __future__ import annotations

import pytest

from edge.policy import CACHE_CONTROL
from marquee.packs import etag_of
from tests.e2e.conftest import assert_tmdb_error, rotating_json

pytestmark = pytest.mark.e2e

# TMDB's spec lists these for a series credit's media (and the person's); a film's media is a movie
# list item. Every one must be there once nginx has spliced the items in.
# fmt: off
TV_MEDIA = {"adult", "backdrop_path", "id", "name", "original_language", "original_name", "overview", "poster_path",
            "media_type", "genre_ids", "popularity", "first_air_date", "vote_average", "vote_count", "origin_country",
            "episodes", "seasons"}
# fmt: on
# fmt: off
MOVIE_MEDIA = {"adult", "backdrop_path", "id", "title", "original_language", "original_title", "overview",
               "poster_path", "media_type", "genre_ids", "popularity", "release_date", "video", "vote_average",
               "vote_count"}
# fmt: on
# fmt: off
PERSON = {"adult", "id", "name", "original_name", "media_type", "popularity", "gender", "known_for_department",
          "profile_path"}
# fmt: on

# fmt: off
KINDS = {
    "movie cast": ("SELECT credit_id, movie_id, person_id, \"character\", NULL, NULL FROM \"cast\" ORDER BY movie_id LIMIT 1",
                   "cast", "Actors", "Actor", "movie"),
    "movie crew": ("SELECT credit_id, movie_id, person_id, NULL, department, job FROM crew ORDER BY movie_id LIMIT 1",
                   "crew", None, None, "movie"),
    "series regular": ("SELECT credit_id, series_id, person_id, \"character\", NULL, NULL FROM series_cast LIMIT 1",
                       "cast", "Actors", "Actor", "tv"),
    "series crew": ("SELECT credit_id, series_id, person_id, NULL, department, job FROM series_crew LIMIT 1",
                    "crew", None, None, "tv"),
    "creator": ("SELECT credit_id, series_id, person_id, NULL, NULL, NULL FROM created_by LIMIT 1",
                "crew", "Crew", "Creator", "tv"),
    "guest star": ("SELECT credit_id, series_id, person_id, \"character\", NULL, NULL, episode_id FROM episode_guest_stars "
                   "LIMIT 1", "cast", "Actors", "Actor", "tv"),
    "episode crew": ("SELECT credit_id, series_id, person_id, NULL, department, job, episode_id FROM episode_crew "
                     "WHERE credit_id IN (SELECT credit_id FROM episode_crew GROUP BY 1 HAVING count(*) > 1) LIMIT 1",
                     "crew", None, None, "tv"),
}
# fmt: on


@pytest.fixture(scope="module")
def answer(api):
    return rotating_json(api, "credit-")


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_credit_is_the_catalogues(answer, catalogue, kind):
    sql, credit_type, department, job, media_type = KINDS[kind]
    row = catalogue.execute(sql).fetchone()
    credit_id, media_id, person_id, character = row[:4]
    credit = answer(f"/3/credit/{credit_id}")
    assert (credit["id"], credit["credit_type"], credit["media_type"]) == (credit_id, credit_type, media_type)
    assert (credit["department"], credit["job"]) == (department or row[4], job or row[5])
    media, person = credit["media"], credit["person"]
    assert media["id"] == media_id and set(media) >= (TV_MEDIA if media_type == "tv" else MOVIE_MEDIA)
    details = answer(f"/3/{media_type}/{media_id}")
    title = "name" if media_type == "tv" else "title"
    assert media[title] == details[title] and media["media_type"] == media_type
    if character is not None:
        assert media["character"] == character
    if len(row) > 6:  # an episode's credit names its episodes (a director's credit may span several)
        table = "episode_guest_stars" if credit_type == "cast" else "episode_crew"
        episodes = [
            e
            for (e,) in catalogue.execute(
                f"SELECT c.episode_id FROM {table} c JOIN tv_episodes e ON "
                "e.id = c.episode_id WHERE c.credit_id = ? ORDER BY e.season_number, "
                "e.episode_number",
                [credit_id],
            ).fetchall()
        ]
        assert [e["id"] for e in media["episodes"]] == episodes and row[6] in episodes
    name = catalogue.execute("SELECT name FROM people WHERE id = ?", [person_id]).fetchone()[0]
    assert (person["id"], person["name"], person["media_type"]) == (person_id, name, "person") and set(person) >= PERSON


def test_every_credit_of_a_films_credits_resolves(answer, catalogue):
    movie = catalogue.execute('SELECT movie_id FROM "cast" GROUP BY 1 ORDER BY count(*) DESC LIMIT 1').fetchone()[0]
    credits = answer(f"/3/movie/{movie}/credits")
    for entry in credits["cast"] + credits["crew"]:
        credit = answer(f"/3/credit/{entry['credit_id']}")
        assert credit["person"]["id"] == entry["id"] and credit["media"]["id"] == movie


def test_an_unknown_credit_is_tmdbs_404(api):
    key = api.account("credit-404", "pro")
    assert_tmdb_error(api.client.get("/3/credit/52fe0000c3a36847f8000000", params={"api_key": key}), 404, 34)


def test_a_credit_in_another_language_names_its_title_in_it(answer, catalogue):
    credit_id, movie = catalogue.execute(
        'SELECT c.credit_id, c.movie_id FROM "cast" c JOIN movie_translations t ON '
        "t.movie_id = c.movie_id AND t.iso_639_1 = 'de' AND t.title <> '' "
        "ORDER BY c.movie_id LIMIT 1"
    ).fetchone()
    german = answer(f"/3/credit/{credit_id}", language="de-DE")
    assert german["media"]["title"] == answer(f"/3/movie/{movie}", language="de-DE")["title"]
    assert german["media"]["character"] == answer(f"/3/credit/{credit_id}")["media"]["character"]


def test_a_credit_is_the_edges_bytes_with_its_etag_and_revalidates(api, e2e_release, catalogue):
    """nginx hands the edge's answer over unchanged: the bytes the release's credit index makes (the
    document's, tests/test_edge_credit.py), its ETag the MD5 of them; If-None-Match gets a 304, as
    the document did; JSONP wraps it without an ETag; a large one goes out gzipped, its ETag weak."""
    from tests.test_edge_credit import credit_answers

    answers = credit_answers(e2e_release)
    key = api.account("credit-etag", "pro")
    plain = {"Accept-Encoding": "identity"}
    chosen = [
        credit_id
        for (credit_id,) in catalogue.execute(
            '(SELECT credit_id FROM "cast" ORDER BY movie_id LIMIT 1) UNION ALL '
            "(SELECT credit_id FROM episode_crew GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)"
        ).fetchall()
    ]
    for credit_id in chosen:
        path = f"/3/credit/{credit_id}"
        response = api.client.get(path, params={"api_key": key}, headers=plain)
        assert response.status_code == 200 and response.content == answers[credit_id]
        etag = f'"{etag_of(response.content)}"'
        assert response.headers["etag"] == etag and response.headers["x-ratelimit-limit"]
        assert response.headers["cache-control"] == CACHE_CONTROL["catalogue"]
        again = api.client.get(path, params={"api_key": key}, headers={**plain, "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        other = api.client.get(path, params={"api_key": key}, headers={**plain, "If-None-Match": '"0"'})
        assert other.status_code == 200 and other.content == answers[credit_id]
        jsonp = api.client.get(path, params={"api_key": key, "callback": "cb"}, headers={"If-None-Match": etag})
        assert jsonp.status_code == 200 and jsonp.content == b"cb(" + answers[credit_id] + b")"
        assert "etag" not in jsonp.headers
    large = max(chosen, key=lambda credit_id: len(answers[credit_id]))
    assert len(answers[large]) >= 1024  # an episode credit listing several episodes
    gzipped = api.client.get(f"/3/credit/{large}", params={"api_key": key}, headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["content-encoding"] == "gzip" and gzipped.content == answers[large]
    assert gzipped.headers["etag"] == f'W/"{etag_of(answers[large])}"'


def test_a_credit_passes_the_gate(api):
    credit_id = "52fe0000c3a36847f8000000"
    assert_tmdb_error(api.client.get(f"/3/credit/{credit_id}"), 401, 7)
    assert_tmdb_error(api.client.get(f"/3/credit/{credit_id}", params={"api_key": "nope"}), 401, 7)
