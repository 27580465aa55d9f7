"""The edge's image listener: what nginx's image host has no file for, answered in process."""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor

import duckdb
from PIL import Image

from edge.image_listener import ImageProtocol, image_release
from marquee.artefacts import IMAGE_INDEX, ORIGINALS
from marquee.image_sizes import sized
from marquee_datasets.images import draw
from site_gen.images import write_index


class Transport:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass


def ask(home, *requests: str) -> list[bytes]:
    """The answers to `requests` from a listener over `home`'s store and current release."""

    async def run() -> bytes:
        with ThreadPoolExecutor(1) as pool:
            protocol = ImageProtocol(home / "images/t/p", image_release(home / "current"), pool)
            transport = Transport()
            protocol.connection_made(transport)  # type: ignore[arg-type]
            protocol.data_received(b"".join(f"{r} HTTP/1.1\r\nHost: edge\r\n\r\n".encode() for r in requests))
            for _ in range(200):
                if not protocol.slots:
                    break
                await asyncio.sleep(0.01)
            return transport.data

    return asyncio.run(run()).split(b"HTTP/1.1 ")[1:]


def status(answer: bytes) -> bytes:
    return answer.split(b"\r\n", 1)[0]


def body(answer: bytes) -> bytes:
    return answer.split(b"\r\n\r\n", 1)[1]


def a_home(tmp_path, generated: bool = False):
    """HOME with a store and a current release linking a catalogue folder holding `a.jpg` (300x450)
    or, `generated`, indexing the generated poster `g.jpg` and backdrop `b.jpg`."""
    release = tmp_path / "releases" / "r1"
    release.mkdir(parents=True)
    (tmp_path / "current").symlink_to(release)
    (tmp_path / "images/t/p/original").mkdir(parents=True)
    if generated:
        con = duckdb.connect()
        con.execute("CREATE TABLE movies AS SELECT '/g.jpg' AS poster_path, '/b.jpg' AS backdrop_path")
        write_index(con, release / IMAGE_INDEX)
    else:
        (tmp_path / "catalogue-images").mkdir()
        Image.new("RGB", (300, 450), (200, 10, 10)).save(tmp_path / "catalogue-images/a.jpg", "JPEG")
        (release / ORIGINALS).symlink_to(tmp_path / "catalogue-images")
    return tmp_path


def test_sizes_are_made_from_the_catalogue_s_original_and_answers_keep_request_order(tmp_path):
    home = a_home(tmp_path)
    answers = ask(
        home,
        "GET /t/p/w92/a.jpg",
        "GET /t/p/w780/a.jpg",
        "GET /t/p/w92/nope.jpg",
        "HEAD /t/p/w185/a.jpg",
        "POST /t/p/w92/a.jpg",
        "GET /t/p/w999/a.jpg",
        "GET /t/p/w92/../a.jpg",
        "GET /t/p/original/a.jpg",
    )
    assert [status(a) for a in answers] == [
        b"200 OK",
        b"200 OK",
        b"404 Not Found",
        b"200 OK",
        b"405 Method Not Allowed",
        b"404 Not Found",
        b"404 Not Found",
        b"200 OK",
    ]
    assert b"Content-Type: image/jpeg" in answers[0]
    with Image.open(io.BytesIO(body(answers[0]))) as image:
        assert image.size == (92, 138)
    original = (home / "catalogue-images/a.jpg").read_bytes()
    assert body(answers[1]) == original == body(answers[7])  # 300 px already fits w780: the original's bytes
    assert b"Content-Length: " in answers[3] and body(answers[3]) == b""
    # The store's original, once there (placed by `marquee images`, or kept by nginx), comes first.
    Image.new("RGB", (300, 450), (10, 200, 10)).save(home / "images/t/p/original/a.jpg", "JPEG")
    [again] = ask(home, "GET /t/p/w92/a.jpg")
    assert body(again) == sized((home / "images/t/p/original/a.jpg").read_bytes(), "a.jpg", "w92") != body(answers[0])


def test_a_generated_image_is_drawn_from_its_path_the_same_bytes_every_time(tmp_path):
    home = a_home(tmp_path, generated=True)
    first = ask(
        home,
        "GET /t/p/original/g.jpg",
        "GET /t/p/w92/g.jpg",
        "GET /t/p/w500/g.jpg",
        "GET /t/p/w1280/b.jpg",
        "GET /t/p/original/other.jpg",
        "GET /t/p/w92/other.jpg",
    )
    assert [status(a) for a in first] == [b"200 OK"] * 4 + [b"404 Not Found"] * 2  # only names the index has
    assert body(first[0]) == draw("g.jpg", "poster") == body(first[2])  # a poster fits w500
    assert body(first[1]) == sized(draw("g.jpg", "poster"), "g.jpg", "w92")
    assert body(first[3]) == draw("b.jpg", "backdrop")  # drawn as its kind
    assert [body(a) for a in ask(home, "GET /t/p/original/g.jpg", "GET /t/p/w92/g.jpg")] == [
        body(first[0]),
        body(first[1]),
    ]
    (home / "current").unlink()  # nothing published: nothing to draw
    assert [status(a) for a in ask(home, "GET /t/p/w92/g.jpg")] == [b"404 Not Found"]
