from __future__ import annotations

import re
import time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow.parquet as pq
import pytest

from marquee_build.catalogue import REQUIRED_TABLES
from marquee_datasets.synthetic import TABLES, generate
from marquee_datasets.vocab import GENRES


def _parquet(path: Path) -> str:
    """read_parquet('<path>') as SQL text (CREATE VIEW takes no prepared parameters)."""
    return "read_parquet('" + str(path).replace("'", "''") + "')"


def _read(path: Path, table: str):
    return pq.read_table(path / f"{table}.parquet")


def _q(catalogue: Path, sql: str):
    con = duckdb.connect()
    for table in TABLES:
        con.execute(f'CREATE VIEW "{table}" AS SELECT * FROM ' + _parquet(catalogue / f"{table}.parquet"))
    return con.execute(sql).fetchall()


def test_tables_are_the_ones_the_build_requires():
    from marquee_build.catalogue import OPTIONAL_TABLES

    assert set(TABLES) == set(REQUIRED_TABLES) | set(OPTIONAL_TABLES)


def test_same_seed_same_rows_and_different_seed_differs(tmp_path: Path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate(a, 60, 3)
    generate(b, 60, 3)
    generate(c, 60, 4)
    for table in TABLES:
        assert _read(a, table).equals(_read(b, table)), table
    for table in ("movies", "movie_translations", "people", "cast", "crew"):
        assert not _read(a, table).equals(_read(c, table)), table


def test_a_generated_catalogue_writes_no_image_file_and_says_its_images_are_generated(tmp_path: Path):
    from marquee_build.contract import FACTS_FILE, images_generated

    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "stale.jpg").write_bytes(b"an older catalogue's original")
    generate(tmp_path, 20, 9)
    assert not (tmp_path / "images").exists()  # nothing to leak into this catalogue
    assert images_generated(tmp_path) and (tmp_path / FACTS_FILE).is_file()
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json"] + [".parquet"] * len(TABLES)


def test_generated_originals_are_the_same_bytes_every_time_and_of_their_kind():
    import io

    from PIL import Image

    from marquee_datasets.images import DIMENSIONS, draw

    poster = draw("a1B2c3.jpg", "poster")
    assert poster == draw("a1B2c3.jpg", "poster") and poster[:3] == b"\xff\xd8\xff"
    assert poster != draw("a1B2c4.jpg", "poster")  # the colour comes from the path
    with Image.open(io.BytesIO(poster)) as image:
        assert image.size == DIMENSIONS["poster"] == (120, 180)
    with Image.open(io.BytesIO(draw("x.png", "logo"))) as image:
        assert image.format == "PNG" and image.size == DIMENSIONS["logo"]


def test_every_image_path_is_a_generated_image_of_its_kind(catalogue_dir: Path):
    from site_gen.image_job import catalogue_images

    rows = _q(
        catalogue_dir,
        """
        SELECT poster_path, 'poster' FROM movies UNION ALL SELECT backdrop_path, 'backdrop' FROM movies
        UNION ALL SELECT poster_path, 'poster' FROM collections UNION ALL SELECT backdrop_path, 'backdrop' FROM collections
        UNION ALL SELECT logo_path, 'logo' FROM companies UNION ALL SELECT profile_path, 'profile' FROM people""",
    )
    paths = [(p, kind) for (p, kind) in rows if p is not None]
    assert paths
    images = catalogue_images(catalogue_dir)
    kinds = dict(zip(images["name"].to_pylist(), images["kind"].to_pylist()))
    for path, kind in paths:
        assert re.fullmatch(r"/[0-9A-Za-z]{27}\.(jpg|png)", path), path
        assert kinds[path[1:]] == kind, path


def test_movie_columns_look_like_tmdb(catalogue_dir: Path):
    movies = _read(catalogue_dir, "movies").to_pylist()
    ids = [m["id"] for m in movies]
    assert len(set(ids)) == len(ids) and min(ids) >= 2
    imdb = [m["imdb_id"] for m in movies]
    assert len(set(imdb)) == len(imdb) and all(re.fullmatch(r"tt\d{7,8}", i) for i in imdb)
    assert {m["status"] for m in movies} >= {"Released"}
    assert all(0 <= m["vote_average"] <= 10 for m in movies)
    langs = [m["original_language"] for m in movies]
    assert langs.count("en") > len(langs) / 3 and len(set(langs)) >= 5
    nulls = sum(m["poster_path"] is None for m in movies)
    assert nulls < len(movies) * 0.15


def test_release_years_span_eighty_years_and_popularity_has_a_long_tail(catalogue_dir: Path):
    ((lo, hi),) = _q(catalogue_dir, "SELECT min(year(release_date)), max(year(release_date)) FROM movies")
    assert hi - lo >= 80 and lo >= 1920 and hi <= 2026
    popularity = np.sort(_read(catalogue_dir, "movies").column("popularity").to_numpy())
    assert popularity[-1] > 8 * np.median(popularity)  # a few very popular films
    ((people_max, people_median),) = _q(catalogue_dir, "SELECT max(popularity), median(popularity) FROM people")
    assert people_max > 8 * people_median


