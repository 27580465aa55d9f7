from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pyarrow.parquet as pq
import pytest

from marquee_build.catalogue import REQUIRED_TABLES
from marquee_datasets import tv, tv_vocab
from marquee_datasets.synthetic import REFERENCE_DATE, TABLES, generate

REF = REFERENCE_DATE.astype(object)


@pytest.fixture(scope="module")
def tables(catalogue_dir: Path):
    """A larger TV sample (300 series) over the session catalogue's people and companies."""
    people = pq.read_table(catalogue_dir / "people.parquet")
    companies = pq.read_table(catalogue_dir / "companies.parquet")
    keywords = (
        pq.read_table(catalogue_dir / "keywords.parquet") if (catalogue_dir / "keywords.parquet").is_file() else None
    )
    return tv.tv_tables(300, people, companies, 11, REFERENCE_DATE, keywords)


@pytest.fixture(scope="module")
def db(tables, catalogue_dir: Path):
    con = duckdb.connect()
    for name, table in tables.items():
        con.register(name, table)
    con.execute("CREATE VIEW people AS SELECT * FROM read_parquet('" + str(catalogue_dir / "people.parquet") + "')")
    con.execute(
        "CREATE VIEW companies AS SELECT * FROM read_parquet('" + str(catalogue_dir / "companies.parquet") + "')"
    )
    yield con
    con.close()


def test_tables_are_registered_everywhere():
    assert set(tv.TV_TABLES) <= set(TABLES)
    assert set(tv.TV_TABLES) <= set(REQUIRED_TABLES)


