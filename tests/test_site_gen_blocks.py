"""site_gen/blocks.py: staging documents by group and making the pack's blocks."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from marquee.packs import block_documents, block_of, group_of, key_of, kind_of
from site_gen import blocks
from site_gen.blocks import (
    FEW_KEYS,
    Bucket,
    Repeated,
    Staging,
    Written,
    drop_twins,
    keys_of,
    updated_blocks,
    whole_blocks,
)


def test_keys_of_agrees_with_key_of():
    """The writers' vectorised keys are packs.key_of's, items shifted low, whatever the mix."""
    groups = (
        [f"3/movie/{n}" for n in range(500)] + [f"_items/person/{n}" for n in range(500)] + ["compat/imdb/tt1.json"]
    )
    random.Random(3).shuffle(groups)
    keys = keys_of(pa.array(groups), duckdb.connect()).tolist()
    assert keys == [key_of(group) for group in groups]
    assert keys_of(pa.array(groups[: FEW_KEYS - 1]), duckdb.connect()).tolist() == keys[: FEW_KEYS - 1]  # by hashlib
    items = [group.startswith("_items/") for group in groups]
    assert max(key for key, item in zip(keys, items) if item) < -(2**63) + 2**60  # the lowest sixteenth


def _staged(tmp_path: Path, documents: dict[str, bytes]) -> list[Bucket]:
    staging = Staging(tmp_path / "staging")
    names = list(documents)
    random.Random(7).shuffle(names)  # in any order, across batches
    for start in range(0, len(names), 50):
        batch = names[start : start + 50]
        staging.add("", pa.array(batch, pa.string()), pa.array([documents[n] for n in batch], pa.binary()))
    return list(staging.buckets())


def _catalogue() -> dict[str, bytes]:
    documents = {}
    for film in range(300):
        documents[f"3/movie/{film}.json"] = b'{"id":%d,"title":"Film"}' % film
        documents[f"3/movie/{film}.de-DE.json"] = b'{"id":%d,"title":"Der Film"}' % film
        documents[f"3/movie/{film}/credits.json"] = b'{"id":%d,"cast":[]}' % film
        # a twin for odd films (equal to the default), a translation of its own for the others
        documents[f"3/movie/{film}.und.json"] = documents[f"3/movie/{film}.json"] if film % 2 else b'{"id":%d}' % film
        documents[f"_items/movie/{film}.json"] = b'{"id":%d}' % film
    documents["3/configuration.json"] = b'{"images":{}}'
    return documents


def test_whole_blocks_are_the_blocks_an_update_makes_from_nothing(tmp_path: Path):
    """The two ways a block is made (a full build's in Arrow, an update's in Python) give the same
    bytes, twins left out the same way."""
    documents = _catalogue()
    whole, updated = Written(), Written()
    made = {}
    for rows in _staged(tmp_path, documents):
        fast = whole_blocks(rows, whole)
        slow = updated_blocks(rows, updated, lambda key: None, None, None)
        assert fast.equals(slow)
        made.update(zip(fast.column("key").to_pylist(), fast.column("block").to_pylist()))
    assert (
        (whole.twins, whole.twin_bytes)
        == (updated.twins, updated.twin_bytes)
        == (150, sum(len(documents[f"3/movie/{film}.json"]) for film in range(1, 300, 2)))
    )
    assert whole.stored == len(documents) - 150
    for name, body in documents.items():
        group, suffix = group_of(name)
        stored = block_documents(made[key_of(group)]).get(suffix)
        twin = name.endswith(".und.json") and documents[name.replace(".und.json", ".json")] == body
        assert stored == (None if twin else body), name  # a twin's readers find X


@pytest.mark.parametrize("template", ["", "/3/movie/{movie_id}/credits"])
def test_documents_staged_over_many_spills_come_back_whole(tmp_path: Path, monkeypatch, template: str):
    """Spills are made on threads of their own while the next documents gather: every document comes
    back once, in its group, with its kind (a template's from its first name, otherwise each name's)."""
    monkeypatch.setattr(blocks, "STAGE_BYTES", 3_000)  # a spill every few batches
    documents = _catalogue()
    if template:
        documents = {name: body for name, body in documents.items() if name.endswith("/credits.json")}
    staging = Staging(tmp_path / "staging")
    names = list(documents)
    random.Random(5).shuffle(names)
    for start in range(0, len(names), 20):
        batch = names[start : start + 20]
        staging.add(template, pa.array(batch, pa.string()), pa.array([documents[n] for n in batch], pa.binary()))
    back = []
    for bucket in staging.buckets():
        rows = bucket.rows.to_pydict()
        back += zip(rows["key"], rows["kind"], rows["suffix"], bucket.sorted_bodies().to_pylist())
    staging.close()
    expected = [(key_of(group_of(n)[0]), kind_of(group_of(n)[0]), group_of(n)[1], documents[n]) for n in documents]
    assert sorted(back) == sorted(expected)
    assert len(back) == len(documents)


def test_a_spills_error_is_raised_to_the_writer(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(blocks, "STAGE_BYTES", 1)  # every add spills
    staging = Staging(tmp_path / "staging")
    shutil.rmtree(tmp_path / "staging")  # the bucket files cannot be made
    with pytest.raises(OSError):
        for film in range(3):
            staging.add("", pa.array([f"3/movie/{film}.json"]), pa.array([b"{}"], pa.binary()))
        staging.seal()
    staging.close()


def test_a_name_staged_twice_is_refused(tmp_path: Path):
    staging = Staging(tmp_path / "staging")
    for _ in range(2):
        staging.add("", pa.array(["3/movie/1.json"]), pa.array([b"{}"], pa.binary()))
    with pytest.raises(Repeated):
        list(staging.buckets())


def test_twins_are_untranslated_variants_equal_to_their_default_in_the_same_block():
    documents = {
        ".json": b"1",
        ".und.json": b"1",
        "/credits.json": b"2",
        "/credits.und.json": b"3",
        ".de-DE.json": b"1",
    }
    assert drop_twins(documents) == 1 and list(documents) == [
        ".json",
        "/credits.json",
        "/credits.und.json",
        ".de-DE.json",
    ]
    assert block_of([(".json", b"1"), ("/credits.json", b"22")]) == b".json\t1\n/credits.json\t2\n\n122"
