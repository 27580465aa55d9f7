"""/3/discover/movie and /3/discover/tv through nginx, checked against the catalogue the release was
built from: every result has what was asked for, in the order asked for, and pages neither overlap
nor skip."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import all_pages, assert_tmdb_error, rotating_json

pytestmark = pytest.mark.e2e

VISIBLE = "NOT m.adult AND NOT m.video"  # what discover/movie shows unless asked for more


@pytest.fixture(scope="module")
def discover(api):
    answer = rotating_json(api, "discoverer")
    return lambda kind, expect=200, **params: answer(f"/3/discover/{kind}", expect, **params)


def ids(results: list[dict]) -> list[int]:
    return [r["id"] for r in results]


def movie_ids(catalogue, where: str = "TRUE", order: str = "m.popularity DESC, m.id", args=()) -> list[int]:
    return [
        i
        for (i,) in catalogue.execute(
            f"SELECT m.id FROM movies m WHERE {VISIBLE} AND ({where}) ORDER BY {order}", list(args)
        ).fetchall()
    ]


def test_without_filters_every_visible_film_by_popularity(discover, catalogue):
    expected = movie_ids(catalogue)
    first = discover("movie")
    assert first["total_results"] == len(expected) and first["page"] == 1
    assert ids(first["results"]) == expected[:20]
    assert ids(discover("movie", page="2")["results"]) == expected[20:40]
    least = discover("movie", sort_by="popularity.asc")
    assert ids(least["results"]) == movie_ids(catalogue, order="m.popularity, m.id DESC")[:20]
    assert first["total_results"] < catalogue.execute("SELECT count(*) FROM movies").fetchone()[0]  # adult, video out


def test_genres_comma_is_and_pipe_is_or(discover, catalogue):
    a, b = [
        g
        for (g,) in catalogue.execute(
            "SELECT genre_id FROM movie_genres GROUP BY 1 ORDER BY count(*) DESC LIMIT 2"
        ).fetchall()
    ]
    both = movie_ids(
        catalogue,
        f"m.id IN (SELECT movie_id FROM movie_genres WHERE genre_id = {a}) AND "
        f"m.id IN (SELECT movie_id FROM movie_genres WHERE genre_id = {b})",
    )
    either = movie_ids(catalogue, f"m.id IN (SELECT movie_id FROM movie_genres WHERE genre_id IN ({a}, {b}))")
    assert both and len(either) > len(both)
    assert ids(all_pages(discover, "movie", with_genres=f"{a},{b}")) == both
    assert discover("movie", with_genres=f"{a}|{b}")["total_results"] == len(either)
    assert ids(discover("movie", with_genres=f"{a}|{b}")["results"]) == either[:20]
    left = movie_ids(catalogue, f"m.id NOT IN (SELECT movie_id FROM movie_genres WHERE genre_id = {a})")
    assert ids(all_pages(discover, "movie", without_genres=str(a))) == left
    for result in discover("movie", with_genres=str(a))["results"]:
        assert a in result["genre_ids"]


@pytest.mark.parametrize(
    "parameter, table, column",
    [
        ("with_cast", '"cast"', "person_id"),
        ("with_crew", "crew", "person_id"),
        ("with_companies", "movie_companies", "company_id"),
        ("with_keywords", "movie_keywords", "keyword_id"),
    ],
)
def test_people_companies_and_keywords(discover, catalogue, parameter, table, column):
    value = catalogue.execute(
        f"SELECT {column} FROM {table} t JOIN movies m ON m.id = t.movie_id WHERE {VISIBLE} "
        f"GROUP BY 1 ORDER BY count(DISTINCT movie_id) DESC, 1 LIMIT 1"
    ).fetchone()[0]
    expected = movie_ids(catalogue, f"m.id IN (SELECT movie_id FROM {table} WHERE {column} = ?)", args=[value])
    assert len(expected) >= 2
    assert ids(all_pages(discover, "movie", **{parameter: str(value)})) == expected


def test_with_people_is_cast_or_crew(discover, catalogue):
    person = catalogue.execute("SELECT person_id FROM crew GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    expected = movie_ids(
        catalogue,
        'm.id IN (SELECT movie_id FROM "cast" WHERE person_id = ? UNION SELECT movie_id FROM crew WHERE person_id = ?)',
        args=[person, person],
    )
    assert ids(all_pages(discover, "movie", with_people=str(person))) == expected


def test_sorts_break_ties_by_id_and_pages_neither_overlap_nor_skip(discover, catalogue):
    where = "m.vote_count >= 1"
    expected = movie_ids(catalogue, where, "m.vote_average DESC, m.id DESC")
    got = all_pages(discover, "movie", sort_by="vote_average.desc", **{"vote_count.gte": "1"})
    assert ids(got) == expected
    assert len(set(ids(got))) == len(got)
    assert (
        ids(discover("movie", sort_by="vote_count.asc")["results"])
        == movie_ids(catalogue, order="m.vote_count, m.id")[:20]
    )
    assert (
        ids(discover("movie", sort_by="revenue.desc")["results"])
        == movie_ids(catalogue, "m.revenue IS NOT NULL", order="m.revenue DESC, m.id DESC")[:20]
    )
    assert (
        ids(discover("movie", sort_by="original_title.asc")["results"])
        == movie_ids(catalogue, order="lower(m.original_title), m.id")[:20]
    )


def test_dates_years_and_ranges(discover, catalogue):
    year = catalogue.execute(
        "SELECT year(release_date) FROM movies m WHERE " + VISIBLE + " GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    expected = movie_ids(catalogue, f"year(m.release_date) = {year}", "m.release_date DESC, m.id DESC")
    got = all_pages(
        discover,
        "movie",
        sort_by="primary_release_date.desc",
        **{"primary_release_date.gte": f"{year}-01-01", "primary_release_date.lte": f"{year}-12-31"},
    )
    assert ids(got) == expected
    assert discover("movie", primary_release_year=str(year))["total_results"] == len(expected)
    anywhere = movie_ids(
        catalogue,
        f"year(m.release_date) = {year} OR m.id IN (SELECT movie_id FROM "
        f"movie_release_dates WHERE year(release_date) = {year})",
    )
    assert discover("movie", year=str(year))["total_results"] == len(anywhere)
    runtime = movie_ids(catalogue, "m.runtime BETWEEN 90 AND 120")
    assert ids(all_pages(discover, "movie", **{"with_runtime.gte": "90", "with_runtime.lte": "120"})) == runtime
    rated = movie_ids(catalogue, "m.vote_average >= 7.5")
    assert discover("movie", **{"vote_average.gte": "7.5"})["total_results"] == len(rated)


def test_releases_in_a_region_by_type(discover, catalogue):
    region, kind = catalogue.execute(
        "SELECT iso_3166_1, type FROM movie_release_dates GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()
    expected = movie_ids(
        catalogue,
        "m.id IN (SELECT movie_id FROM movie_release_dates WHERE iso_3166_1 = ? AND "
        "type = ? AND release_date >= DATE '2000-01-01')",
        args=[region, kind],
    )
    got = all_pages(discover, "movie", region=region, with_release_type=str(kind), **{"release_date.gte": "2000-01-01"})
    assert ids(got) == expected and expected


def test_watch_providers_and_certifications(discover, catalogue):
    region, provider, kind = catalogue.execute(
        "SELECT iso_3166_1, provider_id, kind FROM movie_watch_providers GROUP BY ALL ORDER BY count(*) DESC, 1, 2, 3 "
        "LIMIT 1"
    ).fetchone()
    expected = movie_ids(
        catalogue,
        "m.id IN (SELECT movie_id FROM movie_watch_providers WHERE iso_3166_1 = ? AND provider_id = ? AND kind = ?)",
        args=[region, provider, kind],
    )
    got = all_pages(
        discover, "movie", watch_region=region, with_watch_providers=str(provider), with_watch_monetization_types=kind
    )
    assert ids(got) == expected and expected
    country = catalogue.execute(
        "SELECT iso_3166_1 FROM movie_release_dates WHERE certification <> '' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    ordered = [
        c
        for (c,) in catalogue.execute(
            'SELECT certification FROM certifications WHERE iso_3166_1 = ? ORDER BY "order", certification', [country]
        ).fetchall()
    ]
    mild = ordered[: len(ordered) // 2]
    expected = movie_ids(
        catalogue,
        "m.id IN (SELECT movie_id FROM movie_release_dates WHERE iso_3166_1 = ? AND list_contains(?, certification))",
        args=[country, mild],
    )
    got = all_pages(discover, "movie", certification_country=country, **{"certification.lte": mild[-1]})
    assert ids(got) == expected


def test_moods_come_from_the_films_own_moods(discover, api):
    films = discover("movie")["results"]
    key = api.account("moods", "pro")
    mood = None
    for film in films:
        listed = api.client.get(f"/3/movie/{film['id']}/moods", params={"api_key": key}).json().get("moods") or []
        if listed:
            mood = listed[0]["name"]
            break
    assert mood
    found = all_pages(discover, "movie", with_moods=mood)
    assert found
    key = api.account("moods-check", "pro")
    for film in found[:10]:
        names = [
            m["name"] for m in api.client.get(f"/3/movie/{film['id']}/moods", params={"api_key": key}).json()["moods"]
        ]
        assert mood in names


def test_tv_networks_status_type_and_air_dates(discover, catalogue):
    network = catalogue.execute(
        "SELECT network_id FROM series_networks GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    expected = [
        i
        for (i,) in catalogue.execute(
            "SELECT s.id FROM tv_series s WHERE NOT s.adult AND s.first_air_date IS NOT NULL AND s.id IN "
            "(SELECT series_id FROM series_networks WHERE network_id = ?) ORDER BY s.first_air_date DESC, s.id DESC",
            [network],
        ).fetchall()
    ]
    assert ids(all_pages(discover, "tv", with_networks=str(network), sort_by="first_air_date.desc")) == expected
    ended = [
        i
        for (i,) in catalogue.execute(
            "SELECT id FROM tv_series WHERE NOT adult AND first_air_date IS NOT NULL AND status IN ('Ended', "
            "'Returning Series') AND type = 'Scripted' ORDER BY popularity DESC, id"
        ).fetchall()
    ]
    assert ids(all_pages(discover, "tv", with_status="3|0", with_type="4")) == ended


def test_results_speak_the_language_asked(discover, catalogue):
    page = discover("movie", language="de-DE")
    german = dict(
        catalogue.execute(
            "SELECT movie_id, title FROM movie_translations WHERE iso_639_1 = 'de' "
            "AND iso_3166_1 = 'DE' AND title <> ''"
        ).fetchall()
    )
    checked = [r for r in page["results"] if r["id"] in german]
    assert checked and all(r["title"] == german[r["id"]] for r in checked)


def test_malformed_values_get_tmdb_errors_naming_the_parameter(api, discover):
    key = api.account("discover-errors", "pro")
    cases = [
        ({"with_genres": "abc"}, 422, 5, "with_genres"),
        ({"vote_average.gte": "x"}, 422, 5, "vote_average.gte"),
        ({"sort_by": "nonsense.desc"}, 422, 5, "sort_by"),
        ({"primary_release_date.gte": "2020-13-45"}, 400, 23, "primary_release_date.gte"),
        ({"include_adult": "maybe"}, 422, 5, "include_adult"),
        ({"page": "0"}, 400, 22, ""),
        ({"page": "501"}, 400, 22, ""),
        ({"with_release_type": "9"}, 422, 5, "with_release_type"),
    ]
    for params, status, code, named in cases:
        body = assert_tmdb_error(api.client.get("/3/discover/movie", params={"api_key": key, **params}), status, code)
        assert named in body["status_message"]
    assert_tmdb_error(api.client.get("/3/discover/tv", params={"api_key": key, "timezone": "Mars/Base"}), 400, 28)
    assert discover("tv", timezone="Europe/Berlin")["page"] == 1
    assert_tmdb_error(api.client.get("/3/discover/movie", params={"api_key": "0" * 32}), 401, 7)


def test_region_shows_each_films_release_date_there(discover, catalogue, api):
    region = catalogue.execute(
        "SELECT iso_3166_1 FROM movie_release_dates GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    there = dict(
        catalogue.execute(
            "SELECT movie_id, strftime(coalesce(min(CAST(release_date AS DATE)) FILTER (WHERE type IN (2, 3)), "
            "min(CAST(release_date AS DATE))), '%Y-%m-%d') FROM movie_release_dates WHERE iso_3166_1 = ? "
            "GROUP BY movie_id",
            [region],
        ).fetchall()
    )
    primary = {
        i: d.isoformat() if d else "" for i, d in catalogue.execute("SELECT id, release_date FROM movies").fetchall()
    }  # TMDB's "" for no date
    films = all_pages(discover, "movie", region=region.lower())
    assert any(f["id"] in there and there[f["id"]] != primary[f["id"]] for f in films)  # the date moves for some
    for film in films:
        assert film["release_date"] == there.get(film["id"], primary[film["id"]]), film["id"]
    # A date order sorts by the dates shown (the regional one where there is one), ties by id, undated last.
    shown = "coalesce((SELECT min(CAST(release_date AS DATE)) FILTER (WHERE type IN (2, 3)) FROM movie_release_dates r "
    shown += "WHERE r.movie_id = m.id AND r.iso_3166_1 = $region), (SELECT min(CAST(release_date AS DATE)) FROM "
    shown += "movie_release_dates r WHERE r.movie_id = m.id AND r.iso_3166_1 = $region), m.release_date)"
    for sort_by, where, extra in (
        ("primary_release_date.desc", "TRUE", {}),
        ("release_date.asc", "TRUE", {}),
        (
            "primary_release_date.asc",
            "m.id IN (SELECT movie_id FROM movie_genres WHERE genre_id = 18)",
            {"with_genres": "18"},
        ),
    ):
        direction = sort_by.rsplit(".", 1)[1].upper()
        expected = [
            i
            for (i,) in catalogue.execute(
                f"SELECT m.id FROM movies m WHERE {VISIBLE} AND {where} "
                f"ORDER BY {shown} IS NULL, {shown} {direction}, "  # the undated by id, as every date order has them
                f"CASE WHEN {shown} IS NULL THEN m.id ELSE {-1 if direction == 'DESC' else 1} * m.id END",
                {"region": region},
            ).fetchall()
        ]
        ordered = all_pages(discover, "movie", region=region, sort_by=sort_by, **extra)
        assert ids(ordered) == expected, sort_by
        dates = [f["release_date"] for f in ordered if f["release_date"]]
        assert dates == sorted(dates, reverse=direction == "DESC")  # what a client sees is in order
    title = films[0]["title"]
    key = api.account("region-search", "pro")
    found = api.client.get("/3/search/movie", params={"api_key": key, "query": title, "region": region}).json()
    for film in found["results"]:
        assert film["release_date"] == there.get(film["id"], primary[film["id"]]) or film["release_date"] == ""
    assert_tmdb_error(api.client.get("/3/search/movie", params={"api_key": key, "query": "a", "region": "USA"}), 422, 5)
