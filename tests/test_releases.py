from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from marquee import releases
from marquee.manifests import digest_of
from marquee.packs import BASE_NAME, PACK_NAME, Pack
from marquee.releases import ReleaseError
from marquee.settings import from_env


def _fake_release(settings, name: str, complete: bool = True, packed: bool = True) -> str:
    path = settings.releases_dir / name
    path.mkdir(parents=True)
    (path / "marker").write_text(name)
    if packed:
        (path / PACK_NAME).write_bytes(b"")
    if complete:
        (path / "BUILD").write_text(name + "\n")
    return name


def _served(settings) -> str:
    return (settings.current_link / "marker").read_text()


@pytest.fixture
def settings(tmp_path: Path):
    return from_env({"MARQUEE_HOME": str(tmp_path / "home"), "MARQUEE_KEEP_RELEASES": "3"})


def test_new_release_dirs_are_unique_within_one_second(settings):
    now = datetime(2026, 11, 22, 10, 15, tzinfo=UTC)
    names = [releases.new_release_dir(settings, now).name for _ in range(3)]
    assert names == ["20261122T101500Z", "20261122T101500Z-02", "20261122T101500Z-03"]
    assert names == sorted(names)


def test_publish_points_a_relative_symlink(settings):
    name = _fake_release(settings, "20260101T000000Z")
    releases.publish(settings, name)
    assert settings.current_link.is_symlink()
    assert os.readlink(settings.current_link) == f"releases/{name}"
    assert _served(settings) == name
    assert releases.current_release(settings) == name


def test_publish_is_an_atomic_rename(settings, monkeypatch):
    old = _fake_release(settings, "20260101T000000Z")
    new = _fake_release(settings, "20260102T000000Z")
    releases.publish(settings, old)
    seen = []
    real_replace = os.replace

    def checking_replace(src, dst):
        if Path(dst) == settings.current_link:
            # Until the rename the old release is still what is served, and the new link is ready.
            seen.append((_served(settings), os.readlink(src)))
        return real_replace(src, dst)

    monkeypatch.setattr(releases.os, "replace", checking_replace)
    releases.publish(settings, new)
    assert seen == [(old, f"releases/{new}")]
    assert _served(settings) == new and settings.current_link.is_symlink()
    assert not [p for p in settings.home.iterdir() if p.name.endswith(".tmp")]


def test_publish_refuses_incomplete_unknown_and_malformed(settings):
    _fake_release(settings, "20260101T000000Z", complete=False)
    with pytest.raises(ReleaseError, match="incomplete"):
        releases.publish(settings, "20260101T000000Z")
    with pytest.raises(ReleaseError, match="no release named"):
        releases.publish(settings, "20990101T000000Z")
    with pytest.raises(ReleaseError, match="not a release name"):
        releases.publish(settings, "../../etc")
    assert not settings.current_link.exists()


def test_rollback_walks_back_and_says_when_it_cannot(settings):
    names = [_fake_release(settings, f"2026010{i}T000000Z") for i in range(1, 4)]
    with pytest.raises(ReleaseError, match="nothing to roll back to: nothing is published"):
        releases.rollback(settings)
    for name in names:
        releases.publish(settings, name)
    assert releases.rollback(settings) == names[1] and _served(settings) == names[1]
    assert releases.rollback(settings) == names[0] and _served(settings) == names[0]
    with pytest.raises(ReleaseError, match=f"nothing to roll back to: {names[0]} is the oldest"):
        releases.rollback(settings)
    assert _served(settings) == names[0]


def test_publish_after_rollback_then_rollback_returns(settings):
    a, b, c = (_fake_release(settings, f"2026010{i}T000000Z") for i in range(1, 4))
    releases.publish(settings, a)
    releases.publish(settings, b)
    releases.rollback(settings)
    releases.publish(settings, c)
    assert releases.rollback(settings) == a


