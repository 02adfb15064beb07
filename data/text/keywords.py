"""A query's keywords as the keyword index and the ranking model read them (Q-01, Q-06, Q-07): each
typed word one clause, a word of several terms (a path, a camelCase name) a phrase of them, a CJK
word its character pairs; stopwords alone drop out. And a row's text counted against them, the way
the ranking model reads it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from oneclaw_search.data.text.analyzer import analyze, text_terms
from oneclaw_search.data.text.term_counts import TermCounter
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.search_terms import is_cjk, plain
from oneclaw_search.domain.stopwords import STOPWORDS
from oneclaw_search.domain.window_bm25 import Bag

Clause = tuple[str, ...]  # index terms that must stand together (one term, or a phrase)
_EDGES = re.compile(r"^\W+|\W+$")


def clauses(raw: str) -> list[Clause]:
    """The query's keywords, each typed word one clause: a word of several terms (a path, a
    camelCase name) is a phrase of them, a CJK word its character pairs; stopwords alone drop out."""
    found: list[Clause] = []
    for chunk in raw.replace('"', " ").split():
        terms = analyze(chunk)
        if len(terms) == 1 and plain(_EDGES.sub("", chunk)) in STOPWORDS:
            continue
        if len(terms) > 1 and all(is_cjk(term) for term in terms):
            found += list(pairwise(terms))
        elif terms:
            found.append(terms)
    return list(dict.fromkeys(found))


def clause_terms(found: list[Clause]) -> list[str]:
    """The terms the ranking model weighs: each clause's terms, once."""
    return list(dict.fromkeys(term for clause in found for term in clause))


class QueryTerms:
    """A query's terms as the index's analyzer makes them, and texts counted against them."""

    def __init__(self, query: HistoryQuery) -> None:
        self.clauses = clauses(query.raw)
        self.terms = clause_terms(self.clauses)
        self._counter = TermCounter(self.terms)

    def bags(self, texts: Sequence[str | None]) -> list[Bag]:
        """Rows' texts as BM25 sees them, their terms split exactly as the keyword index splits them
        (NO_TEXT where there is none): all of a search's candidates and the turns beside them at once."""
        return self._counter.bags(texts)

    def bag(self, text: str | None) -> Bag:
        return self._counter.bags([text])[0]

    def found_in(self, texts: Sequence[str]) -> list[Bag | None]:
        """Each text's bag when it holds a clause as the index would find it (a term, or the terms of
        a typed identifier side by side), else None."""
        return [bag if self.holds(text, bag) else None for text, bag in zip(texts, self.bags(texts), strict=True)]

    def holds(self, text: str, bag: Bag) -> bool:
        """Whether `text` (counted as `bag`) holds a clause as the index would find it."""
        held = [clause for clause in self.clauses if all(bag.counts.get(term) for term in clause)]
        if not held:
            return False
        if any(len(clause) == 1 for clause in held):
            return True
        terms = text_terms(text)
        return any(_in_order(terms, clause) for clause in held)


def _in_order(terms: list[str], clause: tuple[str, ...]) -> bool:
    size = len(clause)
    return any(tuple(terms[at:at + size]) == clause for at in range(len(terms) - size + 1))
