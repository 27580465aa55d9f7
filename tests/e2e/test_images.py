"""The public image host: no key, long cache, only known sizes, /3/configuration points at it, and
whatever it has no file for is made once by the edge and kept by nginx."""

from __future__ import annotations

import re

import httpx
import pytest

from marquee.artefacts import IMAGE_INDEX, ORIGINALS
from marquee.image_sizes import sized
from marquee.packs import Pack, etag_of
from marquee_datasets.images import draw
from tests.e2e.conftest import eventually

pytestmark = pytest.mark.e2e


def poster_names(release, count: int) -> list[str]:
    """File names of the first `count` films' posters in `release`'s pack."""
    import orjson

    names = []
    with Pack(release) as pack:
        for name in pack.names("3/movie/%"):
            if re.fullmatch(r"3/movie/\d+\.json", name):
                poster = orjson.loads(pack.get(name))["poster_path"]
                if poster:
                    names.append(poster.lstrip("/"))
            if len(names) == count:
                return names
    return names


def edge_images(running) -> dict[str, float]:
    """The edge's image answers by outcome, from the admin listener's /metrics."""
    text = httpx.get(f"http://{running.settings.admin_host}:{running.settings.admin_port}/metrics").text
    return {
        outcome: float(n)
        for outcome, n in re.findall(r'^marquee_edge_image_sizes_total\{outcome="(\w+)"\} ([\d.e+]+)$', text, re.M)
    }


def test_a_generated_poster_is_made_once_at_every_size_then_served_from_its_file(api):
    key = api.account("images")
    config = api.get("/3/configuration", key).json()
    assert config["images"]["base_url"] == f"{api.images}/t/p/"
    assert config["images"]["secure_base_url"] == f"{api.images}/t/p/"
    [name] = poster_names(api.settings.current_link, 1)
    sizes = config["images"]["poster_sizes"]
    assert sizes[-1] == "original"
    store = api.settings.image_dir / "t/p"
    assert not any((store / size / name).exists() for size in sizes)  # a generated catalogue has no file
    urls = {size: f"{config['images']['base_url']}{size}/{name}" for size in sizes}
    first = {size: httpx.get(url) for size, url in urls.items()}
    original = draw(name, "poster")
    for size, image in first.items():
        assert image.status_code == 200, size
        assert image.headers["content-type"] == "image/jpeg"
        assert "immutable" in image.headers["cache-control"] and "max-age=31536000" in image.headers["cache-control"]
        assert image.content == sized(original, name, size)  # drawn from the path alone, then sized
        assert (store / size / name).read_bytes() == image.content  # nginx kept it (proxy_store)
    # The placeholder posters are 120 px wide: w500 is the original's bytes, w92 a smaller picture.
    assert first["original"].content == original == first["w500"].content
    assert first["w92"].content != original and first["w92"].content[:3] == b"\xff\xd8\xff"
    made = edge_images(api)
    second = {size: httpx.get(url) for size, url in urls.items()}
    assert {size: image.content for size, image in second.items()} == {s: i.content for s, i in first.items()}
    assert all("immutable" in image.headers["cache-control"] for image in second.values())
    assert edge_images(api) == made  # every one a plain file now: the edge was not asked again


@pytest.mark.parametrize(
    "path",
    [
        "/t/p/w999/x.jpg",
        "/t/p/original/../../BUILD",
        "/t/p/original/nope.jpg",
        "/t/p/w92/nope.jpg",
        "/3/configuration",
        "/t/p/original/",
    ],
)
def test_image_host_serves_nothing_else(api, path):
    assert httpx.get(f"{api.images}{path}").status_code == 404
    assert not (api.settings.image_dir / path.lstrip("/")).is_file()  # a 404 is never kept


@pytest.fixture(scope="module")
def with_files(start_stack, e2e_release, tmp_path_factory):
    """A stack serving the e2e release's documents from a catalogue with image files: the release
    links their folder, an image store of its own starts empty."""
    from PIL import Image

    folder = tmp_path_factory.mktemp("catalogue-images")
    Image.new("RGB", (300, 450), (200, 10, 10)).save(folder / "wide.jpg", "JPEG")  # w92 scales it down
    Image.new("RGB", (90, 135), (10, 200, 10)).save(folder / "small.jpg", "JPEG")
    release = tmp_path_factory.mktemp("releases") / "files"
    release.mkdir()
    for entry in e2e_release.iterdir():
        if entry.name != IMAGE_INDEX:
            (release / entry.name).symlink_to(entry)
    (release / ORIGINALS).symlink_to(folder)
    store = tmp_path_factory.mktemp("store")
    return start_stack(release=release, MARQUEE_IMAGE_DIR=str(store)), folder, store / "t/p"


