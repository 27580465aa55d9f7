"""marquee_datasets.tv_networks: TMDB's series-network pairs into a catalogue's networks."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from marquee_build import contract
from marquee_build.catalogue import check_catalogue
from marquee_datasets import tv_networks
from marquee_datasets.importing import ImportFailed


def pairs_file(path: Path, rows: list[dict]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(rows, f, ensure_ascii=False)
    return path


def test_networks_are_added_to_the_catalogue_there_is(tmp_path: Path):
    catalogue = tmp_path / "catalogue"
    catalogue.mkdir()
    for name in contract.REQUIRED:
        pq.write_table(contract.empty(name), catalogue / f"{name}.parquet")
    kept = contract.conform(
        "networks",
        pa.table(
            {
                "id": [2],
                "name": ["ABC (ours)"],
                "logo_path": ["/abc.png"],
                "origin_country": ["US"],
                "headquarters": ["NYC"],
                "homepage": [""],
            }
        ),
    )
    pq.write_table(kept, catalogue / "networks.parquet")
    contract.write_facts(catalogue, images="generated")  # a generated catalogue's images stay generated
    source = pairs_file(
        tmp_path / "pairs.json.gz",
        [
            {"id": 1, "network_id": 1, "network_name": "Fuji TV", "network_country": "JP"},
            {"id": 2, "network_id": 2, "network_name": "ABC", "network_country": "US"},
            {"id": 9, "network_id": 1, "network_name": "Fuji TV", "network_country": "JP"},
            {"id": 3, "network_id": "x", "network_name": "Broken"},
            {"id": 4, "network_id": 49, "network_name": "", "network_country": "US"},
            {"id": 5, "network_id": 213, "network_name": "Netflix ネット", "network_country": None},
        ],
    )
    summary = tv_networks.import_file(source, catalogue)
    check_catalogue(catalogue)
    assert contract.images_generated(catalogue)
    networks = {r["id"]: r for r in pq.read_table(catalogue / "networks.parquet").to_pylist()}
    assert set(networks) == {1, 2, 213}
    assert networks[2]["name"] == "ABC (ours)" and networks[2]["logo_path"] == "/abc.png"  # the catalogue's row wins
    assert networks[213] == {
        "id": 213,
        "name": "Netflix ネット",
        "logo_path": None,
        "origin_country": "",
        "headquarters": "",
        "homepage": "",
    }
    assert summary.read == 6 and summary.imported["networks"] == 3
    assert sorted(reason for _, _, reason in summary.skipped) == ["no network_name", "no numeric network_id"]


def test_a_file_that_is_not_json_changes_nothing(tmp_path: Path):
    bad = tmp_path / "pairs.json"
    bad.write_text("id,network_id\n1,2\n")
    with pytest.raises(ImportFailed):
        tv_networks.import_file(bad, tmp_path / "catalogue")
    assert not (tmp_path / "catalogue").exists() and not list(tmp_path.glob(".catalogue*"))
