"""Vectorised column helpers for the synthetic catalogue: picking words, gluing strings, hashing ids.

Everything here works on whole numpy/Arrow columns so that a million movies (and ~15 million credit
rows) never go through a per-row Python loop.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_BASE62 = np.frombuffer(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", np.uint8)
_HEX = np.frombuffer(b"0123456789abcdef", np.uint8)


def rng_for(seed: int, stream: str) -> np.random.Generator:
    """One independent generator per table, so adding a column to one table leaves the others unchanged."""
    return np.random.default_rng([seed, zlib.crc32(stream.encode())])


def splitmix64(x: np.ndarray) -> np.ndarray:
    """A bijective 64-bit mix (SplitMix64's finaliser): distinct inputs give distinct outputs."""
    z = x.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def fixed_width_strings(chars: np.ndarray) -> pa.Array:
    """An (n, k) uint8 array of ASCII codes -> an Arrow string array of n strings of length k."""
    n, k = chars.shape
    offsets = np.arange(n + 1, dtype=np.int64) * k
    data = np.ascontiguousarray(chars, dtype=np.uint8).tobytes()
    return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data)).cast(pa.string())


def image_paths(ids: np.ndarray, salt: str, seed: int, ext: str) -> pa.Array:
    """TMDB-like file paths (`/` + 27 base62 characters + ext), derived from the id alone."""
    x = ids.astype(np.uint64) * np.uint64(0x100000001B3) ^ np.uint64(zlib.crc32(f"{salt}:{seed}".encode()))
    n = len(ids)
    chars = np.empty((n, 1 + 27 + len(ext)), np.uint8)
    chars[:, 0] = ord("/")
    for word in range(3):
        w = splitmix64(x + np.uint64(word * 0x632BE59BD9B4E019 & 0xFFFFFFFFFFFFFFFF))
        for j in range(9):  # 62**9 < 2**64, so nine digits per 64-bit word
            chars[:, 1 + word * 9 + j] = _BASE62[(w % np.uint64(62)).astype(np.intp)]
            w = w // np.uint64(62)
    chars[:, 28:] = np.frombuffer(ext.encode(), np.uint8)
    return fixed_width_strings(chars)


def hex_ids(counter: np.ndarray, prefix: np.ndarray, seed: int) -> pa.Array:
    """24-hex credit ids like TMDB's (Mongo ObjectIds): 8 hex of `prefix`, then 16 hex of a bijection of
    `counter`, so distinct counters can never collide."""
    key = np.uint64(zlib.crc32(f"credit:{seed}".encode()) * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF)
    low = splitmix64(counter) ^ key
    raw = np.empty((len(counter), 12), np.uint8)
    raw[:, :4] = prefix.astype(">u4").view(np.uint8).reshape(-1, 4)
    raw[:, 4:] = low.astype(">u8").view(np.uint8).reshape(-1, 8)
    chars = np.empty((len(counter), 24), np.uint8)
    chars[:, 0::2] = _HEX[raw >> 4]
    chars[:, 1::2] = _HEX[raw & 15]
    return fixed_width_strings(chars)


def prefixed_numbers(prefix: str, numbers: np.ndarray, width: int) -> pa.Array:
    """`tt0076759`-style ids: prefix + zero-padded decimal (wider numbers keep all their digits)."""
    digits = pc.utf8_lpad(pa.array(numbers.astype(np.int64)).cast(pa.string()), width, "0")
    return pc.binary_join_element_wise(prefix, digits, "")


def pick(words: Sequence[str], index: np.ndarray) -> pa.Array:
    """words[index] as an Arrow string column."""
    return pa.array(list(words), pa.string()).take(pa.array(index % len(words)))


def cat(*parts: pa.Array | str) -> pa.Array:
    """Element-wise string concatenation of columns and constants."""
    return pc.binary_join_element_wise(*parts, "")


def null_where(column: pa.Array, mask: np.ndarray) -> pa.Array:
    """column with NULL wherever mask is true."""
    return pc.if_else(pa.array(mask), pa.scalar(None, column.type), column)


def group_ranks(groups: np.ndarray) -> np.ndarray:
    """0-based position of each row inside its run of equal, adjacent group values."""
    n = len(groups)
    if n == 0:
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    lengths = np.diff(np.r_[starts, n])
    return np.arange(n) - np.repeat(starts, lengths)


def first_occurrences(key: np.ndarray) -> np.ndarray:
    """Sorted row indices keeping only the first row of each distinct key (order preserved)."""
    _, first = np.unique(key, return_index=True)
    return np.sort(first)


def irregular_ids(rng: np.random.Generator, n: int, start: int, max_step: int) -> np.ndarray:
    """Increasing, unique, gappy ids like TMDB's (deleted entries leave holes)."""
    return start + np.concatenate([[0], np.cumsum(rng.integers(1, max_step + 1, n - 1))]).astype(np.int64)


def weighted_choice(rng: np.random.Generator, weights: Sequence[float] | np.ndarray, size: int) -> np.ndarray:
    w = np.asarray(weights, np.float64)
    return rng.choice(len(w), size=size, p=w / w.sum())


def list_column(offsets: np.ndarray, values: pa.Array) -> pa.Array:
    """A list<...> column from row offsets (length n+1) into a flat values column."""
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), values)


def rows_of(ids: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The row of `ids` (unique, any order) holding each key; every key must be present."""
    order = np.argsort(ids, kind="stable")
    return order[np.searchsorted(ids, keys, sorter=order)]
