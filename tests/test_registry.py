"""The SQLite key registry and the edge's snapshot of it."""

from __future__ import annotations

import re
import sqlite3

import pytest

from marquee.registry import Registry, RegistryError, RegistrySnapshot, export_grants, hash_key

PLANS = {"free": 20, "standard": 40, "pro": 120}


@pytest.fixture
def registry(tmp_path):
    reg = Registry(tmp_path / "registry.sqlite3", PLANS, max_keys_per_account=3)
    yield reg
    reg.close()


def test_keys_are_32_hex_and_only_their_sha256_is_stored(registry, tmp_path):
    registry.create_account("acme", "free")
    info, key = registry.create_key("acme", "prod")
    assert re.fullmatch(r"[0-9a-f]{32}", key)
    stored = sqlite3.connect(tmp_path / "registry.sqlite3").execute("SELECT key_sha256 FROM api_keys").fetchall()
    assert stored == [(hash_key(key),)]
    assert key.encode() not in (tmp_path / "registry.sqlite3").read_bytes()
    assert registry.create_key("acme")[1] != key


def test_the_key_cap_counts_live_keys(registry):
    registry.create_account("acme", "free")
    ids = [registry.create_key("acme")[0].id for _ in range(3)]
    with pytest.raises(RegistryError, match="already has 3 keys"):
        registry.create_key("acme")
    registry.set_key_state(ids[0], "suspended")
    with pytest.raises(RegistryError):
        registry.create_key("acme")
    registry.set_key_state(ids[0], "deleted")
    registry.create_key("acme")


def test_operator_mistakes_are_clear(registry):
    with pytest.raises(RegistryError, match="unknown plan 'gold'"):
        registry.create_account("a", "gold")
    registry.create_account("a", "free")
    with pytest.raises(RegistryError, match="already exists"):
        registry.create_account("a", "pro")
    with pytest.raises(RegistryError, match="no account named 'b'"):
        registry.create_key("b")
    with pytest.raises(RegistryError, match="no key with id 99"):
        registry.set_key_state(99, "suspended")


def test_snapshot_sees_changes_and_plan_limits(registry, tmp_path):
    registry.create_account("acme", "free")
    info, key = registry.create_key("acme")
    snapshot = RegistrySnapshot(tmp_path / "registry.sqlite3", PLANS)
    grant = snapshot.grants[hash_key(key)]
    assert (grant.key_state, grant.account_state, grant.limit) == ("active", "active", 20)
    assert snapshot.refresh() is False  # nothing changed
    registry.set_plan("acme", "pro")
    registry.set_account_state("acme", "expired")
    assert snapshot.refresh() is True
    grant = snapshot.grants[hash_key(key)]
    assert (grant.account_state, grant.limit) == ("expired", 120)
    registry.set_key_state(info.id, "deleted")
    snapshot.refresh()
    assert hash_key(key) not in snapshot.grants
    snapshot.close()


def test_the_export_for_nginx_holds_digests_states_and_limits_and_changes_its_serial(registry, tmp_path):
    registry.create_account("acme", "free")
    registry.create_account("zeta", "pro")
    info, key = registry.create_key("acme")
    _, other = registry.create_key("zeta")
    snapshot = RegistrySnapshot(tmp_path / "registry.sqlite3", PLANS)
    path = tmp_path / "run" / "gate-grants.tsv"
    assert export_grants(snapshot.grants, path) is True
    rows = sorted(line.split("\t") for line in path.read_text().splitlines())
    acme = next(a.id for a in registry.accounts() if a.name == "acme")
    assert [hash_key(key), str(acme), "20", "active", "active"] in rows and len(rows) == 2
    assert key not in path.read_text() and other not in path.read_text()
    serial = path.with_name("gate-grants.tsv.serial").read_text()
    assert export_grants(snapshot.grants, path) is False  # unchanged: the gate need not reload
    registry.set_key_state(info.id, "suspended")
    snapshot.refresh()
    assert export_grants(snapshot.grants, path) is True
    assert path.with_name("gate-grants.tsv.serial").read_text() != serial
    assert [hash_key(key), str(acme), "20", "suspended", "active"] in [
        line.split("\t") for line in path.read_text().splitlines()
    ]
    snapshot.close()
