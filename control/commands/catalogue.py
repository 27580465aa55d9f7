"""Catalogue commands: generate a sample catalogue, build a release, make its images ahead, publish,
roll back, list releases.

User mistakes (a missing catalogue, an unknown or incomplete release, nothing to roll back to) end
as click.ClickException with one clear line, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from datetime import UTC
from pathlib import Path

import click

from control import openapi
from marquee import releases as release_store
from marquee import warm
from marquee.artefacts import OPENAPI
from marquee.settings import Settings, to_env


@click.command()
@click.option(
    "--movies", type=click.IntRange(min=1), default=None, help="Number of movies (default: MARQUEE_SAMPLE_MOVIES)."
)
@click.option(
    "--series", type=click.IntRange(min=1), default=None, help="Number of TV series (default: one per ten movies)."
)
@click.option("--seed", type=int, default=None, help="Random seed (default: MARQUEE_SAMPLE_SEED).")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: MARQUEE_CATALOGUE_DIR).",
)
@click.option(
    "--today",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="The day the catalogue is dated around (default: today, UTC): films come out and "
    "episodes air around it, so the dated lists have titles.",
)
@click.pass_obj
def generate(
    settings: Settings, movies: int | None, series: int | None, seed: int | None, out: Path | None, today
) -> None:
    """Generate a deterministic synthetic catalogue (for a seed and a day) as Parquet files; its images
    are drawn from their paths when first asked for, never written."""
    from datetime import datetime

    from marquee_datasets.synthetic import generate as generate_catalogue

    movies = settings.sample_movies if movies is None else movies
    seed = settings.sample_seed if seed is None else seed
    out = settings.catalogue_dir if out is None else out
    started = time.perf_counter()
    day = (today or datetime.now(UTC)).date()
    counts = generate_catalogue(out, movies, seed, series=series, today=day)
    rows = ", ".join(f"{name} {count}" for name, count in counts.items())
    click.echo(f"catalogue {out}: {rows} (seed {seed}, dated around {day}) in {time.perf_counter() - started:.2f} s")


@click.command()
@click.option(
    "--catalogue",
    "--dataset",
    "catalogue_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Parquet catalogue to render, generated or imported (default: MARQUEE_CATALOGUE_DIR).",
)
@click.option(
    "--publish/--no-publish",
    "do_publish",
    default=True,
    show_default=True,
    help="Publish the new release once it is rendered.",
)
@click.option(
    "--incremental/--full",
    default=True,
    show_default=True,
    help="Update a copy of the published release's pack with the documents whose content "
    "hash changed, or write every document anew.",
)
@click.pass_obj
def build(settings: Settings, catalogue_dir: Path | None, do_publish: bool, incremental: bool) -> None:
    """Render a new release from the catalogue (and publish it)."""
    from marquee_build.catalogue import CatalogueError, check_catalogue
    from site_gen.release import ReleaseBuildError, render_release
    from site_gen.validate import ValidationError
    from site_gen.writer import WriterError

    catalogue_dir = settings.catalogue_dir if catalogue_dir is None else catalogue_dir
    try:
        check_catalogue(catalogue_dir)
        release_dir = release_store.new_release_dir(settings)
        served = settings.current_link.resolve() if settings.current_link.exists() else None
        with shown_progress() as progress:
            render_release(
                settings,
                catalogue_dir,
                release_dir,
                echo=click.echo,
                previous=served if incremental else None,
                history=served,
                progress=progress,
                files={OPENAPI: openapi.body(settings)},  # what the release serves, at /3/openapi.json
            )
        if do_publish:
            warm_up(settings, release_dir.name)
            release_store.publish(settings, release_dir.name)
            click.echo(f"published {release_dir.name}")
            if settings.image_sizes == "build":  # beside the release being served, never before it
                pid, log = start_image_job(settings, catalogue_dir)
                click.echo(f"making every image size ahead: `marquee images` (pid {pid}), log {log}")
        else:
            precompute_lists(settings, release_dir)  # ready for when it is published
            click.echo(f"not published; run `marquee publish {release_dir.name}`")
    except (CatalogueError, ReleaseBuildError, release_store.ReleaseError) as exc:
        raise click.ClickException(str(exc)) from None
    except (ValidationError, WriterError) as exc:
        raise click.ClickException(f"render failed, nothing published: {exc}") from None
    except Exception as exc:  # a full disk, a bug: the half-built release is gone (render_release)
        raise click.ClickException(
            f"build failed, nothing published, the current release still serves: {type(exc).__name__}: {exc}"
        ) from None


def start_image_job(settings: Settings, catalogue_dir: Path) -> tuple[int, Path]:
    """Start `marquee images` for the catalogue, detached (a session of its own: it outlives this
    command and a Ctrl-C of it), appending to HOME/log/images.log; returns its pid and the log."""
    settings.log_dir.mkdir(parents=True, exist_ok=True)
    log = settings.log_dir / "images.log"
    with open(log, "ab") as out:
        command = [sys.executable, "-m", "control", "images", "--catalogue", str(Path(catalogue_dir).resolve())]
        job = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **to_env(settings)},
        )
    return job.pid, log


@click.command()
@click.option(
    "--catalogue",
    "--dataset",
    "catalogue_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Catalogue whose images to make (default: MARQUEE_CATALOGUE_DIR).",
)
@click.pass_obj
def images(settings: Settings, catalogue_dir: Path | None) -> None:
    """Make every image original and size of the catalogue in the image store ahead of requests
    (with MARQUEE_IMAGE_SIZES=build, `marquee build` starts it once it has published)."""
    from marquee_build.catalogue import CatalogueError, check_catalogue
    from site_gen.image_job import make_ahead

    catalogue_dir = settings.catalogue_dir if catalogue_dir is None else catalogue_dir
    try:
        check_catalogue(catalogue_dir)
    except CatalogueError as exc:
        raise click.ClickException(str(exc)) from None
    started = time.perf_counter()
    click.echo(
        f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} images of {catalogue_dir} into {settings.image_dir}"
    )
    summary = make_ahead(catalogue_dir, settings.image_dir)
    click.echo(
        f"images: {summary.originals} originals, {summary.resized} new or changed, "
        f"{summary.files_written} files written in {time.perf_counter() - started:.2f} s"
    )


# fmt: off
PHASES = {"database": "loading and normalising the catalogue", "collect": "planning the documents",
          "templates": "rendering, validating and writing",
          "artefacts": "discover, showtimes, exports, credits and changes (the pack finished beside them)",
          "search": "the search index (written beside the templates at 1M)", "images_after": "checking the images"}
# fmt: on


@contextlib.contextmanager
def shown_progress():
    """On a terminal, a live line per build phase (rich) and the templates written so far: at a
    million titles a build runs for half an hour. Elsewhere (logs, tests), nothing but the summary."""
    if not sys.stdout.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=False
    ) as shown:
        tasks: dict[str, int] = {}

        def progress(phase: str, done: int, total: int) -> None:
            if phase not in PHASES:  # "write": the templates' line shows it
                return
            if phase not in tasks:
                tasks[phase] = shown.add_task(PHASES.get(phase, phase), total=total)
            shown.update(tasks[phase], completed=done, total=total)

        yield progress


@click.command()
@click.argument("name")
@click.pass_obj
def publish(settings: Settings, name: str) -> None:
    """Make release NAME the one served, its lists made and the most asked requests answered from it first."""
    try:
        release_store.check_complete(settings, name)
        warm_up(settings, name)
        release_store.publish(settings, name)
    except release_store.ReleaseError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"published {name}")


@click.command()
@click.pass_obj
def rollback(settings: Settings) -> None:
    """Serve the release published before the current one again (warmed first, as a publish)."""
    try:
        warm_up(settings, release_store.rollback_target(settings))
        name = release_store.rollback(settings)
    except release_store.ReleaseError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"rolled back to {name}")


def warm_up(settings: Settings, name: str) -> None:
    """Before release `name` is served: today's lists for it, then the most asked edge requests
    answered from it into nginx's cache (marquee/warm.py), so its first seconds are not cold."""
    precompute_lists(settings, settings.releases_dir / name)
    click.echo(warm.warm(settings, name).line())


