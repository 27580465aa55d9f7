"""`marquee status` on a running stack (control/commands/status.py): the release served with the
catalogue's counts and the pack's documents, its artefacts, Redis up with its grants in step with
the registry, keys and accounts by state, and the requests just made, by door and status class."""

from __future__ import annotations

import re
import time

import pytest

from marquee.packs import Pack

pytestmark = pytest.mark.e2e


def row(output: str, first: str) -> list[str]:
    """The cells of the table row whose first cell is `first`."""
    for line in output.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃|]", line) if c.strip()]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in:\n{output}")


def test_status_shows_the_release_keys_health_and_the_last_minutes_requests(start_stack, catalogue):
    stack = start_stack()
    key = stack.account("status-a", "pro")
    stack.account("status-b")
    assert stack.cli("accounts", "expire", "status-b").exit_code == 0
    stack.new_key("status-a", "old")
    stack.new_key("status-a", "gone")
    listed = stack.cli("keys", "list", "--account", "status-a").stdout.splitlines()[1:]
    ids = {label: key_id for key_id, label, *_ in (line.split("\t") for line in listed)}
    assert stack.cli("keys", "suspend", ids["old"]).exit_code == 0
    assert stack.cli("keys", "delete", ids["gone"]).exit_code == 0
    movie = catalogue.execute("SELECT id FROM movies ORDER BY id LIMIT 1").fetchone()[0]
    for _ in range(5):
        assert stack.get(f"/3/movie/{movie}", key).status_code == 200
    for _ in range(2):
        assert stack.get("/3/movie/999999999", key).status_code == 404
    assert stack.client.get("/3/search/movie", params={"api_key": key, "query": "the"}).status_code == 200

    time.sleep(1.1)  # each nginx worker adds its counts to the shared ones once a second
    result = stack.cli("status")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    release = stack.settings.current_link.resolve()
    films, series = (catalogue.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("movies", "tv_series"))
    with Pack(release) as pack:
        documents = pack.count()
    cells = row(out, release.name)
    assert cells[1] == f"{films:,} films, {series:,} series" and cells[2] == f"{documents:,}"
    assert row(out, "search.sqlite")[1].endswith("MB") and row(out, "openapi.json")[1].endswith("MB")
    assert "up, ping" in out and "in step" in out and "[red]" not in out
    assert row(out, "active")[1:] == ["2", "1"] and row(out, "expired")[1:] == ["0", "1"]
    assert row(out, "suspended")[1:] == ["1", "0"] and row(out, "deleted")[1:] == ["1", "0"]
    document = row(out, "document")  # door, then its classes in order, then the rate
    classes = row(out, "door")[1:-1]  # the header: door, the classes seen, the rate
    counts = dict(zip(classes, document[1:-1]))
    assert counts.get("2xx") == "5" and counts.get("4xx") == "2", out
    assert int(row(out, "search")[1 + classes.index("2xx")]) >= 1
