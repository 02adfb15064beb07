"""BM25 over a row's window (its own text and the turns beside it in its session, each counted a whole
number of times, read as one document) plus BM25 over the row's own words alone: two scores a search
engine indexing those fields computes itself (MRG-1, Q-01). docs/how-search-works.md states it;
relevance.py reads it.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

K1, B = 1.2, 0.75  # BM25's constants, tantivy's and rank-bm25's defaults: the model's, not knobs


def _int4_to_long(code: int) -> int:
    bits, shift = code & 7, (code >> 3) - 1
    return bits if shift == -1 else (bits | 8) << shift


# The lengths a search engine keeps of a document, one byte each (Lucene's SmallFloat, which tantivy
# uses too): a length is read as the largest of these not above it. Python scores rows the engine
# has not taken in yet with the same arithmetic, so both rank them alike.
_LENGTHS = tuple(code if code < 24 else 24 + _int4_to_long(code - 24) for code in range(256))


def stored_length(length: float) -> int:
    """`length` as the engine keeps it."""
    return _LENGTHS[bisect_right(_LENGTHS, length) - 1]


@dataclass(frozen=True, slots=True)
class Bag:
    """One text as BM25 sees it: how often each query term stands in it, and its length in terms."""

    counts: Mapping[str, int]
    length: int

    def holds_any(self) -> bool:
        return any(self.counts.values())


NO_TEXT = Bag({}, 0)


@dataclass(frozen=True, slots=True)
class WindowLayout:
    """How often a turn's window holds each text: its own, then the turns before and after it in its
    session, nearest first (a turn beside it counts `before[0]` times, the one before that
    `before[1]`). Whole counts, since an engine indexes the window as that many copies of each text.
    `words_alone`: the row's own words are also scored on their own, beside the window, so a long
    turn pays for its length as bare BM25 makes it pay, whatever its neighbours."""

    own: int = 1
    before: tuple[int, ...] = (1,)
    after: tuple[int, ...] = (1,)
    words_alone: bool = True

    @property
    def reach(self) -> int:
        """How many turns on either side a window holds."""
        return max(len(self.before), len(self.after))

    def describe(self) -> str:
        sides = f"own {self.own}, before {'/'.join(map(str, self.before)) or 0}, after {'/'.join(map(str, self.after)) or 0}"
        return sides + (", own words alone too" if self.words_alone else "")

    @property
    def token(self) -> str:
        """The window as one word, "1-1-1" (own, before, after; several turns on a side '.'-joined,
        nearest first): what an index built with it is marked with, and a build process is told. The own
        words are indexed whatever the layout, so scoring them alone does not change the index."""
        return "-".join([str(self.own), ".".join(map(str, self.before)) or "0", ".".join(map(str, self.after)) or "0"])

    @classmethod
    def from_token(cls, token: str, words_alone: bool = True) -> WindowLayout:
        own, before, after = token.split("-")
        return cls(int(own), _side(before), _side(after), words_alone)


def _side(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")) if text != "0" else ()


DEFAULT_WINDOW = WindowLayout()
TITLE_ONLY = WindowLayout(1, (), (), words_alone=False)  # a session is ranked by its own text alone, counted once


@dataclass(frozen=True, slots=True)
class Window:
    """One row's texts as bags: its own, and the turns before and after it, nearest first."""

    own: Bag
    before: tuple[Bag, ...] = ()
    after: tuple[Bag, ...] = ()

    def weighed(self, layout: WindowLayout) -> list[tuple[int, Bag]]:
        return [(layout.own, self.own), *zip(layout.before, self.before, strict=False),
                *zip(layout.after, self.after, strict=False)]


@dataclass(frozen=True)
class Collection:
    """The windows a source searches, as BM25 needs them: how many, their average length in terms and
    how many hold each query term. Its terms are the query's, as the backend's analyzer made them."""

    rows: int
    average_length: float
    holding: Mapping[str, int]

    def idf(self, term: str) -> float:
        """tantivy's (and Lucene's) BM25 idf, never negative."""
        held = min(self.holding.get(term, 0), self.rows)
        return math.log(1 + (self.rows - held + 0.5) / (held + 0.5))

    @cached_property
    def idfs(self) -> dict[str, float]:
        return {term: self.idf(term) for term in self.holding}

    @cached_property
    def ideal(self) -> float:
        """What a window holding each term once at average length scores: the scale coverage is read on."""
        return sum(self.idfs.values())


NOTHING_KNOWN = Collection(0, 0.0, {})


@dataclass(frozen=True)
class Statistics:
    """What a source's rows are scored with: its windows' statistics and, where a row's own words are
    scored alone too, theirs."""

    window: Collection
    own: Collection | None = None

    @property
    def ideal(self) -> float:
        """What a row holding each term once, at average length in both fields, scores: the scale coverage is read on."""
        return self.window.ideal + (self.own.ideal if self.own is not None else 0.0)


def coverage(window: Window, statistics: Statistics, layout: WindowLayout) -> float:
    """The row's score over the ideal: BM25 over its window read as one document (Robertson, Zaragoza and
    Taylor's simple BM25F with whole weights: each text's counts and length taken its layout's number of
    times and summed, then saturated once, so a long turn beside a short row dilutes it as much as it
    lends it words), plus, with `words_alone`, BM25 over its own words, exactly as an engine indexing
    those two fields scores them."""
    ideal = statistics.ideal
    if ideal <= 0 or not window.own.length:
        return 0.0
    total = _bm25(window.weighed(layout), statistics.window)
    if layout.words_alone and statistics.own is not None:
        total += _bm25([(1, window.own)], statistics.own)
    return total / ideal


def length_norm(length: int, average: float) -> float:
    """BM25's K1 · (1 − B + B · length / average): what a row's length adds to a term's saturation."""
    return K1 * (1 - B + B * length / average) if average > 0 else K1


def _bm25(weighed: list[tuple[int, Bag]], collection: Collection) -> float:
    norm = length_norm(stored_length(sum(times * bag.length for times, bag in weighed)), collection.average_length)
    total = 0.0
    for term, idf in collection.idfs.items():
        frequency = sum(times * bag.counts.get(term, 0) for times, bag in weighed)
        if frequency > 0:
            total += idf * frequency * (K1 + 1) / (frequency + norm)
    return total
