"""Series, seasons, episodes and people through nginx: language variants (non-Latin scripts and a
missing translation), append_to_response on every detail path, image filters and image sizes."""

from __future__ import annotations

import io

import httpx
import orjson
import pytest
from PIL import Image

from tests.e2e.conftest import assert_tmdb_error
from tests.release_files import unpacked

pytestmark = pytest.mark.e2e


def _file(api, uri: str) -> dict:
    return orjson.loads((unpacked(api.settings.current_link) / (uri.lstrip("/") + ".json")).read_bytes())


def _series_with(api, tag: str) -> int:
    return min(int(p.name.split(".")[0]) for p in (unpacked(api.settings.current_link) / "3/tv").glob(f"*.{tag}.json"))


def _series_without(api, tag: str) -> int:
    folder = unpacked(api.settings.current_link) / "3/tv"
    return min(
        int(p.name.split(".")[0])
        for p in folder.glob("*.und.json")
        if not (folder / p.name.replace(".und.", f".{tag}.")).exists()
    )


@pytest.mark.parametrize("tag", ["ja-JP", "ru-RU", "ar-SA", "de-DE"])
def test_series_in_a_served_language(api, tag):
    key = api.account(f"tv-{tag}", "pro")
    series_id = _series_with(api, tag)
    response = api.client.get(f"/3/tv/{series_id}", params={"api_key": key, "language": tag})
    assert response.status_code == 200
    assert response.json() == _file(api, f"/3/tv/{series_id}.{tag}")
    short = api.client.get(f"/3/tv/{series_id}", params={"api_key": key, "language": tag[:2]})
    assert short.json()["name"] == response.json()["name"]


def test_series_without_the_translation_is_tmdb_untranslated(api):
    key = api.account("tv-missing", "pro")
    series_id = _series_without(api, "hi-IN")
    doc = api.client.get(f"/3/tv/{series_id}", params={"api_key": key, "language": "hi-IN"}).json()
    assert (doc["name"], doc["overview"], doc["tagline"]) == (doc["original_name"], "", "")
    fallback = api.client.get(
        f"/3/tv/{series_id}", params={"api_key": key, "language": "hi-IN", "fallback_language": "en-US"}
    ).json()
    assert fallback == _file(api, f"/3/tv/{series_id}")


def test_append_on_series_season_episode_and_person(api):
    key = api.account("tv-append", "pro")
    series_id = _series_with(api, "ja-JP")
    names = "aggregate_credits,images,translations,moods,watch/providers,external_ids,nope"
    doc = api.client.get(
        f"/3/tv/{series_id}", params={"api_key": key, "language": "ja-JP", "append_to_response": names}
    ).json()
    assert doc["name"] == _file(api, f"/3/tv/{series_id}.ja-JP")["name"]
    for name in names.split(",")[:-1]:
        expected = {k: v for k, v in _file(api, f"/3/tv/{series_id}/{name}").items() if k != "id"}
        if name == "images":  # language applies to the appended images, as at TMDB
            expected = {kind: [i for i in images if i["iso_639_1"] == "ja"] for kind, images in expected.items()}
        assert doc[name] == expected, name
    assert "nope" not in doc
    season = api.client.get(
        f"/3/tv/{series_id}/season/1", params={"api_key": key, "append_to_response": "credits,images,translations"}
    ).json()
    assert season["images"] == {k: v for k, v in _file(api, f"/3/tv/{series_id}/season/1/images").items() if k != "id"}
    assert set(season) >= {"episodes", "credits", "translations"}
    offers = api.client.get(f"/3/tv/{series_id}/season/1/watch/providers", params={"api_key": key}).json()
    assert offers["id"] == season["id"] and offers["results"] == doc["watch/providers"]["results"]  # the series' offers
    appended = api.client.get(
        f"/3/tv/{series_id}/season/1", params={"api_key": key, "append_to_response": "watch/providers"}
    ).json()
    assert appended["watch/providers"] == {"results": offers["results"]}
    episode = api.client.get(
        f"/3/tv/{series_id}/season/1/episode/1",
        params={"api_key": key, "append_to_response": "credits,images,external_ids"},
    ).json()
    assert (
        episode["external_ids"]["imdb_id"]
        == _file(api, f"/3/tv/{series_id}/season/1/episode/1/external_ids")["imdb_id"]
    )
    person_id = doc["aggregate_credits"]["cast"][0]["id"]
    person = api.client.get(
        f"/3/person/{person_id}", params={"api_key": key, "append_to_response": "combined_credits,translations"}
    ).json()
    assert person["name"] == doc["aggregate_credits"]["cast"][0]["name"]
    assert person["translations"]["translations"] == _file(api, f"/3/person/{person_id}/translations")["translations"]
    too_many = ",".join(["images"] * 21)
    assert_tmdb_error(
        api.client.get(f"/3/tv/{series_id}", params={"api_key": key, "append_to_response": too_many}), 400, 27
    )


