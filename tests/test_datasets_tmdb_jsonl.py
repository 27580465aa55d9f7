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

# fmt: off
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
    "reviews": {"page": 1, "results": [{"author": "talisencrw", "author_details": {"name": "", "username": "talisencrw",
                "avatar_path": "/a.jpg", "rating": 9.0}, "content": "A classic.", "created_at": "2016-08-04T14:58:27.634Z",
                "id": "57a3562e9251410cc7004ce8", "updated_at": "2021-06-23T15:57:51.316Z",
                "url": "https://www.themoviedb.org/review/57a3562e9251410cc7004ce8"}], "total_pages": 1, "total_results": 1},
}
# fmt: on
# fmt: off
HAMILL = {"adult": False, "also_known_as": ["Марк Хэмилл"], "biography": "Mark Hamill is an actor.",
          "birthday": "1951-09-25", "deathday": None, "gender": 2, "id": 2, "imdb_id": "nm0000434",
          "known_for_department": "Acting", "name": "Mark Hamill", "place_of_birth": "Oakland", "popularity": 20.1}
# fmt: on


# fmt: off
THRONES = {"id": 1399, "name": "Game of Thrones", "original_name": "Game of Thrones", "original_language": "en",
           "first_air_date": "2011-04-17", "last_air_date": "2019-05-19", "status": "Ended", "type": "Scripted",
           "in_production": False, "overview": "Seven noble families fight.", "popularity": 300.5, "vote_average": 8.4,
           "vote_count": 20000, "origin_country": ["US"], "languages": ["en"], "episode_run_time": [60],
           "genres": [{"id": 18, "name": "Drama"}, {"id": 10765, "name": "Sci-Fi & Fantasy"}],
           "networks": [{"id": 49, "name": "HBO", "origin_country": "US", "logo_path": "/h.png"}],
           "production_companies": [{"id": 76043, "name": "Revolution Sun Studios", "origin_country": "US"}],
           "created_by": [{"id": 9813, "credit_id": "5256", "name": "David Benioff", "gender": 2}],
           "seasons": [{"id": 3624, "season_number": 1, "name": "Season 1", "overview": "", "air_date": "2011-04-17",
                        "episode_count": 2, "vote_average": 8.3}],
           "external_ids": {"imdb_id": "tt0944947", "tvdb_id": 121361}}
# fmt: on
# fmt: off
SEASON = {"_id": "5256c89f", "id": 3624, "season_number": 1, "name": "Season 1", "air_date": "2011-04-17", "episodes": [
    {"id": 63056, "show_id": 1399, "season_number": 1, "episode_number": 1, "name": "Winter Is Coming",
     "overview": "Lord Eddard Stark is asked.", "air_date": "2011-04-17", "runtime": 62, "vote_average": 7.9,
     "vote_count": 300, "episode_type": "standard", "production_code": "101",
     "crew": [{"id": 44797, "credit_id": "5256c8a2", "department": "Directing", "job": "Director", "name": "Tim Van Patten"}],
     "guest_stars": [{"id": 117642, "credit_id": "5256c8b0", "character": "Will", "order": 0, "name": "Bronson Webb"}]},
    {"id": 63057, "show_id": 1399, "season_number": 1, "episode_number": 2, "name": "The Kingsroad",
     "overview": "", "air_date": "2011-04-24", "runtime": 56, "crew": [], "guest_stars": []}]}
# fmt: on


# fmt: off
GROUP = {"id": "5b11ba820e0a265847002c6e", "name": "Absolute Order", "description": "", "type": 2, "episode_count": 2,
         "group_count": 1, "network": None, "groups": [{"id": "5b11ba9b", "name": "Episodes", "order": 0, "locked": True,
         "episodes": [{"id": 63057, "show_id": 1399, "order": 0}, {"id": 63056, "show_id": 1399, "order": 1}]}]}
# fmt: on


# fmt: off
A_LIST = {"created_by": "travisbell", "description": "The films of the saga.", "favorite_count": 4, "id": 1,
          "items": [{"id": 11, "media_type": "movie", "title": "Star Wars"}, {"id": 1399, "media_type": "tv"},
                    {"id": 999999, "media_type": "movie", "title": "Not crawled"}], "item_count": 3, "iso_639_1": "en",
          "name": "Star Wars", "poster_path": None}
# fmt: on


@pytest.fixture
def crawl(tmp_path: Path) -> list[Path]:
    documents = tmp_path / "crawl.jsonl.gz"
    with gzip.open(documents, "wt", encoding="utf-8") as f:
        for line in (
            STAR_WARS,
            HAMILL,
            {"id": 1, "episode_number": 3, "season_number": 1, "name": "Alone"},
            {"id": "x", "title": "broken"},
            THRONES,
            SEASON,
            GROUP,
            A_LIST,
        ):
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
        f.write("{not json\n[1, 2]\n\n")
    export = tmp_path / "movie_ids_11_25_2026.json"
    export.write_text(
        '{"adult":false,"id":11,"original_title":"Star Wars","popularity":99.5,"video":false}\n'
        '{"adult":false,"id":12,"original_title":"Finding Nemo","popularity":50.2,"video":false}\n'
    )
    return [documents, export]


