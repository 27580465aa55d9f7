from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import duckdb
import orjson
import pytest

from marquee.packs import Pack
from marquee.settings import from_env
from marquee_datasets.synthetic import REFERENCE_DATE
from site_gen.templates import TEMPLATES, TV, TV_EPISODE, TV_SEASON
from site_gen.validate import Validator

REF = REFERENCE_DATE.astype(object).isoformat()
# fmt: off
SERIES_KEYS = ["adult", "backdrop_path", "created_by", "episode_run_time", "first_air_date", "genres", "homepage",
               "id", "in_production", "languages", "last_air_date", "last_episode_to_air", "name",
               "next_episode_to_air", "networks", "number_of_episodes", "number_of_seasons", "origin_country",
               "original_language", "original_name", "overview", "popularity", "poster_path",
               "production_companies", "production_countries", "seasons", "spoken_languages", "status", "tagline",
               "type", "vote_average", "vote_count"]
# fmt: on
# fmt: off
EPISODE_SUMMARY_KEYS = ["id", "name", "overview", "vote_average", "vote_count", "air_date", "episode_number",
                        "episode_type", "production_code", "runtime", "season_number", "show_id", "still_path"]
# fmt: on
# fmt: off
CREW_KEYS = ["department", "job", "credit_id", "adult", "gender", "id", "known_for_department", "name",
             "original_name", "popularity", "profile_path"]
# fmt: on
# fmt: off
GUEST_KEYS = ["character", "credit_id", "order", "adult", "gender", "id", "known_for_department", "name",
              "original_name", "popularity", "profile_path"]
# fmt: on
# fmt: off
TV_TABLES = ("tv_series", "tv_seasons", "tv_episodes", "series_cast", "series_crew", "episode_crew",
             "episode_guest_stars", "created_by", "series_genres", "tv_genres", "networks", "series_networks",
             "series_content_ratings", "tv_videos", "series_keywords", "tv_keywords")
# fmt: on


@pytest.fixture(scope="module")
def db(catalogue_dir: Path):
    con = duckdb.connect()
    for table in TV_TABLES:
        con.execute(
            f'CREATE VIEW "{table}" AS SELECT * FROM read_parquet(\''
            + str(catalogue_dir / f"{table}.parquet").replace("'", "''")
            + "')"
        )
    yield con
    con.close()


def _doc(release: Path, uri: str) -> dict:
    return orjson.loads((release / (uri.lstrip("/") + ".json")).read_bytes())


def _uri(template: str, **values: object) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), template)


def test_every_document_exists(built_release: Path, db):
    for (series_id,) in db.execute("SELECT id FROM tv_series").fetchall():
        for template in [t.path for t in TEMPLATES if t.path.startswith(TV) and not t.path.startswith(TV_SEASON)]:
            assert (built_release / (_uri(template, series_id=series_id).lstrip("/") + ".json")).is_file()
    for series_id, number in db.execute("SELECT series_id, season_number FROM tv_seasons").fetchall():
        for template in [
            t.path for t in TEMPLATES if t.path.startswith(TV_SEASON) and not t.path.startswith(TV_EPISODE)
        ]:
            assert (
                built_release / (_uri(template, series_id=series_id, season_number=number).lstrip("/") + ".json")
            ).is_file()
    rows = db.execute("SELECT series_id, season_number, episode_number FROM tv_episodes").fetchall()
    for series_id, number, ep in rows:
        for template in [t.path for t in TEMPLATES if t.path.startswith(TV_EPISODE)]:
            uri = _uri(template, series_id=series_id, season_number=number, episode_number=ep)
            assert (built_release / (uri.lstrip("/") + ".json")).is_file()
    assert (built_release / "3/genre/tv/list.json").is_file()
    for (network_id,) in db.execute("SELECT id FROM networks").fetchall():
        assert _doc(built_release, f"/3/network/{network_id}")["id"] == network_id


