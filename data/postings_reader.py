"""PostingsReader: one process's view of a kind's postings (data/postings.py, issue 3).

Row sizes, times, liveness and neighbouring turns sit in arrays indexed by row number, read again
only when the segments or the dead rows change; a term's list is read per query, one blob per
segment. A kind whose context is its turn before gets that column derived from the turn's own
counts (term_lists.with_context: the index stores each message's words once, half the postings).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.postings import next_row_sql
from oneclaw_search.data.term_lists import RowTable, TermList, with_context


_EMPTY_TABLE = RowTable(np.zeros(1), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool), 0,
                        np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32), np.zeros(1))


class PostingsReader:
    def __init__(self, execute: Callable[..., list[tuple]], prefix: str, width: int, context_from_prevs: bool = False) -> None:
        self._execute = execute
        self._prefix = prefix
        self._width = width  # stored columns
        self._context = context_from_prevs
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._table = _EMPTY_TABLE

    def rows(self) -> RowTable:
        """The row table as the index now stands. Segments only ever add rows at the end (merges
        keep each row's values), so a table that grew reads just the new segments."""
        # One statement: a search asks for the table several times (keyword, literal and trigram lookups).
        generation, end, *dead = self._execute(
            f"SELECT (SELECT value FROM meta WHERE key = ?), ({next_row_sql(self._prefix)}), count(*), max(doc)"
            f" FROM {self._prefix}_dead", (f"{self._prefix}.generation",)
        )[0]
        with self._lock:
            if (generation, end, dead) != self._key:
                same = self._key is not None and self._key[0] == generation and end >= len(self._table.sizes)
                self._table = self._grown(end, dead != self._key[2]) if same else self._load(end)
                self._key = (generation, end, dead)
            return self._table

    def _grown(self, end: int, dead_changed: bool) -> RowTable:
        old = self._table
        if end == len(old.sizes):  # no new rows: only liveness can have changed
            return self._table_of(old.own, old.ats, old.prevs, old.nexts, end) if dead_changed else old
        own, ats, prevs, nexts = _blank(end)
        for mine, theirs in zip((own, ats, prevs, nexts), (old.own, old.ats, old.prevs, old.nexts)):
            mine[:len(theirs)] = theirs
        self._fill(own, ats, prevs, nexts, since=len(old.sizes))
        return self._table_of(own, ats, prevs, nexts, end)

    def _load(self, end: int) -> RowTable:
        if end <= 1:
            return _EMPTY_TABLE
        own, ats, prevs, nexts = _blank(end)
        self._fill(own, ats, prevs, nexts, since=0)
        return self._table_of(own, ats, prevs, nexts, end)

    def _table_of(self, own: np.ndarray, ats: np.ndarray, prevs: np.ndarray, nexts: np.ndarray, end: int) -> RowTable:
        alive = self._alive(end)
        # A deleted turn lends no length, as it lends no words (term_lists.with_context); row 0 is never alive.
        sizes = own + own[prevs] * alive[prevs] if self._context else own
        rows = end - 1
        return RowTable(sizes, ats, alive, rows, prevs, nexts, own, float(sizes.sum()) / rows if rows else 0.0,
                        (int(ats[1:].min()), int(ats[1:].max())) if rows else (0, 0))

    def _fill(self, sizes: np.ndarray, ats: np.ndarray, prevs: np.ndarray, nexts: np.ndarray, since: int) -> None:
        for first, count, size_blob, at_blob, prev_blob in self._execute(
            f"SELECT first, count, sizes, ats, prevs FROM {self._prefix}_seg WHERE first + count > ?", (since,)
        ):
            sizes[first:first + count] = np.frombuffer(size_blob, dtype=np.uint32)
            ats[first:first + count] = np.frombuffer(at_blob, dtype=np.int64)
            prevs[first:first + count] = np.frombuffer(prev_blob, dtype=np.int32)
        new = np.arange(since, len(prevs), dtype=np.int32)
        linked = prevs[since:] > 0
        nexts[prevs[since:][linked]] = new[linked]

    def _alive(self, end: int) -> np.ndarray:
        """Every row the segments hold (they cover 1 … end - 1), less those the history dropped."""
        alive = np.ones(end, dtype=bool)
        alive[0] = False
        dead = np.fromiter((row[0] for row in self._execute(f"SELECT doc FROM {self._prefix}_dead")), dtype=np.int64)
        alive[dead[dead < end]] = False
        return alive

    def lists(self, terms: Sequence[str], table: RowTable, *, derived: bool = True) -> dict[str, TermList]:
        """Each term's rows in `table` (ascending) and counts; a term no row holds gets an empty list.
        Rows another process added since `table` was read are left out. Without `derived`, only
        the stored columns."""
        end = len(table.sizes)
        blobs: dict[str, tuple[list[bytes], list[bytes]]] = {term: ([], []) for term in terms}
        for chunk in sql_batches(list(blobs)):
            for term, docs, counts in self._execute(
                f"SELECT term, docs, tfs FROM {self._prefix}_post WHERE term IN ({marks(chunk)}) ORDER BY term, seg", chunk
            ):
                blobs[term][0].append(docs)
                blobs[term][1].append(counts)
        found = {}
        for term, (docs, counts) in blobs.items():
            rows = np.frombuffer(b"".join(docs), dtype=np.int32)
            kept = int(np.searchsorted(rows, end))
            stored = TermList(rows[:kept], np.frombuffer(b"".join(counts), dtype=np.uint8).reshape(-1, self._width)[:kept])
            found[term] = with_context(stored, table) if self._context and derived else stored
        return found

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many rows hold each term, dead ones included."""
        found = dict.fromkeys(terms, 0)
        for chunk in sql_batches(list(found)):
            found.update(self._execute(
                # 4 bytes per row number (int32)
                f"SELECT term, sum(length(docs)) / 4 FROM {self._prefix}_post WHERE term IN ({marks(chunk)}) GROUP BY term", chunk
            ))
        return found


def _blank(end: int) -> list[np.ndarray]:
    """Empty sizes, times, previous and next rows for rows 0 … end - 1."""
    return [np.zeros(end), np.zeros(end, dtype=np.int64), np.zeros(end, dtype=np.int32), np.zeros(end, dtype=np.int32)]
