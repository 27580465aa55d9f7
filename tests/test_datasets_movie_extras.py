"""The movie sub-resource tables of the synthetic catalogue (marquee_datasets.movie_extras / movie_media)."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from marquee_build.catalogue import REQUIRED_TABLES
from marquee_datasets import certifications, extras_vocab
from marquee_datasets.movie_extras import MAX_KEYWORDS, RATING_SOURCES, TABLES, keyword_names
from marquee_datasets.synthetic import TABLES as ALL_TABLES
from marquee_datasets.synthetic import generate


def _parquet(path: Path) -> str:
    return "read_parquet('" + str(path).replace("'", "''") + "')"


@pytest.fixture(scope="module")
def q(catalogue_dir: Path):
    con = duckdb.connect()
    for table in ALL_TABLES:
        con.execute(f'CREATE VIEW "{table}" AS SELECT * FROM ' + _parquet(catalogue_dir / f"{table}.parquet"))
    yield lambda sql, params=(): con.execute(sql, list(params)).fetchall()
    con.close()


def test_tables_are_generated_and_required():
    assert set(TABLES) <= set(ALL_TABLES) and set(TABLES) <= set(REQUIRED_TABLES)


def test_same_seed_same_extras_and_other_seed_differs(tmp_path: Path):
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        generate(tmp_path / name, 50, seed)
    for table in TABLES:
        a, b = (pq.read_table(tmp_path / x / f"{table}.parquet") for x in "ab")
        assert a.equals(b), table
    for table in ("movie_keywords", "movie_videos", "movie_release_dates", "movie_images"):
        assert not pq.read_table(tmp_path / "a" / f"{table}.parquet").equals(
            pq.read_table(tmp_path / "c" / f"{table}.parquet")
        ), table


def test_keywords_vocabulary_and_links(q):
    names = [n for (n,) in q("SELECT name FROM keywords ORDER BY id")]
    assert names == keyword_names() and len(set(names)) == len(names) >= 250
    assert q("SELECT count(*) FROM movie_keywords WHERE keyword_id NOT IN (SELECT id FROM keywords)") == [(0,)]
    counts = q(
        "SELECT m.id, count(mk.keyword_id), coalesce(max(mk.ord), -1) FROM movies m "
        "LEFT JOIN movie_keywords mk ON mk.movie_id = m.id GROUP BY m.id"
    )
    assert all(0 <= c <= MAX_KEYWORDS and top == c - 1 for _, c, top in counts)
    assert q(
        "SELECT count(*) FROM (SELECT movie_id, keyword_id FROM movie_keywords GROUP BY ALL HAVING count(*) > 1)"
    ) == [(0,)]


def test_videos_look_like_tmdb(q):
    rows = q("SELECT id, key, site, size, type, iso_639_1 FROM movie_videos")
    assert rows
    assert len({r[0] for r in rows}) == len(rows)
    types = {t for t, _, _ in extras_vocab.VIDEO_TYPES}
    for vid, key, site, size, kind, lang in rows:
        assert re.fullmatch(r"[0-9a-f]{24}", vid)
        assert re.fullmatch(r"[A-Za-z0-9_-]{11}" if site == "YouTube" else r"[0-9]{9}", key)
        assert site in ("YouTube", "Vimeo") and size in (360, 480, 720, 1080, 2160) and kind in types
        assert len(lang) == 2


def test_release_dates_follow_the_movie_and_real_certifications(q):
    valid = {(c, x) for c, x, _, _ in certifications.MOVIE_CERTIFICATIONS}
    rows = q("SELECT iso_3166_1, certification, type FROM movie_release_dates")
    assert rows and all(t in range(1, 7) for _, _, t in rows)
    assert all(cert == "" or (country, cert) in valid for country, cert, _ in rows)
    # The origin country's theatrical release is the movie's release_date; undated films have none.
    mismatch = q("""SELECT count(*) FROM movies m WHERE m.release_date IS NOT NULL AND NOT EXISTS (
                      SELECT 1 FROM movie_release_dates r WHERE r.movie_id = m.id AND r.type = 3
                        AND r.iso_3166_1 = m.origin_country[1] AND r.release_date::DATE = m.release_date)""")
    assert mismatch == [(0,)]
    assert q(
        "SELECT count(*) FROM movie_release_dates r JOIN movies m ON m.id = r.movie_id WHERE m.release_date IS NULL"
    ) == [(0,)]
    us = {c for (c,) in q("SELECT DISTINCT certification FROM movie_release_dates WHERE iso_3166_1 = 'US'")}
    assert us - {""} <= set(certifications.USABLE["US"]) and len(us) >= 3


def test_external_ids_and_ratings_trace_to_movies(q):
    for wikidata, kinopoisk in q("SELECT wikidata_id, kinopoisk_id FROM movie_external_ids"):
        assert wikidata is None or re.fullmatch(r"Q\d+", wikidata)
        assert kinopoisk is None or kinopoisk.isdigit()
    assert q("SELECT count(*), count(DISTINCT movie_id) FROM movie_external_ids") == q(
        "SELECT count(*), count(*) FROM movies"
    )
    rows = q("""SELECT m.vote_average, m.vote_count, r.value, r.votes FROM movies m
                JOIN movie_ratings r ON r.movie_id = m.id AND r.source = 'tmdb'""")
    assert all((value, votes) == ((avg, cnt) if cnt > 0 else (None, None)) for avg, cnt, value, votes in rows)
    per_movie = q("SELECT list(source ORDER BY source) FROM movie_ratings GROUP BY movie_id")
    assert {tuple(s) for (s,) in per_movie} == {tuple(sorted(RATING_SOURCES))}
    assert q("SELECT count(*) FROM movie_ratings WHERE (value IS NULL) <> (votes IS NULL)") == [(0,)]


def test_watch_offers_only_where_and_how_a_provider_operates(q):
    kinds = {p[0]: set(p[3]) for p in extras_vocab.WATCH_PROVIDERS}
    offers = q("""SELECT o.provider_id, o.kind, r.provider_id IS NOT NULL FROM movie_watch_providers o
                  LEFT JOIN watch_provider_regions r ON r.provider_id = o.provider_id AND r.iso_3166_1 = o.iso_3166_1""")
    assert offers and all(kind in kinds[pid] and served for pid, kind, served in offers)
    assert q(
        "SELECT count(*) FROM movie_watch_providers o JOIN movies m ON m.id = o.movie_id WHERE m.status <> 'Released'"
    ) == [(0,)]


def test_soundtracks_number_tracks_and_credit_the_composer(q):
    assert q("""SELECT count(*) FROM (SELECT soundtrack_id, count(*) AS n, min(number) AS lo, max(number) AS hi
                FROM soundtrack_tracks GROUP BY soundtrack_id) WHERE lo <> 1 OR hi <> n""") == [(0,)]
    assert q("SELECT count(*) FROM (SELECT movie_id FROM soundtracks GROUP BY movie_id HAVING count(*) > 1)") == [(0,)]
    rows = q("""SELECT t.artists, c.names FROM soundtracks s
                JOIN soundtrack_tracks t ON t.soundtrack_id = s.id
                JOIN (SELECT c.movie_id, list(p.name) AS names FROM crew c JOIN people p ON p.id = c.person_id
                      WHERE c.job = 'Original Music Composer' GROUP BY c.movie_id) c ON c.movie_id = s.movie_id
                WHERE s.type = 'score'""")
    assert rows and all(len(artists) == 1 and artists[0] in names for artists, names in rows)


def test_movie_posters_and_backdrops_are_their_top_rated_images(q):
    for kind in ("poster", "backdrop"):
        wrong = q(f"""SELECT count(*) FROM movies m WHERE m.{kind}_path IS NOT NULL AND m.{kind}_path <> (
                        SELECT arg_max(file_path, vote_average) FROM movie_images i
                        WHERE i.movie_id = m.id AND i.kind = '{kind}')""")
        assert wrong == [(0,)], kind
    assert q("SELECT count(*) - count(DISTINCT file_path) FROM movie_images") == [(0,)]
    ratios = q("SELECT width, height, aspect_ratio FROM movie_images")
    assert all(abs(w / h - r) < 0.001 for w, h, r in ratios)


def test_every_listed_image_has_an_original(q, image_store: Path):
    present = {p.name for p in (image_store / "original").iterdir()}
    paths = q("SELECT file_path FROM movie_images UNION ALL SELECT logo_path FROM watch_providers")
    assert paths and all(p.lstrip("/") in present for (p,) in paths)
