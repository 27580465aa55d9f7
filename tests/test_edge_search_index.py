"""edge/search_index.py: tiers, ranking, filters and paging over the session release's index."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from edge import search_index
from edge.caches import ENTRY_BYTES, SHARES, BytesLRU, IndexCaches, row_bytes
from edge.search_index import PAGE_SIZE, WINDOW, Filters, RowCache, SearchIndex, coverage, prefixable, score
from marquee.artefacts import SEARCH_INDEX


@pytest.fixture(scope="module")
def index(built_pack: Path):
    opened = SearchIndex(built_pack / SEARCH_INDEX)
    yield opened
    opened.close()


NO_FILTERS = Filters()


def every(index: SearchIndex, kinds, query: str, filters: Filters = NO_FILTERS) -> tuple[list, int]:
    found, total = [], None
    for page in range(1, 501):
        results, total = index.page(kinds, query, filters, page)
        if not results:
            break
        found += results
    return found, total


def test_the_last_word_is_a_prefix_and_cjk_pairs_are_whole(index):
    assert prefixable("matr", last=True) and not prefixable("the", last=False)
    assert not prefixable("千尋", last=True) and prefixable("影", last=True)
    assert index.plan("The Matr").words == ["the", "matr"]
    assert index.plan(" ,.; ") is None
    name = index.con.execute("SELECT names FROM entities WHERE kind = 'movie' AND names LIKE '% %' LIMIT 1").fetchone()[
        0
    ]
    name = name.split("\n")[0]
    typed = name[:-1]  # the last word not finished
    plan = index.plan(typed)
    rank = index.con.execute("SELECT rank FROM exact WHERE kind = 'movie' AND name = ?", (name,)).fetchone()[0]
    assert rank in index.matches("movie", plan, Filters(include_adult=True), fuzzy=False)


def test_a_word_one_typo_away_is_a_neighbour(index):
    word = next(
        t
        for (t,) in index.con.execute("SELECT term FROM terms WHERE length(term) >= 7 ORDER BY term")
        if t[1] != t[2] and t.isalpha()
    )
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
    assert score("the hunger games", 100.0, words) > score("the hunger of men and wolves", 1.0, words)
    assert score("the hunger games", 100.0, words) == pytest.approx((0.25 + 2 / 3) * math.log(102))


def test_pages_cover_every_match_once_in_every_kind_mix(index):
    for kinds in (("movie",), ("person",), ("movie", "tv", "person")):
        found, total = every(index, kinds, "a")
        assert total > PAGE_SIZE and len(found) == total == len(set(found)), kinds


def test_an_exact_name_comes_first_whatever_its_popularity(index):
    least_id, names = index.con.execute(
        "SELECT e.id, e.names FROM ranks r JOIN entities e ON e.kind = r.kind "
        "AND e.id = r.id WHERE r.kind = 'movie' ORDER BY r.rank DESC LIMIT 1"
    ).fetchone()
    name = names.split("\n")[0]
    results, _ = index.page(("movie",), name, Filters(include_adult=True), 1)
    exact = {
        i
        for (i,) in index.con.execute(
            "SELECT r.id FROM exact x JOIN ranks r ON r.kind = x.kind AND r.rank = x.rank "
            "WHERE x.kind = 'movie' AND x.name = ?",
            (name,),
        )
    }
    assert least_id in exact and {i for _, i in results[: len(exact)]} == exact


def test_filters_narrow_without_reordering(index):
    everything, _ = every(index, ("movie",), "a")
    filters = [
        f
        for _, i in everything[:20]
        for (f,) in index.con.execute("SELECT filters FROM entities WHERE kind = 'movie' AND id = ?", (i,))
    ]
    year = next(t for f in filters for t in f.split() if t.startswith("y"))
    narrowed, total = every(index, ("movie",), "a", Filters(years=(year,)))
    assert 0 < total < len(everything)
    with_year = {
        i for (i, f) in index.con.execute("SELECT id, filters FROM entities WHERE kind = 'movie'") if year in f.split()
    }
    assert narrowed == [hit for hit in everything if hit[1] in with_year]


def test_typos_rank_below_every_strict_match(index):
    names = index.con.execute(
        "SELECT names FROM entities WHERE kind = 'movie' AND names GLOB '*[a-z][a-z][a-z][a-z][a-z][a-z]*' LIMIT 1"
    ).fetchone()[0]
    word = max((w for n in names.split("\n") for w in n.split(" ") if w.isascii()), key=len)
    typo = word[:2] + word[3:]
    plan = index.plan(typo)
    strict = index.matches("movie", plan, Filters(), fuzzy=False)
    if len(strict) >= PAGE_SIZE:
        pytest.skip("the typo is itself a common prefix here")
    found, total = every(index, ("movie",), typo)
    rank_of = dict(index.con.execute("SELECT id, rank FROM ranks WHERE kind = 'movie'").fetchall())
    tiers = [0 if rank_of[i] in strict else 1 for _, i in found]
    assert tiers == sorted(tiers) and 1 in tiers  # the strict matches first, then the typo's
    assert WINDOW >= PAGE_SIZE


def test_a_full_row_cache_still_returns_every_row_asked_for_and_drops_the_least_used_one_at_a_time():
    row_cost = ENTRY_BYTES + row_bytes(("A" * 100,))
    shared = BytesLRU(4 * row_cost)  # four rows of 100 characters
    cache = RowCache(shared, reader=0)
    fetched: list[str] = []

    def fetch(missing):
        fetched.extend(missing)
        return ((k, (k.upper() * 100,)) for k in missing if k != "z")

    def kept() -> list[str]:
        return [key for _, key in shared.found]

    cache.get(["a", "b", "c", "d"], fetch)
    # Full: a row asked for again is kept; each new row takes the place of the least recently used.
    assert cache.get(["a", "e", "f"], fetch) == {k: (k.upper() * 100,) for k in "aef"}
    assert kept() == ["d", "a", "e", "f"] and shared.used == 4 * row_cost
    assert cache.get(["z", "d"], fetch) == {"d": ("D" * 100,)} and cache.get(["z"], fetch) == {}  # absent, remembered
    assert kept() == ["e", "f", "d", "z"]  # an absent row costs its entry alone: one dropped for it
    assert fetched == ["a", "b", "c", "d", "e", "f", "z"]
    cache.get(["g"], lambda missing: [("g", ("G" * 5000,))])  # larger than the whole: kept alone
    assert kept() == ["g"] and cache.get(["g"], fetch) == {"g": ("G" * 5000,)}


def test_two_releases_readers_share_one_bound_and_never_each_others_rows(index, built_pack):
    """Across a publish a worker keeps two releases open: their rows and bitmaps are in one set of
    caches, so the process's bound holds for both, and a key of one is never the other's row."""
    caches = IndexCaches(1)
    old, new = SearchIndex(built_pack / SEARCH_INDEX, caches), SearchIndex(built_pack / SEARCH_INDEX, caches)
    try:
        old.rows.get([("x",)], lambda missing: [(("x",), ("old" * 100,))])
        assert new.rows.get([("x",)], lambda missing: [(("x",), ("new" * 100,))]) == {("x",): ("new" * 100,)}
        assert old.rows.get([("x",)], lambda missing: []) == {("x",): ("old" * 100,)}
        for n, (term,) in enumerate(index.con.execute("SELECT term FROM postings WHERE kind = 'movie' LIMIT 2000")):
            assert (old, new)[n % 2].posting("movie", term) == index.posting("movie", term)
        for name in SHARES:
            assert caches[name].used <= caches[name].limit or len(caches[name].found) == 1
        assert caches["search bitmaps"].used > caches["search bitmaps"].limit / 2  # filled, by both
    finally:
        old.close()
        new.close()


def test_exact_namesakes_come_first_in_rank_order_however_many(index, monkeypatch):
    """A common title's exact namesakes are read a chunk at a time: every one comes once, first, in
    rank order (the most popular first), the filtered-out ones left out, and the rest follow."""
    monkeypatch.setattr(search_index, "EXACT_FIRST", 2)  # chunks of 2, 8, ...: the sample's namesakes are few
    name, count = index.con.execute(
        "SELECT name, count(*) FROM exact WHERE kind = 'movie' GROUP BY name ORDER BY count(*) DESC, name LIMIT 1"
    ).fetchone()
    assert count > 2  # more than one chunk
    ranked = [
        r
        for (r,) in index.con.execute("SELECT rank FROM exact WHERE kind = 'movie' AND name = ? ORDER BY rank", (name,))
    ]
    ids = dict(
        index.con.execute(
            f"SELECT rank, id FROM ranks WHERE kind = 'movie' AND rank IN ({','.join('?' * len(ranked))})", ranked
        )
    )
    found, total = every(index, ("movie",), name, Filters(include_adult=True))
    assert [i for _, i in found[: len(ranked)]] == [ids[r] for r in ranked]
    assert len(found) == total == len(set(found)) > len(ranked) - 1
    year = index.con.execute(
        "SELECT filters FROM entities WHERE kind = 'movie' AND id = ?", (ids[ranked[-1]],)
    ).fetchone()[0]
    token = next(t for t in year.split() if t.startswith("y"))
    narrowed, _ = every(index, ("movie",), name, Filters(years=(token,), include_adult=True))
    kept = [
        r
        for r in ranked
        if token
        in index.con.execute("SELECT filters FROM entities WHERE kind = 'movie' AND id = ?", (ids[r],))
        .fetchone()[0]
        .split()
    ]
    assert kept and [i for _, i in narrowed[: len(kept)]] == [ids[r] for r in kept]