def test_every_tv_document_validates_and_sub_resources_lead_with_id(built_release: Path):
    validator = Validator()
    checked = 0
    for root in ("3/tv", "3/network", "3/genre/tv"):
        for path in (built_release / root).rglob("*.json"):
            uri = "/" + str(path.relative_to(built_release))[: -len(".json")]
            base = re.sub(r"\.page\d+$", "", uri)
            body = path.read_bytes()
            validator.validate(uri, body, validator.template_for(base))
            parts = base.split("/")
            is_details = (len(parts) == 4 or parts[-2] in ("season", "episode", "episode_group")) and parts[2] == "tv"
            if parts[2] == "tv" and not is_details and not base.endswith(("/similar", "/recommendations")):
                assert body.startswith(b'{"id":'), uri
            checked += 1
    assert checked > 100


def test_every_image_exists(image_store: Path, built_release: Path):
    images = image_store / "original"
    pattern = re.compile(rb'"(?:poster_path|backdrop_path|still_path|profile_path|logo_path)":"(/[^"]+)"')
    seen = set()
    for root in ("3/tv", "3/network"):
        for path in (built_release / root).rglob("*.json"):
            seen.update(pattern.findall(path.read_bytes()))
    assert len(seen) > 50
    missing = [p for p in seen if not (images / p.decode().lstrip("/")).is_file()]
    assert missing == []


def test_series_details_trace_to_the_catalogue(built_release: Path, db):
    rows = db.execute("""SELECT id, name, status, type, first_air_date, last_episode_id, next_episode_id
                         FROM tv_series""").fetchall()
    for series_id, name, status, kind, first_air, last_id, next_id in rows:
        doc = _doc(built_release, f"/3/tv/{series_id}")
        assert list(doc) == SERIES_KEYS
        assert (doc["id"], doc["name"], doc["status"], doc["type"]) == (series_id, name, status, kind)
        assert doc["first_air_date"] == first_air.isoformat()
        seasons = db.execute(
            """SELECT s.season_number, s.id, count(e.id) FROM tv_seasons s
                                JOIN tv_episodes e ON e.series_id = s.series_id AND e.season_number = s.season_number
                                WHERE s.series_id = ? GROUP BY ALL ORDER BY 1""",
            [series_id],
        ).fetchall()
        assert [(s["season_number"], s["id"], s["episode_count"]) for s in doc["seasons"]] == seasons
        assert doc["number_of_seasons"] == sum(1 for n, _, _ in seasons if n > 0)
        assert doc["number_of_episodes"] == sum(c for n, _, c in seasons if n > 0)
        last, nxt = doc["last_episode_to_air"], doc["next_episode_to_air"]
        assert (last and last["id"]) == last_id and (nxt and nxt["id"]) == next_id
        if last is not None:
            assert list(last) == EPISODE_SUMMARY_KEYS and last["show_id"] == series_id
            assert last["air_date"] <= REF and doc["last_air_date"] == last["air_date"]
        else:
            assert doc["last_air_date"] is None
        if nxt is not None:
            assert nxt["air_date"] > REF
        genres = db.execute(
            """SELECT g.id, g.name FROM series_genres sg JOIN tv_genres g ON g.id = sg.genre_id
                               WHERE sg.series_id = ? ORDER BY sg.ord""",
            [series_id],
        ).fetchall()
        assert [(g["id"], g["name"]) for g in doc["genres"]] == genres
        networks = db.execute(
            "SELECT network_id FROM series_networks WHERE series_id = ? ORDER BY ord", [series_id]
        ).fetchall()
        assert [n["id"] for n in doc["networks"]] == [n for (n,) in networks]
        created = db.execute(
            "SELECT person_id, credit_id FROM created_by WHERE series_id = ? ORDER BY ord", [series_id]
        ).fetchall()
        assert [(c["id"], c["credit_id"]) for c in doc["created_by"]] == created
    assert any(_doc(built_release, f"/3/tv/{r[0]}")["next_episode_to_air"] is None for r in rows)


def test_season_documents(built_release: Path, db):
    for series_id, number, season_id in db.execute("SELECT series_id, season_number, id FROM tv_seasons").fetchall():
        doc = _doc(built_release, f"/3/tv/{series_id}/season/{number}")
        assert doc["id"] == season_id and doc["season_number"] == number
        episodes = db.execute(
            """SELECT id, episode_number FROM tv_episodes WHERE series_id = ? AND season_number = ?
                                 ORDER BY episode_number""",
            [series_id, number],
        ).fetchall()
        assert [(e["id"], e["episode_number"]) for e in doc["episodes"]] == episodes
        assert all(e["show_id"] == series_id and e["season_number"] == number for e in doc["episodes"])
        for e in doc["episodes"]:
            assert all(list(c) == CREW_KEYS for c in e["crew"])
            assert all(list(g) == GUEST_KEYS for g in e["guest_stars"])
        for sub in ("credits", "aggregate_credits", "external_ids", "videos"):
            assert _doc(built_release, f"/3/tv/{series_id}/season/{number}/{sub}")["id"] == season_id


