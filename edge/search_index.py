"""Ranked pages of a release's search index (site_gen/search_index.py writes it, its format is there).

A query's words are folded and split as names were (marquee/search_text.py). Results come in tiers,
and filters (years, adult) narrow every tier without reordering it:

0. exact: the query is one of the entity's names;
1. every word is in its names, the last one as a prefix (a search box searches as the user types);
2. when tier 1 has less than a page: the same with one typo in any word of MIN_FUZZY letters or
   more (a letter missing, added, changed, or two swapped).

Within tiers 1 and 2 the WINDOW most popular matches are ordered by

    score = (0.25 + c) × ln(2 + p)

where p is the popularity and c the query's best coverage of one of the entity's names (the
query's words found in the name ÷ the name's words): "the hunger" covers two thirds of "The
Hunger Games" and a third of an obscure "The Hunger of Men and Wolves". Past the window, matches
follow by popularity alone; FTS5 hands rows over most popular first (the rowid is the popularity
rank), so no query looks at more than the window and the page it was asked for.

Several kinds (search/multi) are merged by the same keys, tier first.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from rapidfuzz.distance import OSA

from marquee import search_text

PAGE_SIZE = 20
WINDOW = 60  # candidates ordered by score (three pages); the rest follow by popularity
CHUNK = 500


@dataclass(frozen=True)
class Filters:
    years: tuple[str, ...] = ()  # filter tokens: `y2001` (primary year), `r2001` (any release year)
    include_adult: bool = False

    def accept(self, tokens: str) -> bool:
        """Whether an entity with these filter tokens passes (what filter_clause asks of FTS5)."""
        present = set(tokens.split())
        return all(year in present for year in self.years) and (self.include_adult or "adult" not in present)


@dataclass(frozen=True)
class Plan:
    """One query's words and FTS5 expressions, shared by every kind it searches."""

    words: list[str]
    exact: str
    strict: str
    fuzzy: str | None  # None: no word has a neighbour one typo away
    alternatives: list[frozenset[str]] = field(default_factory=list)  # per word: what matches it


