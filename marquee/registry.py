"""The durable key registry: accounts, their plans, and API-key hashes, in SQLite.

SQLite is the source of truth because it is durable (a committed transaction survives a crash),
needs no server, and lets many readers (each edge process) see one writer (the CLI). Redis holds
the sliding windows and a copy of each live key's grant (marquee/grants.py), written by each
change before it commits, so the change is in effect on every door when the command returns;
Redis may be lost without losing a key (the edges load it again from here). Keys are 32
lowercase hex characters from `secrets`; only their SHA-256 is stored, so neither the registry
nor Redis ever holds a key in clear.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import redis
from redis.exceptions import RedisError

from marquee import grants as redis_grants

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    plan TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'expired')),
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    label TEXT NOT NULL DEFAULT '',
    key_sha256 TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'suspended', 'deleted')),
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys(account_id);
"""


class RegistryError(Exception):
    """A request the registry refuses; the message is meant for the operator."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    plan: str
    state: str


@dataclass(frozen=True)
class KeyInfo:
    id: int
    account: str
    label: str
    state: str
    created_at: float


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("ascii", "replace")).hexdigest()


def new_key() -> str:
    """A TMDB-style v3 key: 32 lowercase hex characters (128 bits from the OS CSPRNG)."""
    return secrets.token_hex(16)


class Registry:
    """Accounts and keys. Every method is one short transaction."""

    def __init__(
        self, path: Path, plans: dict[str, int], max_keys_per_account: int = 10, redis_url: str | None = None
    ) -> None:
        """With `redis_url`, every change to a key's grant is written to that Redis before it
        commits (marquee/grants.py); without, the edges carry it there at their next poll."""
        self.path = Path(path)
        self.plans = plans
        self.max_keys = max_keys_per_account
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = connect(self.path)
        self._db.executescript(SCHEMA)
        self._redis = redis_client(redis_url) if redis_url else None
        # Changes saved in SQLite that could not reach Redis; the CLI tells the operator.
        self.unpublished: list[str] = []

    def close(self) -> None:
        self._db.close()
        if self._redis is not None:
            self._redis.close()

    def _tx(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def _publish(self, where: str, args: tuple) -> None:
        """Inside a write transaction: put the grants of the keys matching `where` (deleted ones
        included, as removals) into Redis. A Redis that cannot be reached does not stop the change:
        it is saved, and the edges publish it when they reach Redis (grants.sync)."""
        if self._redis is None:
            return
        digests = [d for (d,) in self._db.execute(f"SELECT key_sha256 FROM api_keys k WHERE {where}", args)]
        now = redis_grants.grants_in(self._db, self.plans, where, args)
        try:
            redis_grants.publish(self._redis, self._db, self.plans, {d: now.get(d) for d in digests})
        except (RedisError, OSError) as exc:
            self.unpublished.append(f"{type(exc).__name__}: {exc}")

    def _change(self, sql: str, args: tuple, where: str, where_args: tuple) -> None:
        """One UPDATE, published to Redis, in one transaction."""
        db = self._tx()
        try:
            db.execute(sql, args)
            self._publish(where, where_args)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _check_plan(self, plan: str) -> None:
        if plan not in self.plans:
            raise RegistryError(f"unknown plan {plan!r}; plans are: {', '.join(self.plans)}")

    def _account(self, name: str) -> Account:
        row = self._db.execute("SELECT id, name, plan, state FROM accounts WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise RegistryError(f"no account named {name!r}")
        return Account(*row)

    def create_account(self, name: str, plan: str) -> Account:
        self._check_plan(plan)
        if not name or len(name) > 100:
            raise RegistryError("an account name must be 1 to 100 characters")
        now = time.time()
        try:
            self._db.execute(
                "INSERT INTO accounts (name, plan, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (name, plan, now, now),
            )
        except sqlite3.IntegrityError:
            raise RegistryError(f"an account named {name!r} already exists") from None
        return self._account(name)

    def _update_account(self, name: str, column: str, value: str) -> Account:
        account = self._account(name)
        self._change(
            f"UPDATE accounts SET {column} = ?, updated_at = ? WHERE id = ?",
            (value, time.time(), account.id),
            "k.account_id = ?",
            (account.id,),
        )
        return self._account(name)

    def set_plan(self, name: str, plan: str) -> Account:
        self._check_plan(plan)
        return self._update_account(name, "plan", plan)

    def set_account_state(self, name: str, state: str) -> Account:
        """`expired` (keys get 402) or `active` (renewed)."""
        return self._update_account(name, "state", state)

    def key_states(self) -> dict[str, int]:
        """How many keys are in each state (`marquee status`)."""
        return dict(self._db.execute("SELECT state, count(*) FROM api_keys GROUP BY state"))

    def live_keys(self) -> int:
        """How many keys have a grant (marquee/grants.py's rule): what Redis holds when in step."""
        return len(redis_grants.grants_in(self._db, self.plans))

    def check(self) -> str:
        """SQLite's quick check of the registry's file: "ok", or what is wrong with it."""
        return self._db.execute("PRAGMA quick_check").fetchone()[0]

    def accounts(self) -> list[Account]:
        return [Account(*r) for r in self._db.execute("SELECT id, name, plan, state FROM accounts ORDER BY name")]

    def create_key(self, account_name: str, label: str = "") -> tuple[KeyInfo, str]:
        """Create a key and return it in clear, the only time it is ever seen."""
        db = self._tx()
        try:
            account = self._account(account_name)
            (live,) = db.execute(
                "SELECT count(*) FROM api_keys WHERE account_id = ? AND state != 'deleted'", (account.id,)
            ).fetchone()
            if live >= self.max_keys:
                raise RegistryError(
                    f"account {account_name!r} already has {live} keys, the most allowed; delete one first"
                )
            key, now = new_key(), time.time()
            cursor = db.execute(
                "INSERT INTO api_keys (account_id, label, key_sha256, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                (account.id, label, hash_key(key), now, now),
            )
            self._publish("k.id = ?", (cursor.lastrowid,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return KeyInfo(cursor.lastrowid, account_name, label, "active", now), key

    def list_keys(self, account_name: str) -> list[KeyInfo]:
        account = self._account(account_name)
        rows = self._db.execute(
            "SELECT id, label, state, created_at FROM api_keys WHERE account_id = ? ORDER BY id", (account.id,)
        )
        return [KeyInfo(i, account_name, label, state, created) for i, label, state, created in rows]

    def set_key_state(self, key_id: int, state: str) -> KeyInfo:
        row = self._db.execute(
            "SELECT k.state, a.name, k.label, k.created_at FROM api_keys k JOIN accounts a ON a.id = k.account_id"
            " WHERE k.id = ?",
            (key_id,),
        ).fetchone()
        if row is None or row[0] == "deleted":
            raise RegistryError(f"no key with id {key_id}")
        self._change(
            "UPDATE api_keys SET state = ?, updated_at = ? WHERE id = ?",
            (state, time.time(), key_id),
            "k.id = ?",
            (key_id,),
        )
        return KeyInfo(key_id, row[1], row[2], state, row[3])

    def key_id_of(self, key: str) -> int:
        """The id of a live key given in clear (`marquee keys delete --key -`)."""
        row = self._db.execute(
            "SELECT id FROM api_keys WHERE key_sha256 = ? AND state != 'deleted'", (hash_key(key.strip()),)
        ).fetchone()
        if row is None:
            raise RegistryError("no live key matches the key given")
        return row[0]


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def redis_client(url: str) -> redis.Redis:
    # Fail fast: a command must not hang on an unreachable Redis; the change is saved anyway.
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)


@dataclass(frozen=True)
class KeyGrant:
    """What a gate needs to decide on a request made with one key (a grant's value, parsed)."""

    key_state: str  # active | suspended
    account_id: int
    account_state: str  # active | expired
    limit: int

    @classmethod
    def parse(cls, value: str) -> KeyGrant:
        account_id, limit, key_state, account_state = value.split(" ")
        return cls(key_state, int(account_id), account_state, int(limit))

    @property
    def value(self) -> str:
        return redis_grants.grant_value(self.account_id, self.limit, self.key_state, self.account_state)


class RegistrySnapshot:
    """An edge's in-memory view of the registry, reloaded when the file changes, and its link to
    Redis: it loads the registry into Redis at start and whenever Redis has lost it, and repairs
    any change a command could not publish there (marquee/grants.py).

    The gates read each key's grant from Redis; this view is their fallback while Redis is down or
    not loaded yet. `PRAGMA data_version` changes whenever another connection commits, so polling
    it costs one tiny query and a reload happens only after a real change.
    """

    def __init__(self, path: Path, plans: dict[str, int], redis_url: str | None = None) -> None:
        self.path = Path(path)
        self.plans = plans
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Creating the schema here lets the edge start before any account exists.
        Registry(self.path, plans).close()
        self._db = connect(self.path)
        self._redis = redis_client(redis_url) if redis_url else None
        self._version: int | None = None
        self.values: dict[str, str] = {}
        self.grants: dict[str, KeyGrant] = {}
        self.redis_synced = False  # whether Redis holds this view's grants
        self._loaded = False
        self.refresh()

    def _read(self) -> dict[str, str]:
        self._db.execute("BEGIN")
        try:
            return redis_grants.grants_in(self._db, self.plans)
        finally:
            self._db.execute("COMMIT")

    def refresh(self) -> bool:
        """Reload if the registry changed since the last look, and bring Redis in line (loading it
        whole when it has no registry, or when this view lost track of it); return whether the
        grants changed. Never raises for Redis: the view itself stays current without it."""
        (version,) = self._db.execute("PRAGMA data_version").fetchone()
        changed = version != self._version
        self._version = version
        values = self.values
        if self._redis is not None:
            try:
                if not self.redis_synced or not self._redis.exists(redis_grants.LOADED):
                    values = redis_grants.reload(self._redis, self._db, self.plans)
                elif changed:
                    values = redis_grants.sync(self._redis, self._db, self.plans, self.values)
                self.redis_synced = True
            except (RedisError, OSError, sqlite3.OperationalError):
                # Redis unreachable, or a registry this node may only read (a replica: another
                # node's edge loads Redis): the view itself stays current.
                self.redis_synced = False
                if changed:
                    values = self._read()
        elif changed:
            values = self._read()
        if values == self.values and self._loaded:
            return False
        self._loaded = True
        self.values = values
        self.grants = {digest: KeyGrant.parse(value) for digest, value in values.items()}
        return True

    def close(self) -> None:
        self._db.close()
        if self._redis is not None:
            self._redis.close()


def grants_serial(path: Path) -> Path:
    """The export's `.serial` twin, which the gate polls instead of re-reading the export."""
    return path.with_name(path.name + ".serial")


def export_grants(grants: dict[str, KeyGrant], path: Path) -> bool:
    """Write the grants for nginx's gate (nginx/lua/marquee_gate.lua); return whether they changed.

    One line per key: digest, account id, limit, key state, account state, tab-separated. The
    file and its `.serial` twin (a hash of the file) are each replaced by a rename, and the gate
    reloads only when the serial changes, so a reader never sees half a file.
    """
    lines = [
        f"{digest}\t{g.account_id}\t{g.limit}\t{g.key_state}\t{g.account_state}\n"
        for digest, g in sorted(grants.items())
    ]
    data = "".join(lines).encode()
    serial = hashlib.blake2b(data, digest_size=16).hexdigest()
    serial_path = grants_serial(path)
    if serial_path.exists() and serial_path.read_text() == serial and path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    for target, content in ((path, data), (serial_path, serial.encode())):
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(content)
        partial.replace(target)
    return True
