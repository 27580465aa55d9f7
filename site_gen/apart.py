"""Work a build runs in a process of its own, beside what it does meanwhile.

Why a process: what runs apart (the pack's blocks, the search index) is Python and SQLite on one
core for minutes at a million films, and in the build's process it would wait on the GIL behind the
writer's Python. Spawned, not forked: the build's process has DuckDB's threads running. Small work
stays in the build's process (`apart=False`): a spawned interpreter's start and imports cost ~0.5 s.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def beside(function: Callable[..., Any], *arguments: Any, apart: bool = True) -> Iterator[Callable[[], Any]]:
    """`function(*arguments)`, whose result the block takes by calling what it is given. `apart`: it
    starts now in a spawned process and the call waits for it (its error raised there); leaving the
    block by an error kills it. Otherwise it runs in this process, when the block calls."""
    if not apart:
        yield lambda: function(*arguments)
        return
    pool = multiprocessing.get_context("spawn").Pool(1)
    try:
        yield pool.apply_async(function, arguments).get
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()
