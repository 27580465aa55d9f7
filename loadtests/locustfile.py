"""Locust load test for a running Marquee (`make run`, or any host): the traffic mix API clients send.

    .venv/bin/locust -f loadtests/locustfile.py --headless -u 100 -r 20 -t 1m \\
        --host http://127.0.0.1:8080 --csv var/locust

Keys come from MARQUEE_LOCUST_KEYS (comma-separated); with several, each simulated user takes one,
so a plan's rate applies per account as in production. Movie ids are read from the published
release (MARQUEE_HOME/current), so every request names a real document.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from locust import between, task
from locust.contrib.fasthttp import FastHttpUser

from marquee.settings import from_env

SETTINGS = from_env()
KEYS = [k for k in os.environ.get("MARQUEE_LOCUST_KEYS", "").split(",") if k]
MOVIE_IDS = sorted(int(p.name.split(".")[0]) for p in (SETTINGS.current_link / "3" / "movie").glob("*.json")
                   if p.name.count(".") == 1)
LANGUAGES = SETTINGS.languages
APPENDS = ["credits", "videos", "images", "keywords", "external_ids", "release_dates", "recommendations"]


class ApiClient(FastHttpUser):
    wait_time = between(0.05, 0.5)

    def on_start(self) -> None:
        if not KEYS:
            raise RuntimeError("set MARQUEE_LOCUST_KEYS to one or more API keys (marquee keys create ...)")
        if not MOVIE_IDS:
            raise RuntimeError(f"no published release under {SETTINGS.current_link}")
        self.key = random.choice(KEYS)

    def get(self, path: str, name: str, **params: str) -> None:
        params["api_key"] = self.key
        with self.client.get(path, params=params, name=name, catch_response=True) as response:
            # 429 is the limiter doing its job; anything else that is not 200 is a failure.
            if response.status_code in (200, 429):
                response.success()

    @task(10)
    def movie_details(self) -> None:
        self.get(f"/3/movie/{random.choice(MOVIE_IDS)}", "/3/movie/{id}")

    @task(4)
    def movie_details_translated(self) -> None:
        self.get(f"/3/movie/{random.choice(MOVIE_IDS)}", "/3/movie/{id}?language", language=random.choice(LANGUAGES))

    @task(5)
    def movie_credits(self) -> None:
        self.get(f"/3/movie/{random.choice(MOVIE_IDS)}/credits", "/3/movie/{id}/credits")

    @task(3)
    def movie_with_appends(self) -> None:
        self.get(f"/3/movie/{random.choice(MOVIE_IDS)}", "/3/movie/{id}?append_to_response",
                 append_to_response=",".join(random.sample(APPENDS, 5)))

    @task(1)
    def configuration(self) -> None:
        self.get("/3/configuration", "/3/configuration")

    @task(1)
    def genres(self) -> None:
        self.get("/3/genre/movie/list", "/3/genre/movie/list")

    @task(1)
    def unknown_movie(self) -> None:
        with self.client.get("/3/movie/999999999", params={"api_key": self.key}, name="404",
                             catch_response=True) as response:
            if response.status_code in (404, 429):
                response.success()
