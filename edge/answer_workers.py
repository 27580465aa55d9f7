"""The edge's answer workers: the routes whose answers cost a millisecond of Python (search, find;
edge/routes/route.py `apart`), one process a core, each on a socket of its own that nginx balances
over (the `edge_answers` upstream in nginx/marquee.conf.j2).

Why processes nginx reaches directly, and not a pool behind the content listener: that hop (the
edge's event loop, then a ProcessPoolExecutor's pickling and threads) cost 0.32 ms of the edge's CPU
and about 0.1 ms of the worker's on each search, a quarter of a cold search's cost through nginx
(docs/benchmarks.md). Each worker reads the release as the content listener does (`current`, once
per answer) with its own caches, and opens the search index read-only and memory-mapped, so the
workers share its pages.

nginx's gate has admitted and counted every request that reaches a worker (`X-Marquee-Admitted`).
Only nginx can reach these sockets, so a request without that header is refused, not checked again.

`python -m control edge` starts them (AnswerWorkers) and starts again any that exits; each one
exits when the edge does.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import subprocess
import sys

from edge.assemble import answer_as_node
from edge.content_listener import ContentProtocol, CurrentRelease, artefact_readers
from edge.upstream_protocol import start_unix_listener
from marquee.artefacts import DISCOVER_INDEX, SEARCH_INDEX, OpenArtefacts
from marquee.settings import Settings, from_env, to_env

log = logging.getLogger("marquee.edge")
RESTART_SECONDS = 1.0  # how often the edge looks for a worker that exited, and a worker for the edge
# Python's collector of the oldest generation walks every object there, the index caches' hundreds of
# thousands of rows (edge/caches.py) among them: 55 to 150 ms at 1M films, an answer's worth of
# stall for every request queued on the worker (a cold search's slowest were 69 to 168 ms, 10 to 16
# with it off). Answers make no cycles that live that long (a full collection after 20,000 searches
# and discovers found nothing to free), so the worker never lets it run on its own and runs it itself
# this often, to free whatever an unforeseen cycle holds.
FULL_COLLECTION_SECONDS = 600


class AnswerWorkers:
    """The edge's side: start a worker per socket, start again one that exited, stop them all."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.procs: dict[int, subprocess.Popen] = {}

    def start(self) -> None:
        for number in range(len(self.settings.answer_sockets)):
            self.spawn(number)

    def spawn(self, number: int) -> None:
        env = dict(os.environ, **to_env(self.settings))
        self.procs[number] = subprocess.Popen([sys.executable, "-m", "edge.answer_workers", str(number)], env=env)

    async def supervise(self) -> None:
        while True:
            await asyncio.sleep(RESTART_SECONDS)
            for number, proc in list(self.procs.items()):
                if proc.poll() is not None:
                    log.error("answer_worker_exited number=%d code=%s: starting it again", number, proc.returncode)
                    self.spawn(number)

    def stop(self) -> None:
        for proc in self.procs.values():
            proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()


async def serve(settings: Settings, number: int) -> None:
    """One worker: answer on its socket until the edge that started it is gone."""
    path = settings.answer_sockets[number]
    answer_as_node(settings)
    path.unlink(missing_ok=True)
    release = CurrentRelease(settings.current_link, artefacts=OpenArtefacts(artefact_readers(settings.edge_cache_mb)))
    release.open_now((SEARCH_INDEX, DISCOVER_INDEX))
    server = await start_unix_listener(
        lambda: ContentProtocol(None, release, settings.languages), str(path), settings.edge_backlog
    )
    gc.freeze()  # what is loaded lives as long as the process; the answers allocate no cycles
    gc.set_threshold(50_000, 20, 1_000_000_000)  # the oldest generation: FULL_COLLECTION_SECONDS
    edge = os.getppid()
    now = asyncio.get_running_loop().time
    last_full = now()
    try:
        while os.getppid() == edge:  # re-parented: the edge has gone
            await asyncio.sleep(RESTART_SECONDS)
            if now() - last_full >= FULL_COLLECTION_SECONDS:
                gc.collect()
                last_full = now()
    finally:
        server.close()


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        asyncio.run(serve(from_env(), int(sys.argv[1])))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
