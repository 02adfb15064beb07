"""Raw features read straight from text: how often a text holds the whole query as whole words, a
text's terms counted against the query's, and evidence for rows a scan reads whole (the spec's LIKE
scan without an index, the filtered search over tool rows), whose BM25 statistics come from the rows
themselves (P-17, Q-01).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import NO_TEXT, Bag, Collection, Evidence
from oneclaw_search.domain.search_terms import index_terms
from oneclaw_search.domain.text import fold

_WORD_CHAR = re.compile(r"\w")


def whole_word_occurrences(folded_text: str, folded_query: str) -> int:
    """How often the folded query stands in the folded text with a word boundary at both ends (or at
    an end that is no word character itself: "c++" stands whole in "c++ code")."""
    count, start = 0, folded_text.find(folded_query) if folded_query else -1
    while start != -1:
        end = start + len(folded_query)
        if _edge(folded_text, start - 1, start) and _edge(folded_text, end, end - 1):
            count += 1
        start = folded_text.find(folded_query, end)
    return count


def _edge(text: str, outside: int, inside: int) -> bool:
    return not 0 <= outside < len(text) or not _WORD_CHAR.match(text[outside]) or not _WORD_CHAR.match(text[inside])


def evidence_of(query: HistoryQuery, text: str, own: Bag, collection: Collection, before: Bag = NO_TEXT,
                after: Bag = NO_TEXT) -> Evidence:
    """A row's evidence from its text and what a backend counted: whether it holds the whole query as
    written (the spec's LIKE test) and how often as whole words."""
    folded = fold(text)
    literal = query.literal in folded
    phrase = whole_word_occurrences(folded, query.literal) if literal else 0
    return Evidence(own, collection, before, after, literal, phrase)


def bag_of(terms: Sequence[str], wanted: Iterable[str]) -> Bag:
    """A text's terms (in order, as an analyzer made them) counted against the query's: only the
    query terms it holds are counted, the few a row usually holds."""
    return Bag({term: terms.count(term) for term in set(wanted).intersection(terms)}, len(terms))


def collection_of(bags: Sequence[Bag], wanted: Sequence[str]) -> Collection:
    """BM25's statistics over these rows alone."""
    rows = len(bags)
    average = sum(bag.length for bag in bags) / rows if rows else 0.0
    return Collection(rows, average, {term: sum(1 for bag in bags if bag.counts.get(term)) for term in wanted})


def scanned_evidence(query: HistoryQuery, texts: Sequence[str]) -> list[Evidence]:
    """Evidence of each of `texts` (rows a scan read) against `query`, counted with its own terms."""
    wanted = query.all_terms
    bags = [bag_of(index_terms(text, query.stem), wanted) for text in texts]
    collection = collection_of(bags, wanted)
    evidence = []
    for text, bag in zip(texts, bags, strict=True):
        folded = fold(text)
        literal = query.literal in folded and query.admits(text)
        evidence.append(Evidence(bag, collection, literal=literal,
                                 phrase=whole_word_occurrences(folded, query.literal) if literal else 0))
    return evidence
