"""/3/credit/{credit_id} from the credit index (site_gen/credit_index.py, edge/credit_index.py,
edge/routes/credit.py): every credit answers the bytes, and so the ETag, its document had when the
build rendered one per credit (tests/credit_details_before.sql, the template's SQL as it was, run on
the same build database and spliced as Pack.get spliced it), and what the catalogue says."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import duckdb
import orjson
import pytest

from edge import errors
from edge.assemble import DocumentCache, OpenPacks, ReleaseDocuments, localized
from edge.content import ContentError, Query
from edge.content_listener import ARTEFACT_READERS
from edge.credit_index import CreditIndex
from edge.routes import route_for
from edge.routes.route import Context
from marquee.artefacts import CREDIT_INDEX, CREDIT_ROWS, OpenArtefacts
from marquee.packs import PACK_NAME, Pack, add_document, assemble, etag_of
from marquee_build.state import DATABASE, STATE_DIR
from site_gen.documents import create_item_ref
from site_gen.validate import Validator

BEFORE = Path(__file__).with_name("credit_details_before.sql")


def credit_answers(release: Path) -> dict[str, bytes]:
    """Every credit of the release's index, as the edge reads it (the document it stands for)."""
    with sqlite3.connect(f"file:{release / CREDIT_INDEX}?mode=ro", uri=True) as index:
        ids = [key for (key,) in index.execute("SELECT id FROM credits")]  # ids that are not TMDB-style
    ids += [key.hex() for key in row_keys(release)]
    packs = OpenPacks()
    return {credit_id: packs.read(str(release), f"3/credit/{credit_id}.json") for credit_id in ids}


def row_keys(release: Path) -> list[bytes]:
    """The keys of `credits.rows`, batch by batch (site_gen/credit_index.py's format)."""
    index = CreditIndex(release / CREDIT_INDEX)
    try:
        keys = []
        for size, buffers in index.rows.batches:
            at = buffers["key"][0]
            block = index.rows.data[at : at + 12 * size]
            keys += [block[i : i + 12] for i in range(0, len(block), 12)]
        return keys
    finally:
        index.close()


@pytest.fixture(scope="module")
def release(built_pack: Path, release_settings) -> tuple[Path, dict[str, bytes], list[str]]:
    """The session's release, and each credit's document as the template rendered it before the
    index (id -> served bytes), from the build database kept beside it (read only: no build after
    the session's is made in its folder, see test_site_gen_compat)."""
    con = duckdb.connect(str(built_pack.parent / STATE_DIR / DATABASE), read_only=True)
    try:
        create_item_ref(con)
        rows = con.execute(f"SELECT uri, to_json(doc)::VARCHAR FROM ({BEFORE.read_text()})").fetchall()
    finally:
        con.close()
    with Pack(built_pack) as pack:
        before = {uri.removeprefix("/3/credit/"): assemble(doc.encode(), pack.raw) for uri, doc in rows}
    return built_pack, before, list(release_settings.languages)


@pytest.fixture(scope="module")
def context(release) -> Context:
    return Context(str(release[0]), release[2], DocumentCache(), OpenArtefacts(ARTEFACT_READERS))


def answer(context: Context, path: str, **params: str) -> bytes:
    route = route_for(path)
    assert route.family == "credit" and route.etag and route.location
    return route.answer(context, path, params)


def test_the_pack_holds_no_credit_and_the_index_is_beside_it(release):
    folder, before, _ = release
    assert len(before) > 1000
    with Pack(folder) as pack:
        assert pack.names("3/credit/%") == []
    index = (folder / CREDIT_INDEX).stat().st_size + (folder / CREDIT_ROWS).stat().st_size
    assert index / len(before) < 100  # bytes a credit, episodes' summaries included (~66 on the sample)


def test_every_credit_answers_the_bytes_and_etag_of_its_document(release, context):
    folder, before, _ = release
    validator = Validator()
    assert set(credit_answers(folder)) == set(before)  # no credit more, none less
    for credit_id, expected in before.items():
        body = answer(context, f"/3/credit/{credit_id}")
        assert body == expected, credit_id
        assert etag_of(body) == etag_of(expected)
        validator.validate(f"/3/credit/{credit_id}", orjson.loads(body))


