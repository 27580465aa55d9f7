"""End-to-end fixtures: real redis-server, edge and nginx on free loopback ports, as `marquee serve` runs them."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from control.cli import cli
from control.services import Stack, free_port
from edge import list_pack
from marquee.packs import PACK_NAME
from marquee.registry import hash_key
from marquee.settings import Settings, from_env, to_env
from tests.release_files import pack_tree

pytestmark = pytest.mark.e2e


CLI_RUNNING = threading.Lock()


@dataclass
class Running:
    """A started stack plus the helpers tests need to drive it."""

    settings: Settings
    stack: Stack
    client: httpx.Client

    @property
    def images(self) -> str:
        return f"http://{self.settings.listen_host}:{self.settings.image_port}"

    def cli(self, *args: str, input: str | None = None) -> CliResult:
        with CLI_RUNNING:  # CliRunner swaps sys.stdout and os.environ: one command at a time
            result = CliRunner().invoke(cli, list(args), env=to_env(self.settings), catch_exceptions=False, input=input)
        return CliResult(result.exit_code, result.stdout, result.stderr)

    def account(self, name: str, plan: str = "free") -> str:
        """Create `name` on `plan` and return a fresh key for it."""
        assert self.cli("accounts", "create", name, "--plan", plan).exit_code == 0
        return self.new_key(name)

    def new_key(self, account: str, label: str = "") -> str:
        result = self.cli("keys", "create", "--account", account, "--label", label)
        assert result.exit_code == 0, result.stderr
        return result.stdout.strip()  # in effect on every door now: no wait

    def get(self, path: str, key: str | None = None, bearer: bool = False, **headers: str) -> httpx.Response:
        params = {}
        if key is not None and not bearer:
            params["api_key"] = key
        if key is not None and bearer:
            headers["Authorization"] = f"Bearer {key}".strip()
        return self.client.get(path, params=params, headers=headers)

    def exported(self, key: str) -> None:
        """Wait until the edge's poll has put `key` in nginx's fallback export (for Redis-down tests)."""
        eventually(lambda: hash_key(key).encode() in self.settings.gate_grants.read_bytes())
        time.sleep(3 * self.settings.registry_poll_seconds)  # and each nginx worker's timer has read it

    def key_id(self, account: str, label: str) -> str:
        rows = self.cli("keys", "list", "--account", account).stdout.splitlines()[1:]
        return next(row.split("\t")[0] for row in rows if row.split("\t")[1] == label)


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met within the timeout")
        time.sleep(0.05)


def assert_tmdb_error(response: httpx.Response, http_status: int, status_code: int) -> dict:
    assert response.status_code == http_status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["success"] is False
    assert body["status_code"] == status_code
    assert body["status_message"] and body["message"] == body["status_message"]
    return body


def point_current(settings, release) -> None:
    """What `marquee publish` and `rollback` do: a new symlink renamed over `current`."""
    link = settings.current_link
    temporary = link.with_name(".current.new")
    temporary.symlink_to(release)
    os.replace(temporary, link)


def copy_release(release: Path, folder: Path, without_film: int | None = None) -> Path:
    """`release` again in `folder` (hard links), its search index a copy of its own; with
    `without_film`, that film is taken out of the index's movies (found by no query): two releases
    whose answers differ."""
    import shutil
    import sqlite3

    from pyroaring import BitMap

    from marquee.artefacts import SEARCH_INDEX

    shutil.copytree(release, folder, symlinks=True, copy_function=os.link, ignore=shutil.ignore_patterns(SEARCH_INDEX))
    shutil.copyfile(release / SEARCH_INDEX, folder / SEARCH_INDEX)
    if without_film is not None:
        index = sqlite3.connect(folder / SEARCH_INDEX)
        rank = index.execute("SELECT rank FROM ranks WHERE kind = 'movie' AND id = ?", (without_film,)).fetchone()[0]
        for term, blob in index.execute("SELECT term, ranks FROM postings WHERE kind = 'movie'").fetchall():
            bitmap = BitMap.deserialize(blob)
            bitmap.discard(rank)
            index.execute("UPDATE postings SET ranks = ? WHERE kind = 'movie' AND term = ?", (bitmap.serialize(), term))
        index.execute("DELETE FROM exact WHERE kind = 'movie' AND rank = ?", (rank,))
        index.commit()
        index.close()
    return folder


def rotating_get(api: Running, prefix: str, key_name: str = "api_key") -> Callable[..., httpx.Response]:
    """GET through nginx with a key of a `pro` account (as `key_name`: OMDb's is `apikey`), moving to a
    new account when its window of 30 is spent: for tests that send more requests than one window holds."""
    keys = iter(api.account(f"{prefix}{n}", "pro") for n in range(1000))
    key = [next(keys)]

    def get(path: str, **params: str) -> httpx.Response:
        response = api.client.get(path, params={key_name: key[0], **params})
        if response.status_code == 429:
            key[0] = next(keys)
            response = api.client.get(path, params={key_name: key[0], **params})
        return response

    return get


def rotating_json(api: Running, prefix: str) -> Callable[..., dict]:
    """rotating_get for tests that read many answers: the JSON body of a GET that must answer `expect`."""
    get = rotating_get(api, prefix)

    def answer(path: str, expect: int = 200, **params: str) -> dict:
        response = get(path, **params)
        assert response.status_code == expect, response.text
        return response.json()

    return answer


def all_pages(answer: Callable[..., dict], target: str, **params: str) -> list[dict]:
    """Every page's results of a paginated list, `answer(target, page=…, **params)` a page; the
    pages must add up to its `total_results`."""
    first = answer(target, **params)
    results = list(first["results"])
    for page in range(2, first["total_pages"] + 1):
        results.extend(answer(target, page=str(page), **params)["results"])
    assert len(results) == first["total_results"]
    return results


@pytest.fixture(scope="session")
def e2e_release(built_pack: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's build, copied and with its list pack published as `marquee build` does, shared by
    every stack of the session (each answers /3/configuration with its own image host)."""
    import shutil

    settings = from_env({"MARQUEE_HOME": str(tmp_path_factory.mktemp("e2e"))})
    release = settings.releases_dir / "e2e"
    assert settings.image_dir == release.parent.parent / "images"  # what start_stack's image host serves
    shutil.copytree(built_pack, release)  # a copy: tests may change what a stack serves
    list_pack.publish(release, settings.languages)
    return release


@pytest.fixture(scope="session")
def launch_stack(e2e_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Running]:
    """Start a stack with extra MARQUEE_* settings (its owner stops it: `start_stack`, `api`)."""

    def start(ports: dict[str, str] | None = None, release: Path | None = None, **env: str) -> Running:
        home = tmp_path_factory.mktemp("home")
        settings = from_env(
            {
                "MARQUEE_HOME": str(home),
                "MARQUEE_REGISTRY_POLL_SECONDS": "0.1",
                "MARQUEE_PLANS": "free=5,standard=10,pro=30",
                # The image store beside the e2e release (shared by every release and stack).
                "MARQUEE_IMAGE_DIR": str(e2e_release.parent.parent / "images"),
                **(ports or {"MARQUEE_API_PORT": str(free_port()), "MARQUEE_IMAGE_PORT": str(free_port())}),
                "MARQUEE_ADMIN_PORT": str(free_port()),
                **env,
            }
        )
        if release is not None and not (release / PACK_NAME).exists():
            release = pack_tree(release)  # a handmade folder of documents: pack it as site_gen would
        home.joinpath("current").symlink_to(release or e2e_release)
        stack = Stack(settings).start()
        return Running(settings, stack, httpx.Client(base_url=settings.api_base_url, timeout=10))

    return start


def stop(running: Running) -> None:
    running.client.close()
    running.stack.stop()


@pytest.fixture(scope="module")
def start_stack(launch_stack: Callable[..., Running]) -> Iterator[Callable[..., Running]]:
    """Start a stack with extra MARQUEE_* settings; the stacks a module starts stop when it ends, so
    the next modules do not share two cores with their idle processes."""
    started: list[Running] = []

    def start(ports: dict[str, str] | None = None, release: Path | None = None, **env: str) -> Running:
        started.append(launch_stack(ports, release, **env))
        return started[-1]

    yield start
    for running in started:
        stop(running)


@pytest.fixture(scope="session")
def api(launch_stack: Callable[..., Running]) -> Iterator[Running]:
    """The session's main stack."""
    running = launch_stack()
    yield running
    stop(running)
