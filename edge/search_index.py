"""Ranked pages of a release's search index (site_gen/search_index.py writes it, its format is there).

A query's words are folded and split as names were (marquee/search_text.py). Each word is the
bitmap of the ranks of the entities that have it (the last word: of those with a word it begins,
a search box searching as the user types); the matches are their AND, less what the filters
exclude. Counting them and taking the most popular (the smallest ranks) cost microseconds.

Results come in tiers, and filters (years, adult) narrow every tier without reordering it:

0. exact: the query is one of the entity's names;
1. every word is in its names, the last one as a prefix;
2. when tier 1 has less than a page: the same with one typo in any word of MIN_FUZZY letters or
   more (a letter missing, added, changed, or two swapped).

Within tiers 1 and 2 the WINDOW most popular matches are ordered by

    score = (0.25 + c) × ln(2 + p)

where p is the popularity and c the query's best coverage of one of the entity's names (the
query's words found in the name ÷ the name's words): "the hunger" covers two thirds of "The
Hunger Games" and a third of an obscure "The Hunger of Men and Wolves". Past the window, matches
follow by popularity alone.

Several kinds (search/multi) are merged by the same keys, tier first, then by popularity.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pyroaring import BitMap
from rapidfuzz.distance import OSA

from edge.caches import READERS, BytesLRU, IndexCaches, Loaded, bitmap_bytes, row_bytes
from marquee import search_text
from marquee.packs import Decoder

PAGE_SIZE = 20
WINDOW = 60  # candidates ordered by score (three pages); the rest follow by popularity
CHUNK = 500
EXACT_FIRST = PAGE_SIZE  # exact namesakes read first; each next chunk four times as many, up to CHUNK
MAX_WORDS = 32  # a query's words looked at: a title is shorter, and a longer query costs the rest for nothing
EMPTY = BitMap()
MMAP_BYTES = 1 << 40  # the whole file, however large: SQLite maps up to its own compile-time limit


@dataclass(frozen=True)
class Filters:
    years: tuple[str, ...] = ()  # filter tokens: `y2001` (primary year), `r2001` (any release year)
    include_adult: bool = False
    required: tuple[str, ...] = ()  # other filter tokens every result has (`imdb`: an IMDb id, for /compat)


@dataclass(frozen=True)
class Plan:
    """One query's words, and per word what matches it in each tier: the word itself (the last as a
    prefix) in tiers 0 and 1, also the indexed words one typo away in tier 2."""

    words: list[str]
    exact: str
    strict: list[frozenset[str]]  # per word: the word
    fuzzy: list[frozenset[str]] | None  # per word: the word and its neighbours; None when none has any


def prefixable(word: str, last: bool) -> bool:
    # The last word is a prefix, as typed; a CJK pair is whole (a lone CJK character is a prefix).
    return last and (not search_text.is_cjk(word) or len(word) == 1)


class RowCache:
    """A reader's rows by key in a shared cache (edge/caches.py: the least recently used dropped
    first, one at a time, past its bytes); an absent row remembered as absent. The most popular
    entities are on most pages (5 of 6 rows of a cold query's windows had been read for an earlier
    query), so most rows are read once per process, not once per query. Dropping the oldest half at
    once instead made the cold mix's p99 at 1M grow round by round (12.6, 43.4, 54.0 ms; 9 to 16 ms
    one at a time)."""

    def __init__(self, cache: BytesLRU, reader: int) -> None:
        self.cache = cache
        self.reader = reader

    def get(self, keys: list[tuple], fetch) -> dict[tuple, tuple]:
        """The rows of `keys` there are; `fetch(missing keys)` yields (key, row) for those not kept."""
        cache, reader = self.cache, self.reader
        kept = {}
        for key in keys:
            entry = (reader, key)
            if entry in cache.found:
                kept[key] = cache.lookup(entry)
        missing = list(dict.fromkeys(k for k in keys if k not in kept))
        if missing:
            fetched = dict(fetch(missing))
            for key in missing:
                kept[key] = row = fetched.get(key)
                cache.keep((reader, key), row, row_bytes(row))
        return {k: row for k, row in kept.items() if row is not None}


class SearchIndex:
    """One release's index, opened read-only (a published release never changes)."""

    def __init__(self, path: Path | str, caches: IndexCaches | None = None) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        self.decode = Decoder(self.con)  # item bodies are stored as the pack stores documents
        # Pages mapped, not copied into each process's 2 MB cache: the workers share the page cache,
        # and a window's rows cost half as much (0.13 against 0.22 ms for 60 random ranks at 100k).
        self.con.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        self.languages = dict(self.con.execute("SELECT key, value FROM meta"))["languages"].split(",")
        # Bitmaps by term, deserialised once: the words people type repeat, and a bitmap is read-only.
        caches = caches if caches is not None else IndexCaches()
        reader = next(READERS)
        bitmaps = Loaded(caches["search bitmaps"], reader, self._bitmap)
        self.posting = functools.partial(bitmaps, "posting")
        self.prefix = functools.partial(bitmaps, "prefix")
        self.rows = RowCache(caches["search rows"], reader)  # windows' ranks, items and texts
        self._everyone: dict[str, BitMap] = {}

    def close(self) -> None:
        self.con.close()

    # -- bitmaps -------------------------------------------------------------------------------

    def _bitmap(self, what: str, kind: str, term: str) -> tuple[BitMap, int]:
        """(bitmap, its bytes) of a posting (`posting`, a term) or a prefix (`prefix`, its start):
        deserialised once, as the words people type repeat, and a bitmap is read-only."""
        if what == "posting":
            row = self.con.execute("SELECT ranks FROM postings WHERE kind = ? AND term = ?", (kind, term)).fetchone()
            return (BitMap.deserialize(row[0]), len(row[0])) if row else (EMPTY, 0)
        # The entities with a word beginning with `term`: stored for short prefixes, else the union
        # of the (few) words that begin so.
        if len(term) <= search_text.STORED_PREFIX:
            return self.posting(kind, search_text.PREFIX_MARK + term), 0  # kept as that posting
        rows = self.con.execute(
            "SELECT ranks FROM postings WHERE kind = ? AND term >= ? AND term < ?", (kind, term, term + "\U0010ffff")
        ).fetchall()
        found = BitMap.union(*(BitMap.deserialize(r) for (r,) in rows)) if rows else EMPTY
        return found, bitmap_bytes(found)

    def matches(self, kind: str, plan: Plan, filters: Filters, fuzzy: bool) -> BitMap:
        """The ranks of the entities the plan's words match (each word or, with `fuzzy`, any of its
        alternatives), filtered."""
        last = len(plan.words) - 1
        found: BitMap | None = None
        for i, word in enumerate(plan.words):
            options = plan.fuzzy[i] if fuzzy and plan.fuzzy else (word,)
            parts = [
                self.prefix(kind, o) if o == word and prefixable(word, i == last) else self.posting(kind, o)
                for o in options
            ]
            bitmap = parts[0] if len(parts) == 1 else BitMap.union(*parts)
            found = bitmap if found is None else found & bitmap
            if not found:
                return EMPTY
        for token in (*filters.years, *filters.required):
            found = found & self.posting(kind, search_text.FILTER_MARK + token)
        if not filters.include_adult:
            found = found - self.posting(kind, search_text.FILTER_MARK + "adult")
        return found

    # -- planning ------------------------------------------------------------------------------

    def plan(self, query: str) -> Plan | None:
        words = search_text.words(query)[:MAX_WORDS]
        if not words:
            return None
        return Plan(words, " ".join(words), [frozenset({w}) for w in words], None)

    def with_typos(self, plan: Plan) -> Plan:
        """The plan with each word's neighbours, looked up only when tier 1 has less than a page."""
        fuzzy = [frozenset({word, *self.neighbours(word)}) for word in plan.words]
        return Plan(plan.words, plan.exact, plan.strict, fuzzy if any(len(f) > 1 for f in fuzzy) else None)

    def neighbours(self, word: str) -> list[str]:
        """Indexed words one typo away from `word` (none for short words and CJK pairs)."""
        if len(word) < search_text.MIN_FUZZY or search_text.is_cjk(word):
            return []
        variants = [word, *{word[:i] + word[i + 1 :] for i in range(len(word))}]
        marks = ",".join("?" * len(variants))
        found = {t for (t,) in self.con.execute(f"SELECT term FROM near WHERE variant IN ({marks})", variants)}
        return sorted(t for t in found if t != word and OSA.distance(t, word) <= 1)

    # -- paging --------------------------------------------------------------------------------

    def page(
        self, kinds: tuple[str, ...], query: str, filters: Filters, page: int
    ) -> tuple[list[tuple[str, int]], int]:
        """The (kind, id) of page `page` (PAGE_SIZE a page) and the number of results in all."""
        plan = self.plan(query)
        if plan is None:
            return [], 0
        sequences = [KindResults(self, kind, plan, filters) for kind in kinds]
        if sum(len(s.strict) for s in sequences) < PAGE_SIZE:  # less than a page: forgive a typo
            plan = self.with_typos(plan)
            if plan.fuzzy:
                for sequence in sequences:
                    sequence.add_fuzzy(plan)
        merged = heapq.merge(*(s.hits() for s in sequences))
        start = (page - 1) * PAGE_SIZE
        found = [(kind, entity) for _, kind, entity in itertools.islice(merged, start, start + PAGE_SIZE)]
        return found, sum(s.total for s in sequences)

    def ranked(self, kind: str, ranks: list[int]) -> list[tuple]:
        """(rank, id, popularity) of each rank, in rank order."""
        if not ranks:
            return []
        marks = ",".join("?" * len(ranks))
        return self.con.execute(
            f"SELECT rank, id, popularity FROM ranks WHERE kind = ? AND rank IN ({marks}) ORDER BY rank", (kind, *ranks)
        ).fetchall()

    def window(self, kind: str, ranks: list[int]) -> list[tuple]:
        """(rank, id, popularity, names) of each rank, in the order given."""

        def fetch(missing: list[tuple[str, int]]) -> Iterator[tuple[tuple, tuple]]:
            marks = ",".join("?" * len(missing))
            for row in self.con.execute(
                f"SELECT rank, id, popularity, names FROM ranks WHERE kind = ? AND rank IN ({marks})",
                (kind, *(r for _, r in missing)),
            ):
                yield (kind, row[0]), row

        found = self.rows.get([(kind, r) for r in ranks], fetch)
        return [found[(kind, r)] for r in ranks if (kind, r) in found]

    def everyone(self, kind: str) -> BitMap:
        """Every rank of `kind` (person/popular pages through them)."""
        if kind not in self._everyone:
            count = self.con.execute("SELECT count(*) FROM ranks WHERE kind = ?", (kind,)).fetchone()[0]
            self._everyone[kind] = BitMap(range(count))
        return self._everyone[kind]

    def newest(self, kind: str) -> int | None:
        """The highest id of `kind` (/3/{kind}/latest)."""
        return self.con.execute("SELECT max(id) FROM ranks WHERE kind = ?", (kind,)).fetchone()[0]

    def exact_ranks(self, kind: str, name: str, after: int, limit: int) -> list[int]:
        """The first `limit` ranks after `after` of the entities named `name` exactly, in rank order."""
        return [
            r
            for (r,) in self.con.execute(
                "SELECT rank FROM exact WHERE kind = ? AND name = ? AND rank > ? ORDER BY rank LIMIT ?",
                (kind, name, after, limit),
            )
        ]

    # -- items ---------------------------------------------------------------------------------

    def items(self, found: list[tuple[str, int]]) -> dict[tuple[str, int], tuple[bytes, str | None]]:
        """(body, known_for) of each (kind, id) found: the default language's result object, JSON."""

        def fetch(missing: list[tuple[str, str, int]]) -> Iterator[tuple[tuple, tuple]]:
            for kind, ids in itertools.groupby(sorted(missing), key=lambda m: m[1]):
                wanted = [i for _, _, i in ids]
                marks = ",".join("?" * len(wanted))
                for entity, body, known_for in self.con.execute(
                    f"SELECT id, body, known_for FROM items WHERE kind = ? AND id IN ({marks})", (kind, *wanted)
                ):
                    yield ("item", kind, entity), (self.decode(body), known_for)

        rows = self.rows.get([("item", kind, entity) for kind, entity in found], fetch)
        return {key[1:]: row for key, row in rows.items()}

    def texts(self, kind: str, ids: list[int], suffix: str) -> dict[int, tuple[str, str]]:
        """Translated (title, overview) of each id that has a translation in the variant `suffix`."""

        def fetch(missing: list[tuple[str, int, str]]) -> Iterator[tuple[tuple, tuple]]:
            marks = ",".join("?" * len(missing))
            for entity, title, overview in self.con.execute(
                f"SELECT id, title, overview FROM texts WHERE kind = ? AND suffix = ? AND id IN ({marks})",
                (kind, suffix, *(i for _, i, _ in missing)),
            ):
                yield (kind, entity, suffix), (title, overview)

        rows = self.rows.get([(kind, entity, suffix) for entity in ids], fetch)
        return {key[1]: row for key, row in rows.items()}

    def external(self, source: str, value: str) -> list[tuple]:
        return self.con.execute(
            "SELECT kind, id, series_id, season_number, episode_number FROM external_ids "
            "WHERE source = ? AND value = ? ORDER BY kind, id",
            (source, value),
        ).fetchall()


