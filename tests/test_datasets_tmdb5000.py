"""marquee_datasets.tmdb5000: the TMDB 5000 CSV files into a catalogue, on files written here with
the quoting, embedded JSON, unicode and broken lines real exports have."""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from control.cli import cli
from marquee.settings import from_env, to_env
from marquee_build import contract
from marquee_build.catalogue import check_catalogue
from marquee_datasets import tmdb5000
from marquee_datasets.importing import ImportFailed

HEADER = tmdb5000.MOVIE_COLUMNS  # the file's columns, as the importer reads them


def row(movie_id: object, title: str, **values: object) -> list[str]:
    base = {
        "budget": "1000",
        "genres": json.dumps([{"id": 18, "name": "Drama"}]),
        "homepage": "",
        "id": movie_id,
        "keywords": "[]",
        "original_language": "en",
        "original_title": title,
        "overview": "A plot.",
        "popularity": "1.5",
        "production_companies": "[]",
        "production_countries": "[]",
        "release_date": "2001-02-03",
        "revenue": "0",
        "runtime": "100.0",
        "spoken_languages": "[]",
        "status": "Released",
        "tagline": "",
        "title": title,
        "vote_average": "6.5",
        "vote_count": "10",
    }
    base.update(values)
    return [str(base[name]) for name in HEADER]


def write_csv(path: Path, rows: list[list[str]], tail: str = "") -> Path:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(rows)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(out.getvalue() + tail)
    return path


@pytest.fixture
def movies_csv(tmp_path: Path) -> Path:
    return write_csv(
        tmp_path / "movies.csv.gz",
        [
            row(
                19995,
                "Avatar",
                genres=json.dumps([{"id": 28, "name": "Action"}, {"id": 878, "name": "Science Fiction"}]),
                keywords=json.dumps([{"id": 1463, "name": "culture clash"}]),
                production_companies=json.dumps([{"name": 'Dune, "Entertainment"', "id": 444}]),
                production_countries=json.dumps([{"iso_3166_1": "US", "name": "United States of America"}]),
                spoken_languages=json.dumps([{"iso_639_1": "es", "name": "Español"}]),
                overview='In the 22nd century, a "paraplegic" Marine, torn, goes.\nOn two lines.',
            ),
            row(2, "Amélie", runtime="", release_date="", original_language="fr"),
            row(3, "Broken genres", genres='[{"id": 1, "name": '),
            row("x4", "No id"),
            row(5, ""),
            row(19995, "Avatar again"),
        ],
        tail='100,"[]",,6,"[]",en,Truncated,"an open quote that never ends',
    )


def test_an_import_is_a_catalogue_the_build_accepts(movies_csv: Path, tmp_path: Path):
    target = tmp_path / "catalogue"
    summary = tmdb5000.import_files(movies_csv, target)
    check_catalogue(target)
    movies = {r["id"]: r for r in pq.read_table(target / "movies.parquet").to_pylist()}
    assert set(movies) == {19995, 2} and summary.imported["movies"] == 2
    assert movies[2]["runtime"] == 0 and movies[2]["release_date"] is None and movies[2]["imdb_id"] is None
    titles = {r["movie_id"]: r for r in pq.read_table(target / "movie_translations.parquet").to_pylist()}
    assert titles[2]["title"] == "Amélie" and (titles[2]["iso_639_1"], titles[2]["iso_3166_1"]) == ("en", "US")
    assert titles[19995]["overview"] == 'In the 22nd century, a "paraplegic" Marine, torn, goes.\nOn two lines.'
    genres = pq.read_table(target / "movie_genres.parquet").to_pylist()
    assert sorted((g["movie_id"], g["genre_id"], g["ord"]) for g in genres if g["movie_id"] == 19995) == [
        (19995, 28, 0),
        (19995, 878, 1),
    ]
    assert pq.read_table(target / "companies.parquet").to_pylist()[0]["name"] == 'Dune, "Entertainment"'
    languages = {row["iso_639_1"]: row for row in pq.read_table(target / "languages.parquet").to_pylist()}
    assert languages["es"] == {"iso_639_1": "es", "english_name": "Spanish", "name": "Español"}  # the file's name wins
    assert languages["en"]["english_name"] == "English"  # and TMDB's list gives every other code
    for name in contract.REQUIRED:  # nothing invented: TV, people, images are empty
        if name in ("people", "cast", "crew", "tv_series", "movie_images", "movie_release_dates"):
            assert pq.read_metadata(target / f"{name}.parquet").num_rows == 0
    reasons = {line: reason for _, line, reason in summary.skipped}
    assert set(summary.skipped[0][:1]) == {"movies.csv.gz"}
    assert reasons[4] == "a JSON column that does not parse" and reasons[5] == "no numeric id"
    assert reasons[6] == "no title" and reasons[7] == "id 19995 again" and len(reasons) == 5  # and the truncated line
    assert summary.read == 7


def test_credits_add_people_cast_and_crew(movies_csv: Path, tmp_path: Path):
    credits = tmp_path / "credits.csv"
    cast = [
        {
            "cast_id": 242,
            "character": "Jake Sully",
            "credit_id": "5602",
            "gender": 2,
            "id": 65731,
            "name": "Sam Worthington",
            "order": 0,
        }
    ]
    crew = [
        {
            "credit_id": "52fe",
            "department": "Directing",
            "gender": 2,
            "id": 2710,
            "job": "Director",
            "name": "James Cameron",
        }
    ]
    with credits.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["movie_id", "title", "cast", "crew"])
        writer.writerow([19995, "Avatar", json.dumps(cast), json.dumps(crew)])
        writer.writerow([2, "Amélie", "[broken", "[]"])
    summary = tmdb5000.import_files(movies_csv, tmp_path / "catalogue", credits)
    people = {p["id"]: p for p in pq.read_table(tmp_path / "catalogue" / "people.parquet").to_pylist()}
    assert people[65731]["name"] == "Sam Worthington" and people[2710]["known_for_department"] == "Directing"
    assert pq.read_table(tmp_path / "catalogue" / "cast.parquet").to_pylist()[0]["character"] == "Jake Sully"
    assert ("credits.csv", 3, "cast or crew JSON that does not parse") in summary.skipped


def test_a_failed_import_leaves_the_catalogue_as_it_was(movies_csv: Path, tmp_path: Path):
    target = tmp_path / "catalogue"
    tmdb5000.import_files(movies_csv, target)
    before = sorted(p.name for p in target.iterdir())
    with pytest.raises(ImportFailed):
        tmdb5000.import_files(tmp_path / "absent.csv", target)
    assert sorted(p.name for p in target.iterdir()) == before
    assert not list(tmp_path.glob(".catalogue.*"))


def test_the_command_imports_and_reports(movies_csv: Path, tmp_path: Path):
    settings = from_env({"MARQUEE_HOME": str(tmp_path / "home")})
    result = CliRunner().invoke(cli, ["import", "tmdb5000", str(movies_csv)], env=to_env(settings))
    assert result.exit_code == 0, result.output
    assert "read 7 rows, imported 2 movies, skipped 5" in result.output
    assert "skipped movies.csv.gz line 4: a JSON column that does not parse" in result.output
    check_catalogue(settings.catalogue_dir)