def test_episode_credits_trace_to_the_catalogue(built_release: Path, db):
    rows = db.execute("""SELECT id, series_id, season_number, episode_number FROM tv_episodes
                         ORDER BY id LIMIT 150""").fetchall()
    for episode_id, series_id, number, ep in rows:
        base = f"/3/tv/{series_id}/season/{number}/episode/{ep}"
        details, credits = _doc(built_release, base), _doc(built_release, base + "/credits")
        assert details["id"] == episode_id and credits["id"] == episode_id
        crew = db.execute(
            "SELECT person_id, credit_id, department, job FROM episode_crew WHERE episode_id = ?", [episode_id]
        ).fetchall()
        assert sorted((c["id"], c["credit_id"], c["department"], c["job"]) for c in credits["crew"]) == sorted(crew)
        assert credits["crew"] == details["crew"]
        guests = db.execute(
            """SELECT person_id, credit_id, "character", "order" FROM episode_guest_stars
                               WHERE episode_id = ? ORDER BY "order" """,
            [episode_id],
        ).fetchall()
        assert [(g["id"], g["credit_id"], g["character"], g["order"]) for g in credits["guest_stars"]] == guests
        assert credits["guest_stars"] == details["guest_stars"]
        cast = db.execute(
            """SELECT person_id, credit_id, "order" FROM series_cast WHERE series_id = ?
                             AND ? BETWEEN first_season AND last_season ORDER BY "order" """,
            [series_id, number],
        ).fetchall()
        assert [(c["id"], c["credit_id"], c["order"]) for c in credits["cast"]] == cast


def test_episode_credit_lists_are_stored_once_and_referenced(built_pack: Path, built_release: Path, db):
    """Each episode's crew and guest stars are one item document each, referenced by its season and
    episode in every language variant and by its credits; an episode without any keeps `[]` inline."""
    rows = db.execute("""SELECT e.id, e.series_id, e.season_number, e.episode_number,
                                EXISTS (SELECT 1 FROM episode_crew c WHERE c.episode_id = e.id),
                                EXISTS (SELECT 1 FROM episode_guest_stars g WHERE g.episode_id = e.id)
                         FROM tv_episodes e ORDER BY e.id""").fetchall()
    assert any(r[4] for r in rows) and any(not r[5] for r in rows)  # both kinds of episode are tried
    with Pack(built_pack) as pack:
        for episode_id, series_id, number, ep, has_crew, has_guests in rows[:60]:
            base = f"3/tv/{series_id}/season/{number}"
            names = [
                name
                for name in pack.names(f"{base}%")
                if fnmatch.fnmatchcase(name, f"{base}.*json")
                or fnmatch.fnmatchcase(name, f"{base}/episode/{ep}.*json")
                or name == f"{base}/episode/{ep}/credits.json"
            ]
            assert len(names) >= 4
            served = orjson.loads(pack.get(f"{base}/episode/{ep}.json"))
            for field, kind, present in (
                ("crew", "episode_crew", has_crew),
                ("guest_stars", "episode_guest_stars", has_guests),
            ):
                item = pack.raw(f"_items/{kind}/{series_id}/{episode_id}.json")
                reference = ('"' + field + '":{"\\u0001":"' + f'{kind}/{series_id}/{episode_id}"' + "}").encode()
                if present:
                    assert item is not None and orjson.loads(item) == served[field] != []
                    assert all(reference in pack.raw(name) for name in names), (episode_id, field)
                else:
                    assert item is None and served[field] == []
                    assert all(reference not in pack.raw(name) for name in names)
            crew_ids = {c["credit_id"] for c in served["crew"]}
            assert not any(credit_id.encode() in pack.raw(name) for name in names for credit_id in crew_ids)


