"""Reviews through nginx, checked against the catalogue: a title's reviews in the language asked for
(English by default), oldest first, 20 a page with pages that neither overlap nor skip; a review by
its id with its title; the append; TMDB's paging errors."""

from __future__ import annotations

import httpx
import pytest

from tests.e2e.conftest import all_pages, assert_tmdb_error, rotating_json

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def answer(api):
    return rotating_json(api, "reviews-")


def most_reviewed(catalogue, media_type: str, language: str = "en") -> int:
    return catalogue.execute(
        "SELECT media_id FROM reviews WHERE media_type = ? AND iso_639_1 = ? GROUP BY 1 "
        "ORDER BY count(*) DESC, 1 LIMIT 1",
        [media_type, language],
    ).fetchone()[0]


def expected_ids(catalogue, media_type: str, media_id: int, language: str) -> list[str]:
    return [
        i
        for (i,) in catalogue.execute(
            "SELECT id FROM reviews WHERE media_type = ? AND media_id = ? AND iso_639_1 = ? ORDER BY created_at, id",
            [media_type, media_id, language],
        ).fetchall()
    ]


@pytest.mark.parametrize("media_type", ["movie", "tv"])
def test_a_titles_reviews_in_english_are_every_english_review_oldest_first(answer, api, catalogue, media_type):
    media_id = most_reviewed(catalogue, media_type)
    expected = expected_ids(catalogue, media_type, media_id, "en")
    assert len(expected) > 20 or media_type == "tv"  # the most reviewed film pages
    reviews = all_pages(answer, f"/3/{media_type}/{media_id}/reviews")
    assert [r["id"] for r in reviews] == expected
    first = reviews[0]
    row = catalogue.execute(
        "SELECT author, username, name, avatar_path, rating, content FROM reviews WHERE id = ?", [first["id"]]
    ).fetchone()
    details = first["author_details"]
    assert (first["author"], details["username"], details["name"], details["avatar_path"], first["content"]) == (
        row[0],
        row[1],
        row[2] or "",
        row[3],
        row[5],
    )
    assert details["rating"] == (None if row[4] is None else int(row[4]))
    assert first["url"] == f"https://www.themoviedb.org/review/{first['id']}" and first["created_at"].endswith("Z")
    avatar = next(r["author_details"]["avatar_path"] for r in reviews if r["author_details"]["avatar_path"])
    assert httpx.get(f"{api.images}/t/p/w45{avatar}").status_code == 200  # an avatar is a profile image


def test_the_language_asked_for_picks_the_reviews_written_in_it(answer, catalogue):
    movie = most_reviewed(catalogue, "movie", "fr")
    french = answer(f"/3/movie/{movie}/reviews", language="fr-FR")
    assert [r["id"] for r in french["results"]] == expected_ids(catalogue, "movie", movie, "fr")[:20]
    assert french["total_results"] == len(expected_ids(catalogue, "movie", movie, "fr"))
    silent = catalogue.execute(
        "SELECT id FROM movies WHERE id NOT IN (SELECT media_id FROM reviews WHERE "
        "media_type = 'movie' AND iso_639_1 = 'ko') ORDER BY popularity DESC LIMIT 1"
    ).fetchone()[0]
    none = answer(f"/3/movie/{silent}/reviews", language="ko-KR")
    assert (none["results"], none["total_results"], none["total_pages"]) == ([], 0, 0)


def test_a_review_by_its_id_names_its_title(answer, catalogue):
    for media_type in ("movie", "tv"):
        review_id, media_id, language = catalogue.execute(
            "SELECT id, media_id, iso_639_1 FROM reviews WHERE media_type = ? ORDER BY id LIMIT 1", [media_type]
        ).fetchone()
        review = answer(f"/3/review/{review_id}")
        title = answer(f"/3/{media_type}/{media_id}")["title" if media_type == "movie" else "name"]
        assert (review["id"], review["media_type"], review["media_id"], review["media_title"], review["iso_639_1"]) == (
            review_id,
            media_type,
            media_id,
            title,
            language,
        )


def test_reviews_append_and_page_as_tmdb(answer, api, catalogue):
    movie = most_reviewed(catalogue, "movie")
    details = answer(f"/3/movie/{movie}", append_to_response="reviews")
    first = answer(f"/3/movie/{movie}/reviews")
    assert details["reviews"] == {k: v for k, v in first.items() if k != "id"}
    past = answer(f"/3/movie/{movie}/reviews", page=str(first["total_pages"] + 1))
    assert past["results"] == [] and past["total_results"] == first["total_results"]
    key = api.account("reviews-errors", "pro")
    assert_tmdb_error(api.client.get(f"/3/movie/{movie}/reviews", params={"api_key": key, "page": "501"}), 400, 22)
    assert_tmdb_error(api.client.get("/3/review/000000000000000000000000", params={"api_key": key}), 404, 34)