@functools.lru_cache(maxsize=4096)
def _lines_with(options: frozenset[str]) -> re.Pattern[str]:
    """The lines (names) with a word beginning with one of `options`."""
    return re.compile("(?m)^(?:.* )?(?:" + "|".join(map(re.escape, sorted(options, key=len, reverse=True))) + ").*$")


def coverage(names: str, alternatives: list[frozenset[str]]) -> float:
    """The best share of one name's words the query finds (the last query word as a prefix).

    Only names with a word beginning as the last word does can cover anything: one regex over all of
    an entity's names (C) finds them, and only those are split (an entity has a name per language)."""
    *whole, last = alternatives
    lines = _lines_with(last).findall(names)
    if not whole:  # one word (a search box's first): the shortest name it begins a word of
        return 1 / (1 + min(line.count(" ") for line in lines)) if lines else 0.0
    best = 0.0
    for line in lines:
        tokens = line.split(" ")
        present = set(tokens)
        found = 1 + sum(1 for options in whole if not options.isdisjoint(present))
        if found > best * len(tokens):
            best = found / len(tokens)
    return min(best, 1.0)


def score(names: str, popularity: float, alternatives: list[frozenset[str]]) -> float:
    return (0.25 + coverage(names, alternatives)) * math.log(2 + popularity)


