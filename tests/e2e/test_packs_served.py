"""Release packs through nginx (nginx/lua/marquee_docs.lua): publishing and rolling back between
packs while serving, methods, and the edge reading the same pack."""

from __future__ import annotations

import os

import pytest

from site_gen.writer import Writer
from tests.e2e.conftest import assert_tmdb_error

pytestmark = pytest.mark.e2e


def make_release(folder, title: str):
    writer = Writer(folder)
    writer.write("/3/configuration", {"images": {}, "change_keys": []})
    writer.write("/3/movie/7", {"id": 7, "title": title, "overview": ""})
    writer.write("/3/movie/7/credits", {"id": 7, "cast": [{"name": title}], "crew": []})
    writer.finish()
    (folder / "BUILD").write_text(folder.name + "\n")
    return folder


def point_current(settings, release) -> None:
    """What `marquee publish` and `rollback` do: a new symlink renamed over `current`."""
    link = settings.current_link
    temporary = link.with_name(".current.new")
    temporary.symlink_to(release)
    os.replace(temporary, link)


@pytest.fixture(scope="module")
def packs_api(start_stack, tmp_path_factory):
    base = tmp_path_factory.mktemp("packs")
    releases = [make_release(base / f"r{n}", f"Title {n}") for n in range(4)]
    return start_stack(release=releases[0]), releases


def test_every_publish_and_rollback_is_seen_by_the_next_request(packs_api):
    api, releases = packs_api
    # Four releases through the same nginx workers: each keeps two packs open and closes the oldest.
    for step, n in enumerate((0, 1, 2, 3, 1, 0)):
        key = api.account(f"packs-{step}", "pro")  # five requests a step, well inside one window
        point_current(api.settings, releases[n])
        for _ in range(3):  # reach both workers
            assert api.client.get("/3/movie/7", params={"api_key": key}).json()["title"] == f"Title {n}"
        spliced = api.client.get("/3/movie/7", params={"api_key": key, "append_to_response": "credits"}).json()
        assert spliced["credits"]["cast"] == [{"name": f"Title {n}"}]
        # `trailers` is the edge's answer (a JSON rewrite): it reads the same pack.
        by_edge = api.client.get("/3/movie/7", params={"api_key": key, "append_to_response": "trailers,credits"})
        assert by_edge.status_code == 200, by_edge.text
        assert by_edge.json()["title"] == f"Title {n}" and by_edge.json()["credits"] == spliced["credits"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_other_methods_get_405_in_tmdbs_envelope(packs_api, method):
    api, _ = packs_api
    key = api.account(f"method-{method}", "pro")
    assert_tmdb_error(api.client.request(method, "/3/movie/7", params={"api_key": key}), 405, 42)


def test_unknown_names_are_404_34_and_never_reach_a_file(packs_api):
    api, _ = packs_api
    key = api.account("names", "pro")
    for path in ("/3/movie/8", "/3/movie/7/nope", "/3/movie/7/../../BUILD", "/3/documents.sqlite", "/3/"):
        assert_tmdb_error(api.client.get(path, params={"api_key": key}), 404, 34)
