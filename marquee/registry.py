"""The durable key registry: accounts, their plans, and API-key hashes, in SQLite.

SQLite is the source of truth because it is durable (a committed transaction survives a crash),
needs no server, and lets many readers (each edge process) see one writer (the CLI). Redis only
holds the sliding windows, which may be lost without losing a key. Keys are 32 lowercase hex
characters from `secrets`; only their SHA-256 is stored, so the registry never holds a key in clear.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

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

    def __init__(self, path: Path, plans: dict[str, int], max_keys_per_account: int = 10) -> None:
        self.path = Path(path)
        self.plans = plans
        self.max_keys = max_keys_per_account
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def _tx(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

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
        self._db.execute(
            f"UPDATE accounts SET {column} = ?, updated_at = ? WHERE id = ?", (value, time.time(), account.id)
        )
        return self._account(name)

    def set_plan(self, name: str, plan: str) -> Account:
        self._check_plan(plan)
        return self._update_account(name, "plan", plan)

    def set_account_state(self, name: str, state: str) -> Account:
        """`expired` (keys get 402) or `active` (renewed)."""
        return self._update_account(name, "state", state)

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
        self._db.execute("UPDATE api_keys SET state = ?, updated_at = ? WHERE id = ?", (state, time.time(), key_id))
        return KeyInfo(key_id, row[1], row[2], state, row[3])


@dataclass(frozen=True)
class KeyGrant:
    """What the edge needs to decide on a request made with one key."""

    key_state: str  # active | suspended
    account_id: int
    account_state: str  # active | expired
    limit: int


class RegistrySnapshot:
    """A read-only, in-memory view of the registry for the edge, reloaded when the file changes.

    `PRAGMA data_version` changes whenever another connection commits, so polling it costs one
    tiny query and a reload happens only after a real change.
    """

    def __init__(self, path: Path, plans: dict[str, int]) -> None:
        self.path = Path(path)
        self.plans = plans
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Creating the schema here lets the edge start before any account exists.
        Registry(self.path, plans).close()
        self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None,
                                   check_same_thread=False)
        self._version: int | None = None
        self.grants: dict[str, KeyGrant] = {}
        self.refresh()

    def _load(self) -> Iterator[tuple[str, KeyGrant]]:
        rows = self._db.execute(
            "SELECT k.key_sha256, k.state, a.id, a.state, a.plan FROM api_keys k"
            " JOIN accounts a ON a.id = k.account_id WHERE k.state != 'deleted'"
        )
        for digest, key_state, account_id, account_state, plan in rows:
            # A plan dropped from the settings keeps its keys working at the smallest rate.
            limit = self.plans.get(plan, min(self.plans.values()))
            yield digest, KeyGrant(key_state, account_id, account_state, limit)

    def refresh(self) -> bool:
        """Reload if the registry changed since the last look; return whether it did."""
        (version,) = self._db.execute("PRAGMA data_version").fetchone()
        if version == self._version:
            return False
        self._db.execute("BEGIN")
        try:
            self.grants = dict(self._load())
        finally:
            self._db.execute("COMMIT")
        self._version = version
        return True

    def close(self) -> None:
        self._db.close()


def grants_serial(path: Path) -> Path:
    """The export's `.serial` twin, which the gate polls instead of re-reading the export."""
    return path.with_name(path.name + ".serial")


def export_grants(grants: dict[str, KeyGrant], path: Path) -> bool:
    """Write the grants for nginx's gate (nginx/lua/marquee_gate.lua); return whether they changed.

    One line per key: digest, account id, limit, key state, account state, tab-separated. The
    file and its `.serial` twin (a hash of the file) are each replaced by a rename, and the gate
    reloads only when the serial changes, so a reader never sees half a file.
    """
    lines = [f"{digest}\t{g.account_id}\t{g.limit}\t{g.key_state}\t{g.account_state}\n"
             for digest, g in sorted(grants.items())]
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