def precompute_lists(settings: Settings, release_dir: Path) -> None:
    """Today's title lists and trending for nginx to serve (edge/list_pack.py). Without them the edge
    answers every list, only slower, so a failure here is reported and publishes nothing less."""
    from edge import list_pack

    try:
        click.echo(list_pack.publish(release_dir, settings.languages).line())
    except Exception as exc:
        click.echo(f"lists not precomputed, the edge answers them: {type(exc).__name__}: {exc}", err=True)


@click.command("refresh-lists")
@click.pass_obj
def refresh_lists(settings: Settings) -> None:
    """Recompute the served release's title lists and trending for today and publish them (run it every
    30 minutes: they depend on the date)."""
    if not settings.current_link.exists():
        raise click.ClickException("nothing is published: run `marquee build` first")
    from edge import list_pack

    click.echo(list_pack.publish(settings.current_link.resolve(), settings.languages).line())


@click.command()
@click.pass_obj
def releases(settings: Settings) -> None:
    """List release folders, oldest first; `*` marks the current one."""
    found = release_store.list_releases(settings)
    if not found:
        click.echo(f"no releases in {settings.releases_dir}")
        return
    for release in found:
        mark = "*" if release.current else " "
        note = "" if release.complete else "  (incomplete)"
        click.echo(f"{mark} {release.name}{note}")


COMMANDS = [generate, build, images, publish, rollback, refresh_lists, releases]