def test_a_catalogue_s_original_is_its_file_and_its_sizes_are_made_once(with_files):
    running, folder, store = with_files
    base = f"{running.images}/t/p"
    original = httpx.get(f"{base}/original/wide.jpg")
    assert original.status_code == 200 and original.content == (folder / "wide.jpg").read_bytes()
    assert "immutable" in original.headers["cache-control"]
    assert not (store / "original/wide.jpg").exists()  # served from the catalogue's folder, not copied
    small = httpx.get(f"{base}/w92/wide.jpg")
    assert small.status_code == 200 and small.headers["content-type"] == "image/jpeg"
    assert small.content == sized(original.content, "wide.jpg", "w92") != original.content
    assert (store / "w92/wide.jpg").read_bytes() == small.content  # kept by nginx
    (store / "w92/wide.jpg").write_bytes(b"kept by nginx")  # the next request is the file, not the edge
    assert httpx.get(f"{base}/w92/wide.jpg").content == b"kept by nginx"
    # A size the original fits in is the original's bytes, kept as that size's file too.
    fits = httpx.get(f"{base}/w500/small.jpg")
    assert fits.status_code == 200 and fits.content == (folder / "small.jpg").read_bytes()
    assert (store / "w500/small.jpg").read_bytes() == fits.content
    # A HEAD first still keeps the whole file (nginx goes on reading the edge's answer after its own).
    assert httpx.head(f"{base}/w185/wide.jpg").status_code == 200
    eventually(lambda: (store / "w185/wide.jpg").is_file())
    assert (store / "w185/wide.jpg").read_bytes() == sized(original.content, "wide.jpg", "w185")
    for missing in (f"{base}/w92/nope.jpg", f"{base}/original/nope.jpg", f"{base}/w999/small.jpg"):
        assert httpx.get(missing).status_code == 404


def test_each_node_names_its_own_image_host_whatever_release_it_serves(start_stack, e2e_release, catalogue):
    """/3/configuration and OMDb's Poster URLs come from the answering node's settings, not the build
    host's baked into the release (the session's release was built for `img.test`): through nginx and
    through the edge."""
    movie_id, imdb_id, title, poster = catalogue.execute(
        "SELECT m.id, m.imdb_id, t.title, m.poster_path FROM movies m JOIN movie_translations t ON t.movie_id = m.id "
        "AND t.iso_639_1 = 'en' AND t.iso_3166_1 = 'US' AND t.title <> '' WHERE m.imdb_id LIKE 'tt%' "
        "AND m.poster_path <> '' AND NOT m.adult ORDER BY m.popularity DESC LIMIT 1"
    ).fetchone()
    no_poster = catalogue.execute(
        "SELECT imdb_id FROM movies WHERE imdb_id LIKE 'tt%' AND coalesce(poster_path, '') = '' LIMIT 1"
    ).fetchone()[0]
    with Pack(e2e_release) as pack:
        assert b"img.test" in pack.get("3/configuration.json")
        assert f'"Poster":"https://img.test/t/p/w342{poster}"'.encode() in pack.get(f"compat/movie/{movie_id}.json")
    nodes = [start_stack(), start_stack(MARQUEE_IMAGE_BASE_URL="https://cdn.example/t/p/")]
    for node, base in zip(nodes, (f"{nodes[0].images}/t/p/", "https://cdn.example/t/p/")):
        key = node.account("posters")  # the free plan's window holds the four requests of each part
        by_id = node.client.get("/compat/", params={"apikey": key, "i": imdb_id})  # nginx
        assert by_id.status_code == 200 and "x-marquee-cache" not in by_id.headers
        assert by_id.json()["Poster"] == f"{base}w342{poster}"
        assert by_id.headers["ETag"].strip('"') == etag_of(by_id.content)
        by_title = node.client.get("/compat/", params={"apikey": key, "t": title})  # the edge
        assert by_title.json() == by_id.json()
        found = node.client.get("/compat/", params={"apikey": key, "s": title, "r": "xml"})  # the edge's search
        assert f'poster="{base}w342{poster}"' in found.text
        assert node.client.get("/compat/", params={"apikey": key, "i": no_poster}).json()["Poster"] == "N/A"
        key = node.account("configured")
        plain = node.get("/3/configuration", key)
        appended = node.client.get("/3/configuration", params={"api_key": key, "append_to_response": "x"})  # the edge
        assert plain.status_code == appended.status_code == 200 and plain.json() == appended.json()
        assert plain.json()["images"]["base_url"] == plain.json()["images"]["secure_base_url"] == base
        assert plain.headers["ETag"].removeprefix("W/").strip('"') == etag_of(plain.content)
        again = node.client.get(
            "/3/configuration", params={"api_key": key}, headers={"If-None-Match": plain.headers["ETag"]}
        )
        assert again.status_code == 304
