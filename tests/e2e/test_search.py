"""/3/search/* through nginx, checked against the catalogue the release was built from."""

from __future__ import annotations

import pytest

from marquee import search_text
from tests.e2e.conftest import assert_tmdb_error, rotating_json

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def search(api):
    answer = rotating_json(api, "searcher")
    return lambda kind, expect=200, **params: answer(f"/3/search/{kind}", expect, **params)


def english_title(catalogue, movie_id: int) -> str:
    row = catalogue.execute(
        "SELECT coalesce(nullif(t.title, ''), m.original_title) FROM movies m "
        "LEFT JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = 'en' "
        "AND t.iso_3166_1 = 'US' WHERE m.id = ?",
        [movie_id],
    ).fetchone()
    return row[0]


def ids(page: dict) -> list[int]:
    return [r["id"] for r in page["results"]]


def first_page_finds(search, movie_id: int, query: str, kind: str = "movie", **params) -> dict:
    page = search(kind, query=query, **params)
    assert movie_id in ids(page), (query, [(r["id"], r.get("title") or r.get("name")) for r in page["results"]])
    return page


def names_of(catalogue, movie_id: int) -> set[str]:
    """Every name a film is found by, folded: original, translated and alternative titles."""
    rows = catalogue.execute(
        "SELECT original_title FROM movies WHERE id = ? UNION ALL "
        "SELECT title FROM movie_translations WHERE movie_id = ?",
        [movie_id, movie_id],
    ).fetchall()
    return {search_text.normalized(name) for (name,) in rows if name}


def test_exact_title_comes_first(search, catalogue):
    checked = 0
    for (movie_id,) in catalogue.execute(
        "SELECT id FROM movies WHERE NOT adult ORDER BY popularity LIMIT 15"
    ).fetchall():
        title = english_title(catalogue, movie_id)
        page = first_page_finds(search, movie_id, title)
        # Every film before it has that very name too, in some language (the exact tier).
        position = ids(page).index(movie_id)
        for before in page["results"][:position]:
            assert search_text.normalized(title) in names_of(catalogue, before["id"]) | {
                search_text.normalized(before["title"])
            }, (title, before["title"])
        checked += 1
    assert checked == 15


def test_a_prefix_lower_case_without_accents_and_word_order(search, catalogue):
    # Latin titles with accents (strip_accents also drops Devanagari's vowel signs, which are letters).
    accented = catalogue.execute(
        "SELECT id, original_title FROM movies WHERE original_title <> strip_accents(original_title) "
        "AND regexp_matches(original_title, '^[\\x{20}-\\x{24F}]+$') AND NOT adult "
        "ORDER BY id LIMIT 5"
    ).fetchall()
    assert accented
    for movie_id, title in accented:
        plain = catalogue.execute("SELECT lower(strip_accents(?))", [title]).fetchone()[0]
        first_page_finds(search, movie_id, plain)  # amelie finds Amélie
        first_page_finds(search, movie_id, title.upper())  # CAFE finds Café
        words = plain.split()
        if len(words) > 1:
            first_page_finds(search, movie_id, " ".join(reversed(words)))  # order does not matter
        longest = max(search_text.words(title), key=len)
        if len(longest) >= 4:
            first_page_finds(
                search,
                movie_id,
                " ".join(search_text.words(title)[:-1] + [longest[:3]])
                if search_text.words(title)[-1] == longest
                else title[:-1],
            )