def test_pruning_keeps_n_and_never_current_or_rollback_target(settings):
    for day in range(1, 8):  # build + publish, seven times, with keep_releases = 3
        releases.publish(settings, _fake_release(settings, f"202601{day:02d}T000000Z"))
    assert [r.name for r in releases.list_releases(settings)] == [f"202601{d:02d}T000000Z" for d in (5, 6, 7)]
    assert releases.history(settings) == [f"202601{d:02d}T000000Z" for d in (5, 6, 7)]

    old = "20260101T000000Z"
    for name in (old, *(f"202602{d:02d}T000000Z" for d in range(1, 5))):
        _fake_release(settings, name)
    releases.publish(settings, old)
    releases.publish(settings, "20260204T000000Z")  # built with --no-publish meanwhile: 0201..0204
    kept = [r.name for r in releases.list_releases(settings)]
    # The 3 newest, plus the rollback target (old), even though it is the oldest folder.
    assert kept == [old, "20260202T000000Z", "20260203T000000Z", "20260204T000000Z"]
    assert releases.rollback(settings) == old and _served(settings) == old


def test_pruning_leaves_incomplete_builds_alone(settings):
    in_progress = _fake_release(settings, "20250101T000000Z", complete=False)
    names = [f"202601{d:02d}T000000Z" for d in range(1, 6)]
    for name in names:
        releases.publish(settings, _fake_release(settings, name))
    listed = releases.list_releases(settings)
    assert in_progress in [r.name for r in listed]
    assert [r.name for r in listed if r.complete] == names[-3:]
    assert [r.name for r in listed if r.current] == [names[-1]]


def test_a_release_from_before_packs_is_refused_and_skipped_by_rollback(settings):
    first = _fake_release(settings, "20260101T000000Z")
    releases.publish(settings, first)
    old = _fake_release(settings, "20260102T000000Z", packed=False)
    with pytest.raises(ReleaseError, match="no documents.sqlite"):
        releases.publish(settings, old)
    assert _served(settings) == first
    # A history written before packs: rollback passes over the unservable entry.
    newest = _fake_release(settings, "20260103T000000Z")
    releases.publish(settings, newest)
    (settings.releases_dir / "HISTORY").write_text(f"{first}\n{old}\n{newest}\n")
    assert releases.rollback(settings) == first and _served(settings) == first


def _packed_release(settings, name: str, title: str, previous: str | None = None) -> str:
    """A real pack (a delta when built on top of `previous`) with one document, /3/movie/1."""
    from site_gen.writer import Writer

    path = settings.releases_dir / name
    writer = Writer(path, previous=settings.releases_dir / previous if previous else None)
    writer.write("/3/movie/1", {"title": title})
    if previous is None:
        writer.write("/3/movie/2", {"title": "Two"})
    else:
        writer.write("/3/movie/2", None, digest_of(b'{"title":"Two"}'))
    writer.finish()
    (path / "BUILD").write_text(name + "\n")
    return name


def test_a_delta_release_is_published_rolled_back_and_pruned_like_any_other(settings):
    full = _packed_release(settings, "20260101T000000Z", "Old")
    releases.publish(settings, full)
    delta = _packed_release(settings, "20260102T000000Z", "New", previous=full)
    assert (settings.releases_dir / delta / BASE_NAME).is_file()
    releases.publish(settings, delta)
    with Pack(settings.current_link) as pack:
        assert pack.get("3/movie/1.json") == b'{"title":"New"}' and pack.get("3/movie/2.json") == b'{"title":"Two"}'
    assert releases.rollback(settings) == full
    with Pack(settings.current_link) as pack:
        assert pack.get("3/movie/1.json") == b'{"title":"Old"}'
    releases.publish(settings, delta)
    for day in (3, 4):  # keep_releases = 3: the full release under the delta is pruned
        releases.publish(settings, _fake_release(settings, f"202601{day:02d}T000000Z"))
    assert full not in [r.name for r in releases.list_releases(settings)]
    releases.publish(settings, delta)
    with Pack(settings.current_link) as pack:  # its base is a hard link: the pruned pack lives on
        assert pack.get("3/movie/2.json") == b'{"title":"Two"}'


def test_a_delta_release_without_its_base_is_refused_and_skipped_by_rollback(settings):
    full = _packed_release(settings, "20260101T000000Z", "Old")
    releases.publish(settings, full)
    delta = _packed_release(settings, "20260102T000000Z", "New", previous=full)
    newest = _packed_release(settings, "20260103T000000Z", "Newest")
    (settings.releases_dir / delta / BASE_NAME).unlink()
    with pytest.raises(ReleaseError, match=f"delta documents.sqlite but no {BASE_NAME}"):
        releases.publish(settings, delta)
    releases.publish(settings, newest)
    (settings.releases_dir / "HISTORY").write_text(f"{full}\n{delta}\n{newest}\n")
    assert releases.rollback(settings) == full
