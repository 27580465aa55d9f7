"""The traffic mix of API clients, for locust. Run it with `make load` (`python -m loadtests.run`),
which makes the keys and hands them over in the environment (a command line is readable by every
user of the machine): LOAD_KEYS, keys of the `loadtest` plan, wide enough never to be limited, and
LOAD_FREE_KEYS, keys of a free-plan account. Ids come from the published release (MARQUEE_HOME/current,
loadtests/targets.py), so every request names a document the release has, unless it means not to.

Two kinds of client:
- ApiClient: details, language variants, append_to_response, lists and their pages, credits, TV
  down to episodes, people, collections, keywords, reference lists, posters from the image host,
  searches typed as a search box sends them (a title's first letters, in a language), finds by
  IMDb id, discover rows as a browsing app asks for them (a genre or two, a year, an order, the
  first pages), the home screen's title lists, OMDb's /compat/ titles by IMDb id and searches, and
  now and then an id no release has. The only answer other than 2xx it accepts is the
  404 of that last request.
- OverRateClient: one client of the free account asking well over its plan's rate. Its 429s are
  the limiter doing its job, reported apart under FREE_429 so a run shows how many there were.
"""

from __future__ import annotations

import os
import random

import gevent
from locust import between, constant_throughput, events, task
from locust.contrib.fasthttp import FastHttpUser
from locust.stats import CSV_STATS_INTERVAL_SEC

from loadtests import FREE_200, FREE_429
from loadtests.targets import read_targets
from marquee.settings import from_env

SETTINGS = from_env()
TARGETS = read_targets(SETTINGS.current_link)
KEYS = os.environ.get("LOAD_KEYS", "").split()
FREE_KEYS = os.environ.get("LOAD_FREE_KEYS", "").split()
LANGUAGES = SETTINGS.languages
MOVIE_APPENDS = ("credits", "videos", "images", "keywords", "external_ids", "release_dates", "recommendations")
TV_APPENDS = ("aggregate_credits", "content_ratings", "external_ids", "keywords", "videos")
LISTS = ("similar", "recommendations")
# TMDB's genre ids, which the catalogue uses: one, two of them (and), or either (or).
# fmt: off
DISCOVER_GENRES = {"movie": ("", "28", "35", "18", "28,12", "35|10749", "27", "878"),
                   "tv": ("", "18", "35", "10759", "80|9648")}
# fmt: on
# fmt: off
TITLE_LISTS = ("/3/movie/popular", "/3/movie/top_rated", "/3/movie/now_playing", "/3/movie/upcoming", "/3/tv/popular",
               "/3/tv/airing_today", "/3/tv/on_the_air", "/3/person/popular", "/3/trending/all/day",
               "/3/trending/movie/week")
# fmt: on
# fmt: off
DISCOVER_SORTS = {"movie": ("popularity.desc", "popularity.desc", "vote_average.desc", "primary_release_date.desc"),
                  "tv": ("popularity.desc", "first_air_date.desc", "vote_average.desc")}
# fmt: on
POSTER_SIZE = "w185"
MISSING_MOVIE = 999_999_999  # no release has it: the 404 every client meets sooner or later


class Client(FastHttpUser):
    """What both kinds of client share: a key of their account, and requests made with it."""

    abstract = True
    keys: list[str] = []

    def on_start(self) -> None:
        if not self.keys:
            raise RuntimeError("no keys: run the load test with `make load` (python -m loadtests.run)")
        self.key = random.choice(self.keys)

    def api(self, path: str, name: str, expect: int | None = None, **params: str):
        """GET `path` with the key; a success is `expect` if given, else any 2xx."""
        params["api_key"] = self.key
        with self.client.get(path, params=params, name=name, catch_response=True) as response:
            status = response.status_code
            if status == expect or (expect is None and 200 <= status < 300):
                response.success()
            else:
                response.failure(f"HTTP {status}, expected {expect or '2xx'}")
        return response


