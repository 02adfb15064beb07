"""What a search reads itself, the rows the keyword index may not hold as they are now (Q-11): which of
them hold the query's keywords, found as the index would find them, and what they add to the
index's statistics.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from oneclaw_search.data.text.keywords import QueryTerms
from oneclaw_search.domain.relevance import NO_TEXT, Collection


class Unread:
    """Rows a search read itself (the index had not taken them in as they are): those holding a query
    term, and what they add to the index's statistics."""

    def __init__(self) -> None:
        self.rowids: list[int] = []
        self.rows = 0
        self.holding: Counter[str] = Counter()
        self.lengths: list[int] = []

    def read(self, rows: Sequence[tuple[int, str]], terms: QueryTerms, counted: int) -> Unread:
        """Take in `rows`, the first `counted` of them new to the index (the rest are in its statistics)."""
        for at, (rowid, text) in enumerate(rows):
            bag = terms.found_in(text) or NO_TEXT
            if bag.holds_any():
                self.rowids.append(rowid)
            if at < counted:
                self.rows += 1
                self.holding.update(term for term in bag.counts)
                self.lengths += [bag.length] if bag.length else []
        return self

    def joined(self, found: Collection) -> Collection:
        """The index's statistics with these rows in them."""
        average = found.average_length or (sum(self.lengths) / len(self.lengths) if self.lengths else 0.0)
        holding = {term: found.holding.get(term, 0) + self.holding[term] for term in found.holding}
        return Collection(found.rows + self.rows, average, holding)
