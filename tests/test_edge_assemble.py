"""append_to_response splicing, language choice, pages and image/video filters, on handmade release files."""

from __future__ import annotations

import orjson
import pytest

from edge.assemble import assemble
from edge.content import ContentError, Query, without_id
from edge.languages import candidates, suffix_for
from tests.release_files import pack_tree

LANGUAGES = ["en-US", "de-DE", "ja-JP"]


def write(root, name, doc):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(doc))


@pytest.fixture
def release(tmp_path):
    write(tmp_path, "3/movie/7.json", {"id": 7, "title": "Seven", "overview": "English"})
    write(tmp_path, "3/movie/7.de-DE.json", {"id": 7, "title": "Sieben", "overview": "Deutsch"})
    write(tmp_path, "3/movie/7.und.json", {"id": 7, "title": "Sette", "overview": ""})
    write(tmp_path, "3/movie/7/credits.json", {"id": 7, "cast": [{"name": "A", "character": "B"}], "crew": []})
    write(
        tmp_path,
        "3/movie/7/videos.json",
        {
            "id": 7,
            "results": [
                {
                    "iso_639_1": "en",
                    "key": "abc",
                    "name": "Trailer 1",
                    "site": "YouTube",
                    "size": 1080,
                    "type": "Trailer",
                    "id": "v1",
                    "published_at": "2020-01-01T00:00:00.000Z",
                }
            ],
        },
    )
    write(
        tmp_path,
        "3/movie/7/videos.de-DE.json",
        {
            "id": 7,
            "results": [
                {
                    "iso_639_1": "de",
                    "key": "def",
                    "name": "Teaser",
                    "site": "YouTube",
                    "size": 480,
                    "type": "Teaser",
                    "id": "v2",
                    "published_at": "2021-01-01T00:00:00.000Z",
                }
            ],
        },
    )
    write(
        tmp_path,
        "3/movie/7/similar.json",
        {"id": 7, "page": 1, "results": [{"id": 9, "title": "Nine"}], "total_pages": 3, "total_results": 41},
    )
    write(
        tmp_path,
        "3/movie/7/similar.de-DE.json",
        {"id": 7, "page": 1, "results": [{"id": 9, "title": "Neun"}], "total_pages": 3, "total_results": 41},
    )
    write(
        tmp_path,
        "3/movie/7/similar.page2.json",
        {"id": 7, "page": 2, "results": [{"id": 10}], "total_pages": 3, "total_results": 41},
    )
    write(tmp_path, "3/movie/7/watch/providers.json", {"id": 7, "results": {"US": {"link": "x"}}})
    write(tmp_path, "3/movie/7/external_ids.json", {"id": 7})
    write(
        tmp_path,
        "3/movie/7/images.json",
        {
            "id": 7,
            "backdrops": [],
            "logos": [],
            "posters": [
                {"file_path": "/a.jpg", "iso_639_1": "en"},
                {"file_path": "/b.jpg", "iso_639_1": None},
                {"file_path": "/c.jpg", "iso_639_1": "de"},
                {"file_path": "/d.jpg", "iso_639_1": "xx"},
            ],
        },
    )
    return tmp_path


def get(release, path, **params):
    return orjson.loads(assemble(str(pack_tree(release)), Query(path=path, **params), LANGUAGES))


def test_appended_parts_sit_under_their_names_without_id(release):
    doc = get(release, "/3/movie/7", append_to_response="credits,watch/providers,external_ids")
    assert doc["id"] == 7 and doc["title"] == "Seven"
    assert doc["credits"] == {"cast": [{"name": "A", "character": "B"}], "crew": []}
    assert doc["watch/providers"] == {"results": {"US": {"link": "x"}}}
    assert doc["external_ids"] == {}


def test_unknown_foreign_and_missing_names_are_ignored(release):
    doc = get(release, "/3/movie/7", append_to_response="credits,bogus,aggregate_credits,reviews,../../etc")
    assert set(doc) == {"id", "title", "overview", "credits"}


def test_twenty_names_pass_and_twenty_one_give_27(release):
    twenty = ",".join(["credits"] * 19 + ["videos"])
    assert "videos" in get(release, "/3/movie/7", append_to_response=twenty)
    with pytest.raises(ContentError) as caught:
        get(release, "/3/movie/7", append_to_response=",".join(["credits"] * 21))
    assert (caught.value.error.http_status, caught.value.error.status_code) == (400, 27)


