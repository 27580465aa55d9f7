"""The Sanic app in-process: dynamic /3 paths run the same key check, errors keep TMDB's envelope."""

from __future__ import annotations

import pytest

from marquee.registry import Registry
from marquee.settings import from_env
from tests.redis_fixture import redis_server  # noqa: F401  (fixture)


@pytest.fixture
def app_and_key(tmp_path, redis_server):
    from edge.app import create_app

    settings = from_env({"MARQUEE_HOME": str(tmp_path), "MARQUEE_REDIS_URL": redis_server.url,
                         "MARQUEE_PLANS": "free=2"})
    settings.run_dir.mkdir(parents=True)
    reg = Registry(settings.registry_path, settings.plans)
    reg.create_account("acme", "free")
    _, key = reg.create_key("acme")
    reg.close()
    return create_app(settings, name=f"edge_{tmp_path.name}"), key


def test_dynamic_paths_check_the_key_then_answer_404_34(app_and_key):
    app, key = app_and_key
    _, response = app.test_client.get("/3/search/nothing-yet", params={"api_key": key})
    assert response.status == 404 and response.json["status_code"] == 34
    assert response.headers["X-RateLimit-Limit"] == "2"
    _, response = app.test_client.get("/3/search/nothing-yet")
    assert response.status == 401 and response.json["status_code"] == 7
    assert response.json["message"] == response.json["status_message"]


def test_rate_limit_applies_to_dynamic_paths_too(app_and_key):
    app, key = app_and_key
    codes = []
    for _ in range(3):
        _, response = app.test_client.get("/3/x", headers={"Authorization": f"Bearer {key}"})
        codes.append(response.status)
    assert codes == [404, 404, 429]
    assert int(response.headers["Retry-After"]) >= 1


def test_healthz_reports_release_and_counters(app_and_key):
    app, _ = app_and_key
    _, response = app.test_client.get("/healthz")
    assert response.status == 200
    assert response.json["release"] is None and response.json["keys"] == 1
    assert response.json["redis_down"] == {"refused": 0, "admitted": 0}


def test_unknown_non_api_paths_get_the_tmdb_404(app_and_key):
    app, _ = app_and_key
    _, response = app.test_client.get("/elsewhere")
    assert response.status == 404 and response.json["status_code"] == 34