def test_episode_and_season_variants_and_unknown_ones(api):
    key = api.account("tv-episodes", "pro")
    folder = unpacked(api.settings.current_link) / "3/tv"
    path = min(folder.glob("*/season/*/episode/*.ko-KR.json"))
    uri = "/" + str(path.relative_to(folder.parent.parent)).removesuffix(".ko-KR.json")
    doc = api.client.get(uri, params={"api_key": key, "language": "ko-KR"}).json()
    assert doc == orjson.loads(path.read_bytes())
    assert_tmdb_error(api.client.get(uri.rsplit("/", 1)[0] + "/999", params={"api_key": key}), 404, 34)


def test_image_language_filter_on_series_images(api):
    key = api.account("tv-images", "pro")
    series_id = _series_with(api, "ja-JP")
    full = _file(api, f"/3/tv/{series_id}/images")
    doc = api.client.get(
        f"/3/tv/{series_id}/images", params={"api_key": key, "language": "ja", "include_image_language": "xx,null"}
    ).json()
    assert doc["backdrops"] == [i for i in full["backdrops"] if i["iso_639_1"] in ("ja", "xx")]
    assert doc["posters"] == [i for i in full["posters"] if i["iso_639_1"] in ("ja", "xx")]


def test_image_host_serves_each_kind_at_its_sizes(api):
    series_id = _series_with(api, "de-DE")
    season = _file(api, f"/3/tv/{series_id}/season/1")
    still = next(e["still_path"] for e in season["episodes"] if e["still_path"])
    poster = _file(api, f"/3/tv/{series_id}")["poster_path"]
    for size, path, bound in (("w300", still, (300, None)), ("w92", poster, (92, None)), ("original", poster, None)):
        response = httpx.get(f"{api.images}/t/p/{size}{path}")
        assert response.status_code == 200 and response.headers["content-type"] == "image/jpeg"
        with Image.open(io.BytesIO(response.content)) as image:
            if bound:
                assert image.width <= bound[0]


def test_title_lists_follow_the_language_through_nginx(api):
    key = api.account("tv-lists", "pro")
    root = unpacked(api.settings.current_link)
    movie_id = min(
        int(p.parent.name) for p in (root / "3/movie").glob("*/similar.json") if orjson.loads(p.read_bytes())["results"]
    )
    default = api.client.get(f"/3/movie/{movie_id}/similar", params={"api_key": key}).json()
    german = api.client.get(f"/3/movie/{movie_id}/similar", params={"api_key": key, "language": "de-DE"}).json()
    assert [r["id"] for r in german["results"]] == [r["id"] for r in default["results"]]
    for item in german["results"]:
        path = root / f"3/movie/{item['id']}.de-DE.json"
        expected = (
            orjson.loads(path.read_bytes())
            if path.exists()
            else orjson.loads(
                (
                    (root / f"3/movie/{item['id']}.und.json")
                    if (root / f"3/movie/{item['id']}.und.json").exists()
                    else (root / f"3/movie/{item['id']}.json")
                ).read_bytes()
            )
        )
        assert (item["title"], item["overview"]) == (expected["title"], expected["overview"])
    series_id = _series_with(api, "ko-KR")
    similar = api.client.get(f"/3/tv/{series_id}/similar", params={"api_key": key, "language": "ko"}).json()
    for item in similar["results"]:
        detail = api.client.get(f"/3/tv/{item['id']}", params={"api_key": key, "language": "ko"}).json()
        assert item["name"] == detail["name"]


def test_a_networks_names_and_logos_are_the_catalogues(api, catalogue):
    key = api.account("tv-networks", "pro")
    network, logo = catalogue.execute(
        "SELECT network_id, n.logo_path FROM network_images i JOIN networks n ON n.id = "
        "i.network_id GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1 LIMIT 1"
    ).fetchone()
    logos = api.client.get(f"/3/network/{network}/images", params={"api_key": key}).json()["logos"]
    assert logos[0]["file_path"] == logo and len(logos) > 1
    for image in logos:  # every logo is on the image host, the extra ones too
        assert httpx.get(f"{api.images}/t/p/original{image['file_path']}").status_code == 200
    named = catalogue.execute(
        "SELECT network_id FROM network_alternative_names ORDER BY network_id LIMIT 1"
    ).fetchone()[0]
    names = api.client.get(f"/3/network/{named}/alternative_names", params={"api_key": key}).json()
    assert (
        names["id"] == named
        and [(n["name"], n["type"]) for n in names["results"]]
        == catalogue.execute(
            "SELECT name, type FROM network_alternative_names WHERE network_id = ? ORDER BY ord", [named]
        ).fetchall()
    )


