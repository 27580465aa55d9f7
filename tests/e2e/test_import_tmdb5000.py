"""The real TMDB 5000 file and TMDB's TV network pairs (../shared/data, never copied into the
repository): every film and network imports, the release builds and validates against TMDB's
schemas, and what nginx serves matches the files. Skipped where the shared data is absent."""

from __future__ import annotations

import csv
import gzip
import json
import random

import pytest

from marquee.settings import PROJECT_ROOT, from_env
from marquee_datasets import tmdb5000, tv_networks
from tests.e2e.conftest import rotating_get

pytestmark = pytest.mark.e2e

DATA = PROJECT_ROOT.parent / "shared" / "data"
MOVIES_CSV = DATA / "tmdb_5000" / "tmdb_5000_movies.csv.gz"
NETWORKS = DATA / "tmdb_tv_networks" / "tv-networks.json.gz"


@pytest.fixture(scope="module")
def served(start_stack, tmp_path_factory):
    if not (MOVIES_CSV.is_file() and NETWORKS.is_file()):
        pytest.skip(f"{DATA} is absent")
    from site_gen.release import render_release

    home = tmp_path_factory.mktemp("tmdb5000")
    settings = from_env({"MARQUEE_HOME": str(home)})
    summary = tmdb5000.import_files(MOVIES_CSV, settings.catalogue_dir)
    tv_networks.import_file(NETWORKS, settings.catalogue_dir)
    release = settings.releases_dir / "tmdb5000"
    render_release(settings, settings.catalogue_dir, release, echo=None)  # validates every document
    stack = start_stack(release=release)
    return stack, rotating_get(stack, "tmdb5000-"), summary


def csv_rows() -> list[dict]:
    with gzip.open(MOVIES_CSV, "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_every_film_imports(served):
    _, _, summary = served
    assert summary.imported["movies"] == len(csv_rows()) == 4803 and not summary.skipped


def test_served_details_match_the_csv(served):
    _, get, _ = served
    rng = random.Random(5000)
    for row in rng.sample(csv_rows(), 30):
        details = get(f"/3/movie/{row['id']}").json()
        assert "title" in details, details
        assert details["title"] == row["title"] and details["original_title"] == row["original_title"]
        assert details["runtime"] == int(float(row["runtime"] or 0))
        assert (details["release_date"] or "") == row["release_date"]
        assert details["vote_average"] == pytest.approx(float(row["vote_average"]))
        assert [g["name"] for g in details["genres"]] == [g["name"] for g in json.loads(row["genres"])]
        assert [c["name"] for c in details["production_companies"]] == [
            c["name"] for c in json.loads(row["production_companies"])
        ]
        keywords = get(f"/3/movie/{row['id']}/keywords").json()
        assert sorted(k["name"] for k in keywords["keywords"]) == sorted(k["name"] for k in json.loads(row["keywords"]))


def test_served_networks_match_the_pairs(served):
    _, get, _ = served
    with gzip.open(NETWORKS, "rt", encoding="utf-8") as f:
        pairs = json.load(f)
    networks = {p["network_id"]: p for p in pairs}
    assert len(networks) == 4514
    for network_id in random.Random(7).sample(sorted(networks), 20):
        found = get(f"/3/network/{network_id}").json()
        assert (found["id"], found["name"]) == (network_id, networks[network_id]["network_name"])
        assert found["origin_country"] == (networks[network_id]["network_country"] or "")
