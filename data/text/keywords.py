"""A query's keywords as the keyword index and the ranking model read them (Q-01, Q-06, Q-07): each
typed word one clause, a word of several terms (a path, a camelCase name) a phrase of them, a CJK
word its character pairs; stopwords alone drop out. And a row's text counted against them, the way
the ranking model reads it.
"""
from __future__ import annotations

import re
from itertools import pairwise

from oneclaw_search.data.text.analyzer import analyze, term_count, text_terms
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import NO_TEXT, Bag
from oneclaw_search.domain.search_terms import is_cjk, plain
from oneclaw_search.domain.stopwords import STOPWORDS
from oneclaw_search.domain.text_evidence import bag_of

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
    """A query's terms as the index's analyzer makes them, and a quick test of whether a text may
    hold one before the text is analyzed: an ASCII text, lowercased, holds the start of a term (a
    stem is its word less an ending); any other text may, since folding it costs what analyzing does."""

    def __init__(self, query: HistoryQuery) -> None:
        self.clauses = clauses(query.raw)
        self.terms = clause_terms(self.clauses)
        # A Snowball stem is its word but for the last letter or so ("tri" for "try", "hope" for
        # "hoping"); all but its last letter stands in the word, bar "lying"-like exceptions.
        self._starts = [term if len(term) <= 2 else term[:-1] for term in self.terms]

    def may_hold(self, text: str) -> bool:
        if not text.isascii():
            return True
        lowered = text.lower()
        return any(start in lowered for start in self._starts)

    def bag(self, text: str | None) -> Bag:
        """A row's own text as BM25 sees it, its terms split exactly as the keyword index splits them."""
        return NO_TEXT if text is None else bag_of(text_terms(text), self.terms)

    def beside(self, text: str | None) -> Bag:
        """A turn beside a row: its length always (it weighs in the row's window), its terms counted
        only when it may hold one (none where there is no turn)."""
        if text is None:
            return NO_TEXT
        return self.bag(text) if self.may_hold(text) else Bag({}, term_count(text))

    def found_in(self, text: str) -> Bag | None:
        """The text's bag when it holds a clause as the index would find it (a term, or the terms of
        a typed identifier side by side), else None."""
        if not self.may_hold(text):
            return None
        terms = text_terms(text)
        held = set(terms)
        for clause in self.clauses:
            if all(term in held for term in clause) and (len(clause) == 1 or _in_order(terms, clause)):
                return bag_of(terms, self.terms)
        return None


def _in_order(terms: list[str], clause: tuple[str, ...]) -> bool:
    size = len(clause)
    return any(tuple(terms[at:at + size]) == clause for at in range(len(terms) - size + 1))
