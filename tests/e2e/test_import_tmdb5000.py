"""The real TMDB 5000 file (../shared/data/tmdb_5000, never copied into the repository): every film
imports, the release builds and validates against TMDB's schemas, and the details nginx serves match
the CSV. Skipped where the shared data is absent."""

from __future__ import annotations

import csv
import gzip
import json
import random

import pytest

from marquee.settings import PROJECT_ROOT, from_env
from marquee_datasets import tmdb5000
from tests.e2e.conftest import rotating_get

pytestmark = pytest.mark.e2e

MOVIES_CSV = PROJECT_ROOT.parent / "shared" / "data" / "tmdb_5000" / "tmdb_5000_movies.csv.gz"


@pytest.fixture(scope="module")
def served(start_stack, tmp_path_factory):
    if not MOVIES_CSV.is_file():
        pytest.skip(f"{MOVIES_CSV} is absent")
    from site_gen.release import render_release

    home = tmp_path_factory.mktemp("tmdb5000")
    settings = from_env({"MARQUEE_HOME": str(home)})
    summary = tmdb5000.import_files(MOVIES_CSV, settings.catalogue_dir)
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
        assert [c["name"] for c in details["production_companies"]] == \
            [c["name"] for c in json.loads(row["production_companies"])]
        keywords = get(f"/3/movie/{row['id']}/keywords").json()
        assert sorted(k["name"] for k in keywords["keywords"]) == sorted(k["name"] for k in json.loads(row["keywords"]))
