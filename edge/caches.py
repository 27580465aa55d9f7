"""The caches an edge process keeps of its releases' search and discover indexes, bounded by bytes.

Why bytes, not entries: a search posting or a discover facet is a few bytes for a rare word and
~600 KB for a common one, so a cache of 50,000 bitmaps was bounded by nothing that fits a machine,
and grew with traffic (at 1M films the answer workers held 300 to 470 MB each after a few minutes
of the benches' mixes: docs/benchmarks.md, issue 30). Why one set per process, not per reader: a
worker keeps two releases open across a publish (marquee/artefacts.py `OpenArtefacts.KEEP`); with
the caches shared, the new release's entries take the place of the old one's as they age, and the
bound holds whatever the releases. Each cache's bound is a share of `MARQUEE_EDGE_CACHE_MB`
(marquee/settings.py, per process; `SHARES` below).

A value's size is what the caller says it holds: a bitmap's serialised length or its containers'
bytes, a row's Python objects (`row_bytes`), plus ENTRY_BYTES for the entry itself. Counting a
row's strings alone bounded the rows at less than half of what they took (355 bytes counted, 775
held, measured at 1M films).
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from sys import getsizeof
from typing import Any

from pyroaring import BitMap

from marquee.settings import SETTINGS

# MARQUEE_EDGE_CACHE_MB's default, what a process keeps when nobody set a budget (tests, tools)
DEFAULT_MB = int(next(s.default for s in SETTINGS if s.name == "edge_cache_mb"))
# Each cache's share of the budget: the rows (ranks, items, texts) most, as most answers need many
SHARES = {"search rows": 0.45, "search bitmaps": 0.2, "discover facets": 0.15, "discover columns": 0.2}
# An entry's own cost beyond its value: its key's tuples, the ordered dict's slot and links (measured).
ENTRY_BYTES = 320
READERS = itertools.count()  # each reader's entries are keyed by its number, never reused


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

    def drop(self, keys: Callable[[Hashable], bool]) -> None:
        """Forget the entries whose key `keys` accepts (a walk of the whole cache: for small ones)."""
        for key in [k for k in self.found if keys(k)]:
            self.used -= self.found.pop(key)[1]


class IndexCaches:
    """One process's caches (the names of SHARES), within `cache_mb` together."""

    def __init__(self, cache_mb: int = DEFAULT_MB) -> None:
        self.caches = {name: BytesLRU(share(cache_mb, name)) for name in SHARES}

    def __getitem__(self, name: str) -> BytesLRU:
        return self.caches[name]


class Loaded:
    """A reader's function kept in a shared cache, as functools.lru_cache would keep it: its results
    by (`reader`, *arguments); `load(*arguments)` gives (value, size)."""

    def __init__(self, cache: BytesLRU, reader: int, load: Callable[..., tuple[Any, int]]) -> None:
        self.cache = cache
        self.reader = reader
        self.load = load

    def __call__(self, *arguments: Hashable) -> Any:
        key = (self.reader, *arguments)
        if key in self.cache.found:
            return self.cache.lookup(key)
        value, size = self.load(*arguments)
        self.cache.keep(key, value, size)
        return value

    def forget(self) -> None:
        """Drop this reader's entries (when it closes, so that nothing holds its file's pages)."""
        self.cache.drop(lambda key: key[0] == self.reader)


def bitmap_bytes(bitmap: BitMap) -> int:
    """What a bitmap's containers hold (its serialised length, near enough, without serialising it)."""
    stats = bitmap.get_statistics()
    return stats["n_bytes_array_containers"] + stats["n_bytes_run_containers"] + stats["n_bytes_bitset_containers"]


def row_bytes(row: tuple | None) -> int:
    """What a row read from SQLite holds: its tuple and each of its values, their headers included."""
    return 0 if row is None else getsizeof(row) + sum(map(getsizeof, row))
