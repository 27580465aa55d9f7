"""The `marquee` command group (also `python -m control`)."""

from __future__ import annotations

import click

from marquee import settings as settings_module


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Marquee: build, publish and serve a TMDB v3 / OMDb-compatible catalogue."""
    try:
        ctx.obj = settings_module.from_env()
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _register() -> None:
    from control.commands import catalogue, imports, keys, serve, status

    for module in (catalogue, imports, keys, serve, status):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    cli(prog_name="marquee")
