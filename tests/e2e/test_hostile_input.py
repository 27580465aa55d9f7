"""Hostile input gets TMDB's envelope, always: nginx's own refusals included, never a 5xx or HTML.

Requests are written on a raw socket, byte for byte, so nothing between the test and nginx (an
HTTP client's URL parser) cleans them up first.
"""

from __future__ import annotations

import socket

import orjson
import pytest

from tests.e2e.test_doors import detail_paths
from tests.release_files import unpacked

pytestmark = pytest.mark.e2e

ENVELOPE = {"success", "status_code", "status_message", "message"}


def raw_request(port: int, head: bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """Send one request as given and read the answer to the end (every request says Connection: close)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head_bytes, _, rest = data.partition(b"\r\n\r\n")
    lines = head_bytes.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        rest = dechunked(rest)
    return int(lines[0].split()[1]), headers, rest


def dechunked(data: bytes) -> bytes:
    out = b""
    while data:
        size, _, data = data.partition(b"\r\n")
        n = int(size, 16)
        if n == 0:
            break
        out, data = out + data[:n], data[n + 2 :]
    return out


def get(port: int, target: str, *extra_headers: str, body: bytes = b"", method: str = "GET") -> tuple[int, dict, bytes]:
    lines = [f"{method} {target} HTTP/1.1", "Host: marquee.test", "Connection: close", *extra_headers]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return raw_request(port, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"), body)


def assert_envelope(answer: tuple[int, dict, bytes], http_status: int, status_code: int) -> dict:
    status, headers, body = answer
    assert status == http_status, (status, body[:200])
    assert headers["content-type"].startswith("application/json"), headers
    doc = orjson.loads(body)
    assert set(doc) == ENVELOPE and doc["success"] is False and doc["status_code"] == status_code, doc
    assert doc["message"] == doc["status_message"]
    return doc


@pytest.fixture
def hostile(api, request):
    key = api.account(f"hostile-{request.node.name[:40]}", "pro")  # a window of 30 per test
    paths = detail_paths(unpacked(api.settings.current_link))
    list_path = paths["movie"] + "/similar"
    return api, api.settings.api_port, key, paths, list_path


def test_nginx_refusals_are_tmdb_envelopes(hostile):
    api, port, key, paths, _ = hostile
    movie = paths["movie"]
    assert_envelope(get(port, f"{movie}%00?api_key={key}"), 400, 47)  # NUL in the path
    assert_envelope(get(port, f"/3/../../etc/passwd?api_key={key}"), 400, 47)  # above the root
    assert_envelope(get(port, f"/3/movie/%2e%2e/%2e%2e/%2e%2e/etc/passwd?api_key={key}"), 400, 47)
    assert_envelope(get(port, f"{movie}?api_key={key}&q={'a' * 10_000}"), 414, 47)  # a 10 KB query
    assert_envelope(get(port, f"{movie}?api_key={key}", f"X-Padding: {'a' * 20_000}"), 431, 47)
    assert_envelope(get(port, f"{movie}?api_key={key}", body=b"x" * 2_000_000), 413, 47)
    assert_envelope(get(port, f"{movie}?api_key={key}&append_to_response=credits", body=b"x" * 2_000_000), 413, 47)
    assert_envelope(get(port, f"{movie}?api_key={key}", method="TRACE"), 405, 42)
    assert_envelope(get(port, f"{movie}?api_key={key}", method="POST"), 405, 42)
    assert_envelope(get(port, f"{movie}?api_key={key}&append_to_response=trailers", method="DELETE"), 405, 42)
    assert_envelope(raw_request(port, b"GARBAGE\r\n\r\n"), 400, 47)
    assert_envelope(raw_request(port, b"GET /3/movie/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400, 47)
    assert_envelope(raw_request(port, b"GET /3/movie/1 HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n"), 400, 47)
    assert_envelope(get(port, "/_refused/400"), 404, 34)  # the refusals' own locations are internal
    assert_envelope(get(port, "/"), 404, 34)


def test_hostile_paths_and_parameters(hostile):
    api, port, key, paths, list_path = hostile
    movie = paths["movie"]
    plain = get(port, f"{movie}?api_key={key}")
    assert plain[0] == 200
    # Dot segments that stay inside /3 are resolved, as any HTTP server does: the same document.
    assert get(port, f"/3/movie/%2e%2e/movie/{movie.rsplit('/', 1)[1]}?api_key={key}")[2] == plain[2]
    assert_envelope(get(port, f"{movie}%ff?api_key={key}"), 404, 34)  # bad UTF-8 in the path
    assert_envelope(get(port, f"/3/movie/{'9' * 40}?api_key={key}"), 404, 34)  # huge id
    assert_envelope(get(port, f"/3/movie/{'9' * 40}?api_key={key}&append_to_response=credits"), 404, 34)
    assert_envelope(get(port, f"/3/movie/-1?api_key={key}&append_to_response=trailers"), 404, 34)
    assert_envelope(get(port, f"{movie};x?api_key={key}&append_to_response=trailers"), 404, 34)
    for page in ("0", "501", "-1", "abc", "1.5", "%00", "9" * 30, ""):
        answer = get(port, f"{list_path}?api_key={key}&page={page}")
        if page == "":
            assert answer[0] == 200  # no page is the first page
        else:
            assert_envelope(answer, 400, 22)
    names = ",".join(["credits"] * 21)
    assert_envelope(get(port, f"{movie}?api_key={key}&append_to_response={names}"), 400, 27)
    assert get(port, f"{movie}?api_key={key}&append_to_response={','.join(['credits'] * 20)}")[0] == 200
    # Bad UTF-8 and NULs in values: a missing translation, an ignored name, never an error.
    for query in (
        "language=%ff%fe",
        "language=%00",
        "append_to_response=%ff,credits",
        "include_image_language=%ff,%00",
        "append_to_response=trailers&language=%ff",
        "append_to_response=images&include_image_language=%c3%28",
        "append_to_response=../../x,credits",
        "append_to_response=videos&include_video_language=" + "," * 3000,
    ):
        status, headers, body = get(port, f"{movie}?api_key={key}&{query}")
        assert status == 200 and headers["content-type"].startswith("application/json"), (query, status, body[:200])
        assert orjson.loads(body)["id"] == orjson.loads(plain[2])["id"]


def test_repeated_parameters_take_the_first_value_on_every_door(hostile):
    """nginx reads the first of a repeated parameter; the edge must read the same one."""
    api, port, key, paths, _ = hostile
    release = unpacked(api.settings.current_link)
    translated = sorted(p.name.split(".")[0] for p in (release / "3/movie").glob("*.de-DE.json"))[0]
    movie = f"/3/movie/{translated}"
    german = orjson.loads((release / f"3/movie/{translated}.de-DE.json").read_bytes())["title"]
    for door in ("", "&append_to_response=credits", "&append_to_response=trailers"):
        for query in ("language=de-DE&language=fr-FR", "LANGUAGE=de-DE", "language=de%2DDE", "Language=de&language=fr"):
            status, _, body = get(port, f"{movie}?api_key={key}&{query}{door}")
            assert status == 200 and orjson.loads(body)["title"] == german, (door, query)
        status, _, body = get(port, f"{movie}?api_key={key}&language=&language=de-DE{door}")
        assert status == 200 and orjson.loads(body)["title"] != german, door  # the first, empty, is no language