class ApiClient(Client):
    """An application on a plan it never goes over: anything but the expected answer is a failure."""

    keys = KEYS
    wait_time = between(0.05, 0.5)

    def on_start(self) -> None:
        super().on_start()
        # Clients read the image host from the configuration once, as TMDB's documentation asks.
        response = self.api("/3/configuration", "/3/configuration")
        self.image_base = response.json()["images"]["base_url"] if response.status_code == 200 else None

    @task(10)
    def movie(self) -> None:
        self.api("/3/movie/{}".format(*random.choice(TARGETS.movies)), "/3/movie/{id}")

    @task(4)
    def movie_in_a_language(self) -> None:
        self.api(
            "/3/movie/{}".format(*random.choice(TARGETS.movies)),
            "/3/movie/{id}?language",
            language=random.choice(LANGUAGES),
        )

    @task(3)
    def movie_with_appends(self) -> None:
        self.api(
            "/3/movie/{}".format(*random.choice(TARGETS.movies)),
            "/3/movie/{id}?append_to_response",
            append_to_response=",".join(random.sample(MOVIE_APPENDS, 3)),
        )

    @task(4)
    def search(self) -> None:
        # As typed: the first letters of a title, two to all of them (a search box asks as it goes).
        title = random.choice(TARGETS.titles)
        typed = title[: random.randint(2, max(2, len(title)))]
        kind = random.choice(("movie", "movie", "movie", "multi", "tv", "person"))
        self.api(f"/3/search/{kind}", "/3/search/{kind}", query=typed, language=random.choice(LANGUAGES))

    @task(1)
    def find(self) -> None:
        self.api(f"/3/find/{random.choice(TARGETS.imdb_ids)}", "/3/find/{imdb_id}", external_source="imdb_id")

    @task(2)
    def omdb_title(self) -> None:
        # OMDb's dialect: a title by IMDb id (nginx answers it from the release), now and then a title search.
        if random.random() < 0.8:
            self.omdb(i=random.choice(TARGETS.imdb_ids), plot=random.choice(("short", "full")))
        else:
            self.omdb(s=random.choice(TARGETS.titles).split(" ")[-1], type="movie")

    def omdb(self, **params: str):
        """GET /compat/ with OMDb's `apikey`; a success is a 200 with `"Response":"True"` (or, for a
        search whose word is too short or matches nothing, OMDb's answer saying so)."""
        params["apikey"] = self.key
        with self.client.get("/compat/", params=params, name="/compat/", catch_response=True) as r:
            if r.status_code == 200 and (b'"Response":"True"' in r.content or "s" in params):
                r.success()
            else:
                r.failure(f"HTTP {r.status_code}: {r.content[:80]!r}")
        return r

    @task(2)
    def discover(self) -> None:
        kind = random.choice(("movie", "movie", "movie", "tv"))
        params = {
            "sort_by": random.choice(DISCOVER_SORTS[kind]),
            "page": str(random.choice((1, 1, 1, 2, 3))),
            "with_genres": random.choice(DISCOVER_GENRES[kind]),
            "language": random.choice(LANGUAGES),
        }
        if kind == "movie" and random.random() < 0.3:
            params["primary_release_year"] = str(random.randint(1990, 2025))
        self.api(f"/3/discover/{kind}", "/3/discover/{kind}", **params)

    @task(2)
    def title_list(self) -> None:
        path = random.choice(TITLE_LISTS)
        self.api(path, "/3/{kind}/{list}", page=str(random.choice((1, 1, 1, 2))), language=random.choice(LANGUAGES))

    @task(3)
    def movie_credits(self) -> None:
        self.api("/3/movie/{}/credits".format(*random.choice(TARGETS.movies)), "/3/movie/{id}/credits")

    @task(3)
    def movie_list_page(self) -> None:
        # Pages past the last answer 200 with no results, as at TMDB: page 2 is always a success.
        kind = random.choice(LISTS)
        self.api(
            "/3/movie/{}/{}".format(*random.choice(TARGETS.movies), kind),
            f"/3/movie/{{id}}/{kind}?page",
            page=str(random.randint(1, 2)),
        )

    @task(3)
    def series(self) -> None:
        self.api(
            "/3/tv/{}".format(*random.choice(TARGETS.series)),
            "/3/tv/{id}?append_to_response",
            append_to_response=",".join(random.sample(TV_APPENDS, 2)),
            language=random.choice(LANGUAGES),
        )

    @task(2)
    def season(self) -> None:
        self.api("/3/tv/{}/season/{}".format(*random.choice(TARGETS.seasons)), "/3/tv/{id}/season/{n}")

    @task(3)
    def episode(self) -> None:
        self.api(
            "/3/tv/{}/season/{}/episode/{}".format(*random.choice(TARGETS.episodes)),
            "/3/tv/{id}/season/{n}/episode/{n}",
        )

    @task(3)
    def person(self) -> None:
        self.api("/3/person/{}".format(*random.choice(TARGETS.people)), "/3/person/{id}")

    @task(2)
    def person_credits(self) -> None:
        self.api(
            "/3/person/{}/combined_credits".format(*random.choice(TARGETS.people)), "/3/person/{id}/combined_credits"
        )

    @task(2)
    def collection(self) -> None:
        self.api("/3/collection/{}".format(*random.choice(TARGETS.collections)), "/3/collection/{id}")

    @task(2)
    def keyword_movies(self) -> None:
        self.api("/3/keyword/{}/movies".format(*random.choice(TARGETS.keywords)), "/3/keyword/{id}/movies")

    @task(2)
    def genres(self) -> None:
        self.api("/3/genre/movie/list", "/3/genre/movie/list")

    @task(2)
    def configuration(self) -> None:
        self.api("/3/configuration", "/3/configuration")

    @task(4)
    def poster(self) -> None:
        if self.image_base is None:
            return  # the configuration request failed, and is counted as a failure already
        url = f"{self.image_base}{POSTER_SIZE}{random.choice(TARGETS.posters)}"
        with self.client.get(url, name=f"/t/p/{POSTER_SIZE}/{{file}}", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}, expected 200")

    @task(2)
    def missing_movie(self) -> None:
        self.api(f"/3/movie/{MISSING_MOVIE}", "/3/movie/{id} (404)", expect=404)

    # /3/discover/movie?with_genres= joins the mix when discover answers (issue 17).


class OverRateClient(Client):
    """One client of the free account, at five requests a second: fifteen times the free plan's 20
    a minute, so most of its answers are 429 (from its fifth second on), and none is a failure."""

    keys = FREE_KEYS
    fixed_count = 1  # one is enough to go over the account's window, whatever LOAD_USERS is
    wait_time = constant_throughput(5)

    @task
    def movie(self) -> None:
        path = "/3/movie/{}".format(*random.choice(TARGETS.movies))
        with self.client.get(path, params={"api_key": self.key}, name=FREE_200, catch_response=True) as response:
            if response.status_code == 429:
                response.request_meta["name"] = FREE_429  # reported apart, so a run counts them
                response.success()
            elif response.status_code != 200:
                response.failure(f"HTTP {response.status_code}, expected 200 or 429")


@events.test_stop.add_listener
def last_csv_write(**_: object) -> None:
    """Locust writes its CSV stats once a second, and not again at the end: wait for one more
    write now that every client has stopped, so locust_stats.csv counts what the report counts."""
    gevent.sleep(CSV_STATS_INTERVAL_SEC + 0.2)
