"""Release packs through nginx (nginx/lua/marquee_docs.lua): publishing and rolling back between
packs while serving, methods, and the edge reading the same pack."""

from __future__ import annotations

import contextlib
import os
import re

import pytest

from marquee.manifests import digest_of
from marquee.packs import (
    BASE_NAME,
    BLOB_KEY_FORMAT,
    COMPOSITE_MARK,
    PACK_NAME,
    Pack,
    etag_of,
    group_of,
    hash_key,
    key_of,
)
from site_gen import delta_writer
from site_gen.writer import Writer
from tests.e2e.conftest import assert_tmdb_error, point_current, rotating_get

pytestmark = pytest.mark.e2e


def make_release(folder, title: str, writer: Writer | None = None):
    writer = writer or Writer(folder)
    writer.write("/3/configuration", {"images": {}, "change_keys": []})
    writer.write("/3/movie/7", {"id": 7, "title": title, "overview": ""})
    writer.write("/3/movie/7/credits", {"id": 7, "cast": [{"name": title}], "crew": []})
    writer.finish()
    (folder / "BUILD").write_text(folder.name + "\n")
    return folder


@pytest.fixture(scope="module")
def packs_api(start_stack, tmp_path_factory):
    base = tmp_path_factory.mktemp("packs")
    releases = [make_release(base / f"r{n}", f"Title {n}") for n in range(4)]
    return start_stack(release=releases[0]), releases


def test_every_publish_and_rollback_is_seen_by_the_next_request(packs_api):
    api, releases = packs_api
    # Four releases through the same nginx workers: each keeps two packs open and closes the oldest.
    for step, n in enumerate((0, 1, 2, 3, 1, 0)):
        key = api.account(f"packs-{step}", "pro")  # five requests a step, well inside one window
        point_current(api.settings, releases[n])
        for _ in range(3):  # reach both workers
            assert api.client.get("/3/movie/7", params={"api_key": key}).json()["title"] == f"Title {n}"
        spliced = api.client.get("/3/movie/7", params={"api_key": key, "append_to_response": "credits"}).json()
        assert spliced["credits"]["cast"] == [{"name": f"Title {n}"}]
        # `trailers` is the edge's answer (a JSON rewrite): it reads the same pack.
        by_edge = api.client.get("/3/movie/7", params={"api_key": key, "append_to_response": "trailers,credits"})
        assert by_edge.status_code == 200, by_edge.text
        assert by_edge.json()["title"] == f"Title {n}" and by_edge.json()["credits"] == spliced["credits"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_other_methods_get_405_in_tmdbs_envelope(packs_api, method):
    api, _ = packs_api
    key = api.account(f"method-{method}", "pro")
    assert_tmdb_error(api.client.request(method, "/3/movie/7", params={"api_key": key}), 405, 42)


def test_unknown_names_are_404_34_and_never_reach_a_file(packs_api):
    api, _ = packs_api
    key = api.account("names", "pro")
    for path in ("/3/movie/8", "/3/movie/7/nope", "/3/movie/7/../../BUILD", "/3/documents.sqlite", "/3/"):
        assert_tmdb_error(api.client.get(path, params={"api_key": key}), 404, 34)


def rebuild(folder, previous, title: str, keep_credits: bool):
    """An update of `previous` (a delta pack over its base): /3/movie/7 retitled, /3/movie/8 no longer
    rendered, /3/configuration unchanged, the credits unchanged or retitled too."""
    with Pack(previous) as old:
        digests = {name: digest_of(old.raw(name)) for name in ("3/configuration.json", "3/movie/7/credits.json")}
    writer = Writer(folder, previous=previous)
    writer.write("/3/configuration", None, digests["3/configuration.json"])
    writer.write("/3/movie/7", {"id": 7, "title": title, "overview": ""})
    if keep_credits:
        writer.write("/3/movie/7/credits", None, digests["3/movie/7/credits.json"])
    else:
        writer.write("/3/movie/7/credits", {"id": 7, "cast": [{"name": title}], "crew": []})
    writer.finish()
    (folder / "BUILD").write_text(folder.name + "\n")
    return folder


def test_delta_releases_serve_through_to_their_base_and_leave_it_as_it_was(packs_api, tmp_path_factory, monkeypatch):
    api, _ = packs_api
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 100.0)  # these packs are tiny: a delta is as big as its base
    base = tmp_path_factory.mktemp("deltas")
    full = base / "full"
    writer = Writer(full)
    writer.write("/3/movie/8", {"id": 8, "title": "Eight", "overview": ""})
    make_release(full, "Full", writer)
    inode, before = os.stat(full / PACK_NAME).st_ino, (full / PACK_NAME).read_bytes()
    first = rebuild(base / "first", full, "First", keep_credits=True)
    second = rebuild(base / "second", first, "Second", keep_credits=False)  # a delta on a delta: copied, one deep
    for release in (first, second):
        assert os.stat(release / BASE_NAME).st_ino == inode
    assert (full / PACK_NAME).read_bytes() == before
    with Pack(second) as pack:  # /3/movie/8 is in the base, hidden by a tombstone
        assert (
            pack.con.execute("SELECT count(*) FROM base.docs WHERE key = ?", (pack.key("3/movie/8.json"),)).fetchone()[
                0
            ]
            == 1
        )
        assert pack.get("3/movie/8.json") is None

    expected = [
        (full, "Full", "Full", True),
        (first, "First", "Full", False),
        (second, "Second", "Second", False),
        (first, "First", "Full", False),
        (full, "Full", "Full", True),
    ]
    for step, (release, title, cast, has_8) in enumerate(expected):  # publish, publish, publish, roll back twice
        key = api.account(f"deltas-{step}", "pro")  # eight requests a step, well inside one window

        def get(path, **params):
            return api.client.get(path, params={"api_key": key, **params})

        point_current(api.settings, release)
        for _ in range(2):  # reach both workers
            assert get("/3/movie/7").json()["title"] == title
            assert get("/3/configuration").status_code == 200  # unchanged: from the base
            eight = get("/3/movie/8")
            if has_8:
                assert eight.json()["title"] == "Eight"
            else:
                assert_tmdb_error(eight, 404, 34)
        spliced = get("/3/movie/7", append_to_response="credits").json()
        assert spliced["title"] == title and spliced["credits"]["cast"] == [{"name": cast}]
        by_edge = get("/3/movie/7", append_to_response="trailers,credits")  # the edge's Pack reads the delta too
        assert by_edge.status_code == 200, by_edge.text
        assert by_edge.json()["title"] == title and by_edge.json()["credits"]["cast"] == [{"name": cast}]