def test_aggregate_credits_count_episodes(built_release: Path, db):
    for (series_id,) in db.execute("SELECT id FROM tv_series").fetchall():
        doc = _doc(built_release, f"/3/tv/{series_id}/aggregate_credits")
        assert [c["order"] for c in doc["cast"]] == sorted(c["order"] for c in doc["cast"])
        for person in doc["crew"]:
            want = db.execute(
                """SELECT credit_id, job, count(*) FROM episode_crew WHERE series_id = ? AND person_id = ?
                                 GROUP BY ALL""",
                [series_id, person["id"]],
            ).fetchall()
            assert sorted((j["credit_id"], j["job"], j["episode_count"]) for j in person["jobs"]) == sorted(want)
            distinct = db.execute(
                """SELECT count(DISTINCT episode_id) FROM episode_crew
                                     WHERE series_id = ? AND person_id = ?""",
                [series_id, person["id"]],
            ).fetchone()[0]
            assert person["total_episode_count"] == distinct
        for person in doc["cast"]:
            want = db.execute(
                """SELECT count(*) FROM tv_episodes e JOIN series_cast sc ON sc.series_id = e.series_id
                                 WHERE sc.series_id = ? AND sc.person_id = ? AND e.season_number
                                 BETWEEN sc.first_season AND sc.last_season""",
                [series_id, person["id"]],
            ).fetchone()[0]
            assert person["total_episode_count"] == want == person["roles"][0]["episode_count"]


def test_similar_pages_and_ordering(built_release: Path, db):
    for (series_id,) in db.execute("SELECT id FROM tv_series").fetchall():
        first = _doc(built_release, f"/3/tv/{series_id}/similar")
        assert first["page"] == 1 and len(first["results"]) <= 20
        assert series_id not in [r["id"] for r in first["results"]]
        page2 = built_release / f"3/tv/{series_id}/similar.page2.json"
        assert page2.is_file() == (first["total_results"] > 20) == (first["total_pages"] == 2)
        own = {
            g for (g,) in db.execute("SELECT genre_id FROM series_genres WHERE series_id = ?", [series_id]).fetchall()
        }
        shared = [len(own & set(r["genre_ids"])) for r in first["results"]]
        assert all(s > 0 for s in shared) and shared == sorted(shared, reverse=True)
        recs = _doc(built_release, f"/3/tv/{series_id}/recommendations")
        assert all(r["media_type"] == "tv" for r in recs["results"]) and recs["total_results"] == len(recs["results"])


def test_recommendations_rank_by_the_features_shared(built_release: Path, db):
    """Each recommended series shares a keyword (weighing 3), a network (2) or a genre (1) with the
    series, the catalogue's rows say; the list goes by that score, then popularity, then id."""
    features: dict[int, set[tuple[int, int]]] = {}  # (weight, id) of each feature
    for table, column, kind in (
        ("series_keywords", "keyword_id", 3),
        ("series_networks", "network_id", 2),
        ("series_genres", "genre_id", 1),
    ):
        for series_id, value in db.execute(f"SELECT series_id, {column} FROM {table}").fetchall():
            features.setdefault(series_id, set()).add((kind, value))
    recommended = 0
    for (series_id,) in db.execute("SELECT id FROM tv_series").fetchall():
        results = _doc(built_release, f"/3/tv/{series_id}/recommendations")["results"]
        own = features.get(series_id, set())
        scores = [sum(kind for kind, _ in own & features.get(r["id"], set())) for r in results]
        assert series_id not in [r["id"] for r in results] and len(results) <= 20
        assert all(score > 0 for score in scores)
        order = [(-score, -r["popularity"], r["id"]) for score, r in zip(scores, results)]
        assert order == sorted(order)
        recommended += len(results)
    assert recommended


def test_genre_list_and_content_ratings(built_release: Path, db):
    genres = _doc(built_release, "/3/genre/tv/list")["genres"]
    assert [g["name"] for g in genres] == sorted(g["name"] for g in genres) and len(genres) == 16
    (series_id,) = db.execute("SELECT series_id FROM series_content_ratings LIMIT 1").fetchone()
    ratings = db.execute(
        """SELECT iso_3166_1, rating FROM series_content_ratings WHERE series_id = ?
                            ORDER BY ord""",
        [series_id],
    ).fetchall()
    doc = _doc(built_release, f"/3/tv/{series_id}/content_ratings")
    assert [(r["iso_3166_1"], r["rating"]) for r in doc["results"]] == ratings


