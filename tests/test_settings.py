"""Every setting is read from the environment in one place and documented in the README."""

from __future__ import annotations

from pathlib import Path

import pytest

from marquee.settings import SETTINGS, from_env, to_env

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.env)
def test_every_setting_is_in_the_readme_configuration_table(setting):
    rows = [line for line in README.read_text().splitlines() if line.startswith(f"| `{setting.env}`")]
    assert rows, f"{setting.env} is missing from the README configuration table"


def test_the_readme_documents_no_setting_that_does_not_exist():
    documented = {line.split("`")[1] for line in README.read_text().splitlines() if line.startswith("| `MARQUEE_")}
    assert documented == {setting.env for setting in SETTINGS}


def test_defaults_and_derived_paths(tmp_path):
    settings = from_env({"MARQUEE_HOME": str(tmp_path)})
    assert settings.plans == {"free": 20, "standard": 40, "pro": 120, "loadtest": 1_000_000}
    assert settings.rate_window_seconds == 60
    assert settings.registry_path == tmp_path / "registry.sqlite3"
    assert settings.image_base_url == "http://127.0.0.1:8081/t/p/"
    assert settings.image_secure_base_url == settings.image_base_url


def test_settings_round_trip_through_the_environment(tmp_path):
    settings = from_env({"MARQUEE_HOME": str(tmp_path), "MARQUEE_PLANS": "a=1,b=2", "MARQUEE_API_PORT": "9000"})
    assert from_env(to_env(settings)) == settings


@pytest.mark.parametrize(
    "env",
    [
        {"MARQUEE_PLANS": "free"},
        {"MARQUEE_PLANS": "free=0"},
        {"MARQUEE_API_PORT": "eighty"},
        {"MARQUEE_REDIS_DOWN_POLICY": "maybe"},
    ],
)
def test_bad_values_name_the_variable(env):
    with pytest.raises(ValueError, match=next(iter(env))):
        from_env(env)


def test_nginx_takes_every_core_by_default(tmp_path, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    assert from_env({"MARQUEE_HOME": str(tmp_path)}).nginx_workers == 4
    assert from_env({"MARQUEE_HOME": str(tmp_path), "MARQUEE_NGINX_WORKERS": "2"}).nginx_workers == 2
