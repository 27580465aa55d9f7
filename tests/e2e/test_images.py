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


@pytest.fixture(scope="module")
def on_request(start_stack, e2e_release, tmp_path_factory):
    """A stack with MARQUEE_IMAGE_SIZES=request over a store of originals only."""
    import shutil

    store = tmp_path_factory.mktemp("on-request-images")
    originals = store / "t/p/original"
    originals.mkdir(parents=True)
    source = e2e_release.parent.parent / "images/t/p/original"
    from PIL import Image

    def width(name: str) -> int:
        with Image.open(source / name) as image:
            return image.width

    everything = sorted(p.name for p in source.glob("*.jpg"))
    wide = next(name for name in everything if width(name) > 92)  # one that w92 scales down
    names = [wide] + [name for name in everything if name != wide][:2]
    for name in names:
        shutil.copy(source / name, originals / name)
    (store / "t/p/w92").mkdir()
    return start_stack(MARQUEE_IMAGE_SIZES="request", MARQUEE_IMAGE_DIR=str(store)), store, names


def test_a_size_is_made_on_its_first_request_then_served_as_a_file(on_request):
    import httpx
    from PIL import Image
    import io

    from site_gen.images import size_of_original

    running, store, names = on_request
    base = f"{running.images}/t/p"
    first = httpx.get(f"{base}/w92/{names[0]}")
    assert first.status_code == 200 and first.headers["content-type"] == "image/jpeg"
    assert "immutable" in first.headers["cache-control"]
    assert first.content == size_of_original(store / "t/p/original" / names[0], "w92")
    with Image.open(io.BytesIO(first.content)) as image:
        assert image.width <= 92
    stored = store / "t/p/w92" / names[0]
    assert stored.read_bytes() == first.content  # nginx kept it (proxy_store)
    stored.write_bytes(b"kept by nginx")  # the next request is the file, not the edge
    assert httpx.get(f"{base}/w92/{names[0]}").content == b"kept by nginx"
    # A size the original fits in is the original itself, and nothing is stored for it.
    big = httpx.get(f"{base}/w1280/{names[1]}")
    assert big.status_code == 200 and big.content == (store / "t/p/original" / names[1]).read_bytes()
    assert "immutable" in big.headers["cache-control"] and not (store / "t/p/w1280" / names[1]).exists()
    for missing in (f"{base}/w92/nope.jpg", f"{base}/original/nope.jpg", f"{base}/w999/{names[2]}"):
        assert httpx.get(missing).status_code == 404
