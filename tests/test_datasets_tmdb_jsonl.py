"""marquee_datasets.tmdb_jsonl: TMDB API documents one a line (and ID export lines) into a catalogue
that builds and validates, with broken and unknown lines reported, nothing invented."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from marquee.packs import Pack
from marquee.settings import from_env
from marquee_build.catalogue import check_catalogue
from marquee_datasets import tmdb_jsonl

STAR_WARS = {
    "adult": False, "backdrop_path": "/b.jpg", "belongs_to_collection": {"id": 10, "name": "Star Wars Collection",
                                                                         "poster_path": "/p.jpg", "backdrop_path": None},
    "budget": 11000000, "genres": [{"id": 12, "name": "Adventure"}, {"id": 28, "name": "Action"}],
    "homepage": "http://www.starwars.com", "id": 11, "imdb_id": "tt0076759", "origin_country": ["US"],
    "original_language": "en", "original_title": "Star Wars", "overview": "Princess Leia is captured.",
    "popularity": 78.1, "poster_path": "/6FfC.jpg",
    "production_companies": [{"id": 1, "logo_path": "/o86.png", "name": "Lucasfilm Ltd.", "origin_country": "US"}],
    "production_countries": [{"iso_3166_1": "US", "name": "United States of America"}],
    "release_date": "1977-05-25", "revenue": 775398007, "runtime": 121,
    "spoken_languages": [{"english_name": "English", "iso_639_1": "en", "name": "English"}], "status": "Released",
    "tagline": "A long time ago...", "title": "Star Wars", "video": False, "vote_average": 8.2, "vote_count": 20000,
    "credits": {"cast": [{"adult": False, "gender": 2, "id": 2, "known_for_department": "Acting", "name": "Mark Hamill",
                          "popularity": 20.1, "cast_id": 3, "character": "Luke Skywalker", "credit_id": "52fe", "order": 0}],
                "crew": [{"adult": False, "gender": 2, "id": 1, "known_for_department": "Directing",
                          "name": "George Lucas", "credit_id": "52fd", "department": "Directing", "job": "Director"}]},
    "keywords": {"keywords": [{"id": 803, "name": "android"}]},
    "external_ids": {"imdb_id": "tt0076759", "wikidata_id": "Q17738", "facebook_id": None},
    "release_dates": {"results": [{"iso_3166_1": "US", "release_dates": [
        {"certification": "PG", "descriptors": [], "iso_639_1": "", "note": "", "release_date": "1977-05-25T00:00:00.000Z",
         "type": 3}]}]},
    "videos": {"results": [{"iso_639_1": "en", "iso_3166_1": "US", "name": "Trailer", "key": "vZ734NWnAHA",
                            "site": "YouTube", "size": 1080, "type": "Trailer", "official": True,
                            "published_at": "2021-04-14T15:00:21.000Z", "id": "60770a"}]},
    "translations": {"translations": [{"iso_3166_1": "DE", "iso_639_1": "de", "data": {
        "homepage": "", "overview": "Prinzessin Leia ...", "tagline": "", "title": "Krieg der Sterne"}}]},
}
HAMILL = {"adult": False, "also_known_as": ["Марк Хэмилл"], "biography": "Mark Hamill is an actor.",
          "birthday": "1951-09-25", "deathday": None, "gender": 2, "id": 2, "imdb_id": "nm0000434",
          "known_for_department": "Acting", "name": "Mark Hamill", "place_of_birth": "Oakland", "popularity": 20.1}


@pytest.fixture
def crawl(tmp_path: Path) -> list[Path]:
    documents = tmp_path / "crawl.jsonl.gz"
    with gzip.open(documents, "wt", encoding="utf-8") as f:
        for line in (STAR_WARS, HAMILL, {"id": 1399, "name": "Game of Thrones", "first_air_date": "2011-04-17"},
                     {"id": "x", "title": "broken"}):
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
        f.write("{not json\n[1, 2]\n\n")
    export = tmp_path / "movie_ids_11_25_2026.json"
    export.write_text('{"adult":false,"id":11,"original_title":"Star Wars","popularity":99.5,"video":false}\n'
                      '{"adult":false,"id":12,"original_title":"Finding Nemo","popularity":50.2,"video":false}\n')
    return [documents, export]


def test_films_and_people_import_and_broken_lines_are_reported(crawl: list[Path], tmp_path: Path):
    target = tmp_path / "catalogue"
    summary = tmdb_jsonl.import_files(crawl, target)
    check_catalogue(target)
    movies = pq.read_table(target / "movies.parquet").to_pylist()
    assert [(m["id"], m["imdb_id"], m["runtime"], m["collection_id"]) for m in movies] == [(11, "tt0076759", 121, 10)]
    assert movies[0]["popularity"] == 99.5  # the ID export's daily popularity
    assert movies[0]["poster_path"] is None  # no original to serve it from
    titles = {(t["iso_639_1"], t["iso_3166_1"]): t["title"] for t in pq.read_table(target / "movie_translations.parquet").to_pylist()}
    assert titles == {("en", "US"): "Star Wars", ("de", "DE"): "Krieg der Sterne"}
    people = {p["id"]: p for p in pq.read_table(target / "people.parquet").to_pylist()}
    assert people[2]["imdb_id"] == "nm0000434" and people[1]["name"] == "George Lucas"  # a document, and a credit
    assert pq.read_table(target / "cast.parquet").to_pylist()[0]["character"] == "Luke Skywalker"
    assert summary.skipped == [("crawl.jsonl.gz", 3, "a TV document (not imported yet)"),
                               ("crawl.jsonl.gz", 4, "no numeric id"), ("crawl.jsonl.gz", 5, "not JSON"),
                               ("crawl.jsonl.gz", 6, "not a JSON object")]
    assert any("1 films listed in an ID export" in note for note in summary.notes)
    assert summary.read == 8


def test_an_imported_crawl_builds_and_its_documents_are_tmdbs(crawl: list[Path], tmp_path: Path):
    from site_gen.release import render_release

    settings = from_env({"MARQUEE_HOME": str(tmp_path / "home")})
    tmdb_jsonl.import_files(crawl, settings.catalogue_dir)
    release = settings.releases_dir / "crawl"
    render_release(settings, settings.catalogue_dir, release, echo=None)  # every document validated
    with Pack(release) as pack:
        details = orjson.loads(pack.get("3/movie/11.json"))
        assert (details["title"], details["imdb_id"], details["runtime"], details["budget"]) == \
            ("Star Wars", "tt0076759", 121, 11000000)
        assert [g["name"] for g in details["genres"]] == ["Adventure", "Action"]
        assert orjson.loads(pack.get("3/movie/11.de-DE.json"))["title"] == "Krieg der Sterne"
        credits = orjson.loads(pack.get("3/movie/11/credits.json"))
        assert (credits["cast"][0]["name"], credits["cast"][0]["character"]) == ("Mark Hamill", "Luke Skywalker")
        assert orjson.loads(pack.get("3/person/2.json"))["biography"] == "Mark Hamill is an actor."
        dates = orjson.loads(pack.get("3/movie/11/release_dates.json"))["results"]
        assert dates[0]["release_dates"][0]["certification"] == "PG"
        assert pack.get("3/movie/12.json") is None  # known from the export alone
