"""How long DuckDB's allocator keeps the memory a build's queries free before the kernel has it back.

DuckDB allocates through a jemalloc of its own, configured to hand freed pages back to the kernel
(`MADV_DONTNEED`) after one second. A build runs a hundred queries back to back over the same few
gigabytes, so each query faulted in again, zeroed, the pages the one before had just given back:
at 100k films 7.7M to 9.8M page faults and 38 to 45 of 272 to 291 CPU seconds in the kernel, 22%
of the CPU at 1M (docs/benchmarks.md, session 47). Kept for FREED_MEMORY_MS, the next query reuses them.

jemalloc reads its options once, when DuckDB is imported; `DUCKDB_JE_MALLOC_CONF` would have to be
in the environment before that, in every process that builds. `keep_freed_memory` sets the same
through jemalloc's `mallctl`, which DuckDB's library exports, at the moment the build opens its
database: the arenas already made and every arena made later. A DuckDB without it (built without
jemalloc, as on macOS) is left as it is.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

FREED_MEMORY_MS = 10_000


def _mallctl() -> Callable[..., int] | None:
    """DuckDB's jemalloc `mallctl`, or None when its library has none."""
    try:
        import _duckdb

        mallctl = ctypes.CDLL(_duckdb.__file__).duckdb_je_mallctl
    except (ImportError, OSError, AttributeError):
        return None
    mallctl.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    return mallctl


def _read(mallctl: Callable[..., int], name: str, value: ctypes._SimpleCData) -> bool:
    """Read jemalloc's `name` into `value`; False when it has none (an arena not made yet: EFAULT)."""
    size = ctypes.c_size_t(ctypes.sizeof(value))
    return mallctl(name.encode(), ctypes.byref(value), ctypes.byref(size), None, 0) == 0


def freed_memory_ms() -> int | None:
    """How long arenas made from now on keep freed pages (ms), or None without jemalloc."""
    mallctl = _mallctl()
    value = ctypes.c_ssize_t()
    return value.value if mallctl is not None and _read(mallctl, "arenas.dirty_decay_ms", value) else None


def keep_freed_memory(milliseconds: int = FREED_MEMORY_MS) -> bool:
    """Have DuckDB's jemalloc keep freed pages `milliseconds` before returning them (dirty, then
    lazily freed: both decays); True when it took the setting."""
    mallctl = _mallctl()
    if mallctl is None:
        return False
    value = ctypes.c_ssize_t(milliseconds)

    def put(name: str) -> bool:
        return mallctl(name.encode(), None, None, ctypes.byref(value), ctypes.sizeof(value)) == 0

    arenas = ctypes.c_uint()
    if not _read(mallctl, "arenas.narenas", arenas):
        return False
    took = put("arenas.dirty_decay_ms") and put("arenas.muzzy_decay_ms")  # arenas made from now on
    for arena in range(arenas.value):
        # An arena no thread has asked for yet does not exist; it will take the above. jemalloc's
        # "all arenas" index (4096) is not used: setting it crashed this DuckDB (session 47).
        if _read(mallctl, f"arena.{arena}.dirty_decay_ms", ctypes.c_ssize_t()):
            took = put(f"arena.{arena}.dirty_decay_ms") and put(f"arena.{arena}.muzzy_decay_ms") and took
    return took