def test_cast_sizes_are_long_tailed_and_bounded(catalogue_dir: Path):
    sizes = [n for (n,) in _q(catalogue_dir, 'SELECT count(*) FROM "cast" GROUP BY movie_id')]
    assert len(sizes) == 150
    assert 1 <= min(sizes) <= 3 and 25 <= max(sizes) <= 60
    assert 5 <= float(np.median(sizes)) <= 20


def test_cast_order_is_dense_and_credit_ids_unique(catalogue_dir: Path):
    bad = _q(
        catalogue_dir,
        """SELECT movie_id FROM "cast" GROUP BY movie_id
                               HAVING list_sort(list("order")) <> range(count(*)::BIGINT)""",
    )
    assert bad == []
    ids = _q(catalogue_dir, 'SELECT credit_id FROM "cast" UNION ALL SELECT credit_id FROM crew')
    assert all(re.fullmatch(r"[0-9a-f]{24}", i) for (i,) in ids)
    assert len({i for (i,) in ids}) == len(ids)


def test_popular_people_appear_in_many_films(catalogue_dir: Path):
    counts = [n for (n,) in _q(catalogue_dir, 'SELECT count(*) FROM "cast" GROUP BY person_id ORDER BY 1 DESC')]
    assert counts[0] >= 10 * np.median(counts)  # a few stars, a long tail of one-film actors


def test_every_movie_has_a_director_and_genres(catalogue_dir: Path):
    ((missing,),) = _q(
        catalogue_dir,
        """SELECT count(*) FROM movies m WHERE NOT EXISTS
        (SELECT 1 FROM crew c WHERE c.movie_id = m.id AND c.job = 'Director')""",
    )
    assert missing == 0
    per_movie = [n for (n,) in _q(catalogue_dir, "SELECT count(*) FROM movie_genres GROUP BY movie_id")]
    assert len(per_movie) == 150 and min(per_movie) >= 1 and max(per_movie) <= 4
    genre_ids = {g for (g,) in _q(catalogue_dir, "SELECT DISTINCT genre_id FROM movie_genres")}
    assert genre_ids <= {g for g, _ in GENRES}


def test_collections_have_two_to_six_parts(catalogue_dir: Path):
    parts = [
        n
        for (n,) in _q(
            catalogue_dir, "SELECT count(*) FROM movies WHERE collection_id IS NOT NULL GROUP BY collection_id"
        )
    ]
    assert parts and min(parts) >= 2 and max(parts) <= 6
    names = [n for (n,) in _q(catalogue_dir, "SELECT name FROM collections")]
    assert all(n.endswith(" Collection") for n in names)


@pytest.mark.timeout(60)
def test_two_thousand_movies_take_seconds(tmp_path: Path):
    started = time.perf_counter()
    counts = generate(tmp_path, 2000, 1)
    assert time.perf_counter() - started < 5
    assert counts["movies"] == 2000 and 4 * 2000 < counts["people"] < 6 * 2000 + 1


def test_a_catalogue_dated_around_a_day_has_that_days_lists(tmp_path):
    """`today` moves every date by the same days (the catalogue is otherwise the same), so a sample
    made on any day has films out in the last weeks, films coming and episodes airing this week."""
    from datetime import date, timedelta

    import duckdb

    from marquee_datasets.synthetic import REFERENCE_DATE, generate

    plain, dated = tmp_path / "plain", tmp_path / "dated"
    day = date(2031, 2, 14)
    generate(plain, 2000, 42)
    generate(dated, 2000, 42, today=day)
    shift = (day - date.fromisoformat(str(REFERENCE_DATE))).days
    con = duckdb.connect()
    for table, column in (("movies", "release_date"), ("tv_episodes", "air_date"), ("people", "birthday")):
        moved = con.execute(
            f"SELECT count(*), count(*) FILTER (WHERE d.{column} = p.{column} + {shift}) "
            f"FROM '{plain}/{table}.parquet' p JOIN '{dated}/{table}.parquet' d ON d.id = p.id "
            f"WHERE p.{column} IS NOT NULL"
        ).fetchone()
        assert moved[0] > 0 and moved[0] == moved[1], table
    released = con.execute(
        f"SELECT count(DISTINCT movie_id) FROM '{dated}/movie_release_dates.parquet' WHERE type IN "
        f"(2, 3) AND CAST(release_date AS DATE) BETWEEN ? AND ?",
        [day - timedelta(days=42), day],
    ).fetchone()[0]
    coming = con.execute(
        f"SELECT count(DISTINCT movie_id) FROM '{dated}/movie_release_dates.parquet' WHERE type IN "
        f"(2, 3) AND CAST(release_date AS DATE) BETWEEN ? AND ?",
        [day + timedelta(days=1), day + timedelta(days=28)],
    ).fetchone()[0]
    airing = con.execute(
        f"SELECT count(DISTINCT series_id) FROM '{dated}/tv_episodes.parquet' WHERE air_date BETWEEN ? AND ?",
        [day, day + timedelta(days=6)],
    ).fetchone()[0]
    assert released > 0 and coming > 0 and airing > 0, (released, coming, airing)