def test_legacy_names_keep_their_key(release):
    doc = get(release, "/3/movie/7", append_to_response="casts,trailers,similar_movies")
    assert doc["casts"]["cast"][0]["name"] == "A"
    assert doc["trailers"] == {
        "quicktime": [],
        "youtube": [{"name": "Trailer 1", "size": "HD", "source": "abc", "type": "Trailer"}],
    }
    assert doc["similar_movies"]["results"] == [{"id": 9, "title": "Nine"}]


def test_language_applies_to_the_details_and_what_is_appended(release):
    doc = get(release, "/3/movie/7", language="de", append_to_response="similar,credits")
    assert doc["title"] == "Sieben" and doc["similar"]["results"][0]["title"] == "Neun"
    assert doc["credits"]["cast"][0]["character"] == "B"  # not translated: one file for all


def test_missing_translation_and_unknown_language_give_the_untranslated_variant(release):
    assert get(release, "/3/movie/7", language="ja-JP")["title"] == "Sette"
    assert get(release, "/3/movie/7", language="xx-YY")["overview"] == ""
    assert get(release, "/3/movie/7", language="../../etc")["title"] == "Sette"
    assert get(release, "/3/movie/7", language="ja", fallback_language="en-US")["title"] == "Seven"
    assert get(release, "/3/movie/7", language="ja", fallback_language="de")["title"] == "Sieben"


def test_pages(release):
    assert get(release, "/3/movie/7/similar", page="2")["results"] == [{"id": 10}]
    beyond = get(release, "/3/movie/7/similar", page="9")
    assert beyond["page"] == 9 and beyond["results"] == [] and beyond["total_results"] == 41
    for bad in ("0", "501", "abc", "-1", "1.5"):
        with pytest.raises(ContentError) as caught:
            get(release, "/3/movie/7/similar", page=bad)
        assert caught.value.error.status_code == 22


@pytest.mark.parametrize(
    "params, expected",
    [
        ({"language": "en"}, ["/a.jpg"]),
        ({"language": "en", "include_image_language": "en,null"}, ["/a.jpg", "/b.jpg", "/d.jpg"]),
        ({"include_image_language": "xx"}, ["/b.jpg", "/d.jpg"]),
        ({"language": "de-DE", "include_image_language": "null"}, ["/b.jpg", "/c.jpg", "/d.jpg"]),
        ({}, ["/a.jpg", "/b.jpg", "/c.jpg", "/d.jpg"]),
    ],
)
def test_image_language_filters(release, params, expected):
    assert [p["file_path"] for p in get(release, "/3/movie/7/images", **params)["posters"]] == expected


@pytest.mark.parametrize(
    "params, expected",
    [
        ({}, ["abc"]),
        ({"language": "de-DE"}, ["def"]),
        ({"language": "ja-JP"}, ["abc"]),  # no .und here: the default file (site_gen writes an empty .und)
        ({"language": "de", "include_video_language": "en"}, ["def", "abc"]),
        ({"include_video_language": "ja,de"}, ["def"]),
        ({"include_video_language": "en,de,nl"}, ["def", "abc"]),
    ],
)
def test_videos_by_language_and_include_video_language(release, params, expected):
    assert [v["key"] for v in get(release, "/3/movie/7/videos", **params)["results"]] == expected


def test_appended_videos_merge_languages_too(release):
    doc = get(release, "/3/movie/7", append_to_response="videos", include_video_language="de,en")
    assert [v["key"] for v in doc["videos"]["results"]] == ["def", "abc"]


def test_appended_images_are_filtered_too(release):
    doc = get(release, "/3/movie/7", append_to_response="images", include_image_language="de")
    assert [p["file_path"] for p in doc["images"]["posters"]] == ["/c.jpg"]


def test_unknown_or_unsafe_paths_are_404(release):
    for path in ("/3/movie/8", "/3/movie/7/../../../etc/passwd", "/3/movie/7.de-DE", "/etc/passwd"):
        with pytest.raises(ContentError) as caught:
            get(release, path)
        assert caught.value.error.status_code == 34


def test_without_id_handles_every_shape():
    assert without_id(b'{"id":7,"a":1}') == b'{"a":1}'
    assert without_id(b'{"id":7}') == b"{}"
    assert without_id(b'{"id":"abc","a":1}') == b'{"a":1}'
    assert without_id(b'{"a":1}') == b'{"a":1}'


