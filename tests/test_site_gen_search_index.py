"""site_gen/search_index.py: the release's search index against the catalogue and the release's documents."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import duckdb
import orjson
import pytest
from pyroaring import BitMap

from marquee import search_text
from marquee.artefacts import SEARCH_INDEX
from marquee.packs import ZSTD_MAGIC, Decoder, Pack
from marquee.search_text import FILTER_MARK, PREFIX_MARK
from site_gen.search_index import KINDS, deletions

# fmt: off
TABLES = {"movie": "movies", "tv": "tv_series", "person": "people", "collection": "collections",
          "company": "companies", "keyword": "keywords"}
# fmt: on


@pytest.fixture(scope="module")
def index(built_pack: Path):
    con = sqlite3.connect(built_pack / SEARCH_INDEX)
    yield con
    con.close()


@pytest.fixture(scope="module")
def catalogue(catalogue_dir: Path):
    con = duckdb.connect()
    yield lambda table: f"read_parquet('{catalogue_dir}/{table}.parquet')", con
    con.close()


def test_every_entity_once_with_its_item_and_rank(index, catalogue):
    table, con = catalogue
    for kind in KINDS:
        expected = {i for (i,) in con.execute(f"SELECT id FROM {table(TABLES[kind])}").fetchall()}
        indexed = [i for (i,) in index.execute("SELECT id FROM entities WHERE kind = ?", (kind,))]
        assert sorted(indexed) == sorted(expected), kind
        items = {i for (i,) in index.execute("SELECT id FROM items WHERE kind = ?", (kind,))}
        assert items == expected, kind
        ranks = [r for (r,) in index.execute("SELECT rank FROM ranks WHERE kind = ? ORDER BY rank", (kind,))]
        assert ranks == list(range(len(expected))), kind


def test_ranks_are_the_most_popular_first(index, catalogue):
    table, con = catalogue
    popularity = dict(con.execute(f"SELECT id, popularity FROM {table('movies')}").fetchall())
    rows = index.execute("SELECT id FROM ranks WHERE kind = 'movie' ORDER BY rank").fetchall()
    assert [i for (i,) in rows] == sorted(popularity, key=lambda i: (-popularity[i], i))


def postings(index, kind: str, term: str) -> BitMap:
    row = index.execute("SELECT ranks FROM postings WHERE kind = ? AND term = ?", (kind, term)).fetchone()
    return BitMap.deserialize(row[0]) if row else BitMap()


def test_postings_hold_every_name_word_prefix_and_filter(index, catalogue):
    table, con = catalogue
    rank_of = dict(index.execute("SELECT id, rank FROM ranks WHERE kind = 'movie'").fetchall())
    names = con.execute(
        f"SELECT movie_id, list(title) FROM {table('movie_translations')} WHERE title <> '' GROUP BY movie_id LIMIT 40"
    ).fetchall()
    for movie_id, titles in names:
        rank = rank_of[movie_id]
        exact = {n for (n,) in index.execute("SELECT name FROM exact WHERE kind = 'movie' AND rank = ?", (rank,))}
        for title in titles:
            assert search_text.normalized(title) in exact
            for word in search_text.words(title):
                assert rank in postings(index, "movie", word)
                assert rank in postings(index, "movie", PREFIX_MARK + word[:2])
    for movie_id, adult, released in con.execute(
        f"SELECT id, adult, year(release_date) FROM {table('movies')} LIMIT 60"
    ).fetchall():
        assert (rank_of[movie_id] in postings(index, "movie", FILTER_MARK + "adult")) == adult
        if released:
            assert rank_of[movie_id] in postings(index, "movie", f"{FILTER_MARK}y{released}")


def test_items_and_translations_are_the_documents_own(index, built_pack: Path):
    """A film's item is its item in similar lists; its text in a language is its details document's."""
    with Pack(built_pack) as pack:
        decode = Decoder(index)
        stored = index.execute("SELECT id, body FROM items WHERE kind = 'movie' LIMIT 30").fetchall()
        assert any(body[:4] == ZSTD_MAGIC for _, body in stored)  # compressed with the kind's dictionary
        for movie_id, body in stored:
            assert orjson.loads(decode(body)) == orjson.loads(pack.get(f"_items/movie/{movie_id}.json"))
        checked = 0
        for kind, entity, suffix, title, overview in index.execute(
            "SELECT kind, id, suffix, title, overview FROM texts WHERE kind IN ('movie', 'tv', 'collection') "
            "ORDER BY kind, id LIMIT 200"
        ):
            document = orjson.loads(pack.get(f"3/{kind}/{entity}{suffix}.json"))
            assert (document["title" if kind == "movie" else "name"], document["overview"]) == (title, overview)
            checked += 1
        assert checked > 100


def test_external_ids_cover_every_imdb_id(index, catalogue):
    table, con = catalogue
    for kind, source_table in (
        ("movie", "movies"),
        ("person", "people"),
        ("tv", "tv_series"),
        ("episode", "tv_episodes"),
    ):
        expected = set(
            con.execute(f"SELECT imdb_id, id FROM {table(source_table)} WHERE imdb_id IS NOT NULL").fetchall()
        )
        found = set(index.execute("SELECT value, id FROM external_ids WHERE source = 'imdb_id' AND kind = ?", (kind,)))
        assert found == expected and expected, kind


def test_long_words_are_reachable_by_one_deletion(index):
    terms = [t for (t,) in index.execute("SELECT term FROM terms LIMIT 50")]
    assert terms and all(len(t) >= search_text.MIN_FUZZY for t in terms)
    for term in terms[:10]:
        variants = {v for (v,) in index.execute("SELECT variant FROM near WHERE term = ?", (term,))}
        assert variants == {term} | deletions(term)


def test_an_index_written_apart_from_its_exported_rows_is_the_builds(
    index, built_pack: Path, release_settings, tmp_path
):
    """A large build writes its index in a spawned process, from the rows exported from the database
    (site_gen/release.py, Inputs.large): the same tables, row for row, as the session's build,
    which wrote its index in its own process; the exported rows are removed."""
    from marquee_build.state import DATABASE, STATE_DIR
    from site_gen import languages, search_index
    from site_gen.apart import beside

    con = duckdb.connect(str(built_pack.parent / STATE_DIR / DATABASE), read_only=True)  # as test_edge_credit
    try:
        languages.prepare(con, release_settings)
        inputs = search_index.export(con, list(release_settings.languages), tmp_path / SEARCH_INDEX)
    finally:
        con.close()
    with beside(search_index.write, inputs, apart=True) as written:
        summary = written()
    assert not inputs.folder.exists()
    assert (
        summary.entities["movie"] == index.execute("SELECT count(*) FROM entities WHERE kind = 'movie'").fetchone()[0]
    )
    apart = sqlite3.connect(tmp_path / SEARCH_INDEX)
    tables = [t for (t,) in index.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    assert "external_ids" in tables and "postings" in tables
    for table in set(tables) - {"dicts", "items"}:
        rows = f"SELECT * FROM {table}"  # each in its key order
        assert apart.execute(rows).fetchall() == index.execute(rows).fetchall(), table
    # A dictionary's id is drawn at random (marquee/packs.py); its bytes and each body's frame name it.
    dictionaries = "SELECT template FROM dicts ORDER BY template"
    assert apart.execute(dictionaries).fetchall() == index.execute(dictionaries).fetchall()
    items = "SELECT kind, id, body, known_for FROM items ORDER BY kind, id"
    decoded = [
        [(kind, i, decode(body), known_for) for kind, i, body, known_for in con.execute(items)]
        for con, decode in ((apart, Decoder(apart)), (index, Decoder(index)))
    ]
    assert decoded[0] == decoded[1] and len(decoded[0]) > 100
    apart.close()


def test_names_are_folded_once_while_remembered_and_again_once_forgotten(monkeypatch):
    """write_kind folds a name it has folded before from memory (folding), up to its limit: the same
    answers as search_text.normalized, and a name forgotten (the memory full) is folded again."""
    from site_gen import search_index

    calls: list[str] = []

    def normalized(name: str) -> str:
        calls.append(name)
        return search_text.fold(name)

    monkeypatch.setattr(search_index.search_text, "normalized", normalized)
    fold = search_index.folding(limit=2)
    assert [fold(n) for n in ("Amélie", "Łódź", "Amélie", "Łódź")] == ["amelie", "lodz", "amelie", "lodz"]
    assert calls == ["Amélie", "Łódź"]
    assert fold("Café") == "cafe"  # the third name: the memory was full, so it starts again
    assert fold("Amélie") == "amelie" and calls == ["Amélie", "Łódź", "Café", "Amélie"]