def test_one_typo_in_a_long_word_still_finds_the_title_below_exact_matches(search, catalogue):
    rows = catalogue.execute(
        "SELECT id, original_title FROM movies WHERE NOT adult AND length(original_title) >= 8 "
        "AND original_title = strip_accents(original_title) ORDER BY popularity DESC LIMIT 10"
    ).fetchall()
    tried = 0
    for movie_id, title in rows:
        words = search_text.words(title)
        long = [w for w in words if len(w) >= 6 and w.isalpha()]
        if not long:
            continue
        word = long[0]
        typo = word[0] + word[2] + word[1] + word[3:]  # two letters swapped
        query = " ".join(typo if w == word else w for w in words)
        page = first_page_finds(search, movie_id, query)
        tried += 1
        missing = word[:2] + word[3:]  # a letter left out
        first_page_finds(search, movie_id, " ".join(missing if w == word else w for w in words))
        assert page["total_results"] >= 1
    assert tried >= 3


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_titles_in_japanese_and_russian_find_their_film(search, catalogue, language):
    rows = catalogue.execute(
        "SELECT t.movie_id, t.title FROM movie_translations t JOIN movies m ON m.id = t.movie_id "
        "WHERE t.iso_639_1 = ? AND t.title <> '' AND NOT m.adult ORDER BY t.movie_id LIMIT 6",
        [language],
    ).fetchall()
    assert rows
    for movie_id, title in rows:
        first_page_finds(search, movie_id, title)
        if language == "ja" and len(title) >= 3:
            first_page_finds(search, movie_id, title[1:3])  # two characters of a title with no spaces


