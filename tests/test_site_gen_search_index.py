"""site_gen/search_index.py: the release's search index against the catalogue and the release's documents."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import duckdb
import orjson
import pytest

from marquee import search_text
from marquee.artefacts import SEARCH_INDEX
from marquee.packs import Pack
from marquee.search_text import popularity_of
from site_gen.search_index import KINDS, deletions

TABLES = {"movie": "movies", "tv": "tv_series", "person": "people", "collection": "collections",
          "company": "companies", "keyword": "keywords"}


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


def test_every_entity_once_with_its_item(index, catalogue):
    table, con = catalogue
    for kind in KINDS:
        expected = {i for (i,) in con.execute(f"SELECT id FROM {table(TABLES[kind])}").fetchall()}
        indexed = [i for (i,) in index.execute(f"SELECT id FROM {kind}_fts")]
        assert sorted(indexed) == sorted(expected), kind
        items = {i for (i,) in index.execute("SELECT id FROM items WHERE kind = ?", (kind,))}
        assert items == expected, kind


def test_rows_come_most_popular_first(index, catalogue):
    table, con = catalogue
    popularity = dict(con.execute(f"SELECT id, popularity FROM {table('movies')}").fetchall())
    rows = index.execute("SELECT rowid, id FROM movie_fts ORDER BY rowid").fetchall()
    in_order = [popularity[i] for _, i in rows]
    assert in_order == sorted(in_order, reverse=True)
    assert all(popularity_of(rowid) == pytest.approx(popularity[i], abs=0.0006) for rowid, i in rows)


def test_every_name_of_a_film_is_indexed(index, catalogue):
    table, con = catalogue
    names = con.execute(f"SELECT movie_id, list(title) FROM {table('movie_translations')} WHERE title <> '' "
                        "GROUP BY movie_id LIMIT 40").fetchall()
    for movie_id, titles in names:
        tokens = set(index.execute("SELECT tokens FROM movie_fts WHERE id = ?", (movie_id,)).fetchone()[0].split(" "))
        exact = {n for (n,) in index.execute("SELECT name FROM exact WHERE kind = 'movie' AND id = ?", (movie_id,))}
        for title in titles:
            assert set(search_text.words(title)) <= tokens
            assert search_text.normalized(title) in exact


def test_items_and_translations_are_the_documents_own(index, built_pack: Path):
    """A film's item is its item in similar lists; its text in a language is its details document's."""
    with Pack(built_pack) as pack:
        for movie_id, body in index.execute("SELECT id, body FROM items WHERE kind = 'movie' LIMIT 30"):
            assert orjson.loads(body) == orjson.loads(pack.get(f"_items/movie/{movie_id}.json"))
        checked = 0
        for kind, entity, suffix, title, overview in index.execute(
                "SELECT kind, id, suffix, title, overview FROM texts WHERE kind IN ('movie', 'tv', 'collection') "
                "ORDER BY kind, id LIMIT 200"):
            document = orjson.loads(pack.get(f"3/{kind}/{entity}{suffix}.json"))
            assert (document["title" if kind == "movie" else "name"], document["overview"]) == (title, overview)
            checked += 1
        assert checked > 100


def test_external_ids_cover_every_imdb_id(index, catalogue):
    table, con = catalogue
    for kind, source_table in (("movie", "movies"), ("person", "people"), ("tv", "tv_series"), ("episode", "tv_episodes")):
        expected = set(con.execute(f"SELECT imdb_id, id FROM {table(source_table)} WHERE imdb_id IS NOT NULL").fetchall())
        found = set(index.execute("SELECT value, id FROM external_ids WHERE source = 'imdb_id' AND kind = ?", (kind,)))
        assert found == expected and expected, kind


def test_long_words_are_reachable_by_one_deletion(index):
    terms = [t for (t,) in index.execute("SELECT term FROM terms LIMIT 50")]
    assert terms and all(len(t) >= search_text.MIN_FUZZY for t in terms)
    for term in terms[:10]:
        variants = {v for (v,) in index.execute("SELECT variant FROM near WHERE term = ?", (term,))}
        assert variants == {term} | deletions(term)
