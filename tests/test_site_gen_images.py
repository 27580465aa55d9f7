"""The image store: originals plus the configuration's sizes per kind, rebuilt only when bytes change."""

from __future__ import annotations

import contextlib
import io
import sqlite3

from PIL import Image

from marquee.image_sizes import ALL_SIZES, SIZES_BY_KIND, bound
from site_gen.images import sync_store


def draw(path, size, colour, fmt="JPEG"):
    Image.new("RGB", size, colour).save(path, fmt)


def synced_poster(tmp_path):
    """A store synced from one 300x450 poster, `a.jpg`: (originals folder, store)."""
    originals = tmp_path / "originals"
    originals.mkdir()
    draw(originals / "a.jpg", (300, 450), (1, 2, 3))
    store = tmp_path / "store"
    sync_store(originals, store, {"a.jpg": "poster"}, workers=1)
    return originals, store


def test_ten_distinct_sizes_as_tmdb_lists_them():
    assert ALL_SIZES == ("h632", "w45", "w92", "w154", "w185", "w300", "w342", "w500", "w780", "w1280")
    assert bound("w342") == (342, 100_000) and bound("h632") == (100_000, 632)


def test_each_kind_gets_its_sizes_scaled_down_never_up(tmp_path):
    originals = tmp_path / "originals"
    originals.mkdir()
    draw(originals / "p.jpg", (1000, 1500), (200, 10, 10))
    draw(originals / "b.jpg", (2000, 1125), (10, 200, 10))
    draw(originals / "l.png", (400, 150), (10, 10, 200), "PNG")
    draw(originals / "f.jpg", (600, 900), (10, 10, 10))
    store = tmp_path / "store"
    summary = sync_store(
        originals, store, {"p.jpg": "poster", "b.jpg": "backdrop", "l.png": "logo", "f.jpg": "profile"}, workers=1
    )
    assert summary.originals == 4 and summary.resized == 4
    # Only sizes smaller than the original are files: the logo's w500 is not (400 wide already).
    assert summary.files_written == 4 + 6 + 3 + 5 + 3
    for size in SIZES_BY_KIND["poster"]:
        with Image.open(store / size / "p.jpg") as image:
            assert image.width == min(1000, int(size[1:]))
            assert image.format == "JPEG"
    with Image.open(store / "w1280" / "b.jpg") as image:
        assert image.size == (1280, 720)
    with Image.open(store / "h632" / "f.jpg") as image:
        assert image.height == 632 and image.width == 421
    with Image.open(store / "w300" / "l.png") as image:
        assert image.format == "PNG" and image.width == 300
    assert not (store / "w500" / "l.png").exists()  # the image host answers w500 with the original
    assert not (store / "w1280" / "p.jpg").exists()  # not a poster size
    assert (store / "original" / "b.jpg").read_bytes() == (originals / "b.jpg").read_bytes()


def test_a_second_sync_resizes_only_changed_originals(tmp_path):
    originals = tmp_path / "originals"
    originals.mkdir()
    draw(originals / "a.jpg", (300, 450), (1, 2, 3))
    draw(originals / "b.jpg", (300, 450), (4, 5, 6))
    store = tmp_path / "store"
    sync_store(originals, store, {"a.jpg": "poster", "b.jpg": "poster"}, workers=1)
    assert sync_store(originals, store, {"a.jpg": "poster", "b.jpg": "poster"}, workers=1).resized == 0
    draw(originals / "b.jpg", (300, 450), (200, 200, 200))
    again = sync_store(originals, store, {"a.jpg": "poster", "b.jpg": "poster"}, workers=2)
    assert again.resized == 1
    with Image.open(store / "w92" / "b.jpg") as image:
        assert image.getpixel((5, 5))[0] > 150
    assert (store / "w185" / "b.jpg").is_file()
    draw(originals / "b.jpg", (150, 225), (9, 9, 9))  # now smaller than w185: its old w185 must go
    assert sync_store(originals, store, {"a.jpg": "poster", "b.jpg": "poster"}, workers=1).resized == 1
    assert not (store / "w185" / "b.jpg").exists() and (store / "w92" / "b.jpg").is_file()