def test_videos_per_level_and_language(built_release: Path, db):
    """Each level's videos in the default document are the English ones; a served language's
    variant holds that language's; a language without videos gets none (`.und`, or the default
    file where the level has no English videos either)."""
    served = {tag.split("-")[0]: tag for tag in from_env({}).languages[1:]}
    rows = db.execute("""SELECT series_id, season_number, episode_number, iso_639_1, list(id ORDER BY ord)
                         FROM tv_videos GROUP BY ALL""").fetchall()
    local = 0
    for series_id, number, ep, language, ids in rows:
        uri = (
            f"/3/tv/{series_id}"
            + ("" if number is None else f"/season/{number}")
            + ("" if ep is None else f"/episode/{ep}")
            + "/videos"
        )
        if language == "en":
            variant = uri
        elif language in served:
            variant, local = f"{uri}.{served[language]}", local + 1
        else:
            continue
        results = _doc(built_release, variant)["results"]
        assert [v["id"] for v in results] == ids
        assert {v["iso_639_1"] for v in results} == {language}
        und = built_release / (uri.lstrip("/") + ".und.json")
        assert not und.exists() or _doc(built_release, uri + ".und")["results"] == []
    assert local, "the sample should have series videos in a language of their own"
    levels = {(s, n is None, e is None) for s, n, e, _, _ in rows}
    assert any(not season_level for _, season_level, _ in levels), "videos of a season or an episode"


def test_committed_tv_schema_corrections_are_current():
    from site_gen.schemas import tv_patches

    assert tv_patches.OUT.read_text() == tv_patches.render(
        tv_patches.patched(orjson.loads(tv_patches.TMDB.read_bytes()))
    )


def test_per_path_nullable_is_honoured_only_where_declared(built_release: Path, db):
    from site_gen.validate import ValidationError

    validator = Validator()
    (series_id,) = db.execute("SELECT id FROM tv_series WHERE last_episode_id IS NOT NULL LIMIT 1").fetchone()
    doc = _doc(built_release, f"/3/tv/{series_id}")
    validator.validate(f"/3/tv/{series_id}", {**doc, "last_episode_to_air": None, "next_episode_to_air": None})
    with pytest.raises(ValidationError, match="first_air_date"):
        validator.validate(f"/3/tv/{series_id}", {**doc, "first_air_date": None})
    with pytest.raises(ValidationError, match="seasons"):
        validator.validate(f"/3/tv/{series_id}", {**doc, "seasons": [{**doc["seasons"][0], "vote_average": "7"}]})
    ext = _doc(built_release, f"/3/tv/{series_id}/external_ids")
    validator.validate(f"/3/tv/{series_id}/external_ids", {**ext, "tvdb_id": None})
    with pytest.raises(ValidationError):
        validator.validate(f"/3/tv/{series_id}/external_ids", {**ext, "id": None})


def test_watch_providers_trace_to_the_offers(built_release: Path, db, catalogue_dir: Path):
    offers = (
        duckdb.connect()
        .execute(
            "SELECT series_id, iso_3166_1, kind, list(provider_id ORDER BY provider_id) FROM read_parquet(?) GROUP BY ALL",
            [str(catalogue_dir / "series_watch_providers.parquet")],
        )
        .fetchall()
    )
    assert offers
    for series_id, region, kind, providers in offers:
        doc = _doc(built_release, f"/3/tv/{series_id}/watch/providers")
        assert list(doc)[0] == "id" and doc["id"] == series_id
        entry = doc["results"][region]
        assert entry["link"].endswith(f"/tv/{series_id}/watch?locale={region}")
        assert sorted(p["provider_id"] for p in entry[kind]) == providers
    empty = db.execute("""SELECT id FROM tv_series WHERE status IN ('Planned', 'In Production')""").fetchall()
    for (series_id,) in empty:
        assert _doc(built_release, f"/3/tv/{series_id}/watch/providers")["results"] == {}