def composite_release(folder, title: str, previous=None):
    """/3/movie/7/similar as a composite (marquee/packs.py): two references to /_items/movie/9, the
    second with an entry field of its own, and /3/movie/8/similar naming an item that is missing."""
    documents = {
        "/3/configuration": {"images": {}, "change_keys": []},
        "/3/movie/7": {"id": 7, "title": "Seven", "overview": ""},
        "/3/movie/7/similar": b'{"id":7,"page":1,"results":[{"\\u0001":"movie/9"},'
        b'{"\\u0001":"movie/9","character":"Nine"}],"total_pages":1,"total_results":2}',
        "/3/movie/8/similar": b'{"id":8,"page":1,"results":[{"\\u0001":"movie/404"}]}',
    }
    writer = Writer(folder, previous=previous)
    with Pack(previous or folder.parent) if previous else contextlib.nullcontext() as old:
        for uri, document in documents.items():  # unchanged in an update: kept by their ETag
            writer.write(uri, *((None, digest_of(old.raw(uri[1:] + ".json"))) if old else (document,)))
    writer.write("/_items/movie/9", {"id": 9, "title": title})
    writer.finish()
    (folder / "BUILD").write_text(folder.name + "\n")
    return folder


def test_composite_documents_are_served_with_their_items_spliced(packs_api, tmp_path_factory, monkeypatch):
    api, _ = packs_api
    monkeypatch.setattr(delta_writer, "COMPACT_FRACTION", 100.0)
    base = tmp_path_factory.mktemp("composites")
    first = composite_release(base / "first", "Nine")
    second = composite_release(base / "second", "Nove", previous=first)  # only the item is rewritten
    with Pack(second) as pack:
        assert pack.con.execute("SELECT count(*) FROM main.docs").fetchone()[0] == 1
    etags = set()
    for step, (release, title) in enumerate([(first, "Nine"), (second, "Nove")]):
        key = api.account(f"composite-{step}", "pro")
        point_current(api.settings, release)
        for _ in range(2):  # reach both workers
            response = api.client.get("/3/movie/7/similar", params={"api_key": key})
            assert response.status_code == 200
            assert response.json()["results"] == [
                {"id": 9, "title": title},
                {"id": 9, "title": title, "character": "Nine"},
            ]
            etag = response.headers["etag"]
            assert etag == '"' + etag_of(response.content) + '"'  # the assembled bytes', not the skeleton's
            assert (
                api.client.get(
                    "/3/movie/7/similar", params={"api_key": key}, headers={"If-None-Match": etag}
                ).status_code
                == 304
            )
            with Pack(release) as pack:
                assert response.content == pack.get("3/movie/7/similar.json")
                assert pack.etag("3/movie/7/similar.json") == etag_of(pack.raw("3/movie/7/similar.json"))
        etags.add(etag)
        spliced = api.client.get("/3/movie/7", params={"api_key": key, "append_to_response": "similar"}).json()
        assert spliced["similar"]["results"][1] == {"id": 9, "title": title, "character": "Nine"}
        by_edge = api.client.get("/3/movie/7", params={"api_key": key, "append_to_response": "trailers,similar"})
        assert by_edge.status_code == 200 and by_edge.json()["similar"] == spliced["similar"]  # the edge's Pack
        # A reference to a missing item is a broken document: absent, never a half-spliced body or a 500.
        with Pack(release) as pack:
            assert pack.get("3/movie/8/similar.json") is None and pack.raw("3/movie/8/similar.json") is not None
        for language in ({}, {"language": "de-DE"}, {"language": "de-DE"}):  # in a language, once cached too
            assert_tmdb_error(api.client.get("/3/movie/8/similar", params={"api_key": key, **language}), 404, 34)
        assert_tmdb_error(api.client.get("/3/movie/6/similar", params={"api_key": key, "language": "de-DE"}), 404, 34)
        for path in ("/3/_items/movie/9", "/_items/movie/9", "/3/../_items/movie/9"):  # items have no path
            assert api.client.get(path, params={"api_key": key}).status_code == 404
    assert len(etags) == 2