def test_unchanged_size_and_mtime_skip_hashing(tmp_path):
    import os

    originals, store = synced_poster(tmp_path)
    before = os.stat(originals / "a.jpg")
    # Same size and mtime: the recorded hash is trusted, the file is not read again...
    data = bytearray((originals / "a.jpg").read_bytes())
    data[-3] ^= 0xFF
    (originals / "a.jpg").write_bytes(bytes(data))
    os.utime(originals / "a.jpg", ns=(before.st_atime_ns, before.st_mtime_ns))
    assert sync_store(originals, store, {"a.jpg": "poster"}, workers=1).resized == 0
    # ...while a new mtime makes it hash the bytes and resize.
    os.utime(originals / "a.jpg", ns=(before.st_atime_ns, before.st_mtime_ns + 1))
    assert sync_store(originals, store, {"a.jpg": "poster"}, workers=1).resized == 1


def test_generated_originals_are_drawn_into_the_store_once(tmp_path):
    import pyarrow.parquet as pq

    from marquee_datasets.images import draw
    from site_gen.images import GENERATED, MANIFEST

    originals = tmp_path / "originals"  # a generated catalogue: no folder, or a file for some names
    store = tmp_path / "store"
    kinds = {"g.jpg": "poster", "b.jpg": "backdrop"}
    summary = sync_store(originals, store, kinds, workers=1, generated=True)
    assert (summary.originals, summary.resized) == (2, 2)
    assert (store / "original" / "g.jpg").read_bytes() == draw("g.jpg", "poster")
    assert (store / "w92" / "g.jpg").is_file() and not (store / "w154" / "g.jpg").exists()  # 120 px wide
    assert {row["digest"] for row in pq.read_table(store / MANIFEST).to_pylist()} == {GENERATED}
    assert sync_store(originals, store, kinds, workers=1, generated=True).resized == 0  # drawn once
    originals.mkdir()
    draw_file = originals / "g.jpg"
    Image.new("RGB", (300, 450), (9, 9, 9)).save(draw_file, "JPEG")  # a file wins over drawing
    assert sync_store(originals, store, kinds, workers=1, generated=True).resized == 1
    assert (store / "original" / "g.jpg").read_bytes() == draw_file.read_bytes()
    # Without `generated`, a name with no file is left out (the build refuses such a release).
    assert sync_store(originals, tmp_path / "other", kinds, workers=1).originals == 1


def test_a_size_made_on_request_equals_the_stored_one(tmp_path):
    from marquee.image_sizes import sized

    originals = tmp_path / "originals"
    originals.mkdir()
    draw(originals / "p.jpg", (1000, 1500), (200, 10, 10))
    draw(originals / "l.png", (400, 150), (10, 10, 200), "PNG")
    store = tmp_path / "store"
    sync_store(originals, store, {"p.jpg": "poster", "l.png": "logo"}, workers=1)
    poster, logo = (store / "original" / "p.jpg").read_bytes(), (store / "original" / "l.png").read_bytes()
    assert sized(poster, "p.jpg", "w342") == (store / "w342" / "p.jpg").read_bytes()
    assert sized(logo, "l.png", "w92") == (store / "w92" / "l.png").read_bytes()
    assert sized(logo, "l.png", "w500") is logo and sized(poster, "p.jpg", "original") is poster  # fits: the original
    # Any listed size, even one posters do not list: a profile's h632.
    with Image.open(io.BytesIO(sized(poster, "p.jpg", "h632"))) as image:
        assert image.size == (421, 632)


