"""What a search reads itself, the rows the keyword index may not hold as they are now (Q-11): which of
them may hold the query's keywords, found as the index would find them, and what they add to the
index's statistics.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from oneclaw_search.data.text.analyzer import text_terms
from oneclaw_search.data.text.keywords import clause_terms, clauses, counted
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import NO_TEXT, Bag, Collection
from oneclaw_search.domain.search_terms import plain
from oneclaw_search.domain.text_evidence import bag_of


class QueryTerms:
    """A query's terms as the index's analyzer makes them, and a quick test of whether a text may
    hold one (its folded form holds the start of a term), before the text is analyzed."""

    def __init__(self, query: HistoryQuery) -> None:
        self._clauses = clauses(query.raw)
        self.terms = clause_terms(self._clauses)
        self._starts = [term if len(term) <= 3 else term[:-2] for term in self.terms]

    def may_hold(self, text: str) -> bool:
        folded = plain(text)  # caseless and accent-free, as the analyzer folds words
        return any(start in folded for start in self._starts)

    def bag(self, text: str | None) -> Bag:
        return counted(text, self.terms)

    def found_in(self, text: str) -> Bag | None:
        """The text's bag when it holds a clause as the index would find it (a term, or the terms of
        a typed identifier side by side), else None."""
        if not self.may_hold(text):
            return None
        terms = text_terms(text)
        held = set(terms)
        for clause in self._clauses:
            if all(term in held for term in clause) and (len(clause) == 1 or _in_order(terms, clause)):
                return bag_of(terms, self.terms)
        return None


def _in_order(terms: list[str], clause: tuple[str, ...]) -> bool:
    size = len(clause)
    return any(tuple(terms[at:at + size]) == clause for at in range(len(terms) - size + 1))


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