def old_format_copy(release, folder):
    """`release` as packs were written before rows were keyed by hash and bodies compressed: a copy
    whose pack is `docs(name, body, etag)` by name, with JSON bodies, hex ETags and no dictionaries
    (marquee/packs.py), as an operator's last release before an upgrade is."""
    import shutil
    import sqlite3

    shutil.copytree(release, folder, symlinks=True)
    (folder / PACK_NAME).unlink()
    con = sqlite3.connect(folder / PACK_NAME)
    with Pack(release) as pack, con:
        con.execute("CREATE TABLE docs (name TEXT NOT NULL, body BLOB NOT NULL, etag TEXT NOT NULL)")
        con.executemany("INSERT INTO docs VALUES (?, ?, ?)", pack.rows())
        con.execute("CREATE UNIQUE INDEX docs_name ON docs (name)")
    con.close()
    return folder


def blob_key_copy(release, folder):
    """`release` as packs of groups were written before their keys were rowids (BLOB_KEY_FORMAT):
    the same blocks, each keyed by the first KEY_BYTES of its group's MD5."""
    import shutil
    import sqlite3

    shutil.copytree(release, folder, symlinks=True)
    with Pack(release) as pack:
        groups = {group_of(name)[0] for name in pack.names()}
    con = sqlite3.connect(folder / PACK_NAME)
    with con:
        con.execute("ALTER TABLE docs RENAME TO rows")
        con.execute("CREATE TABLE docs (key BLOB PRIMARY KEY, body BLOB NOT NULL)")
        con.executemany(
            "INSERT INTO docs SELECT ?, body FROM rows WHERE key = ?",
            [(hash_key(group), key_of(group)) for group in groups],
        )
        assert (
            con.execute("SELECT count(*) FROM docs").fetchone() == con.execute("SELECT count(*) FROM rows").fetchone()
        )
        con.execute("DROP TABLE rows")
        con.execute(f"PRAGMA user_version = {BLOB_KEY_FORMAT}")
    con.close()
    return folder


