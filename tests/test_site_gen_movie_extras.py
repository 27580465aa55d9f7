"""Rendered movie sub-resources and the lists around them (site_gen/sql/movie_*.sql), traced back to the
catalogue tables."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import duckdb
import orjson
import pytest

from marquee_build.catalogue import SQL_DIR as BUILD_SQL_DIR
from marquee_datasets import certifications
from marquee_datasets.synthetic import TABLES
from site_gen.templates import MOVIE, MOVIE_CREDITS, TEMPLATES
from site_gen.validate import Validator

# fmt: off
LIST_KEYS = ["adult", "backdrop_path", "genre_ids", "id", "original_language", "original_title", "overview",
             "popularity", "poster_path", "release_date", "title", "video", "vote_average", "vote_count"]
# fmt: on
IMAGE_KEYS = ["aspect_ratio", "height", "iso_639_1", "file_path", "vote_average", "vote_count", "width"]
# The sub-resources of site_gen/sql/movie_*.sql (credits and translations have tests of their own).
PER_MOVIE = [
    t.path.removeprefix(MOVIE)
    for t in TEMPLATES
    if t.path.startswith(MOVIE + "/") and t.path != MOVIE_CREDITS and t.source.startswith("movie_")
]


def _parquet(path: Path) -> str:
    return "read_parquet('" + str(path).replace("'", "''") + "')"


@pytest.fixture(scope="module")
def q(catalogue_dir: Path):
    con = duckdb.connect()
    for table in TABLES:
        con.execute(f'CREATE VIEW "{table}" AS SELECT * FROM ' + _parquet(catalogue_dir / f"{table}.parquet"))
    yield lambda sql, params=(): con.execute(sql, list(params)).fetchall()
    con.close()


@pytest.fixture(scope="module")
def movie_ids(q) -> list[int]:
    return [i for (i,) in q("SELECT id FROM movies ORDER BY id")]


def _doc(release: Path, uri: str):
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


def _sample(ids: list[int], k: int = 40) -> list[int]:
    return ids[:: max(1, len(ids) // k)]


def test_every_movie_has_every_sub_resource_with_id_first(built_release: Path, movie_ids):
    validator = Validator()
    for movie_id in movie_ids:
        for suffix in PER_MOVIE:
            uri = f"/3/movie/{movie_id}{suffix}"
            raw = (built_release / (uri.lstrip("/") + ".json")).read_bytes()
            assert raw.startswith(b'{"id":%d,' % movie_id), uri
            validator.validate(uri, raw, "/3/movie/{movie_id}" + suffix)


def test_keywords_and_alternative_titles_in_catalogue_order(built_release: Path, q, movie_ids):
    for movie_id in _sample(movie_ids):
        keywords = q(
            """SELECT k.id, k.name FROM movie_keywords mk JOIN keywords k ON k.id = mk.keyword_id
                        WHERE mk.movie_id = ? ORDER BY mk.ord""",
            [movie_id],
        )
        assert _doc(built_release, f"/3/movie/{movie_id}/keywords")["keywords"] == [
            {"id": i, "name": n} for i, n in keywords
        ]
        titles = q(
            "SELECT iso_3166_1, title, type FROM movie_alternative_titles WHERE movie_id = ? ORDER BY ord", [movie_id]
        )
        assert _doc(built_release, f"/3/movie/{movie_id}/alternative_titles")["titles"] == [
            {"iso_3166_1": c, "title": t, "type": k} for c, t, k in titles
        ]


def test_release_dates_grouped_by_country_in_date_order(built_release: Path, q, movie_ids):
    checked = 0
    for movie_id in _sample(movie_ids):
        rows = q(
            """SELECT iso_3166_1, certification, note, strftime(release_date, '%Y-%m-%dT%H:%M:%S.000Z'), type
                    FROM movie_release_dates WHERE movie_id = ? ORDER BY iso_3166_1, release_date, type""",
            [movie_id],
        )
        doc = _doc(built_release, f"/3/movie/{movie_id}/release_dates")
        flat = [
            (r["iso_3166_1"], d["certification"], d["note"], d["release_date"], d["type"])
            for r in doc["results"]
            for d in r["release_dates"]
        ]
        assert flat == rows
        assert [r["iso_3166_1"] for r in doc["results"]] == sorted({r[0] for r in rows})
        checked += bool(rows)
    assert checked


def test_videos_are_the_english_ones_newest_first(built_release: Path, q, movie_ids):
    for movie_id in _sample(movie_ids):
        rows = q(
            """SELECT id, key, name FROM movie_videos WHERE movie_id = ? AND iso_639_1 = 'en'
                    ORDER BY published_at DESC, id""",
            [movie_id],
        )
        results = _doc(built_release, f"/3/movie/{movie_id}/videos")["results"]
        assert [(v["id"], v["key"], v["name"]) for v in results] == rows
        assert all(v["iso_639_1"] == "en" for v in results)


def test_external_ids_and_ratings(built_release: Path, q, movie_ids):
    for movie_id in _sample(movie_ids):
        imdb, wikidata, facebook, kinopoisk = q(
            """SELECT m.imdb_id, e.wikidata_id, e.facebook_id, e.kinopoisk_id FROM movies m
               JOIN movie_external_ids e ON e.movie_id = m.id WHERE m.id = ?""",
            [movie_id],
        )[0]
        doc = _doc(built_release, f"/3/movie/{movie_id}/external_ids")
        assert (doc["imdb_id"], doc["wikidata_id"], doc["facebook_id"], doc["kinopoisk_id"]) == (
            imdb,
            wikidata,
            facebook,
            kinopoisk,
        )
        ratings = _doc(built_release, f"/3/movie/{movie_id}/ratings")
        for source, value, votes in q("SELECT source, value, votes FROM movie_ratings WHERE movie_id = ?", [movie_id]):
            assert ratings[source] == (None if value is None else {"value": value, "votes": votes})


def test_images_ranked_and_every_file_exists(image_store: Path, built_release: Path, q, movie_ids):
    originals = {p.name for p in (image_store / "original").iterdir()}
    for movie_id in movie_ids:
        doc = _doc(built_release, f"/3/movie/{movie_id}/images")
        assert list(doc) == ["id", "backdrops", "logos", "posters"]
        for key, kind in (("backdrops", "backdrop"), ("logos", "logo"), ("posters", "poster")):
            images = doc[key]
            assert all(list(i) == IMAGE_KEYS for i in images)
            assert all(i["file_path"].lstrip("/") in originals for i in images)
            ranks = [(-i["vote_average"], -i["vote_count"], i["file_path"]) for i in images]
            assert ranks == sorted(ranks)
            expected = q("SELECT file_path FROM movie_images WHERE movie_id = ? AND kind = ?", [movie_id, kind])
            assert sorted(i["file_path"] for i in images) == sorted(p for (p,) in expected)
        poster = q("SELECT poster_path FROM movies WHERE id = ?", [movie_id])[0][0]
        if poster is not None:
            assert doc["posters"][0]["file_path"] == poster


def test_watch_providers_by_region_and_priority(built_release: Path, q, movie_ids):
    seen = 0
    for movie_id in movie_ids:
        rows = q(
            """SELECT o.iso_3166_1, o.kind, o.provider_id, r.display_priority FROM movie_watch_providers o
                    JOIN watch_provider_regions r ON r.provider_id = o.provider_id AND r.iso_3166_1 = o.iso_3166_1
                    WHERE o.movie_id = ?""",
            [movie_id],
        )
        expected: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
        for region, kind, provider, _priority in sorted(rows, key=lambda r: (r[3], r[2])):
            expected[region][kind].append(provider)
        results = _doc(built_release, f"/3/movie/{movie_id}/watch/providers")["results"]
        assert list(results) == sorted(expected)
        for region, offers in results.items():
            assert offers["link"] == f"https://www.themoviedb.org/movie/{movie_id}/watch?locale={region}"
            assert {k: [p["provider_id"] for p in v] for k, v in offers.items() if k != "link"} == expected[region]
        seen += bool(results)
    assert seen


def test_soundtrack_tracks_in_order(built_release: Path, q):
    ((movie_id, album_id, n),) = q(
        "SELECT s.movie_id, s.id, count(*) FROM soundtracks s "
        "JOIN soundtrack_tracks t ON t.soundtrack_id = s.id GROUP BY ALL ORDER BY s.id LIMIT 1"
    )
    doc = _doc(built_release, f"/3/movie/{movie_id}/soundtracks")
    album = doc["results"][0]
    assert album["id"] == album_id and album["total_tracks"] == n == len(album["tracks"])
    assert [t["number"] for t in album["tracks"]] == list(range(1, n + 1))
    assert album["duration_ms"] == sum(t["duration_ms"] for t in album["tracks"])


def test_moods_follow_the_rules_table(built_release: Path, q, movie_ids):
    rules_con = duckdb.connect()
    rules_con.execute((BUILD_SQL_DIR / "031_mood_rules.sql").read_text())
    rules = defaultdict(list)
    for source, name, mood, weight in rules_con.execute("SELECT source, name, mood, weight FROM mood_rules").fetchall():
        rules[(source, name)].append((mood, weight))
    min_score, max_moods = rules_con.execute("SELECT min_score, max_moods FROM mood_limits").fetchone()
    genres = defaultdict(list)
    for movie_id, name in q("SELECT mg.movie_id, g.name FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id"):
        genres[movie_id].append(("genre", name))
    for movie_id, name in q(
        "SELECT mk.movie_id, k.name FROM movie_keywords mk JOIN keywords k ON k.id = mk.keyword_id"
    ):
        genres[movie_id].append(("keyword", name))
    nonempty = 0
    for movie_id in movie_ids:
        score: dict[str, int] = defaultdict(int)
        for feature in genres[movie_id]:
            for mood, weight in rules.get(feature, ()):
                score[mood] += weight
        expected = sorted(((-s, m) for m, s in score.items() if s >= min_score))[:max_moods]
        moods = _doc(built_release, f"/3/movie/{movie_id}/moods")["moods"]
        assert moods == [{"name": m, "score": -s} for s, m in expected]
        nonempty += bool(moods)
    assert nonempty > len(movie_ids) // 2


@pytest.mark.parametrize("kind", ["similar", "recommendations"])
def test_related_movies_share_a_genre_or_keyword(built_release: Path, q, movie_ids, kind: str):
    features = defaultdict(set)
    for movie_id, feature in q(
        "SELECT movie_id, 'g' || genre_id FROM movie_genres UNION ALL "
        "SELECT movie_id, 'k' || keyword_id FROM movie_keywords"
    ):
        features[movie_id].add(feature)
    collection = dict(q("SELECT id, collection_id FROM movies"))
    items = dict(q("SELECT id, release_date FROM movies"))
    filled = 0
    for movie_id in movie_ids:
        doc = _doc(built_release, f"/3/movie/{movie_id}/{kind}")
        results = doc["results"]
        assert doc["page"] == 1 and doc["total_results"] == len(results) <= 20
        assert doc["total_pages"] == (1 if results else 0)
        ids = [r["id"] for r in results]
        assert movie_id not in ids and len(set(ids)) == len(ids) and set(ids) <= set(items)
        same_collection = {i for i in ids if collection[movie_id] is not None and collection[i] == collection[movie_id]}
        assert all(features[movie_id] & features[i] or i in same_collection for i in ids)
        assert all(list(r) == LIST_KEYS for r in results)
        filled += len(results) == 20
    assert filled > len(movie_ids) // 2


def test_keyword_documents_and_pages(built_release: Path, q):
    for keyword_id, name in q("SELECT id, name FROM keywords"):
        assert _doc(built_release, f"/3/keyword/{keyword_id}") == {"id": keyword_id, "name": name}
    counts = q("""SELECT k.id, count(mk.movie_id) AS n FROM keywords k LEFT JOIN movie_keywords mk ON mk.keyword_id = k.id
                  GROUP BY k.id ORDER BY n DESC, k.id""")
    for keyword_id, _count in [counts[0], counts[len(counts) // 2], counts[-1]]:
        expected = [
            i
            for (i,) in q(
                """SELECT m.id FROM movie_keywords mk JOIN movies m ON m.id = mk.movie_id
                                        WHERE mk.keyword_id = ? ORDER BY m.popularity DESC, m.id LIMIT 100""",
                [keyword_id],
            )
        ]
        pages = max(1, math.ceil(len(expected) / 20))
        got = []
        for page in range(1, pages + 1):
            uri = f"/3/keyword/{keyword_id}/movies" + ("" if page == 1 else f".page{page}")
            doc = _doc(built_release, uri)
            assert (doc["id"], doc["page"], doc["total_results"]) == (keyword_id, page, len(expected))
            assert doc["total_pages"] == math.ceil(len(expected) / 20)
            got += [r["id"] for r in doc["results"]]
        assert got == expected
        assert not (built_release / f"3/keyword/{keyword_id}/movies.page{pages + 1}.json").exists()


def test_certification_list_is_tmdbs(built_release: Path):
    doc = _doc(built_release, "/3/certification/movie/list")["certifications"]
    flat = [(country, c["certification"], c["meaning"], c["order"]) for country, certs in doc.items() for c in certs]
    assert flat == list(certifications.MOVIE_CERTIFICATIONS)


def test_provider_list_and_regions(built_release: Path, q):
    providers = _doc(built_release, "/3/watch/providers/movie")["results"]
    priorities = defaultdict(dict)
    for pid, region, priority in q("SELECT provider_id, iso_3166_1, display_priority FROM watch_provider_regions"):
        priorities[pid][region] = priority
    assert [p["provider_id"] for p in providers] == [
        i for (i,) in q("SELECT provider_id FROM watch_providers ORDER BY display_priority, provider_id")
    ]
    assert all(p["display_priorities"] == dict(sorted(priorities[p["provider_id"]].items())) for p in providers)
    regions = _doc(built_release, "/3/watch/providers/regions")["results"]
    assert {r["iso_3166_1"] for r in regions} == {r for per in priorities.values() for r in per}
    assert [r["english_name"] for r in regions] == sorted(r["english_name"] for r in regions)


def test_every_extras_document_validates(built_release: Path):
    validator = Validator()
    templates = {t.path: t.source for t in TEMPLATES}
    roots = [built_release / "3/keyword", built_release / "3/certification/movie", built_release / "3/watch"]
    count = 0
    for root in roots:
        for path in root.rglob("*.json"):
            uri = "/" + str(path.relative_to(built_release))[: -len(".json")]
            if validator.template_for(uri) in templates:  # other families share these folders
                validator.validate(uri, path.read_bytes())
                count += 1
    assert count > 300