def _quoted(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def _term(word: str, last: bool) -> str:
    # The last word is a prefix, as typed; a CJK pair is whole (a lone CJK character is a prefix).
    prefix = last and (not search_text.is_cjk(word) or len(word) == 1)
    return _quoted(word) + ("*" if prefix else "")


class SearchIndex:
    """One release's index, opened read-only (a published release never changes)."""

    def __init__(self, path: Path | str) -> None:
        self.uri = f"file:{path}?mode=ro&immutable=1"
        # A connection per thread: answers run in the edge's thread pool, and SQLite runs one
        # statement at a time per connection.
        self.local = threading.local()
        self.opened: list[sqlite3.Connection] = []
        self.languages = dict(self.con.execute("SELECT key, value FROM meta"))["languages"].split(",")
        # Counts by expression: the short prefixes people type first are the costly ones to count.
        self.count = functools.lru_cache(maxsize=20_000)(self._count)

    @property
    def con(self) -> sqlite3.Connection:
        con = getattr(self.local, "con", None)
        if con is None:
            con = self.local.con = sqlite3.connect(self.uri, uri=True, check_same_thread=False)
            self.opened.append(con)
        return con

    def close(self) -> None:
        for con in self.opened:
            con.close()

    # -- planning ------------------------------------------------------------------------------

    def plan(self, query: str) -> Plan | None:
        words = search_text.words(query)
        if not words:
            return None
        last = len(words) - 1
        strict = " AND ".join(_term(w, i == last) for i, w in enumerate(words))
        alternatives, fuzzy_terms, any_fuzzy = [], [], False
        for i, word in enumerate(words):
            near = self.neighbours(word)
            any_fuzzy = any_fuzzy or bool(near)
            alternatives.append(frozenset({word, *near}))
            options = [_term(word, i == last), *(_quoted(n) for n in sorted(near))]
            fuzzy_terms.append(options[0] if len(options) == 1 else "(" + " OR ".join(options) + ")")
        return Plan(words, " ".join(words), f"tokens : ({strict})",
                    f"tokens : ({' AND '.join(fuzzy_terms)})" if any_fuzzy else None, alternatives)

    def neighbours(self, word: str) -> list[str]:
        """Indexed words one typo away from `word` (none for short words and CJK pairs)."""
        if len(word) < search_text.MIN_FUZZY or search_text.is_cjk(word):
            return []
        variants = [word, *{word[:i] + word[i + 1:] for i in range(len(word))}]
        marks = ",".join("?" * len(variants))
        found = {t for (t,) in self.con.execute(f"SELECT term FROM near WHERE variant IN ({marks})", variants)}
        return sorted(t for t in found if t != word and OSA.distance(t, word) <= 1)

    # -- paging --------------------------------------------------------------------------------

    def page(self, kinds: tuple[str, ...], query: str, filters: Filters, page: int) -> tuple[list[tuple[str, int]], int]:
        """The (kind, id) of page `page` (PAGE_SIZE a page) and the number of results in all."""
        plan = self.plan(query)
        if plan is None:
            return [], 0
        sequences = [KindResults(self, kind, plan, filters, None) for kind in kinds]
        if plan.fuzzy and sum(s.strict_total for s in sequences) < PAGE_SIZE:  # less than a page: forgive a typo
            sequences = [KindResults(self, kind, plan, filters, plan.fuzzy) for kind in kinds]
        merged = heapq.merge(*(s.hits() for s in sequences))
        start = (page - 1) * PAGE_SIZE
        found = [(kind, entity) for _, kind, entity in itertools.islice(merged, start, start + PAGE_SIZE)]
        return found, sum(s.total for s in sequences)

    def _count(self, kind: str, expression: str) -> int:
        return self.con.execute(f"SELECT count(*) FROM {kind}_fts WHERE {kind}_fts MATCH ?", (expression,)).fetchone()[0]

    def rows(self, kind: str, expression: str, after: int | None, limit: int, names: bool = False) -> list[tuple]:
        columns = "rowid, id, names" if names else "rowid, id"
        bound = " AND rowid > ?" if after is not None else ""
        args = (expression, after, limit) if after is not None else (expression, limit)
        return self.con.execute(f"SELECT {columns} FROM {kind}_fts WHERE {kind}_fts MATCH ?{bound} "
                                f"ORDER BY rowid LIMIT ?", args).fetchall()

    def exact(self, kind: str, plan: Plan, filters: Filters) -> Iterator[tuple[int, int]]:
        """(rowid, id) of the entities with a name equal to the query that pass the filters, most
        popular first, read a chunk at a time (a common name can belong to thousands)."""
        after = -1
        while True:
            rows = self.con.execute("SELECT ord, id, filters FROM exact WHERE kind = ? AND name = ? AND ord > ? "
                                    "ORDER BY ord LIMIT ?", (kind, plan.exact, after, CHUNK)).fetchall()
            for rowid, entity, tokens in rows:
                if filters.accept(tokens):
                    yield rowid, entity
            if len(rows) < CHUNK:
                return
            after = rows[-1][0]

    # -- items ---------------------------------------------------------------------------------

    def items(self, found: list[tuple[str, int]]) -> dict[tuple[str, int], tuple[str, str | None]]:
        """(body, known_for) of each (kind, id) found: the default language's result object."""
        out: dict[tuple[str, int], tuple[str, str | None]] = {}
        for kind, ids in itertools.groupby(sorted(found), key=lambda f: f[0]):
            wanted = [i for _, i in ids]
            marks = ",".join("?" * len(wanted))
            for entity, body, known_for in self.con.execute(
                    f"SELECT id, body, known_for FROM items WHERE kind = ? AND id IN ({marks})", (kind, *wanted)):
                out[(kind, entity)] = (body, known_for)
        return out

    def texts(self, kind: str, ids: list[int], suffix: str) -> dict[int, tuple[str, str]]:
        """Translated (title, overview) of each id that has a translation in the variant `suffix`."""
        marks = ",".join("?" * len(ids))
        return {i: (t, o) for i, t, o in self.con.execute(
            f"SELECT id, title, overview FROM texts WHERE kind = ? AND suffix = ? AND id IN ({marks})",
            (kind, suffix, *ids))}

    def external(self, source: str, value: str) -> list[tuple]:
        return self.con.execute("SELECT kind, id, series_id, season_number, episode_number FROM external_ids "
                                "WHERE source = ? AND value = ? ORDER BY kind, id", (source, value)).fetchall()


def filter_clause(filters: Filters) -> str:
    clause = "".join(f" AND filters : {_quoted(token)}" for token in filters.years)
    return clause if filters.include_adult else clause + ' NOT filters : "adult"'


def coverage(names: str, alternatives: list[frozenset[str]]) -> float:
    """The best share of one name's words the query finds (the last query word as a prefix)."""
    *whole, last = alternatives
    prefixes = tuple(last)
    best = 0.0
    for name in names.split("\n"):
        # A word can be in a name only if it is in its text: a substring test (C, no split) drops
        # most names at once (an entity has one in each of its languages).
        if not any(p in name for p in prefixes):
            continue
        tokens = name.split(" ")
        present = set(tokens)
        found = sum(1 for options in whole if not options.isdisjoint(present))
        if not last.isdisjoint(present) or any(t.startswith(prefixes) for t in tokens):
            found += 1
        if found > best * len(tokens):
            best = found / len(tokens)
    return min(best, 1.0)


def score(names: str, rowid: int, alternatives: list[frozenset[str]]) -> float:
    return (0.25 + coverage(names, alternatives)) * math.log(2 + search_text.popularity_of(rowid))


class KindResults:
    """One kind's results in rank order, as merge keys: (tier, band, order, tie) + kind and id."""

    def __init__(self, index: SearchIndex, kind: str, plan: Plan, filters: Filters, fuzzy: str | None) -> None:
        self.index, self.kind, self.plan, self.filters = index, kind, plan, filters
        narrowed = filter_clause(filters)
        self.strict = plan.strict + narrowed
        self.fuzzy = f"({fuzzy}) NOT ({plan.strict})" + narrowed if fuzzy else None
        # The most popular strict matches: a window not full is every match, and the count is free.
        self.window = index.rows(kind, self.strict, None, WINDOW, names=True)
        self.strict_total = len(self.window) if len(self.window) < WINDOW else index.count(kind, self.strict)

    @property
    def total(self) -> int:
        return self.strict_total + (self.index.count(self.kind, self.fuzzy) if self.fuzzy else 0)

    def hits(self) -> Iterator[tuple[tuple, str, int]]:
        seen: set[int] = set()
        for rowid, entity in self.index.exact(self.kind, self.plan, self.filters):
            seen.add(entity)
            yield (0, 0, rowid, 0), self.kind, entity
        yield from self.tier(1, self.strict, self.window, seen)
        if self.fuzzy:
            yield from self.tier(2, self.fuzzy, self.index.rows(self.kind, self.fuzzy, None, WINDOW, names=True), seen)

    def tier(self, tier: int, expression: str, window: list[tuple], seen: set[int]) -> Iterator[tuple[tuple, str, int]]:
        ranked = sorted(((-score(names, rowid, self.plan.alternatives), rowid, entity)
                         for rowid, entity, names in window if entity not in seen))
        for negative, rowid, entity in ranked:
            seen.add(entity)
            yield (tier, 0, negative, rowid), self.kind, entity
        after = window[-1][0] if len(window) == WINDOW else None
        while after is not None:
            rows = self.index.rows(self.kind, expression, after, CHUNK)
            for rowid, entity in rows:
                if entity not in seen:
                    yield (tier, 1, rowid, 0), self.kind, entity
            after = rows[-1][0] if len(rows) == CHUNK else None
