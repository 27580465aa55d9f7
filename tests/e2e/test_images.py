"""The public image host: no key, long cache, only known sizes, and /3/configuration points at it."""

from __future__ import annotations

import pytest

from tests.release_files import unpacked

pytestmark = pytest.mark.e2e


def test_configuration_points_at_the_image_host_and_posters_load(api):
    key = api.account("images")
    config = api.get("/3/configuration", key).json()
    assert config["images"]["base_url"] == f"{api.images}/t/p/"
    assert config["images"]["secure_base_url"] == f"{api.images}/t/p/"
    movie = next(m for m in (api.get(f"/3/movie/{p.stem}", key).json()
                             for p in sorted((unpacked(api.settings.current_link) / "3/movie").glob("*.json"))[:3])
                 if m["poster_path"])
    import httpx

    for size in ("original", "w500", config["images"]["poster_sizes"][0]):
        image = httpx.get(f"{config['images']['base_url']}{size}{movie['poster_path']}")
        assert image.status_code == 200
        assert image.headers["content-type"] == "image/jpeg"
        assert image.content[:3] == b"\xff\xd8\xff"
        assert "immutable" in image.headers["cache-control"]
        assert "max-age=31536000" in image.headers["cache-control"]
        assert "api_key" not in str(image.url)
    # The placeholder posters are 120 px wide or less: w500 is the original's bytes, by the fallback.
    original = httpx.get(f"{config['images']['base_url']}original{movie['poster_path']}").content
    assert httpx.get(f"{config['images']['base_url']}w500{movie['poster_path']}").content == original
    smallest = httpx.get(f"{config['images']['base_url']}w92{movie['poster_path']}").content
    assert smallest != original and smallest[:3] == b"\xff\xd8\xff"


@pytest.mark.parametrize("path", ["/t/p/w999/x.jpg", "/t/p/original/../../BUILD", "/t/p/original/nope.jpg",
                                  "/3/configuration", "/t/p/original/"])
def test_image_host_serves_nothing_else(api, path):
    import httpx

    assert httpx.get(f"{api.images}{path}").status_code == 404
