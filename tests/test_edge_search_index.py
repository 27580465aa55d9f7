"""edge/search_index.py: tiers, ranking, filters and paging over the session release's index."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from edge.search_index import PAGE_SIZE, WINDOW, Filters, SearchIndex, coverage, score
from marquee.artefacts import SEARCH_INDEX
from marquee.search_text import order_key


@pytest.fixture(scope="module")
def index(built_pack: Path):
    opened = SearchIndex(built_pack / SEARCH_INDEX)
    yield opened
    opened.close()


def every(index: SearchIndex, kinds, query: str, filters: Filters = Filters()) -> tuple[list, int]:
    found, total = [], None
    for page in range(1, 501):
        results, total = index.page(kinds, query, filters, page)
        if not results:
            break
        found += results
    return found, total


def test_the_last_word_is_a_prefix_and_cjk_pairs_are_whole(index):
    plan = index.plan("The Matr")
    assert plan.strict == 'tokens : ("the" AND "matr"*)'
    assert index.plan("千と千尋").strict == 'tokens : ("千と" AND "と千" AND "千尋")'
    assert index.plan("影").strict == 'tokens : ("影"*)'
    assert index.plan(" ,.; ") is None


def test_a_word_one_typo_away_is_a_neighbour(index):
    word = next(t for (t,) in index.con.execute("SELECT term FROM terms WHERE length(term) >= 7 ORDER BY term")
                if t[1] != t[2] and t.isalpha())
    swapped = word[0] + word[2] + word[1] + word[3:]
    assert word in index.neighbours(swapped)
    assert word in index.neighbours(word[:3] + word[4:])  # a letter missing
    assert word in index.neighbours(word[:3] + "q" + word[3:])  # a letter added
    assert index.neighbours(word[:4]) == []  # too short to forgive
    assert word not in index.neighbours(word[::-1])


def test_coverage_and_score_favour_the_fuller_match_then_popularity():
    words = [frozenset({"the"}), frozenset({"hunger"})]
    assert coverage("the hunger games", words) == pytest.approx(2 / 3)
    assert coverage("the hunger of men and wolves\nla faim", words) == pytest.approx(2 / 6)
    popular, obscure = order_key(100.0, 1), order_key(1.0, 2)
    assert score("the hunger games", popular, words) > score("the hunger of men and wolves", obscure, words)
    assert score("the hunger games", popular, words) == pytest.approx((0.25 + 2 / 3) * math.log(102))


def test_pages_cover_every_match_once_in_every_kind_mix(index):
    for kinds in (("movie",), ("person",), ("movie", "tv", "person")):
        found, total = every(index, kinds, "a")
        assert total > PAGE_SIZE and len(found) == total == len(set(found)), kinds


def test_an_exact_name_comes_first_whatever_its_popularity(index):
    least = index.con.execute("SELECT id, names FROM movie_fts ORDER BY rowid DESC LIMIT 1").fetchone()
    name = least[1].split("\n")[0]
    results, _ = index.page(("movie",), name, Filters(include_adult=True), 1)
    exact = {i for (i,) in index.con.execute("SELECT id FROM exact WHERE kind = 'movie' AND name = ?", (name,))}
    assert least[0] in exact and {i for _, i in results[:len(exact)]} == exact


def test_filters_narrow_without_reordering(index):
    everything, _ = every(index, ("movie",), "a")
    year = next(t for t in index.con.execute("SELECT filters FROM movie_fts WHERE filters LIKE '%y%' LIMIT 1")
                .fetchone()[0].split() if t.startswith("y"))
    narrowed, total = every(index, ("movie",), "a", Filters(years=(year,)))
    assert 0 < total < len(everything)
    with_year = {i for (i,) in index.con.execute("SELECT id FROM movie_fts WHERE movie_fts MATCH ?",
                                                 (f'filters : "{year}"',))}
    assert narrowed == [hit for hit in everything if hit[1] in with_year]


def test_typos_rank_below_every_strict_match(index):
    name = index.con.execute("SELECT names FROM movie_fts WHERE names GLOB '*[a-z][a-z][a-z][a-z][a-z][a-z]*' "
                             "ORDER BY rowid LIMIT 1").fetchone()[0].split("\n")[0]
    word = max(name.split(" "), key=len)
    typo = word[:2] + word[3:]
    strict, strict_total = index.page(("movie",), typo, Filters(), 1)
    if strict_total >= PAGE_SIZE:
        pytest.skip("the typo is itself a common prefix here")
    found, total = every(index, ("movie",), typo)
    plain = {i for (i,) in index.con.execute("SELECT id FROM movie_fts WHERE movie_fts MATCH ?",
                                             (index.plan(typo).strict + ' NOT filters : "adult"',))}
    tiers = [0 if i in plain else 1 for _, i in found]
    assert tiers == sorted(tiers) and 1 in tiers  # the strict matches first, then the typo's
    assert WINDOW >= PAGE_SIZE
