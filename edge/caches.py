"""The caches an index reader keeps in each edge process, bounded by the bytes they hold.

Why bytes, not entries: a search posting or a discover facet is a few bytes for a rare word and
~600 KB for a common one, so a cache of 50,000 bitmaps was bounded by nothing that fits a machine,
and grew with traffic (at 1M films the answer workers held 1.0 to 1.3 GB after a few minutes of
the benches' mixes: docs/benchmarks.md, issue 30 session 36). The bound of each cache is a share
of `MARQUEE_EDGE_CACHE_MB` (marquee/settings.py, per answer worker; `shares` below).

A value's size is what the caller says it holds: a bitmap's serialised length or its containers'
bytes, a row's strings and bytes, plus ENTRY_BYTES for the entry itself (key, tuple, links).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Hashable

from pyroaring import BitMap

from marquee.settings import SETTINGS

# MARQUEE_EDGE_CACHE_MB's default, what a reader opened without a budget keeps
DEFAULT_MB = int(next(s.default for s in SETTINGS if s.name == "edge_cache_mb"))
# Each cache's share of the budget: the rows (ranks, items, texts) most, as most answers need many
SHARES = {"search rows": 0.45, "search bitmaps": 0.2, "discover facets": 0.15, "discover columns": 0.2}
ENTRY_BYTES = 200  # an entry's own cost beyond its payload: its key, tuples, the ordered dict's links


def share(cache_mb: int, cache: str) -> int:
    """The bytes of `cache` (a name of SHARES) in a budget of `cache_mb`."""
    return int(cache_mb * SHARES[cache] * (1 << 20))


class BytesLRU:
    """Values by key, the least recently used dropped first, one at a time, once their sizes pass
    `limit` bytes (the newest always kept). One at a time: dropping the oldest half at once took ~20 ms
    at 150,000 rows, on one request and every request queued behind it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.found: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()

    def __contains__(self, key: Hashable) -> bool:
        return key in self.found

    def lookup(self, key: Hashable) -> Any:
        """The value kept for `key`, now the most recently used (KeyError when none is)."""
        value = self.found[key][0]
        self.found.move_to_end(key)
        return value

    def keep(self, key: Hashable, value: Any, size: int) -> None:
        size += ENTRY_BYTES
        old = self.found.pop(key, None)
        if old is not None:
            self.used -= old[1]
        self.found[key] = (value, size)
        self.used += size
        while self.used > self.limit and len(self.found) > 1:
            self.used -= self.found.popitem(last=False)[1][1]

    def clear(self) -> None:
        self.found.clear()
        self.used = 0


class Loaded(BytesLRU):
    """A function's results by their arguments, as functools.lru_cache keeps them, bounded by bytes:
    `load(*key)` gives (value, size)."""

    def __init__(self, limit: int, load: Callable[..., tuple[Any, int]]) -> None:
        super().__init__(limit)
        self.load = load

    def __call__(self, *key: Hashable) -> Any:
        if key in self.found:
            return self.lookup(key)
        value, size = self.load(*key)
        self.keep(key, value, size)
        return value

    def cache_clear(self) -> None:
        self.clear()


def bitmap_bytes(bitmap: BitMap) -> int:
    """What a bitmap's containers hold (its serialised length, near enough, without serialising it)."""
    stats = bitmap.get_statistics()
    return stats["n_bytes_array_containers"] + stats["n_bytes_run_containers"] + stats["n_bytes_bitset_containers"]


def payload_bytes(row: tuple | None) -> int:
    """A row's strings and bytes (its numbers are small next to them)."""
    return 0 if row is None else sum(len(v) for v in row if isinstance(v, (str, bytes)))