def test_year_filters_narrow(search, catalogue):
    year = catalogue.execute(
        "SELECT year(release_date) y FROM movies WHERE release_date IS NOT NULL "
        "GROUP BY y ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    everything = search("movie", query="a")
    primary = search("movie", query="a", primary_release_year=str(year))
    assert 0 < primary["total_results"] < everything["total_results"]
    assert all(r["release_date"].startswith(str(year)) for r in primary["results"])
    released = search("movie", query="a", year=str(year))
    years = dict(
        catalogue.execute(
            "SELECT movie_id, list(DISTINCT year(release_date)) FROM movie_release_dates GROUP BY movie_id"
        ).fetchall()
    )
    assert released["total_results"] >= primary["total_results"]
    for r in released["results"]:
        assert year in years.get(r["id"], []) or r["release_date"].startswith(str(year))


def test_pages_neither_overlap_nor_skip(search):
    first = search("movie", query="the")
    total = first["total_results"]
    assert total > 40 and first["total_pages"] == -(-total // 20)
    seen = []
    for page in range(1, first["total_pages"] + 1):
        seen += ids(search("movie", query="the", page=str(page)))
    assert len(seen) == total == len(set(seen))
    past = search("movie", query="the", page=str(first["total_pages"] + 1))
    assert past["results"] == [] and past["total_results"] == total


def test_multi_mixes_movies_series_and_people(search):
    page, kinds = 1, set()
    while True:
        result = search("multi", query="a", page=str(page))
        kinds |= {r["media_type"] for r in result["results"]}
        if kinds == {"movie", "tv", "person"} or page >= result["total_pages"]:
            break
        page += 1
    assert kinds == {"movie", "tv", "person"}


def test_people_come_with_what_they_are_known_for(search, catalogue):
    person_id, name = catalogue.execute(
        'SELECT p.id, p.name FROM people p JOIN "cast" c ON c.person_id = p.id WHERE NOT p.adult '
        "GROUP BY p.id, p.name, p.popularity ORDER BY p.popularity DESC LIMIT 1"
    ).fetchone()
    page = search("person", query=name)
    person = next(r for r in page["results"] if r["id"] == person_id)
    films = {
        m
        for (m,) in catalogue.execute(
            'SELECT movie_id FROM "cast" WHERE person_id = ? UNION SELECT movie_id FROM crew WHERE person_id = ?',
            [person_id, person_id],
        ).fetchall()
    }
    shows = {
        s
        for (s,) in catalogue.execute(
            "SELECT series_id FROM series_cast WHERE person_id = ? UNION "
            "SELECT series_id FROM series_crew WHERE person_id = ?",
            [person_id, person_id],
        ).fetchall()
    }
    assert 1 <= len(person["known_for"]) <= 3
    for item in person["known_for"]:
        assert item["id"] in (films if item["media_type"] == "movie" else shows)


def test_results_speak_the_language_of_their_details(api, search, catalogue):
    key = api.account("search-language", "pro")
    page = search("movie", query="a", language="de-DE")
    for item in page["results"][:8]:
        details = api.client.get(f"/3/movie/{item['id']}", params={"api_key": key, "language": "de-DE"}).json()
        assert (item["title"], item["overview"]) == (details["title"], details["overview"])
    untranslated = search("movie", query="a", language="sv-SE")  # not served: the details' `.und`
    for item in untranslated["results"]:
        assert item["title"] == item["original_title"] and item["overview"] == ""


def test_adult_titles_only_when_asked(search, catalogue):
    movie_id, title = catalogue.execute("SELECT id, original_title FROM movies WHERE adult LIMIT 1").fetchone()
    assert movie_id not in ids(search("movie", query=title))
    assert movie_id in ids(search("movie", query=title, include_adult="true"))


def test_other_kinds_find_their_entities(search, catalogue):
    for kind, table in (
        ("tv", "tv_series"),
        ("collection", "collections"),
        ("company", "companies"),
        ("keyword", "keywords"),
    ):
        entity_id, name = catalogue.execute(f"SELECT id, name FROM {table} ORDER BY id LIMIT 1").fetchone()
        first_page_finds(search, entity_id, name, kind=kind)


def test_bad_input_gets_the_envelope(api, search):
    key = api.account("search-errors", "pro")
    for params, status, code in (
        (("page", "0"), 400, 22),
        (("page", "501"), 400, 22),
        (("page", "x"), 400, 22),
        (("year", "abc"), 422, 5),
        (("primary_release_year", "99"), 422, 5),
        (("include_adult", "maybe"), 422, 5),
    ):
        response = api.client.get("/3/search/movie", params={"api_key": key, "query": "a", params[0]: params[1]})
        body = assert_tmdb_error(response, status, code)
        if status == 422:
            assert params[0] in body["status_message"]
    assert search("movie")["results"] == [] and search("movie", query="  ")["total_results"] == 0
    assert search("tv", query='\u0000%%"*NOT OR(')["page"] == 1  # FTS5 syntax in a query is only text


def test_repeated_searches_come_from_nginx_and_still_count(api):
    key = api.account("search-cache", "pro")
    params = {"api_key": key, "query": "the cache test", "page": "1"}
    # nginx keeps a query's answer once it is asked again (proxy_cache_min_uses 2): never asked, never written.
    first, again, second = (api.client.get("/3/search/movie", params=params) for _ in range(3))
    assert [r.headers["x-marquee-cache"] for r in (first, again, second)] == ["MISS", "MISS", "HIT"]
    assert first.content == again.content == second.content
    assert int(second.headers["x-ratelimit-remaining"]) == int(first.headers["x-ratelimit-remaining"]) - 2
    assert_tmdb_error(api.client.get("/3/search/movie", params={**params, "api_key": "0" * 32}), 401, 7)
    other = api.account("search-cache-other", "pro")  # the cache is keyed by release and query, not key
    assert api.client.get("/3/search/movie", params={**params, "api_key": other}).headers["x-marquee-cache"] == "HIT"


def test_the_index_is_the_current_releases_through_publish_and_rollback(
    start_stack, e2e_release, tmp_path_factory, catalogue
):
    """Two releases whose indexes differ by one film: each answer is its current release's, cached
    answers included (nginx keys them by release), with no restart."""
    from tests.e2e.conftest import copy_release, point_current

    movie_id = catalogue.execute("SELECT id FROM movies WHERE NOT adult ORDER BY popularity DESC LIMIT 1").fetchone()[0]
    title = english_title(catalogue, movie_id)
    base = tmp_path_factory.mktemp("search-releases")
    releases = [copy_release(e2e_release, base / "with"), copy_release(e2e_release, base / "without", movie_id)]
    stack = start_stack(release=releases[0])
    for step, n in enumerate((0, 1, 0, 1)):
        key = stack.account(f"index-{step}", "pro")
        point_current(stack.settings, releases[n])
        for _ in range(3):  # the third from nginx's cache
            answer = stack.client.get("/3/search/movie", params={"api_key": key, "query": title})
            assert (movie_id in ids(answer.json())) == (n == 0), (step, answer.headers.get("x-marquee-cache"))
