"""Public lists through nginx, checked against the catalogue: a list's titles in order, 20 a page, in
the language asked for; the lists a film or series is on, in their language, most favourited first;
the append; whether a film is on a list (item_status)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import rotating_json

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def answer(api):
    return rotating_json(api, "public-lists-")


def longest_list(catalogue) -> tuple[int, list[tuple[str, int]]]:
    list_id = catalogue.execute(
        "SELECT list_id FROM list_items GROUP BY 1 HAVING bool_or(media_type = 'tv') ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    items = catalogue.execute(
        "SELECT media_type, media_id FROM list_items WHERE list_id = ? ORDER BY ord", [list_id]
    ).fetchall()
    return list_id, items


def test_a_list_holds_its_titles_in_order_page_by_page(answer, catalogue):
    list_id, items = longest_list(catalogue)
    assert len(items) > 20
    name, created_by = catalogue.execute("SELECT name, created_by FROM lists WHERE id = ?", [list_id]).fetchone()
    first = answer(f"/3/list/{list_id}")
    assert (first["id"], first["name"], first["created_by"], first["item_count"]) == (
        str(list_id),
        name,
        created_by,
        len(items),
    )
    found = list(first["items"])
    for page in range(2, first["total_pages"] + 1):
        found += answer(f"/3/list/{list_id}", page=str(page))["items"]
    assert [(i["media_type"], i["id"]) for i in found] == items
    movie = next(i for i in found if i["media_type"] == "movie")
    series = next(i for i in found if i["media_type"] == "tv")
    assert movie["title"] == answer(f"/3/movie/{movie['id']}")["title"]
    assert series["name"] == answer(f"/3/tv/{series['id']}")["name"]


def test_a_list_in_another_language_names_its_titles_in_it(answer, catalogue):
    list_id, _ = longest_list(catalogue)
    german = answer(f"/3/list/{list_id}", language="de-DE")
    for item in german["items"][:5]:
        title = "title" if item["media_type"] == "movie" else "name"
        assert item[title] == answer(f"/3/{item['media_type']}/{item['id']}", language="de-DE")[title]


@pytest.mark.parametrize("media_type", ["movie", "tv"])
def test_the_lists_a_title_is_on_in_its_language(answer, catalogue, media_type):
    media_id, language = catalogue.execute(
        "SELECT i.media_id, l.iso_639_1 FROM list_items i JOIN lists l ON l.id = i.list_id WHERE i.media_type = ? "
        "GROUP BY 1, 2 ORDER BY count(*) DESC, 1 LIMIT 1",
        [media_type],
    ).fetchone()
    expected = [
        i
        for (i,) in catalogue.execute(
            "SELECT l.id FROM lists l WHERE l.iso_639_1 = ? AND l.id IN (SELECT list_id FROM list_items WHERE media_type = ? "
            "AND media_id = ?) ORDER BY l.favorite_count DESC, l.id",
            [language, media_type, media_id],
        ).fetchall()
    ]
    tag = {"en": "en-US", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "it": "it-IT", "pt": "pt-BR", "ja": "ja-JP"}[
        language
    ]
    page = answer(f"/3/{media_type}/{media_id}/lists", **({} if language == "en" else {"language": tag}))
    assert [r["id"] for r in page["results"]] == expected[:20] and page["total_results"] == len(expected)
    first = page["results"][0]
    count = catalogue.execute("SELECT count(*) FROM list_items WHERE list_id = ?", [first["id"]]).fetchone()[0]
    assert first["item_count"] == count and first["iso_639_1"] == language


def test_lists_append_to_a_film(answer, catalogue):
    movie = catalogue.execute(
        "SELECT media_id FROM list_items i JOIN lists l ON l.id = i.list_id WHERE media_type = "
        "'movie' AND l.iso_639_1 = 'en' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    details = answer(f"/3/movie/{movie}", append_to_response="lists,reviews")
    own = answer(f"/3/movie/{movie}/lists")
    assert details["lists"] == {k: v for k, v in own.items() if k != "id"} and details["lists"]["results"]


def test_item_status_says_whether_a_film_is_on_the_list(answer, catalogue):
    list_id, items = longest_list(catalogue)
    films = [media_id for media_type, media_id in items if media_type == "movie"]
    last = films[-1]  # on the list's last page: every page is read
    absent = catalogue.execute(
        "SELECT min(id) FROM movies WHERE id NOT IN (SELECT media_id FROM list_items "
        "WHERE list_id = ? AND media_type = 'movie')",
        [list_id],
    ).fetchone()[0]
    series = next(media_id for media_type, media_id in items if media_type == "tv")
    target = f"/3/list/{list_id}/item_status"
    assert answer(target, movie_id=str(last)) == {"id": list_id, "item_present": True}
    assert answer(target, movie_id=str(films[0]), language="de-DE")["item_present"] is True
    assert answer(target, movie_id=str(absent)) == {"id": list_id, "item_present": False}
    if series not in films:  # a series' id is not a film's
        assert answer(target, movie_id=str(series))["item_present"] is False
    assert answer(target) == {"id": list_id, "item_present": False}
    error = answer(target, expect=422, movie_id="abc")
    assert error["status_code"] == 5 and "movie_id" in error["status_message"] and error["success"] is False
    missing = catalogue.execute("SELECT max(id) + 1 FROM lists").fetchone()[0]
    assert answer(f"/3/list/{missing}/item_status", expect=404, movie_id=str(last))["status_code"] == 34