def test_episode_groups_and_screenings_are_the_catalogues(api, catalogue):
    key = api.account("tv-groups", "pro")
    get = lambda path, **params: api.client.get(path, params={"api_key": key, **params}).json()  # noqa: E731
    series = catalogue.execute(
        "SELECT series_id FROM episode_groups GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchone()[0]
    listed = get(f"/3/tv/{series}/episode_groups")
    groups = catalogue.execute(
        "SELECT id, type FROM episode_groups WHERE series_id = ? ORDER BY type, id", [series]
    ).fetchall()
    assert [(g["id"], g["type"]) for g in listed["results"]] == groups and {2, 3, 5} <= {t for _, t in groups}
    for group_id, _ in groups:
        group = get(f"/3/tv/episode_group/{group_id}")
        rows = catalogue.execute(
            "SELECT part_id, episode_id FROM episode_group_episodes WHERE group_id = ? ORDER BY part_order, ord",
            [group_id],
        ).fetchall()
        assert [(part["id"], e["id"]) for part in group["groups"] for e in part["episodes"]] == rows
        assert (
            group["episode_count"]
            == len(rows)
            == next(g["episode_count"] for g in listed["results"] if g["id"] == group_id)
        )
    # One rule for an episode wherever it appears: in each language, every episode of a group reads as
    # it does in its season's document (its translation there, else the catalogue's name and "").
    group_id, group_series, language = catalogue.execute(
        "SELECT x.group_id, g.series_id, t.iso_639_1 || '-' || t.iso_3166_1 FROM episode_group_episodes x "
        "JOIN episode_groups g ON g.id = x.group_id JOIN episode_translations t ON t.episode_id = x.episode_id "
        "WHERE t.iso_639_1 <> 'en' AND t.overview <> '' GROUP BY ALL ORDER BY count(*) DESC, 1, 3 LIMIT 1"
    ).fetchone()
    texts = {}
    for asked in ({}, {"language": language}, {"language": "xx"}):
        group = get(f"/3/tv/episode_group/{group_id}", **asked)
        seasons = {}
        for part in group["groups"]:
            for e in part["episodes"]:
                if e["season_number"] not in seasons:
                    season = get(f"/3/tv/{group_series}/season/{e['season_number']}", **asked)
                    seasons[e["season_number"]] = {x["id"]: (x["name"], x["overview"]) for x in season["episodes"]}
                assert (e["name"], e["overview"]) == seasons[e["season_number"]][e["id"]], (asked, e["id"])
        texts[asked.get("language")] = [(e["name"], e["overview"]) for p in group["groups"] for e in p["episodes"]]
    assert len(set(map(tuple, texts.values()))) == 3  # each language reads differently: `language` is honoured
    screened_series = catalogue.execute("SELECT series_id FROM screened_episodes LIMIT 1").fetchone()[0]
    screened = get(f"/3/tv/{screened_series}/screened_theatrically")
    assert sorted(r["id"] for r in screened["results"]) == sorted(
        e
        for (e,) in catalogue.execute(
            "SELECT episode_id FROM screened_episodes WHERE series_id = ?", [screened_series]
        ).fetchall()
    )
    appended = get(f"/3/tv/{series}", append_to_response="episode_groups,screened_theatrically")
    assert appended["episode_groups"] == {"results": listed["results"]} and "screened_theatrically" in appended


def test_a_persons_tagged_images_are_the_catalogues(api, catalogue):
    key = api.account("tagged-images", "pro")
    get = lambda path, **params: api.client.get(path, params={"api_key": key, **params}).json()  # noqa: E731
    person = catalogue.execute(
        "SELECT person_id FROM tagged_images GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchone()[0]
    expected = catalogue.execute(
        "SELECT t.file_path, t.media_id FROM tagged_images t JOIN movie_images i ON i.movie_id = t.media_id AND "
        "i.file_path = t.file_path WHERE t.person_id = ? ORDER BY i.vote_average DESC, t.file_path",
        [person],
    ).fetchall()
    first = get(f"/3/person/{person}/tagged_images")
    results = list(first["results"])
    for page in range(2, first["total_pages"] + 1):
        results += get(f"/3/person/{person}/tagged_images", page=str(page))["results"]
    assert [(r["file_path"], r["media"]["id"]) for r in results] == expected and first["total_results"] == len(expected)
    image = results[0]
    assert (image["image_type"], image["media_type"], image["media"]["media_type"]) == ("backdrop", "movie", "movie")
    assert image["media"]["title"] == get(f"/3/movie/{image['media']['id']}")["title"]
    assert httpx.get(f"{api.images}/t/p/w300{image['file_path']}").status_code == 200
    untagged = catalogue.execute(
        'SELECT person_id FROM "cast" WHERE person_id NOT IN (SELECT person_id FROM tagged_images) LIMIT 1'
    ).fetchone()[0]
    assert get(f"/3/person/{untagged}/tagged_images")["results"] == []
