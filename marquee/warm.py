"""Warm a release before it is served: the edge requests clients ask most, answered from it first.

nginx caches the edge's answers (search, discover, find, …) under the release they came from, so a
new release starts with none, and the edge opens its indexes on their first request: at 1M titles
the first seconds after a publish took a p99 of 98 to 364 ms (issue 30, part 3). So before
`current` moves, a publish or rollback asks the admin listener which edge requests clients asked
most (nginx counts them: nginx/lua/marquee_warm.lua), and replays the `MARQUEE_WARM_REQUESTS` most
asked, each twice (nginx caches an answer asked twice), through nginx with the service's warm token
and the new release's name: nginx caches each answer under the new release's key, and every edge
process has opened the new release's indexes, before a client sees it. The replay stops at
`MARQUEE_WARM_SECONDS`; whatever it did not reach is answered as before, only colder.

The token is written into the run folder when nginx's configuration is rendered (only the
operator's account reads it) and rendered into that configuration: a client that sends the
headers without it goes through the gate like any other request.
"""

from __future__ import annotations

import http.client
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from marquee.releases import RELEASE_NAME
from marquee.settings import RELEASES_FOLDER, Settings

TOKEN_FILE = "warm.token"
TOKEN_HEADER, RELEASE_HEADER = "X-Marquee-Warm", "X-Marquee-Warm-Release"  # read by marquee_warm.lua
CONNECTIONS = 4  # replays at once: both cores busy, with room left for the clients' own requests
MAX_KEY = 1024  # the longest path and query nginx counts (its shared dict holds about 20,000)


@dataclass(frozen=True)
class Warmed:
    release: str
    asked: int  # the most asked requests the admin listener gave
    replayed: int  # of those, the ones answered twice before the budget ran out
    failed: int  # answered with anything but 200 (not cached)
    seconds: float

    def line(self) -> str:
        if not self.asked:
            return f"warmed {self.release}: nothing asked yet"
        return (
            f"warmed {self.release}: {self.replayed:,} of the {self.asked:,} most asked edge requests in "
            f"{self.seconds:.1f} s" + (f" ({self.failed:,} not 200)" if self.failed else "")
        )


def token(settings: Settings) -> str:
    """The running service's warm token, made when its nginx configuration is rendered."""
    path = settings.run_dir / TOKEN_FILE
    if not path.exists():
        settings.run_dir.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        path.write_text(secrets.token_hex(16))
    return path.read_text().strip()


def lua_conf(settings: Settings) -> dict[str, object]:
    """marquee_warm.init()'s values: the token, what a release's name looks like, and where a named
    release's folder is (as `current` names it)."""
    return {
        "token": token(settings),
        "release_name": RELEASE_NAME.pattern,
        "current_dir": str(settings.current_link.parent),
        "releases_folder": RELEASES_FOLDER,
        "max_key": MAX_KEY,
    }


def most_asked(settings: Settings, limit: int) -> list[tuple[str, str]]:
    """The `limit` edge requests clients asked most, most first, as (encoding, path?query): the
    encoding "gzip" or ""; none when nginx is not running."""
    if limit <= 0:
        return []
    try:
        connection = http.client.HTTPConnection(settings.admin_host, settings.admin_port, timeout=5)
        connection.request("GET", f"/asked?n={limit}")
        answer = connection.getresponse()
        body = answer.read().decode()
    except OSError:
        return []
    if answer.status != 200:
        return []
    rows = (line.split("\t")[1:] for line in body.splitlines() if line.count("\t") == 2)
    # nginx counted the query as the client sent it; one that HTTP forbids as it is cannot be asked again.
    return [
        (encoding, target.removesuffix("?"))
        for encoding, target in rows
        if target.isascii() and target.isprintable() and " " not in target
    ]


def warm(settings: Settings, release: str) -> Warmed:
    """Replay the most asked edge requests against `release` (a folder name in the releases folder)
    through nginx, within settings.warm_seconds."""
    started = time.monotonic()
    asked = most_asked(settings, settings.warm_requests)
    if not asked:
        return Warmed(release, 0, 0, 0, 0.0)
    deadline = started + settings.warm_seconds
    headers = {TOKEN_HEADER: token(settings), RELEASE_HEADER: release}
    local = threading.local()

    def replay(asked: tuple[str, str]) -> int | None:
        """The status of the request's second answer (of the first, when not 200); None past the budget."""
        encoding, target = asked
        if time.monotonic() >= deadline:
            return None
        connection = getattr(local, "connection", None)
        if connection is None:
            connection = local.connection = http.client.HTTPConnection(
                settings.listen_host, settings.api_port, timeout=max(1.0, settings.warm_seconds)
            )
        status = 0
        try:
            for _ in range(2):  # nginx keeps an answer asked twice (proxy_cache_min_uses)
                connection.request("GET", target, headers={**headers, "Accept-Encoding": encoding or "identity"})
                answer = connection.getresponse()
                answer.read()
                status = answer.status
                if status != 200:
                    break
        except (OSError, http.client.HTTPException):
            connection.close()
            local.connection = None
        return status

    with ThreadPoolExecutor(CONNECTIONS) as pool:
        statuses = [status for status in pool.map(replay, asked) if status is not None]
    replayed = statuses.count(200)
    return Warmed(release, len(asked), replayed, len(statuses) - replayed, time.monotonic() - started)
