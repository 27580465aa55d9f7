"""marquee_datasets.merge: a TMDB crawl and IMDb's dumps (the fixtures of their importers' tests)
merged by IMDb id, both ways round: the base's data first, the other's filling what it lacks, new
titles added under ids that do not collide, and the result builds."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from control.cli import cli
from marquee.packs import Pack
from marquee.settings import from_env, to_env
from marquee_build.catalogue import check_catalogue
from marquee_datasets import imdb_tsv, merge, tmdb_jsonl
from marquee_datasets.importing import ImportFailed, id_space
from tests.test_datasets_imdb_tsv import dumps  # noqa: F401 (a fixture)
from tests.test_datasets_tmdb_jsonl import HAMILL, STAR_WARS, crawl  # noqa: F401 (a fixture)


def rows(catalogue: Path, table: str) -> list[dict]:
    return pq.read_table(catalogue / f"{table}.parquet").to_pylist()


def imports(crawl: list[Path], dumps: Path, tmp_path: Path) -> tuple[Path, Path]:
    tmdb_jsonl.import_files(crawl, tmp_path / "tmdb")
    imdb_tsv.import_dir(dumps, tmp_path / "imdb")
    return tmp_path / "tmdb", tmp_path / "imdb"


def test_imdbs_dumps_merged_into_a_crawl(crawl: list[Path], dumps: Path, tmp_path: Path):  # noqa: F811
    tmdb, imdb = imports(crawl, dumps, tmp_path)
    summary = merge.merge(imdb, tmdb)
    check_catalogue(tmdb)
    assert id_space(tmdb) == "tmdb"
    movies = {m["id"]: m for m in rows(tmdb, "movies")}
    assert set(movies) == {11, 211915, 9}  # Star Wars is the crawl's 11, not IMDb's 76759
    assert (
        movies[11]["runtime"] == 121 and movies[11]["budget"] == 11000000 and movies[211915]["imdb_id"] == "tt0211915"
    )
    assert {(r["movie_id"], r["source"], r["value"]) for r in rows(tmdb, "movie_ratings")} == {
        (11, "imdb", 8.6),
        (211915, "imdb", 8.3),
    }  # the crawl had none: IMDb's
    assert [(c["movie_id"], c["person_id"]) for c in rows(tmdb, "cast")] == [(11, 2)]  # the crawl's cast stays
    titles = {(t["movie_id"], t["iso_639_1"]): t["title"] for t in rows(tmdb, "movie_translations")}
    assert titles[(11, "de")] == "Krieg der Sterne" and (11, "fr") not in titles  # the crawl's translations
    assert titles[(211915, "en")] == "Amélie"
    people = {p["id"]: p for p in rows(tmdb, "people")}
    assert 434 not in people and people[2]["imdb_id"] == "nm0000434"  # Mark Hamill, by IMDb id
    assert {402, 184, 410220} <= set(people)  # IMDb's other people, added
    assert {(c["movie_id"], c["person_id"], c["job"]) for c in rows(tmdb, "crew")} >= {
        (11, 1, "Director"),
        (211915, 410220, "Director"),
    }
    assert {s["id"] for s in rows(tmdb, "tv_series")} == {1399, 903747}
    episodes = {(e["series_id"], e["season_number"], e["episode_number"]) for e in rows(tmdb, "tv_episodes")}
    assert {(903747, 1, 1), (903747, 1, 2), (1399, 1, 1)} <= episodes
    assert "movies: 1 matched (the base's, filled in from imdb), 2 added" in summary.notes


def test_a_crawl_merged_into_imdbs_dumps_fills_what_imdb_lacks(
    crawl: list[Path],
    dumps: Path,  # noqa: F811
    tmp_path: Path,
):
    tmdb, imdb = imports(crawl, dumps, tmp_path)
    merge.merge(tmdb, imdb)
    movies = {m["id"]: m for m in rows(imdb, "movies")}
    assert set(movies) == {76759, 211915, 9}
    star_wars = movies[76759]
    assert str(star_wars["release_date"]) == "1977-05-25" and star_wars["budget"] == 11000000  # IMDb has no dates
    assert star_wars["runtime"] == 121 and star_wars["collection_id"] == 10
    assert {(k["movie_id"], k["keyword_id"]) for k in rows(imdb, "movie_keywords")} == {(76759, 803)}
    assert [c["name"] for c in rows(imdb, "collections")] == ["Star Wars Collection"]
    cast = {(c["movie_id"], c["person_id"], c["character"]) for c in rows(imdb, "cast")}
    assert (76759, 434, "Luke Skywalker") in cast and (76759, 402, "Princess Leia Organa") in cast  # IMDb's cast
    assert not any(c[1] == 2 for c in cast)  # the crawl's Hamill is IMDb's 434
    seasons = {(s["series_id"], s["season_number"]): s["id"] for s in rows(imdb, "tv_seasons")}
    assert seasons[(1399, 1)] == 3624 and (903747, 1) in seasons


def test_an_id_the_base_uses_for_another_title_is_offset(crawl: list[Path], dumps: Path, tmp_path: Path):  # noqa: F811
    imdb_tsv.import_dir(dumps, tmp_path / "imdb")
    nine = dict(
        STAR_WARS,
        id=9,
        imdb_id="tt7777777",
        title="Nine",
        original_title="Nine",
        external_ids={"imdb_id": "tt7777777"},
        belongs_to_collection=None,
    )
    documents = tmp_path / "nine.jsonl"
    documents.write_text(json.dumps(nine) + "\n" + json.dumps(HAMILL) + "\n")
    tmdb_jsonl.import_files([documents], tmp_path / "nine")
    merge.merge(tmp_path / "nine", tmp_path / "imdb")
    movies = {m["id"]: m["original_title"] for m in rows(tmp_path / "imdb", "movies")}
    moved = 9 + merge.ID_OFFSET
    assert movies[9] == "Miss Jerry" and movies[moved] == "Nine"
    assert {(c["movie_id"], c["person_id"]) for c in rows(tmp_path / "imdb", "cast") if c["movie_id"] == moved} == {
        (moved, 434)
    }  # its cast follows it, Hamill matched by IMDb id


def test_a_catalogue_merged_into_itself_is_unchanged(crawl: list[Path], tmp_path: Path):  # noqa: F811
    tmdb_jsonl.import_files(crawl, tmp_path / "a")
    tmdb_jsonl.import_files(crawl, tmp_path / "b")
    merge.merge(tmp_path / "b", tmp_path / "a")
    for table in (
        "movies",
        "people",
        "cast",
        "tv_series",
        "tv_seasons",
        "tv_episodes",
        "episode_guest_stars",
        "movie_translations",
        "companies",
        "genres",
    ):
        assert sorted(map(orjson.dumps, rows(tmp_path / "a", table))) == sorted(
            map(orjson.dumps, rows(tmp_path / "b", table))
        ), table


def test_a_merged_catalogue_builds_and_serves_both(crawl: list[Path], dumps: Path, tmp_path: Path):  # noqa: F811
    from site_gen.release import render_release

    tmdb, imdb = imports(crawl, dumps, tmp_path)
    merge.merge(imdb, tmdb)
    settings = from_env({"MARQUEE_HOME": str(tmp_path / "home")})
    release = settings.releases_dir / "merged"
    render_release(settings, tmdb, release, echo=None)  # every document validated
    with Pack(release) as pack:
        assert orjson.loads(pack.get("3/movie/11.json"))["title"] == "Star Wars"
        assert orjson.loads(pack.get("3/movie/211915.json"))["original_title"] == "Le fabuleux destin d'Amélie Poulain"
        title = orjson.loads(pack.get("compat/movie/11.json"))  # the crawl's film with IMDb's rating
        assert (title["imdbID"], title["imdbRating"], title["Runtime"]) == ("tt0076759", "8.6", "121 min")
        assert [e["name"] for e in orjson.loads(pack.get("3/tv/903747/season/1.json"))["episodes"]] == [
            "Pilot",
            "Cat's in the Bag...",
        ]


def test_a_folder_that_is_no_catalogue_is_refused(crawl: list[Path], tmp_path: Path):  # noqa: F811
    tmdb_jsonl.import_files(crawl, tmp_path / "a")
    (tmp_path / "b").mkdir()
    with gzip.open(tmp_path / "b" / "movies.parquet", "wb") as f:
        f.write(b"not parquet")
    before = sorted(p.name for p in (tmp_path / "a").iterdir())
    with pytest.raises(ImportFailed, match="movies"):
        merge.merge(tmp_path / "b", tmp_path / "a")
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == before


def test_the_command_merges_into_the_catalogue_and_reports(crawl: list[Path], dumps: Path, tmp_path: Path):  # noqa: F811
    settings = from_env({"MARQUEE_HOME": str(tmp_path / "home")})
    tmdb_jsonl.import_files(crawl, settings.catalogue_dir)
    imdb_tsv.import_dir(dumps, tmp_path / "imdb")
    result = CliRunner().invoke(cli, ["import", "merge", str(tmp_path / "imdb")], env=to_env(settings))
    assert result.exit_code == 0, result.output
    assert "movies: 1 matched (the base's, filled in from imdb), 2 added" in result.output
    assert "people: 1 matched" in result.output
    assert {m["id"] for m in rows(settings.catalogue_dir, "movies")} == {11, 211915, 9}


def test_two_generated_catalogues_merge_with_every_reference_resolved(tmp_path: Path):
    import duckdb

    from marquee_build.contract import images_generated
    from marquee_datasets.synthetic import generate

    generate(tmp_path / "a", 60, 1)
    generate(tmp_path / "b", 60, 2)
    merge.merge(tmp_path / "b", tmp_path / "a")
    check_catalogue(tmp_path / "a")
    assert images_generated(tmp_path / "a")  # both sides' image paths are still drawn, not refused
    con = duckdb.connect()
    read = lambda table: f"read_parquet('{tmp_path / 'a' / table}.parquet')"  # noqa: E731
    for table, column, target in (
        ("reviews", "media_id", "movies"),
        ("cast", "movie_id", "movies"),
        ("cast", "person_id", "people"),
        ("tv_episodes", "series_id", "tv_series"),
        ("episode_guest_stars", "episode_id", "tv_episodes"),
    ):
        where = "WHERE media_type = 'movie'" if table == "reviews" else ""
        dangling = con.sql(
            f"SELECT count(*) FROM (SELECT {column} FROM {read(table)} {where}) "
            f"WHERE {column} NOT IN (SELECT id FROM {read(target)})"
        ).fetchall()[0][0]
        assert dangling == 0, (table, column)
    moved = con.sql(f"SELECT count(*) FROM {read('reviews')} WHERE media_id > {merge.ID_OFFSET}").fetchall()[0][0]
    assert moved > 0  # the second catalogue's films took ids the first uses, their reviews with them
