"""The arrays a search ranks with: a kind's row table and a term's list of rows (issue 3).

PostingsReader (data/postings_reader.py) reads both from the side index; keyword_ranking.py and
turn_window.py score with them. A message's turn-before column is derived here from the turn's
own counts, since the index stores each message's words once.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class RowTable:
    """Per row number (0 unused): its size in terms, its time, whether the history still has it,
    and the rows of the turns before and after it in its session (0: none indexed)."""

    sizes: np.ndarray  # over every column, derived ones included: what BM25 divides by
    ats: np.ndarray
    alive: np.ndarray
    rows: int  # rows the lists hold, dead ones included, as FTS5 counts them
    prevs: np.ndarray
    nexts: np.ndarray
    own: np.ndarray  # sizes over the stored columns
    average_size: float = 0.0  # over `rows`: summed once per table, not per search (1 ms at a million)
    span: tuple[int, int] = (0, 0)  # earliest and latest time of any row: a window covering both needs no time test

    def live_within(self, rows: np.ndarray, after: int, before: int) -> np.ndarray:
        """Which of `rows` the history still has, created in [after, before]."""
        keep = self.alive[rows]
        if after > self.span[0] or before < self.span[1]:
            at = self.ats[rows]
            keep &= (at >= after) & (at <= before)
        return keep


@dataclass(frozen=True, slots=True)
class TermList:
    docs: np.ndarray  # int32 row numbers, ascending
    counts: np.ndarray  # uint8 [row, column]


def with_context(found: TermList, table: RowTable) -> TermList:
    """`found` with one more column: for each row, the count in its turn before, unless that turn
    was deleted. A turn is the turn before of one row at most (data/message_indexer.py), so the
    rows after the list's rows carry it."""
    own = found.counts[:, 0]
    following = table.nexts[found.docs]
    linked = (following > 0) & table.alive[found.docs]
    both = np.concatenate([found.docs, following[linked]])
    # Where each entry lands in the merged list, from one stable sort: finding them by binary
    # search was two thirds of the time (9.5 → 6.8 ms for a 112K-row list, 1.65 → 1.23 for 19K).
    order = np.argsort(both, kind="stable")
    ordered = both[order]
    first = np.ones(len(both), dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    rank = np.cumsum(first, dtype=np.int32)
    rank -= 1
    at = np.empty(len(both), dtype=np.int32)
    at[order] = rank
    mine, width = at[:len(found.docs)], found.counts.shape[1]
    counts = np.zeros((len(rank) and int(rank[-1]) + 1, width + 1), dtype=np.uint8)
    if width == 1:
        counts[:, 0][mine] = own  # one column at a time: a fifth faster than whole rows
    else:
        counts[mine, :-1] = found.counts
    counts[:, -1][at[len(found.docs):]] = own[linked]
    return TermList(ordered[first], counts)


def counts_of(found: TermList, docs: np.ndarray) -> np.ndarray:
    """The list's counts for each of `docs` (zeros where the list does not hold it)."""
    if not len(found.docs):
        return np.zeros((len(docs), found.counts.shape[1]), dtype=np.uint8)
    at = np.minimum(np.searchsorted(found.docs, docs), len(found.docs) - 1)
    return np.where((found.docs[at] == docs)[:, None], found.counts[at], 0)
