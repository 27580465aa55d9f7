"""marquee_datasets.imdb_tsv: IMDb's dumps into a catalogue, on dumps written here with `\\N`, quotes,
unicode, IMDb-only genres, TV and a truncated line."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from edge.discover_index import DiscoverIndex
from edge.routes.discover import matches_for
from edge.search_index import Filters, SearchIndex
from marquee.artefacts import DISCOVER_INDEX, SEARCH_INDEX
from marquee.packs import Pack
from marquee.settings import from_env
from marquee_build.catalogue import check_catalogue
from marquee_datasets import imdb_tsv
from marquee_datasets.importing import ImportFailed

N = "\\N"


def dump(folder: Path, name: str, header: list[str], rows: list[list[str]], tail: str = "") -> None:
    with gzip.open(folder / name, "wt", encoding="utf-8") as f:
        f.write("\t".join(header) + "\n" + "".join("\t".join(row) + "\n" for row in rows) + tail)


@pytest.fixture
def dumps(tmp_path: Path) -> Path:
    folder = tmp_path / "imdb"
    folder.mkdir()
    dump(
        folder,
        "title.basics.tsv.gz",
        list(imdb_tsv.COLUMNS["basics"]),
        [
            ["tt0076759", "movie", "Star Wars", "Star Wars", "0", "1977", N, "121", "Action,Adventure,Sci-Fi"],
            [
                "tt0211915",
                "movie",
                "Amélie",
                "Le fabuleux destin d'Amélie Poulain",
                "0",
                "2001",
                N,
                "122",
                "Comedy,Romance",
            ],
            ["tt0903747", "tvSeries", "Breaking Bad", "Breaking Bad", "0", "2008", "2013", "49", "Crime,Drama"],
            ["tt0000009", "video", 'Miss "Jerry"', "Miss Jerry", "0", "1894", N, N, "Biography,Romance"],
            ["tt9999999", "short", "A short", "A short", "0", "2020", N, N, N],
            ["tt0959621", "tvEpisode", "Pilot", "Pilot", "0", "2008", N, "58", "Drama"],
            ["tt1054724", "tvEpisode", "Cat's in the Bag...", "Cat's in the Bag...", "0", "2008", N, "48", "Drama"],
            ["tt9000001", "tvEpisode", "Unnumbered", "Unnumbered", "0", "2009", N, N, N],
        ],
        tail="tt_broken\tmovie\tonly three\n",
    )
    dump(
        folder,
        "title.episode.tsv.gz",
        list(imdb_tsv.COLUMNS["episodes"]),
        [["tt0959621", "tt0903747", "1", "1"], ["tt1054724", "tt0903747", "1", "2"], ["tt9000001", "tt0903747", N, N]],
    )
    dump(
        folder,
        "title.akas.tsv.gz",
        list(imdb_tsv.COLUMNS["akas"]),
        [
            ["tt0076759", "1", "Krieg der Sterne", "DE", N, "imdbDisplay", N, "0"],
            ["tt0076759", "2", "La guerre des étoiles", "FR", "fr", "imdbDisplay", N, "0"],
            ["tt0076759", "3", "Star Wars", N, N, "original", N, "1"],
        ],
    )
    dump(
        folder,
        "title.ratings.tsv.gz",
        list(imdb_tsv.COLUMNS["ratings"]),
        [["tt0076759", "8.6", "1500000"], ["tt0211915", "8.3", "800000"]],
    )
    dump(
        folder,
        "title.crew.tsv.gz",
        list(imdb_tsv.COLUMNS["crew"]),
        [["tt0211915", "nm0410220", "nm0410220,nm0001234"], ["tt0959621", "nm0319213", "nm0319213"]],
    )
    dump(
        folder,
        "title.principals.tsv.gz",
        list(imdb_tsv.COLUMNS["principals"]),
        [
            ["tt0076759", "1", "nm0000434", "actor", N, '["Luke Skywalker"]'],
            ["tt0076759", "2", "nm0000402", "actress", N, '["Princess Leia Organa"]'],
            ["tt0076759", "3", "nm0000184", "director", N, N],
            ["tt0903747", "1", "nm0186505", "actor", N, '["Walter White"]'],
            ["tt0903747", "2", "nm0319213", "producer", N, N],
            ["tt0959621", "1", "nm0186505", "actor", N, '["Walter White"]'],
            ["tt0959621", "2", "nm0000434", "actor", N, '["A Guest"]'],
        ],
    )
    dump(
        folder,
        "name.basics.tsv.gz",
        list(imdb_tsv.COLUMNS["names"]),
        [
            ["nm0000434", "Mark Hamill", "1951", N, "actor,writer", "tt0076759"],
            ["nm0000402", "Carrie Fisher", "1956", "2016", "actress,writer", "tt0076759"],
            ["nm0000184", "George Lucas", "1944", N, "producer,writer,director", "tt0076759"],
            ["nm0410220", "Jean-Pierre Jeunet", "1953", N, "director,writer", "tt0211915"],
            ["nm0186505", "Bryan Cranston", "1956", N, "actor,producer", "tt0903747"],
            ["nm0319213", "Vince Gilligan", "1967", N, "writer,producer,director", "tt0903747"],
        ],
    )
    return folder


def test_films_people_ratings_and_akas(dumps: Path, tmp_path: Path):
    target = tmp_path / "catalogue"
    heard: list[str] = []
    summary = imdb_tsv.import_dir(dumps, target, status=heard.append)
    check_catalogue(target)
    assert heard[0] == "reading title.basics.tsv.gz" and "writing movies" in heard  # a terminal's status line
    movies = {m["id"]: m for m in pq.read_table(target / "movies.parquet").to_pylist()}
    assert set(movies) == {76759, 211915, 9} and movies[76759]["imdb_id"] == "tt0076759"
    assert movies[9]["video"] and movies[9]["runtime"] == 0 and movies[76759]["release_date"] is None
    assert movies[76759]["popularity"] > movies[211915]["popularity"] > movies[9]["popularity"] == 0  # by votes
    titles = {
        (t["movie_id"], t["iso_639_1"], t["iso_3166_1"]): t["title"]
        for t in pq.read_table(target / "movie_translations.parquet").to_pylist()
    }
    assert titles[(76759, "de", "DE")] == "Krieg der Sterne" and titles[(76759, "fr", "FR")] == "La guerre des étoiles"
    assert titles[(9, "en", "US")] == 'Miss "Jerry"'
    genres = {(g["movie_id"], g["genre_id"]) for g in pq.read_table(target / "movie_genres.parquet").to_pylist()}
    assert (
        (76759, 878) in genres and (9, 10749) in genres and len([g for g in genres if g[0] == 9]) == 1
    )  # no Biography
    crew = {(c["movie_id"], c["person_id"], c["job"]) for c in pq.read_table(target / "crew.parquet").to_pylist()}
    assert (76759, 184, "Director") in crew and (211915, 410220, "Writer") in crew
    assert (211915, 1234, "Writer") not in crew  # not in name.basics: nothing invented
    ratings = pq.read_table(target / "movie_ratings.parquet").to_pylist()
    assert {(r["movie_id"], r["source"], r["value"], r["votes"]) for r in ratings} == {
        (76759, "imdb", 8.6, 1500000),
        (211915, "imdb", 8.3, 800000),
    }
    assert [(s[1], s[2].split(":")[0]) for s in summary.skipped] == [(10, "Expected Number of Columns")]
    series = pq.read_table(target / "tv_series.parquet").to_pylist()
    assert [(s["id"], s["imdb_id"], s["status"], s["episode_run_time"]) for s in series] == [
        (903747, "tt0903747", "Ended", [49])
    ]
    episodes = sorted(
        (e["id"], e["season_number"], e["episode_number"], e["name"])
        for e in pq.read_table(target / "tv_episodes.parquet").to_pylist()
    )
    assert episodes == [(959621, 1, 1, "Pilot"), (1054724, 1, 2, "Cat's in the Bag...")]
    assert any("1 episodes without a season" in note for note in summary.notes)
    assert [
        (c["series_id"], c["person_id"], c["character"], c["first_season"], c["last_season"])
        for c in pq.read_table(target / "series_cast.parquet").to_pylist()
    ] == [(903747, 186505, "Walter White", 1, 1)]
    assert [(c["person_id"], c["job"]) for c in pq.read_table(target / "series_crew.parquet").to_pylist()] == [
        (319213, "Producer")
    ]
    assert sorted(
        (c["episode_id"], c["person_id"], c["job"]) for c in pq.read_table(target / "episode_crew.parquet").to_pylist()
    ) == [(959621, 319213, "Director"), (959621, 319213, "Writer")]
    assert [
        (g["episode_id"], g["person_id"], g["character"])
        for g in pq.read_table(target / "episode_guest_stars.parquet").to_pylist()
    ] == [(959621, 434, "A Guest")]  # not the regular


def test_an_imdb_catalogue_builds_and_serves_both_dialects_documents(dumps: Path, tmp_path: Path):
    from site_gen.release import render_release

    settings = from_env({"MARQUEE_HOME": str(tmp_path / "home")})
    imdb_tsv.import_dir(dumps, settings.catalogue_dir)
    release = settings.releases_dir / "imdb"
    render_release(settings, settings.catalogue_dir, release, echo=None)
    with Pack(release) as pack:
        assert orjson.loads(pack.get("3/movie/76759.de-DE.json"))["title"] == "Krieg der Sterne"
        cast = orjson.loads(pack.get("3/movie/76759/credits.json"))["cast"]
        assert [(c["name"], c["character"]) for c in cast] == [
            ("Mark Hamill", "Luke Skywalker"),
            ("Carrie Fisher", "Princess Leia Organa"),
        ]
        season = orjson.loads(pack.get("3/tv/903747/season/1.json"))
        assert [e["name"] for e in season["episodes"]] == ["Pilot", "Cat's in the Bag..."]
        assert [(g["name"], g["character"]) for g in season["episodes"][0]["guest_stars"]] == [
            ("Mark Hamill", "A Guest")
        ]
        assert [c["name"] for c in orjson.loads(pack.get("3/tv/903747/credits.json"))["cast"]] == ["Bryan Cranston"]
        assert [g["name"] for g in orjson.loads(pack.get("3/tv/903747.json"))["genres"]] == ["Crime", "Drama"]
        title = orjson.loads(pack.get("compat/movie/76759.json"))  # an IMDb import answers OMDb's i= at once
        assert (title["imdbID"], title["imdbRating"], title["Director"]) == ("tt0076759", "8.6", "George Lucas")
        # IMDb gives years, not dates: TMDB's date stays unknown, OMDb's Year and search's year filters have them.
        assert title["Year"] == "1977" and not orjson.loads(pack.get("3/movie/76759.json"))["release_date"]
        assert orjson.loads(pack.get("compat/series/903747.json"))["Year"] == "2008–2013"
        assert orjson.loads(pack.get("compat/episode/903747/959621.json"))["Year"] == "2008"
    index = SearchIndex(release / SEARCH_INDEX)
    try:
        assert index.page(("movie",), "star wars", Filters(years=("y1977",)), 1)[0] == [("movie", 76759)]
        assert index.page(("movie",), "star wars", Filters(years=("y1978",)), 1)[0] == []
        assert index.page(("tv",), "breaking", Filters(years=("y2008",)), 1)[0] == [("tv", 903747)]
        assert index.page(("tv",), "breaking", Filters(years=("r2009",)), 1)[0] == []  # no episode aired then
    finally:
        index.close()
    discover = DiscoverIndex(release / DISCOVER_INDEX)
    try:  # and so do discover's: of the two films, one is from 1977, the other from 2001
        for name in ("primary_release_year", "year"):
            assert [len(matches_for(discover, "movie", {name: y})) for y in ("1977", "1978", "2001")] == [1, 0, 1]
        assert [len(matches_for(discover, "tv", {"first_air_date_year": y})) for y in ("2008", "2009")] == [1, 0]
    finally:
        discover.close()


def test_a_folder_without_title_basics_is_refused(tmp_path: Path):
    with pytest.raises(ImportFailed, match="title.basics"):
        imdb_tsv.import_dir(tmp_path, tmp_path / "catalogue")
