"""Shared pytest fixtures."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from site_gen.release import ReleaseSummary

# ---------------------------------------------------------------------------------------------
# `make test` runs the suite on pytest-xdist's workers with `--dist loadgroup`: the tests of a module
# that shares a fixture wider than a test (a module's stack, its catalogue) run on one worker, so it
# is made once; any other test goes to whichever worker is free.
# ---------------------------------------------------------------------------------------------

SHARED_SCOPES = ("module", "package", "class")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    shared = {item.module.__name__ for item in items if shares_a_fixture(item)}
    for item in items:
        if item.module.__name__ in shared:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


def shares_a_fixture(item: pytest.Item) -> bool:
    definitions = getattr(item, "_fixtureinfo", None)
    return definitions is not None and any(
        fixture.scope in SHARED_SCOPES for defs in definitions.name2fixturedefs.values() for fixture in defs
    )


# ---------------------------------------------------------------------------------------------
# Catalogue and release fixtures (datasets/, build/, site_gen/, marquee/releases.py).
# Self-contained: a small generated catalogue and one rendered release, built once per session.
# ---------------------------------------------------------------------------------------------

CATALOGUE_MOVIES = 150
CATALOGUE_SEED = 7


@pytest.fixture(scope="session")
def catalogue_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated catalogue (Parquet tables; its images drawn from their paths) of CATALOGUE_MOVIES movies."""
    from marquee_datasets.synthetic import generate

    path = tmp_path_factory.mktemp("catalogue")
    generate(path, CATALOGUE_MOVIES, CATALOGUE_SEED)
    return path


@pytest.fixture(scope="session")
def release_settings(tmp_path_factory: pytest.TempPathFactory):
    """Settings (ignoring the caller's environment) with a private HOME and test image URLs."""
    from marquee.settings import from_env

    return from_env(
        {
            "MARQUEE_HOME": str(tmp_path_factory.mktemp("home")),
            "MARQUEE_IMAGE_BASE_URL": "http://img.test/t/p/",
            "MARQUEE_IMAGE_SECURE_BASE_URL": "https://img.test/t/p/",
        }
    )


@dataclass
class Built:
    """The session's build: its release folder, its summary, the line it echoed and the progress it
    told (each `(phase, done, total)`), for tests of the build's report that need no build of their own."""

    release: Path
    summary: ReleaseSummary | None
    lines: list[str] = field(default_factory=list)
    heard: list[tuple[str, int, int]] = field(default_factory=list)


@pytest.fixture(scope="session")
def built(catalogue_dir: Path, release_settings) -> Built:
    from control import openapi
    from marquee.artefacts import OPENAPI
    from site_gen.release import render_release

    build = Built(release_settings.releases_dir / "20260101T000000Z", None)
    build.summary = render_release(
        release_settings,
        catalogue_dir,
        build.release,
        echo=build.lines.append,
        progress=lambda *event: build.heard.append(event),
        files={OPENAPI: openapi.body(release_settings)},  # as `marquee build` writes it
    )
    return build


@pytest.fixture(scope="session")
def built_pack(built: Built) -> Path:
    """A rendered (not published) release folder of the session catalogue, with its pack."""
    return built.release


@pytest.fixture(scope="session")
def built_release(built_pack: Path) -> Path:
    """The same release as one file per document (`3/movie/603.de-DE.json`, the names of its pack
    rows), so tests of what site_gen renders can open and glob documents as paths. Every byte
    comes from the pack; the layout itself is tested on `built_pack`."""
    from tests.release_files import unpacked

    return unpacked(built_pack)


@pytest.fixture(scope="session")
def image_store(built_pack: Path, catalogue_dir: Path, release_settings) -> Path:
    """The image store `marquee images` fills from the session catalogue (what MARQUEE_IMAGE_SIZES=build
    makes ahead; the build itself makes none): `<size>/<file>`, served under /t/p/."""
    from site_gen.image_job import make_ahead

    make_ahead(catalogue_dir, release_settings.image_dir)
    return release_settings.image_dir / "t/p"


@pytest.fixture(scope="module")
def catalogue(catalogue_dir: Path):
    """The session catalogue as DuckDB views, one per Parquet table: what answers are checked against."""
    import duckdb

    con = duckdb.connect()
    for table in sorted(catalogue_dir.glob("*.parquet")):
        con.execute(f"CREATE VIEW \"{table.stem}\" AS SELECT * FROM read_parquet('{table}')")
    yield con
    con.close()
