"""`marquee accounts ...` and `marquee keys ...`: operate the durable key registry.

Every change is written to Redis before the command returns (marquee/grants.py), so it is in
effect on every door of every node that shares the Redis when the command returns.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from marquee.registry import Registry, RegistryError
from marquee.settings import Settings


@contextmanager
def registry(settings: Settings) -> Iterator[Registry]:
    reg = Registry(settings.registry_path, settings.plans, settings.max_keys_per_account, settings.redis_url)
    try:
        yield reg
    except RegistryError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        reg.close()
    for problem in reg.unpublished:
        click.echo(
            f"warning: the change is saved, but Redis ({settings.redis_url}) could not take it ({problem}); "
            f"the gates check keys against their own copy of the registry until an edge reaches Redis "
            f"(within {settings.registry_poll_seconds:g} s of Redis answering again)",
            err=True,
        )


@click.group()
def accounts() -> None:
    """Create accounts and change their plans."""


@accounts.command("create")
@click.argument("account")
@click.option("--plan", required=True, help="free, standard or pro (see MARQUEE_PLANS).")
@click.pass_obj
def accounts_create(settings: Settings, account: str, plan: str) -> None:
    """Create ACCOUNT on a plan."""
    with registry(settings) as reg:
        created = reg.create_account(account, plan)
    click.echo(
        f"account {created.name} created on plan {created.plan} ({settings.plans[plan]} requests "
        f"per {settings.rate_window_seconds:g} s)"
    )


@accounts.command("set-plan")
@click.argument("account")
@click.argument("plan")
@click.pass_obj
def accounts_set_plan(settings: Settings, account: str, plan: str) -> None:
    """Move ACCOUNT to PLAN; every key of the account has the new rate when this returns."""
    with registry(settings) as reg:
        reg.set_plan(account, plan)
    click.echo(f"account {account} is now on plan {plan} ({settings.plans[plan]} requests per window)")


def _account_state_command(name: str, state: str, doc: str) -> click.Command:
    @click.argument("account")
    @click.pass_obj
    def command(settings: Settings, account: str) -> None:
        with registry(settings) as reg:
            reg.set_account_state(account, state)
        click.echo(f"account {account} is now {state}")

    command.__doc__ = doc
    return accounts.command(name)(command)


_account_state_command("expire", "expired", "Mark ACCOUNT's plan expired: its keys get 402 until it is renewed.")
_account_state_command("renew", "active", "Renew ACCOUNT's plan.")


@accounts.command("list")
@click.pass_obj
def accounts_list(settings: Settings) -> None:
    """List accounts with their plans and states."""
    with registry(settings) as reg:
        for a in reg.accounts():
            click.echo(f"{a.name}\t{a.plan}\t{a.state}")


@click.group()
def keys() -> None:
    """Create, list, suspend and delete API keys."""


@keys.command("create")
@click.option("--account", required=True)
@click.option("--label", default="", help="A name for the key, e.g. production.")
@click.pass_obj
def keys_create(settings: Settings, account: str, label: str) -> None:
    """Create a key and print it: this is the only time it is shown."""
    with registry(settings) as reg:
        info, key = reg.create_key(account, label)
    click.echo(key)
    click.echo(f"key id {info.id} for account {account}: store it now, it cannot be shown again", err=True)


@keys.command("list")
@click.option("--account", required=True)
@click.pass_obj
def keys_list(settings: Settings, account: str) -> None:
    """List an account's keys: id, label, state and creation time (never the key)."""
    with registry(settings) as reg:
        rows = reg.list_keys(account)
    click.echo("id\tlabel\tstate\tcreated")
    for k in rows:
        created = dt.datetime.fromtimestamp(k.created_at, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        click.echo(f"{k.id}\t{k.label or '-'}\t{k.state}\t{created}")


def _key_state_command(name: str, state: str, doc: str) -> click.Command:
    @click.argument("key_id", type=int)
    @click.pass_obj
    def command(settings: Settings, key_id: int) -> None:
        with registry(settings) as reg:
            info = reg.set_key_state(key_id, state)
        click.echo(f"key {key_id} of account {info.account} is now {state}")

    command.__doc__ = doc
    return keys.command(name)(command)


_key_state_command("suspend", "suspended", "Suspend key KEY_ID: requests get 401 (status_code 10).")
_key_state_command("unsuspend", "active", "Lift the suspension of key KEY_ID.")


@keys.command("delete")
@click.argument("key_id", type=int, required=False)
@click.option(
    "--key",
    "key_from",
    type=click.Choice(["-"]),
    metavar="-",
    help="Read the key itself from standard input (`--key -`): a leaked key deletes itself. "
    "Never pass a key as an argument: it would stay in shell history and `ps`.",
)
@click.pass_obj
def keys_delete(settings: Settings, key_id: int | None, key_from: str | None) -> None:
    """Delete key KEY_ID (or the key read with `--key -`) for good; it is refused when this returns."""
    if (key_id is None) == (key_from is None):
        raise click.UsageError("give either KEY_ID or --key - (the key on standard input)")
    with registry(settings) as reg:
        if key_from is not None:
            key_id = reg.key_id_of(sys.stdin.read())
        info = reg.set_key_state(key_id, "deleted")
    click.echo(f"key {key_id} of account {info.account} is now deleted")


COMMANDS = [accounts, keys]