def test_the_index_key_is_the_same_in_duckdb_and_python(tmp_path):
    import duckdb

    from marquee.image_index import ImageIndex
    from marquee.image_sizes import INDEX_KEY_SQL, index_key
    from site_gen.images import write_index

    names = ["a.jpg", "Zz09_-x.png", "x" * 27 + ".jpg"]
    con = duckdb.connect()
    for name in names:
        assert con.execute(f"SELECT {INDEX_KEY_SQL} FROM (SELECT ? AS name)", [name]).fetchall()[0][0] == index_key(
            name
        )
    con.execute(
        "CREATE TABLE movies AS SELECT * FROM (VALUES ('/a.jpg', '/b.jpg'), (NULL, '/c.jpg')) t(poster_path, backdrop_path)"
    )
    con.execute("CREATE TABLE movie_images AS SELECT '/d.png' AS file_path, 'logo' AS kind")
    assert write_index(con, tmp_path / "images.sqlite") == 4
    with contextlib.closing(ImageIndex(tmp_path / "images.sqlite")) as index:
        assert {name: index.kind(name) for name in ("a.jpg", "b.jpg", "c.jpg", "d.png", "e.png")} == {
            "a.jpg": "poster",
            "b.jpg": "backdrop",
            "c.jpg": "backdrop",
            "d.png": "logo",
            "e.png": None,
        }
        assert index.count() == 4


def test_the_image_index_finds_every_name_in_its_buckets(tmp_path):
    """Many names in many buckets, a key given twice keeping its smallest kind, and an index of the
    format before (a row per name) read the same."""
    import numpy

    from marquee import image_index
    from marquee.image_sizes import KINDS, index_key

    names = [f"{i:06d}.jpg" for i in range(20_000)]
    kinds = numpy.array([i % len(KINDS) for i in range(len(names))], numpy.uint8)
    keys = numpy.array([index_key(name) for name in names], numpy.int64)
    twice = numpy.concatenate([keys, keys[:5]]), numpy.concatenate([kinds, numpy.full(5, len(KINDS) - 1, numpy.uint8)])
    assert image_index.write(tmp_path / "new.sqlite", *twice) == len(names)
    old = sqlite3.connect(tmp_path / "old.sqlite")
    old.execute("CREATE TABLE images (key INTEGER PRIMARY KEY, kind INTEGER NOT NULL)")
    old.executemany("INSERT INTO images VALUES (?, ?)", zip(keys.tolist(), kinds.tolist()))
    old.commit()
    old.close()
    for path in (tmp_path / "new.sqlite", tmp_path / "old.sqlite"):
        with contextlib.closing(image_index.ImageIndex(path)) as index:
            assert [index.kind(name) for name in names] == [KINDS[k] for k in kinds]
            assert index.kind("020000.jpg") is None and index.count() == len(names)
    with contextlib.closing(sqlite3.connect(tmp_path / "new.sqlite")) as new:
        assert new.execute("SELECT count(*) FROM buckets").fetchone()[0] > 16  # spread over buckets


def test_a_stored_original_gone_from_the_store_is_put_back(tmp_path):
    originals, store = synced_poster(tmp_path)
    (store / "original" / "a.jpg").unlink()  # its size and mtime are as recorded: only the listing tells
    assert sync_store(originals, store, {"a.jpg": "poster"}, workers=1).resized == 1
    assert (store / "original" / "a.jpg").read_bytes() == (originals / "a.jpg").read_bytes()


def test_the_json_manifest_of_earlier_builds_is_trusted_then_replaced(tmp_path):
    import json
    import os

    import pyarrow.parquet as pq

    from site_gen.images import LEGACY_MANIFEST, MANIFEST

    originals, store = synced_poster(tmp_path)
    [row] = pq.read_table(store / MANIFEST).to_pylist()
    (store / MANIFEST).unlink()
    (store / LEGACY_MANIFEST).write_text(json.dumps({"a.jpg": f"{row['digest']}:{row['sizes']}:{row['stamp']}"}))
    made = os.stat(store / "w92" / "a.jpg").st_mtime_ns
    assert sync_store(originals, store, {"a.jpg": "poster"}, workers=1).resized == 0  # nothing hashed or made again
    assert os.stat(store / "w92" / "a.jpg").st_mtime_ns == made
    assert pq.read_table(store / MANIFEST).to_pylist() == [row] and not (store / LEGACY_MANIFEST).exists()
