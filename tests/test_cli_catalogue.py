from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from control.cli import cli


@pytest.fixture
def run(tmp_path: Path):
    env = {"MARQUEE_HOME": str(tmp_path / "home")}

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)

    invoke.home = tmp_path / "home"
    return invoke


def test_generate_build_publish_rollback_releases(run):
    result = run("generate", "--movies", "30", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert (run.home / "catalogue/movies.parquet").is_file() and "movies 30" in result.output

    first = run("build")
    assert first.exit_code == 0, first.output
    assert "documents" in first.output and "published" in first.output and "unchanged" not in first.output
    second = run("build", "--no-publish")  # the same catalogue: an update over the first, nothing changed
    assert second.exit_code == 0 and "not published" in second.output and "unchanged" in second.output

    names = sorted(p.name for p in (run.home / "releases").iterdir() if not p.name.startswith((".", "H")))
    assert len(names) == 2
    listing = run("releases").output.splitlines()
    assert listing == [f"* {names[0]}", f"  {names[1]}"]

    assert run("publish", names[1]).exit_code == 0
    assert os.readlink(run.home / "current") == f"releases/{names[1]}"
    assert (run.home / "current/documents.sqlite").is_file()
    rolled = run("rollback")
    assert rolled.exit_code == 0 and names[0] in rolled.output
    again = run("rollback")
    assert again.exit_code == 1 and "nothing to roll back to" in again.output


@pytest.mark.parametrize(
    "args, message",
    [
        (("build", "--catalogue", "/nonexistent/catalogue"), "does not exist"),
        (("publish", "20990101T000000Z"), "no release named 20990101T000000Z"),
        (("publish", "latest"), "not a release name"),
        (("rollback",), "nothing to roll back to"),
    ],
)
def test_user_mistakes_are_one_clear_line(run, args, message):
    result = run(*args)
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert result.output.startswith("Error: ")


def test_build_with_a_missing_table_names_it(run, catalogue_dir: Path, tmp_path: Path):
    import shutil

    partial = tmp_path / "partial"
    shutil.copytree(catalogue_dir, partial, ignore=shutil.ignore_patterns("images", "people.parquet"))
    result = run("build", "--catalogue", str(partial))
    assert result.exit_code == 1 and "missing table 'people'" in result.output
    assert not (run.home / "current").exists()


def test_releases_with_none(run):
    result = run("releases")
    assert result.exit_code == 0 and "no releases" in result.output


def test_a_build_with_build_sizes_publishes_first_and_its_job_makes_every_size(tmp_path: Path):
    import fcntl
    import re
    import time

    from marquee.artefacts import IMAGE_INDEX
    from marquee_datasets.synthetic import generate
    from site_gen.image_job import LOCK, catalogue_images

    catalogue_dir = tmp_path / "catalogue"  # small: the job makes every size of every image
    generate(catalogue_dir, 20, 3)
    home = tmp_path / "home"
    store = home / "images/t/p"
    store.mkdir(parents=True)
    with open(store / LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the job waits for it: what the build did shows alone
        result = CliRunner().invoke(
            cli,
            ["build", "--catalogue", str(catalogue_dir)],
            catch_exceptions=False,
            env={"MARQUEE_HOME": str(home), "MARQUEE_IMAGE_SIZES": "build"},
        )
        assert result.exit_code == 0, result.output
        assert "published" in result.output and re.search(r"`marquee images` \(pid \d+\)", result.output)
        assert (home / "current/BUILD").is_file() and (home / "current" / IMAGE_INDEX).is_file()
        assert sorted(p.name for p in store.iterdir()) == [LOCK]  # published with no image made
    log = home / "log/images.log"
    deadline = time.monotonic() + 120
    while "files written" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, log.read_text() if log.exists() else "no log"
        time.sleep(0.2)
    assert re.search(r"^images: \d+ originals, \d+ new or changed, \d+ files written", log.read_text(), re.M)
    images = catalogue_images(catalogue_dir)
    posters = [n for n, kind in zip(images["name"].to_pylist(), images["kind"].to_pylist()) if kind == "poster"]
    assert posters and all(
        (store / "original" / name).is_file() and (store / "w92" / name).is_file() for name in posters
    )
