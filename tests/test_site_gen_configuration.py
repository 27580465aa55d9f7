from __future__ import annotations

from pathlib import Path

import orjson

from marquee.configuration import CHANGE_KEYS


def test_configuration_uses_the_settings_urls_and_tmdb_sizes(built_release: Path, release_settings):
    doc = orjson.loads((built_release / "3/configuration.json").read_bytes())
    images = doc["images"]
    assert images["base_url"] == release_settings.image_base_url == "http://img.test/t/p/"
    assert images["secure_base_url"] == release_settings.image_secure_base_url == "https://img.test/t/p/"
    assert images["backdrop_sizes"] == ["w300", "w780", "w1280", "original"]
    assert images["logo_sizes"] == ["w45", "w92", "w154", "w185", "w300", "w500", "original"]
    assert images["poster_sizes"] == ["w92", "w154", "w185", "w342", "w500", "w780", "original"]
    assert images["profile_sizes"] == ["w45", "w185", "h632", "original"]
    assert images["still_sizes"] == ["w92", "w185", "w300", "original"]
    assert doc["change_keys"] == CHANGE_KEYS and len(CHANGE_KEYS) == 53 and CHANGE_KEYS == sorted(CHANGE_KEYS)


def test_configuration_default_base_url_follows_the_image_port(tmp_path: Path):
    from marquee.configuration import configuration_document
    from marquee.settings import from_env

    settings = from_env({"MARQUEE_HOME": str(tmp_path), "MARQUEE_IMAGE_PORT": "9191"})
    images = configuration_document(settings)["images"]
    assert images["base_url"] == images["secure_base_url"] == "http://127.0.0.1:9191/t/p/"


def test_authentication_document(built_release: Path):
    doc = orjson.loads((built_release / "3/authentication.json").read_bytes())
    assert doc == {"success": True, "status_code": 1, "status_message": "Success."}


def test_genre_list_is_tmdb_genres_alphabetically(built_release: Path):
    genres = orjson.loads((built_release / "3/genre/movie/list.json").read_bytes())["genres"]
    assert len(genres) == 19 and {"id": 878, "name": "Science Fiction"} in genres
    assert [g["name"] for g in genres] == sorted(g["name"] for g in genres)
