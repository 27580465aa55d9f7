"""`marquee serve` (redis-server, edge and nginx in the foreground) and `marquee edge`."""

from __future__ import annotations

import signal
import time

import click

from control import docs_page
from control.services import ServiceError, Stack
from marquee.registry import Registry
from marquee.settings import Settings

DEMO_ACCOUNT = "demo"


def demo_key(settings: Settings) -> str:
    """A fresh key for the demo account (the old ones are deleted: a key is shown only once)."""
    reg = Registry(settings.registry_path, settings.plans, settings.max_keys_per_account)
    try:
        if DEMO_ACCOUNT not in {a.name for a in reg.accounts()}:
            reg.create_account(DEMO_ACCOUNT, "pro" if "pro" in settings.plans else next(iter(settings.plans)))
        for old in reg.list_keys(DEMO_ACCOUNT):
            if old.label == "demo" and old.state != "deleted":
                reg.set_key_state(old.id, "deleted")
        _, key = reg.create_key(DEMO_ACCOUNT, "demo")
    finally:
        reg.close()
    return key


@click.command()
@click.option("--demo/--no-demo", default=True, help="Print a demo key and curl lines.")
@click.pass_obj
def serve(settings: Settings, demo: bool) -> None:
    """Start redis-server, the edge and nginx on loopback in the foreground; Ctrl-C stops all."""
    if not (settings.current_link / "BUILD").exists():
        raise click.ClickException("no published release: run `marquee generate` and `marquee build` first")
    # The key exists before the edge starts, so the edge's first registry snapshot already holds it
    # and the printed curl lines work at once (not after the next poll).
    key = demo_key(settings) if demo else None
    stack = Stack(settings)
    try:
        stack.start()
    except ServiceError as exc:
        raise click.ClickException(str(exc)) from None
    api, images = settings.api_base_url, f"http://{settings.listen_host}:{settings.image_port}"
    click.echo(f"Marquee is up: API {api}/3/  images {images}/t/p/  (logs in {settings.log_dir})")
    click.echo(f"API reference and docs: {api}{docs_page.DOCS_PATH}")
    if key is not None:
        click.echo(f"\nDemo key (account {DEMO_ACCOUNT}): {key}\n")
        for line in docs_page.curl_lines(api, key):
            click.echo(f"  {line}")
    click.echo("\nCtrl-C stops everything.")
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    # Started from a script's background job, SIGINT arrives ignored; Ctrl-C must still stop us.
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    try:
        while not stopping:
            if stack.process("nginx").poll() is not None:
                click.echo(f"nginx stopped unexpectedly; see {settings.log_dir}", err=True)
                break
            try:
                for name in stack.revive():
                    click.echo(f"{name} stopped unexpectedly and was started again; see {settings.log_dir}", err=True)
            except ServiceError as exc:
                click.echo(str(exc), err=True)
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        click.echo("stopping nginx, edge and redis-server")
        stack.stop()


@click.command()
@click.pass_obj
def edge(settings: Settings) -> None:
    """Run the edge alone on its unix socket (nginx proxies to it)."""
    from edge.app import serve as serve_edge

    serve_edge(settings)


COMMANDS = [serve, edge]