def test_films_and_people_import_and_broken_lines_are_reported(crawl: list[Path], tmp_path: Path):
    target = tmp_path / "catalogue"
    summary = tmdb_jsonl.import_files(crawl, target)
    check_catalogue(target)
    movies = pq.read_table(target / "movies.parquet").to_pylist()
    assert [(m["id"], m["imdb_id"], m["runtime"], m["collection_id"]) for m in movies] == [(11, "tt0076759", 121, 10)]
    assert movies[0]["popularity"] == 99.5  # the ID export's daily popularity
    assert movies[0]["poster_path"] is None  # no original to serve it from
    titles = {
        (t["iso_639_1"], t["iso_3166_1"]): t["title"]
        for t in pq.read_table(target / "movie_translations.parquet").to_pylist()
    }
    assert titles == {("en", "US"): "Star Wars", ("de", "DE"): "Krieg der Sterne"}
    people = {p["id"]: p for p in pq.read_table(target / "people.parquet").to_pylist()}
    assert people[2]["imdb_id"] == "nm0000434" and people[1]["name"] == "George Lucas"  # a document, and a credit
    assert pq.read_table(target / "cast.parquet").to_pylist()[0]["character"] == "Luke Skywalker"
    assert summary.skipped == [
        ("crawl.jsonl.gz", 3, "an episode alone (import its season: /3/tv/{id}/season/{n})"),
        ("crawl.jsonl.gz", 4, "no numeric id"),
        ("crawl.jsonl.gz", 9, "not JSON"),
        ("crawl.jsonl.gz", 10, "not a JSON object"),
    ]
    assert any("1 films listed in an ID export" in note for note in summary.notes)
    assert summary.read == 12
    series = pq.read_table(target / "tv_series.parquet").to_pylist()
    assert [(s["id"], s["imdb_id"], s["episode_run_time"], s["status"]) for s in series] == [
        (1399, "tt0944947", [60], "Ended")
    ]
    episodes = pq.read_table(target / "tv_episodes.parquet").to_pylist()
    assert sorted((e["id"], e["series_id"], e["season_number"], e["episode_number"]) for e in episodes) == [
        (63056, 1399, 1, 1),
        (63057, 1399, 1, 2),
    ]
    people = {p["id"] for p in pq.read_table(target / "people.parquet").to_pylist()}
    assert {9813, 44797, 117642} <= people  # the creator, an episode's director and guest


def test_an_imported_crawl_builds_and_its_documents_are_tmdbs(crawl: list[Path], tmp_path: Path):
    from site_gen.release import render_release

    settings = from_env({"MARQUEE_HOME": str(tmp_path / "home")})
    tmdb_jsonl.import_files(crawl, settings.catalogue_dir)
    release = settings.releases_dir / "crawl"
    render_release(settings, settings.catalogue_dir, release, echo=None)  # every document validated
    with Pack(release) as pack:
        details = orjson.loads(pack.get("3/movie/11.json"))
        assert (details["title"], details["imdb_id"], details["runtime"], details["budget"]) == (
            "Star Wars",
            "tt0076759",
            121,
            11000000,
        )
        assert [g["name"] for g in details["genres"]] == ["Adventure", "Action"]
        assert orjson.loads(pack.get("3/movie/11.de-DE.json"))["title"] == "Krieg der Sterne"
        credits = orjson.loads(pack.get("3/movie/11/credits.json"))
        assert (credits["cast"][0]["name"], credits["cast"][0]["character"]) == ("Mark Hamill", "Luke Skywalker")
        assert orjson.loads(pack.get("3/person/2.json"))["biography"] == "Mark Hamill is an actor."
        dates = orjson.loads(pack.get("3/movie/11/release_dates.json"))["results"]
        assert dates[0]["release_dates"][0]["certification"] == "PG"
        assert pack.get("3/movie/12.json") is None  # known from the export alone
        series = orjson.loads(pack.get("3/tv/1399.json"))
        assert (series["name"], series["number_of_episodes"], [n["name"] for n in series["networks"]]) == (
            "Game of Thrones",
            2,
            ["HBO"],
        )
        season = orjson.loads(pack.get("3/tv/1399/season/1.json"))
        assert [e["name"] for e in season["episodes"]] == ["Winter Is Coming", "The Kingsroad"]
        assert season["episodes"][0]["guest_stars"][0]["character"] == "Will"
        group = orjson.loads(pack.get("3/tv/episode_group/5b11ba820e0a265847002c6e.json"))
        assert [e["name"] for e in group["groups"][0]["episodes"]] == ["The Kingsroad", "Winter Is Coming"]
        assert orjson.loads(pack.get("3/tv/1399/episode_groups.json"))["results"][0]["episode_count"] == 2
        listed = orjson.loads(pack.get("3/list/1.json"))
        assert [(i["media_type"], i["id"]) for i in listed["items"]] == [("movie", 11), ("tv", 1399)]
        assert orjson.loads(pack.get("3/movie/11/lists.json"))["results"][0]["name"] == "Star Wars"
        review = orjson.loads(pack.get("3/movie/11/reviews.json"))["results"][0]
        assert (
            review["id"],
            review["author_details"]["rating"],
            review["author_details"]["avatar_path"],
            review["created_at"],
        ) == ("57a3562e9251410cc7004ce8", 9, None, "2016-08-04T14:58:27.634Z")
