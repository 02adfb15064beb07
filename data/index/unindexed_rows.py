"""What a search reads itself, the rows the keyword index may not hold as they are now (Q-11): which of
them hold the query's keywords, found as the index would find them, and what they add to the
index's statistics. They are read newest first, a page at a time, for as long as the budget allows.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from oneclaw_search.data.text.keywords import QueryTerms
from oneclaw_search.domain.clock import Deadline, SystemClock
from oneclaw_search.domain.window_bm25 import NO_TEXT, Collection, Statistics, WindowLayout

PAGE_ROWS = 2_000  # rows read at a time: the clock is looked at between pages
NO_ROWID_ABOVE = (1 << 63) - 1  # SQLite's largest rowid
Rows = Sequence[tuple[int, str]]  # (rowid, text)


class Unread:
    """Rows a search read itself (the index had not taken them in as they are): those holding a query
    term, what they add to the index's statistics, and whether every row new to the index was read."""

    def __init__(self) -> None:
        self.rowids: list[int] = []
        self.rows = 0
        self.holding: Counter[str] = Counter()
        self.lengths: list[int] = []
        self.whole = False
        self._seen: set[int] = set()  # pages read in turn may overlap when rows move between them

    def read(self, rows: Rows, terms: QueryTerms, new_above: int) -> Unread:
        """Take in `rows`; those above rowid `new_above` are new to the index (the rest are in its statistics)."""
        fresh = [(rowid, text) for rowid, text in rows if rowid not in self._seen]
        self._seen.update(rowid for rowid, _ in fresh)
        for (rowid, _), found in zip(fresh, terms.found_in([text for _, text in fresh]), strict=True):
            bag = found or NO_TEXT
            if bag.holds_any():
                self.rowids.append(rowid)
            if rowid > new_above:
                self.rows += 1
                self.holding.update(term for term in bag.counts)
                self.lengths += [bag.length] if bag.length else []
        return self

    def read_newest(self, page: Callable[[int], Rows], terms: QueryTerms, new_above: int, seconds: float,
                    deadline: Deadline | None) -> Unread:
        """Read `page(n)` for n = 0, 1, ... (newest rows first) until one comes short, so every row was
        read, or `seconds` (or the search's deadline) pass first."""
        clock = deadline.clock if deadline is not None else SystemClock()
        until = Deadline.after(clock, min(seconds, deadline.remaining()) if deadline is not None else seconds)
        number = 0
        while not until.expired():
            rows = page(number)
            self.read(rows, terms, new_above)
            if len(rows) < PAGE_ROWS:
                self.whole = True
                break
            number += 1
        return self

    def joined(self, found: Statistics, layout: WindowLayout) -> Statistics:
        """The index's statistics with these rows in them. A row read here counts as a window of its own
        words taken as often as a whole window's texts: the turns beside it are not read."""
        weight = layout.own + sum(layout.before) + sum(layout.after)
        window = self._joined(found.window, weight)
        return Statistics(window, self._joined(found.own, 1) if found.own is not None else None)

    def _joined(self, found: Collection, weight: int) -> Collection:
        average = found.average_length or (weight * sum(self.lengths) / len(self.lengths) if self.lengths else 0.0)
        holding = {term: found.holding.get(term, 0) + self.holding[term] for term in found.holding}
        return Collection(found.rows + self.rows, average, holding)