class KindResults:
    """One kind's results in rank order, as merge keys (tier, band, order, id) with kind and id."""

    def __init__(self, index: SearchIndex, kind: str, plan: Plan, filters: Filters) -> None:
        self.index, self.kind, self.plan, self.filters = index, kind, plan, filters
        self.strict = index.matches(kind, plan, filters, fuzzy=False)
        self.fuzzy = EMPTY

    def add_fuzzy(self, plan: Plan) -> None:
        self.plan = plan
        self.fuzzy = self.index.matches(self.kind, plan, self.filters, fuzzy=True) - self.strict

    @property
    def total(self) -> int:
        return len(self.strict) + len(self.fuzzy)

    def hits(self) -> Iterator[tuple[tuple, str, int]]:
        seen: set[int] = set()
        # A page is usually all that is read, and a common title has thousands of exact namesakes
        # (17,000 films are "La nuit" at a million: reading all their ranks cost 2.7 ms): their
        # ranks and rows are read in growing chunks, as far as the answer goes.
        after, size = -1, EXACT_FIRST
        while True:
            chunk = self.index.exact_ranks(self.kind, self.plan.exact, after, size)
            exact = [rank for rank in chunk if rank in self.strict]
            for rank, entity, popularity in self.index.ranked(self.kind, exact):
                seen.add(rank)
                yield (0, 0, -popularity, entity), self.kind, entity
            if len(chunk) < size:
                break
            after, size = chunk[-1], min(size * 4, CHUNK)
        yield from self.tier(1, self.strict, seen, self.plan.strict)
        if self.fuzzy:
            yield from self.tier(2, self.fuzzy, seen, self.plan.fuzzy)

    def tier(
        self, tier: int, matches: BitMap, seen: set[int], alternatives: list[frozenset[str]]
    ) -> Iterator[tuple[tuple, str, int]]:
        window = self.index.window(self.kind, [r for r in matches[:WINDOW] if r not in seen])
        ranked = sorted(
            (-score(names, popularity, alternatives), -popularity, entity) for _, entity, popularity, names in window
        )
        for negative, negative_popularity, entity in ranked:
            yield (tier, 0, negative, negative_popularity, entity), self.kind, entity
        for start in range(WINDOW, len(matches), CHUNK):
            rest = [r for r in matches[start : start + CHUNK] if r not in seen]
            for _, entity, popularity in self.index.ranked(self.kind, rest):
                yield (tier, 1, -popularity, 0, entity), self.kind, entity
