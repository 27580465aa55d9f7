"""Work a build runs in a process of its own, beside what it does meanwhile.

Why a process: what runs apart (the pack's blocks, the search index) is Python and SQLite on one
core for minutes at a million films, and in the build's process it would wait on the GIL behind the
writer's Python. Spawned, not forked: the build's process has DuckDB's threads running. The process
ends as soon as its work does, so its memory (0.9 GB for the search index at 1M films, up to 3.6 GB
for the pack's blocks) is not held through the rest of the build, as an idle pool worker's was.
Small work stays in the build's process (`apart=False`): a spawned interpreter's start and imports
cost ~0.5 s.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

# What a spawned process's environment adds, unless the build's own sets it. pyarrow's mimalloc reads
# its options once, in the new process, before any work: keeping freed pages 10 s (its default gives
# them back at once) lets the pack's blocks reuse the last bucket's pages instead of faulting in and
# zeroing fresh ones for every bucket of ~250 MB (buckets of a 1M build's size, five pairs: 51.0 to
# 57.6 CPU s down to 49.6 to 51.9, half the page faults, ~0.85 GB more held; docs/benchmarks.md,
# session 49). The blocks' process is not where a 1M build peaks (the templates' first minutes are).
SPAWNED_ENVIRONMENT = {"MIMALLOC_PURGE_DELAY": "10000"}
_spawning = threading.Lock()  # the environment is the process's: one spawn at a time changes it


class ApartError(RuntimeError):
    """The process ended without an answer (killed, or out of memory)."""


def _run(answer: Connection, function: Callable[..., Any], arguments: tuple) -> None:
    try:
        result = (True, function(*arguments), "")
    except BaseException as exc:  # handed to the build, which raises it
        result = (False, exc, traceback.format_exc())
    answer.send(result)
    answer.close()


@contextmanager
def beside(function: Callable[..., Any], *arguments: Any, apart: bool = True) -> Iterator[Callable[[], Any]]:
    """`function(*arguments)`, whose result the block takes by calling what it is given (again: the
    same answer, or error). `apart`: it starts now in a spawned process and the call waits for it
    (its error raised there, its traceback noted); leaving the block by an error kills it. Otherwise
    it runs in this process, at the first call."""
    answered: list[tuple[bool, Any]] = []

    def once(answer: Callable[[], Any]) -> Callable[[], Any]:
        def result() -> Any:
            if not answered:
                try:
                    answered.append((True, answer()))
                except BaseException as exc:
                    answered.append((False, exc))
            ok, value = answered[0]
            if ok:
                return value
            raise value

        return result

    if not apart:
        yield once(lambda: function(*arguments))
        return
    context = multiprocessing.get_context("spawn")
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=_run, args=(sending, function, arguments), name=getattr(function, "__name__", ""))
    with _spawning:
        added = {name: value for name, value in SPAWNED_ENVIRONMENT.items() if name not in os.environ}
        os.environ.update(added)
        try:
            process.start()
        finally:
            for name in added:
                del os.environ[name]
    sending.close()

    def result() -> Any:
        try:
            ok, value, where = receiving.recv()
        except EOFError:
            process.join()
            raise ApartError(f"{process.name} ended without an answer (exit code {process.exitcode})") from None
        process.join()
        if ok:
            return value
        value.add_note(f"in the process apart:\n{where}")
        raise value

    try:
        yield once(result)
    except BaseException:
        process.kill()
        raise
    finally:
        process.join()
        receiving.close()