def test_default_series_count_and_catalogue_files(catalogue_dir: Path):
    movies = pq.read_metadata(catalogue_dir / "movies.parquet").num_rows
    assert pq.read_metadata(catalogue_dir / "tv_series.parquet").num_rows == max(1, movies // 10)
    for name in tv.TV_TABLES:
        assert (catalogue_dir / f"{name}.parquet").is_file()


def test_series_argument_overrides_the_default(tmp_path: Path):
    counts = generate(tmp_path, 30, 3, series=7)
    assert counts["tv_series"] == 7 and counts["tv_seasons"] >= 7


def test_deterministic(tables, catalogue_dir: Path):
    people = pq.read_table(catalogue_dir / "people.parquet")
    companies = pq.read_table(catalogue_dir / "companies.parquet")
    keywords = (
        pq.read_table(catalogue_dir / "keywords.parquet") if (catalogue_dir / "keywords.parquet").is_file() else None
    )
    again = tv.tv_tables(300, people, companies, 11, REFERENCE_DATE, keywords)
    for name in tv.TV_TABLES:
        assert again[name].equals(tables[name]), name
    other = tv.tv_tables(300, people, companies, 12, REFERENCE_DATE, keywords)
    assert not other["tv_episodes"].equals(tables["tv_episodes"])


def test_real_tmdb_tv_genres(tables):
    got = dict(zip(tables["tv_genres"].column("id").to_pylist(), tables["tv_genres"].column("name").to_pylist()))
    assert got[10759] == "Action & Adventure" and got[10765] == "Sci-Fi & Fantasy" and got[37] == "Western"
    assert len(got) == 16
    assert set(tables["series_genres"].column("genre_id").to_pylist()) <= set(got)


def test_season_and_episode_shapes(db):
    bad = db.execute("""
        SELECT s.id FROM tv_series s
        JOIN (SELECT series_id, count(*) FILTER (WHERE season_number > 0) AS n, max(season_number) AS top
              FROM tv_seasons GROUP BY series_id) se ON se.series_id = s.id
        WHERE se.n NOT BETWEEN 1 AND 15 OR se.top <> se.n""").fetchall()
    assert bad == []
    counts = db.execute("""SELECT count(*) AS n, max(episode_number) AS top FROM tv_episodes
                           WHERE season_number > 0 GROUP BY series_id, season_number""").fetchall()
    assert all(6 <= n <= 24 and top == n for n, top in counts)
    # Every season row has episodes, every episode belongs to a season row.
    orphans = db.execute("""SELECT count(*) FROM tv_episodes e LEFT JOIN tv_seasons s
                            ON s.series_id = e.series_id AND s.season_number = e.season_number
                            WHERE s.id IS NULL""").fetchone()[0]
    assert orphans == 0
    assert db.execute("SELECT count(*) FROM tv_seasons WHERE season_number = 0").fetchone()[0] > 0
    # Episodes of a regular season air weekly, and seasons follow each other.
    gaps = db.execute("""SELECT DISTINCT air_date - lag(air_date) OVER (PARTITION BY series_id, season_number
                                                                        ORDER BY episode_number)
                         FROM tv_episodes WHERE season_number > 0""").fetchall()
    assert {g for (g,) in gaps if g is not None} == {7}


def test_status_agrees_with_air_dates(db):
    ref = REF
    rows = db.execute(
        """
        SELECT s.status, s.first_air_date, s.last_episode_id, s.next_episode_id,
               count(*) FILTER (WHERE e.air_date > ?) AS future, count(*) FILTER (WHERE e.air_date <= ?) AS aired
        FROM tv_series s JOIN tv_episodes e ON e.series_id = s.id AND e.season_number > 0
        GROUP BY ALL""",
        [ref, ref],
    ).fetchall()
    for status, first, last_id, next_id, future, aired in rows:
        if status in ("Ended", "Canceled"):
            assert future == 0 and next_id is None and last_id is not None
        elif status in ("Planned", "In Production"):
            assert aired == 0 and first > ref and last_id is None and next_id is not None
        else:
            assert aired > 0 and last_id is not None
        assert (next_id is None) == (future == 0)
    assert {r[0] for r in rows} == {s for s, _ in tv_vocab.STATUSES}


def test_last_and_next_episode_are_the_nearest_to_the_reference_date(db):
    rows = db.execute(
        """
        SELECT s.id, s.last_episode_id, s.next_episode_id, s.last_air_date,
               (SELECT id FROM tv_episodes e WHERE e.series_id = s.id AND e.season_number > 0 AND e.air_date <= ?
                ORDER BY air_date DESC, season_number DESC, episode_number DESC LIMIT 1),
               (SELECT air_date FROM tv_episodes e WHERE e.series_id = s.id AND e.season_number > 0
                AND e.air_date <= ? ORDER BY air_date DESC LIMIT 1),
               (SELECT id FROM tv_episodes e WHERE e.series_id = s.id AND e.season_number > 0 AND e.air_date > ?
                ORDER BY air_date, season_number, episode_number LIMIT 1)
        FROM tv_series s""",
        [REF, REF, REF],
    ).fetchall()
    for _, last_id, next_id, last_air, want_last, want_air, want_next in rows:
        assert (last_id, next_id, last_air) == (want_last, want_next, want_air)
    assert any(n is not None and last is not None for _, last, n, *_ in rows)  # some are mid-season


def test_references_resolve(db):
    assert (
        db.execute("""SELECT count(*) FROM (SELECT person_id FROM series_cast UNION ALL SELECT person_id FROM created_by
                         UNION ALL SELECT person_id FROM series_crew UNION ALL SELECT person_id FROM episode_crew
                         UNION ALL SELECT person_id FROM episode_guest_stars)
                         WHERE person_id NOT IN (SELECT id FROM people)""").fetchone()[0]
        == 0
    )
    assert (
        db.execute(
            "SELECT count(*) FROM series_companies WHERE company_id NOT IN (SELECT id FROM companies)"
        ).fetchone()[0]
        == 0
    )
    assert (
        db.execute("SELECT count(*) FROM series_networks WHERE network_id NOT IN (SELECT id FROM networks)").fetchone()[
            0
        ]
        == 0
    )
    assert (
        db.execute(
            "SELECT count(*) FROM series_keywords WHERE keyword_id NOT IN (SELECT id FROM tv_keywords)"
        ).fetchone()[0]
        == 0
    )


def test_keywords_reuse_the_movie_keyword_table(tables, catalogue_dir: Path):
    path = catalogue_dir / "keywords.parquet"
    if not path.is_file():
        pytest.skip("no movie keywords table in this catalogue")
    movie_keywords = pq.read_table(path)
    known = dict(zip(movie_keywords.column("id").to_pylist(), movie_keywords.column("name").to_pylist()))
    tv_keywords = tables["tv_keywords"]
    for kid, name in zip(tv_keywords.column("id").to_pylist(), tv_keywords.column("name").to_pylist()):
        assert known[kid] == name


def test_credit_ids_are_unique_and_crew_credits_are_per_series_job(db, catalogue_dir: Path):
    ids = db.execute("""SELECT credit_id FROM series_cast UNION ALL SELECT credit_id FROM created_by
                        UNION ALL SELECT credit_id FROM series_crew UNION ALL SELECT credit_id FROM episode_guest_stars
                        UNION ALL SELECT DISTINCT credit_id FROM episode_crew""").fetchall()
    flat = [i for (i,) in ids]
    assert len(flat) == len(set(flat)) and all(len(i) == 24 for i in flat)
    movie = set(pq.read_table(catalogue_dir / "cast.parquet").column("credit_id").to_pylist())
    assert not movie & set(flat)
    # One credit per (series, person, job), shared by all the episodes they work on.
    assert (
        db.execute("""SELECT count(*) FROM (SELECT credit_id FROM episode_crew GROUP BY credit_id
                         HAVING count(DISTINCT (series_id, person_id, job)) > 1)""").fetchone()[0]
        == 0
    )
    assert (
        db.execute("SELECT max(n) FROM (SELECT count(*) AS n FROM episode_crew GROUP BY credit_id)").fetchone()[0] > 1
    )


def test_regulars_and_guests(db):
    bad = db.execute("""SELECT count(*) FROM series_cast sc JOIN tv_series s ON s.id = sc.series_id
                        JOIN (SELECT series_id, max(season_number) AS n FROM tv_seasons GROUP BY ALL) se
                          ON se.series_id = s.id
                        WHERE sc.first_season < 1 OR sc.last_season > se.n OR sc.first_season > sc.last_season""").fetchone()
    assert bad[0] == 0
    orders = db.execute(
        """SELECT list("order" ORDER BY "order") FROM episode_guest_stars GROUP BY episode_id"""
    ).fetchall()
    assert all(o == list(range(len(o))) for (o,) in orders)
    assert (
        db.execute(f"""SELECT count(*) FROM episode_guest_stars g JOIN tv_episodes e ON e.id = g.episode_id
                          WHERE e.air_date > DATE '{REF}'""").fetchone()[0]
        == 0
    )


def test_content_ratings_use_each_country_system(tables):
    t = tables["series_content_ratings"]
    for country, rating in zip(t.column("iso_3166_1").to_pylist(), t.column("rating").to_pylist()):
        assert rating in tv_vocab.CONTENT_RATINGS[country]


def test_generation_is_vectorised_enough(catalogue_dir: Path):
    import time

    people = pq.read_table(catalogue_dir / "people.parquet")
    companies = pq.read_table(catalogue_dir / "companies.parquet")
    started = time.perf_counter()
    big = tv.tv_tables(3000, people, companies, 5, REFERENCE_DATE)
    assert time.perf_counter() - started < 10
    assert big["tv_episodes"].num_rows > 3000 * 8
    assert np.all(np.diff(big["tv_series"].column("id").to_numpy()) > 0)


def test_cli_series_option(tmp_path: Path):
    from click.testing import CliRunner

    from control.cli import cli

    out = tmp_path / "cat"
    result = CliRunner().invoke(
        cli,
        ["generate", "--movies", "20", "--series", "4", "--out", str(out)],
        env={"MARQUEE_HOME": str(tmp_path / "home")},
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "tv_series 4" in result.output
    assert pq.read_metadata(out / "tv_series.parquet").num_rows == 4