def test_keyed_compressed_documents_answer_what_named_plain_json_ones_did(start_stack, e2e_release, tmp_path):
    """Every kind of document of the sample, through nginx from the release as built (blocks of
    groups keyed by a hash, zstd frames with dictionaries) and from the same release in the formats
    before (rows by name, plain JSON; the blocks keyed by a BLOB): the same bytes on the wire, ETag
    and encoding, in the default language, a variant and the untranslated one (three documents of
    each), plain and gzip."""
    with Pack(e2e_release) as pack:
        assert (
            pack.grouped
            and not pack.con.execute("SELECT 1 FROM pragma_table_info('docs') WHERE name = 'name'").fetchone()
        )
        framed, blocks = pack.con.execute(
            "SELECT count(*) FILTER (WHERE substr(body, 1, 4) = ?), count(*) FROM docs", (b"\x28\xb5\x2f\xfd",)
        ).fetchone()
        assert framed > blocks // 2 and blocks < pack.count() // 2  # most blocks compressed, several documents each
        names = [name for name in pack.names("3/%") if "?" not in name]
    old = old_format_copy(e2e_release, tmp_path / "old")
    with Pack(old) as pack:
        assert (
            not pack.keyed and [name for name in pack.names("3/%") if "?" not in name] == names
        )  # the edge's reader too
    blob_keyed = blob_key_copy(e2e_release, tmp_path / "blob")
    with Pack(blob_keyed) as pack:
        assert pack.format == BLOB_KEY_FORMAT and [name for name in pack.names("3/%") if "?" not in name] == names
    # One image host for the three: /3/configuration is each node's own (marquee/configuration.py).
    stacks = [
        start_stack(release=release, MARQUEE_PLANS="pro=1000000", MARQUEE_IMAGE_BASE_URL="http://img.test/t/p/")
        for release in (e2e_release, old, blob_keyed)
    ]
    keys = [stack.account("compare", "pro") for stack in stacks]

    def wire(stack, key, uri, params, headers):
        with stack.client.stream("GET", uri, params={**params, "api_key": key}, headers=headers) as response:
            raw = b"".join(response.iter_raw())  # as sent: gzip stays gzip
            return response.status_code, response.headers.get("ETag"), response.headers.get("Content-Encoding"), raw

    checked = 0
    for name in sampled(names):
        uri, _, suffix = name.removesuffix(".json").partition(".")
        language = {"": None, "und": "xx"}.get(suffix, suffix)
        params = {"language": language} if language else {}
        for encoding in ("identity", "gzip"):
            after, before, blob = (
                wire(stack, key, "/" + uri, params, {"Accept-Encoding": encoding}) for stack, key in zip(stacks, keys)
            )
            assert after == before == blob and after[0] == 200, name
            checked += 1
    assert checked == 2 * len(sampled(names)) > 500


def sampled(names: list[str]) -> list[str]:
    """Three documents (spread) of each path and kind of variant (default, a language, untranslated):
    every family, in a few hundred of the sample's ~15k names."""
    groups: dict[tuple[str, str], list[str]] = {}
    for name in names:
        stem, _, suffix = name.removesuffix(".json").partition(".")
        path = re.sub(r"/([0-9]+|[0-9a-f]{24})(?=/|$)", "/{}", stem)  # ids, and reviews' hex ones
        groups.setdefault((path, {"": "", "und": "und"}.get(suffix, "variant")), []).append(name)
    return [name for group in groups.values() for name in group[:: max(1, len(group) // 3)][:3]]


def test_nginx_splices_composites_as_packs_assemble_does(api, e2e_release):
    """nginx's splice (marquee_docs.lua `assemble`: plain finds into a string.buffer) and Python's
    (marquee/packs.py REFERENCE) give the same bytes and ETag, for composites of every kind."""
    with Pack(e2e_release) as pack:
        by_kind: dict[str, list[str]] = {}
        for name in pack.iter_names("3/%"):
            if "." not in name.removesuffix(".json") and COMPOSITE_MARK in pack.raw(name):
                by_kind.setdefault("/".join(name.split("/")[1::2]), []).append(name)
        assert len(by_kind) >= 8, sorted(by_kind)  # credits, similar lists, people's credits, episodes…
        chosen = [name for names in by_kind.values() for name in names[:: max(1, len(names) // 8)][:8]]
        expected = {name: pack.get(name) for name in chosen}
    get = rotating_get(api, "spliced")
    for name, body in expected.items():
        response = get("/" + name.removesuffix(".json"))
        assert response.status_code == 200 and response.content == body, name
        assert response.headers["ETag"].removeprefix("W/") == f'"{etag_of(body)}"'
