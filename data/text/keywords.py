"""A query's keywords as the keyword index and the ranking model read them (Q-01, Q-06, Q-07): each
typed word one clause, a word of several terms (a path, a camelCase name) a phrase of them, a CJK
word its character pairs; stopwords alone drop out. And a row's text counted against them.
"""
from __future__ import annotations

import re
from itertools import pairwise

from oneclaw_search.data.text.analyzer import analyze, text_terms
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


def counted(text: str | None, terms: list[str]) -> Bag:
    """A row's text as BM25 sees it, its terms split exactly as the keyword index splits them (none
    where there is no text: a turn with nothing before it)."""
    return NO_TEXT if text is None else bag_of(text_terms(text), terms)
