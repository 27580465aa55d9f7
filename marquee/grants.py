"""The registry's grants in Redis: what every gate reads in the script call that counts the window.

SQLite (marquee/registry.py) stays the durable source of keys and accounts. Redis holds a copy of
each live key's grant, so that a change is in effect on every door, on every node, when the
command that made it returns: the command writes the grants it changed into Redis before it
commits, and every hit reads its grant in the same script call that counts its window
(edge/gate.lua), with no extra round trip and no poll to wait for.

Layout (no key in clear: names carry the key's SHA-256):
- `marquee:grant:<base64 of the key's SHA-256>` = "account_id limit key_state account_state";
  a deleted key has no grant.
- `marquee:registry` = when the whole registry was last loaded (epoch seconds). While it is absent
  (a Redis restarted or flushed since), a missing grant means "not loaded yet", not "no such
  key", and the gates fall back on their own snapshot of the registry; the edges load the
  registry again within one poll (`reload`).

Every write happens while the writer holds SQLite's write lock (BEGIN IMMEDIATE), so Redis sees
the registry's changes in the order SQLite committed them: a full load by an edge cannot put back
a grant that a command running at the same time removes.
"""

from __future__ import annotations

import base64
import sqlite3
import time
from collections.abc import Iterable, Mapping

GRANT_PREFIX = "marquee:grant:"
LOADED = "marquee:registry"  # edge/gate.lua spells it too

GRANT_ROWS = (
    "SELECT k.key_sha256, k.state, a.id, a.state, a.plan FROM api_keys k"
    " JOIN accounts a ON a.id = k.account_id WHERE k.state != 'deleted'"
)


def grant_name(digest_hex: str) -> str:
    """The Redis name of a key's grant; nginx's gate builds it with ngx.encode_base64 of the digest."""
    return GRANT_PREFIX + base64.b64encode(bytes.fromhex(digest_hex)).decode()


def grant_value(account_id: int, limit: int, key_state: str, account_state: str) -> str:
    return f"{account_id} {limit} {key_state} {account_state}"


def limit_of(plan: str, plans: Mapping[str, int]) -> int:
    # A plan dropped from the settings keeps its keys working at the smallest rate.
    return plans.get(plan, min(plans.values()))


def grants_in(
    db: sqlite3.Connection, plans: Mapping[str, int], where: str = "", args: Iterable[object] = ()
) -> dict[str, str]:
    """Grant values by key digest for the live keys matching `where` (all of them by default)."""
    rows = db.execute(GRANT_ROWS + (f" AND ({where})" if where else ""), tuple(args))
    return {
        digest: grant_value(account_id, limit_of(plan, plans), key_state, account_state)
        for digest, key_state, account_id, account_state, plan in rows
    }


def publish(redis_client, db: sqlite3.Connection, plans: Mapping[str, int], changed: Mapping[str, str | None]) -> None:
    """Write `changed` grants (None: remove) in one MULTI; if Redis holds no registry, load it all.

    Call with SQLite's write lock held (see the module docstring). Raises redis' errors.
    """
    if not redis_client.exists(LOADED):
        load_all(redis_client, db, plans)  # a Redis without the registry gets all of it, not one grant
        return
    pipe = redis_client.pipeline(transaction=True)
    for digest, value in changed.items():
        if value is None:
            pipe.delete(grant_name(digest))
        else:
            pipe.set(grant_name(digest), value)
    pipe.execute()


def load_all(redis_client, db: sqlite3.Connection, plans: Mapping[str, int]) -> dict[str, str]:
    """Replace every grant in Redis with the registry's, then mark it loaded; returns the grants.

    Call with SQLite's write lock held (see `reload`)."""
    grants = grants_in(db, plans)
    stale = set(redis_client.scan_iter(match=GRANT_PREFIX + "*", count=1000))
    pipe = redis_client.pipeline(transaction=True)
    for digest, value in grants.items():
        name = grant_name(digest)
        stale.discard(name.encode())
        pipe.set(name, value)
    for name in stale:
        pipe.delete(name)
    pipe.set(LOADED, f"{time.time():.3f}")
    pipe.execute()
    return grants


def reload(redis_client, db: sqlite3.Connection, plans: Mapping[str, int]) -> dict[str, str]:
    """Load the whole registry into Redis under SQLite's write lock (an edge at start, and after
    Redis lost it: a restart or a flush); returns the grants."""
    db.execute("BEGIN IMMEDIATE")
    try:
        return load_all(redis_client, db, plans)
    finally:
        db.execute("COMMIT")


def sync(redis_client, db: sqlite3.Connection, plans: Mapping[str, int], before: Mapping[str, str]) -> dict[str, str]:
    """Bring Redis in line with the registry for every grant that differs from `before` (an
    edge's previous snapshot), under the write lock; returns the registry's grants now.

    The commands write their own changes already; this repairs a change whose command could not
    reach Redis, at the next poll of any edge.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        now = grants_in(db, plans)
        changed: dict[str, str | None] = {d: v for d, v in now.items() if before.get(d) != v}
        changed.update({d: None for d in before if d not in now})
        if changed or not redis_client.exists(LOADED):
            publish(redis_client, db, plans, changed)
    finally:
        db.execute("COMMIT")
    return now
