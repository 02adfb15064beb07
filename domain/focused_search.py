"""Searches narrowed by role, session, project or agent type (the peers' parameters) that take in tool rows.

Beyond FEAT-032, which searches user and assistant turns only (P-05). The keyword index holds just
those turns, so a search asking for tool
calls and results reads the rows the filter admits, newest first, and ranks them here: the whole
query as a phrase above scattered keywords, rarer words weighing more (BM25 over the rows read).
Filters on user and assistant turns alone go to the message and session searches (`within`).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import MessageFilter
from oneclaw_search.domain.models import MessageHit, Relevance, ScoredMessage
from oneclaw_search.domain.ranking import average_word_count, phrase_match_score
from oneclaw_search.domain.search_terms import Stem, index_terms
from oneclaw_search.domain.text import fold

FOCUSED_RETRIEVERS = ("keyword (filtered scan)",)
_K1, _B = 1.2, 0.75
MIN_COVERAGE = 0.1  # as the index's keyword search: a row sharing only a common word is no hit


class FilterUnavailable(LookupError):
    """The history cannot answer this filter (no origin facts for project or agent_type)."""


class FilteredHistory(Protocol):
    def session_ids(self, message_filter: MessageFilter) -> frozenset[str] | None:
        """Live sessions the filter's session_id, project and agent_type admit; None when it names
        none of them. Raises FilterUnavailable when the history keeps no origin facts."""

    def messages(self, types: frozenset[str], session_ids: frozenset[str] | None, after: int, before: int,
                 ) -> Iterable[list[MessageHit]]:
        """Batches of live messages of these types (tool rows with their name, input and output as
        content), created in [after, before], newest first."""


class FocusedSearch:
    """The message and session sources of a filtered search."""

    retrievers = FOCUSED_RETRIEVERS

    def __init__(self, history: FilteredHistory) -> None:
        self._history = history

    def session_ids(self, message_filter: MessageFilter) -> frozenset[str] | None:
        return self._history.session_ids(message_filter)

    def messages(self, query: HistoryQuery, message_filter: MessageFilter, sessions: frozenset[str] | None,
                 after: int, before: int, limit: int, deadline: Deadline | None = None) -> list[ScoredMessage]:
        found: list[MessageHit] = []
        needles = _needles(query)
        for batch in self._history.messages(message_filter.types, sessions, after, before):
            if deadline is not None:
                deadline.check()
            found += [hit for hit in batch if _may_match(fold(hit.content), query, needles)]
        scored = [ScoredMessage(hit, r) for hit, r in zip(found, relevances(query, [h.content for h in found]), strict=True) if r]
        return sorted(scored, key=lambda item: (-item.relevance.literal, -item.relevance.keyword))[:limit]


def relevances(query: HistoryQuery, texts: Sequence[str]) -> list[Relevance | None]:
    """Each text's relevance, or None when it neither holds the whole query nor enough of its words."""
    terms = query.all_terms
    counted = [_counts(text, terms, query.stem) for text in texts]
    rows = max(len(texts), 1)
    frequency = {t: sum(1 for counts, _ in counted if counts.get(t)) for t in terms}
    idf = {t: math.log(1 + (rows - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}
    ideal = sum(idf.values()) or 1.0  # a text holding each term once, at average length, scores 1
    average_length = sum(length for _, length in counted) / rows or 1.0
    words = average_word_count(texts)
    out: list[Relevance | None] = []
    for text, (counts, length) in zip(texts, counted, strict=True):
        norm = _K1 * (1 - _B + _B * length / average_length)
        keyword = sum(idf[t] * n * (_K1 + 1) / (n + norm) for t, n in counts.items()) / ideal
        whole = query.literal in fold(text) and query.admits(text)
        literal = phrase_match_score(text, query.raw, words) if whole else 0.0
        admitted = query.admits(text) and (literal > 0 or keyword >= MIN_COVERAGE)
        out.append(Relevance(min(keyword, 1.0), literal) if admitted else None)
    return out


def _counts(text: str, terms: Sequence[str], stem: Stem) -> tuple[dict[str, int], int]:
    words = index_terms(text, stem)
    wanted = set(terms)
    counts: dict[str, int] = {}
    for word in words:
        if word in wanted:
            counts[word] = counts.get(word, 0) + 1
    return counts, len(words)


def _needles(query: HistoryQuery) -> list[str]:
    """Leading parts of each term, found in any folded text holding the word it came from: a stem
    may end differently from the word ("happi" from "happy"), but starts the same."""
    return [term if len(term) <= 2 else term[:max(2, len(term) - 2)] for term in query.all_terms]


def _may_match(folded: str, query: HistoryQuery, needles: list[str]) -> bool:
    return query.literal in folded or any(needle in folded for needle in needles)
