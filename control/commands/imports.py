"""`marquee import FORMAT …`: turn an operator's dump into a catalogue (build/contract.py) that
`marquee build` renders like the synthetic one. Each format is a module of marquee_datasets."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from marquee.settings import Settings

# The catalogue an import writes: a new one renamed over the old when the import succeeds.
replaced_catalogue = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Catalogue folder to write (default: MARQUEE_CATALOGUE_DIR); replaced only when the import succeeds.",
)


@click.group("import")
def import_group() -> None:
    """Import a dump into the catalogue (MARQUEE_CATALOGUE_DIR, or --out); `marquee build` serves it."""


@import_group.command("tmdb5000")
@click.argument("movies_csv", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option(
    "--credits",
    "credits_csv",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="tmdb_5000_credits.csv: the films' cast and crew.",
)
@replaced_catalogue
@click.pass_obj
def tmdb5000(settings: Settings, movies_csv: Path, credits_csv: Path | None, out: Path | None) -> None:
    """The TMDB 5000 files (tmdb_5000_movies.csv, gzipped or not)."""
    from marquee_datasets import tmdb5000 as importer

    report(settings, out, lambda target, status: importer.import_files(movies_csv, target, credits_csv, status))


@import_group.command("tmdb-jsonl")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True, path_type=Path))
@replaced_catalogue
@click.pass_obj
def tmdb_jsonl(settings: Settings, files: tuple[Path, ...], out: Path | None) -> None:
    """TMDB API documents, one a line (films with their appends, people), and TMDB's ID export files."""
    from marquee_datasets import tmdb_jsonl as importer

    report(settings, out, lambda target, status: importer.import_files(list(files), target, status))


@import_group.command("imdb-tsv")
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@replaced_catalogue
@click.pass_obj
def imdb_tsv(settings: Settings, folder: Path, out: Path | None) -> None:
    """IMDb's dumps in FOLDER (title.basics.tsv.gz and, when there, akas, ratings, crew, principals, name.basics)."""
    from marquee_datasets import imdb_tsv as importer

    report(settings, out, lambda target, status: importer.import_dir(folder, target, status))


@import_group.command("tv-networks")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Catalogue folder to add to (default: MARQUEE_CATALOGUE_DIR).",
)
@click.pass_obj
def tv_networks(settings: Settings, file: Path, out: Path | None) -> None:
    """TMDB's series-network pairs (JSON, gzipped or not): the networks /3/network/{id} answers."""
    from marquee_datasets import tv_networks as importer

    report(settings, out, lambda target, status: importer.import_file(file, target, status))


@import_group.command("merge")
@click.argument("other", type=click.Path(file_okay=False, exists=True, path_type=Path))
@replaced_catalogue
@click.pass_obj
def merge(settings: Settings, other: Path, out: Path | None) -> None:
    """Merge the imported catalogue OTHER into this one: titles matched by IMDb id (or TMDB id), this one's data first."""
    from marquee_datasets import merge as merging

    report(settings, out, lambda target, status: merging.merge(other, target, status))


def report(settings: Settings, out: Path | None, run) -> None:
    """Run an import into the catalogue folder and print what it did."""
    from marquee_datasets.importing import ImportFailed

    target = settings.catalogue_dir if out is None else out
    try:
        if sys.stdout.isatty():  # a live status line: a dump of millions of rows takes minutes
            from rich.console import Console

            with Console().status("importing") as shown:
                summary = run(target, lambda doing: shown.update(doing))
        else:
            summary = run(target, None)
    except ImportFailed as exc:
        raise click.ClickException(f"nothing imported: {exc}") from None
    for line in summary.lines():
        click.echo(line)
    then = "marquee build" if out is None else f"marquee build --dataset {target}"
    click.echo(f"catalogue {target}: `{then}` serves it")


COMMANDS = [import_group]
