"""The on-request image size listener's answers (MARQUEE_IMAGE_SIZES=request), in process."""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from edge.image_listener import ImageProtocol


class Transport:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass


def ask(originals, *requests: str) -> bytes:
    async def run() -> bytes:
        with ThreadPoolExecutor(1) as pool:
            protocol = ImageProtocol(originals, pool)
            transport = Transport()
            protocol.connection_made(transport)  # type: ignore[arg-type]
            protocol.data_received(b"".join(f"{r} HTTP/1.1\r\nHost: edge\r\n\r\n".encode() for r in requests))
            for _ in range(200):
                if not protocol.slots:
                    break
                await asyncio.sleep(0.01)
            return transport.data
    return asyncio.run(run())


def test_sizes_are_made_from_the_original_and_answers_keep_request_order(tmp_path):
    Image.new("RGB", (300, 450), (200, 10, 10)).save(tmp_path / "a.jpg", "JPEG")
    answer = ask(tmp_path, "GET /t/p/w92/a.jpg", "GET /t/p/w780/a.jpg", "GET /t/p/w92/nope.jpg",
                 "HEAD /t/p/w185/a.jpg", "POST /t/p/w92/a.jpg", "GET /t/p/w999/a.jpg", "GET /t/p/w92/../a.jpg")
    parts = answer.split(b"HTTP/1.1 ")[1:]
    assert [p.split(b"\r\n", 1)[0] for p in parts] == [
        b"200 OK", b"200 OK", b"404 Not Found", b"200 OK", b"405 Method Not Allowed", b"404 Not Found",
        b"404 Not Found"]
    head, body = parts[0].split(b"\r\n\r\n", 1)
    assert b"Content-Type: image/jpeg" in head
    with Image.open(io.BytesIO(body)) as image:
        assert image.size == (92, 138)
    assert b"X-Accel-Redirect: /t/p/original/a.jpg" in parts[1]  # 300 px already fits w780
    head_only = parts[3].split(b"\r\n\r\n", 1)
    assert b"Content-Length: " in head_only[0] and head_only[1] == b""