def test_suffix_and_candidates():
    assert suffix_for("de", LANGUAGES, ".und") == ".de-DE"
    assert suffix_for("DE-at", LANGUAGES, ".und") == ".de-DE"
    assert suffix_for("en-GB", LANGUAGES, ".und") == ""
    assert suffix_for("fr-FR", LANGUAGES, ".und") == ".und"
    assert candidates("/3/movie/7", None, None, LANGUAGES) == ["3/movie/7.json"]
    assert candidates("/3/movie/7", "fr", None, LANGUAGES) == ["3/movie/7.und.json", "3/movie/7.json"]
    assert candidates("/3/movie/7", "de", "en", LANGUAGES) == [
        "3/movie/7.de-DE.json",
        "3/movie/7.json",
        "3/movie/7.und.json",
    ]


def test_document_cache_serves_from_memory_and_stays_bounded(release):
    from edge.assemble import DocumentCache, OpenPacks

    class CountingPacks(OpenPacks):
        reads = 0

        def read(self, root, name):
            CountingPacks.reads += 1
            return super().read(root, name)

    root = str(pack_tree(release))
    cache = DocumentCache(max_bytes=64 << 10, packs=CountingPacks())
    query = Query(path="/3/movie/7", append_to_response="credits,videos")
    first = assemble(root, query, LANGUAGES, cache)
    reads = CountingPacks.reads
    assert reads == 3 and (root, "3/movie/7.json") in cache.entries
    assert assemble(root, query, LANGUAGES, cache) == first and CountingPacks.reads == reads  # from memory
    for n in range(2000):  # misses are cached too, and the total stays under the bound
        assert cache.read(root, f"3/movie/{n}.nope.json") is None
    assert cache.size <= cache.max_bytes and len(cache.entries) < 2000
    cache.clear()
    assert assemble(root, query, LANGUAGES, cache) == first and CountingPacks.reads == reads + 2003


@pytest.fixture
def lists(release):
    (release / "3/movie/7/similar.de-DE.json").unlink()  # lists are rendered once, in the default language
    write(release, "3/movie/9.json", {"id": 9, "title": "Nine", "overview": "Nine's story", "original_title": "Nove"})
    write(
        release,
        "3/movie/9.de-DE.json",
        {"id": 9, "title": "Neun", "overview": "Neuns Geschichte", "original_title": "Nove"},
    )
    write(release, "3/movie/9.und.json", {"id": 9, "title": "Nove", "overview": "", "original_title": "Nove"})
    write(release, "3/tv/5.json", {"id": 5, "name": "Five", "overview": "Five's story"})
    write(release, "3/tv/5.ja-JP.json", {"id": 5, "name": "ファイブ", "overview": "五"})
    write(
        release,
        "3/movie/7/similar.json",
        {
            "id": 7,
            "page": 1,
            "total_pages": 1,
            "total_results": 1,
            "results": [
                {"id": 9, "title": "Nine", "overview": "Nine's story", "original_title": "Nove", "genre_ids": [18]}
            ],
        },
    )
    write(
        release,
        "3/person/3/combined_credits.json",
        {
            "id": 3,
            "cast": [
                {"id": 9, "media_type": "movie", "title": "Nine", "overview": "Nine's story", "character": "A"},
                {"id": 5, "media_type": "tv", "name": "Five", "overview": "Five's story", "character": "B"},
            ],
            "crew": [],
        },
    )
    return release


@pytest.mark.parametrize(
    "params, title, overview",
    [
        ({}, "Nine", "Nine's story"),
        ({"language": "en-US"}, "Nine", "Nine's story"),
        ({"language": "de-DE"}, "Neun", "Neuns Geschichte"),
        ({"language": "ja-JP"}, "Nove", ""),  # untranslated: the original title, no overview, as the details
        ({"language": "ja-JP", "fallback_language": "de-DE"}, "Neun", "Neuns Geschichte"),
    ],
)
def test_title_lists_follow_the_language_of_each_title(lists, params, title, overview):
    item = get(lists, "/3/movie/7/similar", **params)["results"][0]
    assert (item["title"], item["overview"]) == (title, overview)
    assert item["original_title"] == "Nove" and item["genre_ids"] == [18]


def test_combined_credits_localise_movies_and_series_alike(lists):
    cast = get(lists, "/3/person/3/combined_credits", language="ja")["cast"]
    assert (cast[0]["title"], cast[1]["name"], cast[1]["overview"]) == ("Nove", "ファイブ", "五")
    assert [c["character"] for c in cast] == ["A", "B"]
    appended = get(lists, "/3/movie/7", language="de", append_to_response="similar")
    assert appended["title"] == "Sieben" and appended["similar"]["results"][0]["title"] == "Neun"
