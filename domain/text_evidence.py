"""Raw features read straight from text: whether a text holds the whole query or a quoted phrase as
written and how often as whole words, a text's terms counted against the query's, and evidence for rows a scan reads whole (the
spec's LIKE scan without an index, the filtered search over tool rows), whose BM25 statistics come
from the rows themselves (P-17, Q-01).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import Evidence, phrase_weight
from oneclaw_search.domain.search_terms import index_terms
from oneclaw_search.domain.text import fold
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, Bag, Collection, Statistics, Window, WindowLayout, coverage

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


def evidence(query: HistoryQuery, texts: Sequence[str], coverages: Sequence[float], holds: Sequence[bool],
             owns: Sequence[str] | None = None, every: bool = True) -> list[Evidence]:
    """The rows' evidence from their texts (`owns`: the text a row's own words are counted in, when not
    the text the whole query is looked for in) and the coverages a backend measured: whether each holds
    the whole query as written, the weight of its whole-word occurrences over its length in words, every
    phrase the query quotes, and (`every`: only a session's rule asks, relevance.py) every query term in
    its own words."""
    own_texts = texts if owns is None else owns
    words = [len(text.split()) for text in own_texts]
    average = sum(words) / len(words) if words else 0.0
    wanted = set(query.all_terms)
    found = []
    for text, own, measured, held, length in zip(texts, own_texts, coverages, holds, words, strict=True):
        folded = fold(text)
        literal = query.literal in folded
        occurrences = whole_word_occurrences(folded, query.literal) if literal else 0
        # Whole words, as the index finds a quoted phrase: a substring ("log" in "catalog") earns nothing.
        quoted = bool(query.phrases) and all(whole_word_occurrences(folded, phrase) for phrase in query.phrases)
        holds_all = every and bool(wanted) and wanted.issubset(index_terms(own, query.stem))
        found.append(Evidence(measured, held, literal, phrase_weight(occurrences, length, average), quoted, holds_all))
    return found


def bag_of(terms: Sequence[str], wanted: Iterable[str]) -> Bag:
    """A text's terms (in order, as an analyzer made them) counted against the query's: only the
    query terms it holds are counted, the few a row usually holds."""
    return Bag({term: terms.count(term) for term in set(wanted).intersection(terms)}, len(terms))


def collection_of(bags: Sequence[Sequence[tuple[int, Bag]]], wanted: Sequence[str]) -> Collection:
    """BM25's statistics over these rows' fields alone (each row's texts, weighed)."""
    rows = len(bags)
    lengths = [sum(times * bag.length for times, bag in weighed) for weighed in bags]
    holding = {term: sum(1 for weighed in bags if any(bag.counts.get(term) for _, bag in weighed)) for term in wanted}
    return Collection(rows, sum(lengths) / rows if rows else 0.0, holding)


def scanned_evidence(query: HistoryQuery, texts: Sequence[str], layout: WindowLayout = DEFAULT_WINDOW) -> list[Evidence]:
    """Evidence of each of `texts` (rows a scan read, each its own window) against `query`, counted
    with its own terms; a row not holding every quoted phrase holds no whole query either."""
    wanted = query.all_terms
    windows = [Window(bag_of(index_terms(text, query.stem), wanted)) for text in texts]
    own = collection_of([[(1, window.own)] for window in windows], wanted) if layout.words_alone else None
    statistics = Statistics(collection_of([window.weighed(layout) for window in windows], wanted), own)
    found = evidence(query, texts, [coverage(window, statistics, layout) for window in windows],
                     [window.own.holds_any() for window in windows])
    return [item if item.literal <= query.admits(text) else replace(item, literal=False) for item, text in zip(found, texts, strict=True)]