def test_each_credit_is_the_catalogues(release, context, catalogue):
    _, before, _ = release
    rows = catalogue.execute("""
        SELECT credit_id, 'movie', movie_id, person_id, "character", 'cast', 'Actor' FROM "cast"
        UNION ALL SELECT credit_id, 'movie', movie_id, person_id, NULL, 'crew', job FROM crew
        UNION ALL SELECT credit_id, 'tv', series_id, person_id, "character", 'cast', 'Actor' FROM series_cast
        UNION ALL SELECT credit_id, 'tv', series_id, person_id, NULL, 'crew', job FROM series_crew
        UNION ALL SELECT credit_id, 'tv', series_id, person_id, NULL, 'crew', 'Creator' FROM created_by""").fetchall()
    assert rows
    for credit_id, media_type, media_id, person_id, character, credit_type, job in rows:
        credit = orjson.loads(answer(context, f"/3/credit/{credit_id}"))
        assert (credit["id"], credit["media_type"], credit["credit_type"], credit["job"]) == (
            credit_id,
            media_type,
            credit_type,
            job,
        )
        assert (credit["media"]["id"], credit["person"]["id"]) == (media_id, person_id)
        assert credit["media"].get("character") == character
    guest, episodes = catalogue.execute(
        "SELECT credit_id, list(episode_id ORDER BY episode_id) FROM episode_crew GROUP BY 1 "
        "ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchone()
    listed = orjson.loads(answer(context, f"/3/credit/{guest}"))["media"]["episodes"]
    assert len(episodes) > 1 and sorted(e["id"] for e in listed) == episodes


def test_an_unknown_credit_is_tmdbs_404(context):
    first_and_last = ("000000000000000000000000", "ffffffffffffffffffffffff")  # before and past every key
    for credit_id in ("52fe0000c3a36847f8000000", "tt0000000-nm0000000-1", "52FE0000C3A36847F8000000", *first_and_last):
        with pytest.raises(ContentError) as raised:
            answer(context, f"/3/credit/{credit_id}")
        assert raised.value.error == errors.NOT_FOUND


def test_parameters_do_to_a_credit_what_they_did_to_its_document(release, context):
    _, before, _ = release
    credit_id = next(i for i, body in before.items() if b'"media_type":"movie"' in body)
    uri = f"/3/credit/{credit_id}"
    # `language`: the title's name and overview from its own document in that language, as the edge
    # localised the document (the same function, given the document's bytes).
    for language in ("de-DE", "fr", "xx", ""):
        query = Query(uri, language=language or None)
        documents = ReleaseDocuments(context.root, context.languages, DocumentCache())
        expected = localized(documents, before[credit_id], uri, query)
        assert answer(context, uri, language=language) == expected
    german = orjson.loads(answer(context, uri, language="de-DE"))
    title = orjson.loads(context.documents.document(f"/3/movie/{german['media']['id']}", Query("", "de-DE")))
    assert german["media"]["title"] == title["title"]
    # A first page is the document; a later one never existed (404); a bad one is TMDB's 400/22;
    # appends name nothing a credit has.
    assert answer(context, uri, page="1") == answer(context, uri, append_to_response="images") == before[credit_id]
    with pytest.raises(ContentError) as raised:
        answer(context, uri, page="2")
    assert raised.value.error == errors.NOT_FOUND
    with pytest.raises(ContentError) as raised:
        answer(context, uri, page="x")
    assert raised.value.error.status_code == 22


def test_a_release_built_before_the_index_answers_from_its_pack(release, tmp_path):
    """A rollback to a release whose credits are documents of its pack: read as before."""
    folder, before, _ = release
    old = tmp_path / "old"
    old.mkdir()
    (old / PACK_NAME).write_bytes((folder / PACK_NAME).read_bytes())
    credit_id, body = next(iter(before.items()))
    add_document(old, f"3/credit/{credit_id}.json", body)
    assert OpenPacks().read(str(old), f"3/credit/{credit_id}.json") == body


def test_an_index_of_format_2_answers_the_same(release, tmp_path):
    """A release built before the rows moved to `credits.rows` (all of them SQLite's, TMDB-style ids
    keyed by their 12 bytes) still answers, as a rollback to it would ask."""
    folder, before, _ = release
    old = tmp_path / CREDIT_INDEX
    shutil.copyfile(folder / CREDIT_INDEX, old)
    new = CreditIndex(folder / CREDIT_INDEX)
    with sqlite3.connect(old) as index:
        rows = [(key, *new.rows.get(key)) for key in row_keys(folder)]
        index.executemany("INSERT INTO credits VALUES (?, ?, ?, ?, ?, ?)", rows)
        index.execute("DROP TABLE row_batches")
        index.execute("UPDATE meta SET value = '2' WHERE key = 'format'")
    with Pack(folder) as pack:
        former = CreditIndex(old)
        assert new.rows is not None and former.rows is None
        for credit_id in list(before)[::7]:
            assert former.document(credit_id, pack.raw) == new.document(credit_id, pack.raw) == before[credit_id]
    former.close()
    new.close()
