"""Searches narrowed by role, session, project or agent type (the peers' parameters) that take in tool rows.

Beyond FEAT-032, which searches user and assistant turns only (P-05). The keyword index holds just
those turns, so a search asking for tool calls and results reads the rows the filter admits, newest
first, and hands those that may hold the query to the ranking model, their evidence counted from
their text (BM25's statistics over the rows read). Filters on user and assistant turns alone go to
the message and session searches (`within`).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import MessageFilter
from oneclaw_search.domain.models import MessageHit, ScoredMessage
from oneclaw_search.domain.text import fold
from oneclaw_search.domain.text_evidence import scanned_evidence
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, WindowLayout

FOCUSED_RETRIEVERS = ("keyword (filtered scan)",)


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

    def __init__(self, history: FilteredHistory, layout: WindowLayout = DEFAULT_WINDOW) -> None:
        self._history = history
        self._layout = layout  # each row read is scored as its own window, weighed as the index would

    def session_ids(self, message_filter: MessageFilter) -> frozenset[str] | None:
        return self._history.session_ids(message_filter)

    def messages(self, query: HistoryQuery, message_filter: MessageFilter, sessions: frozenset[str] | None,
                 after: int, before: int, limit: int, deadline: Deadline | None = None) -> list[ScoredMessage]:
        found: list[MessageHit] = []
        needles = _needles(query)
        for batch in self._history.messages(message_filter.types, sessions, after, before):
            if deadline is not None:
                deadline.check()
            found += [hit for hit in batch if _may_match(fold(hit.content), query, needles) and query.admits(hit.content)]
        evidence = scanned_evidence(query, [hit.content for hit in found], self._layout)
        return [ScoredMessage(hit, item) for hit, item in zip(found, evidence, strict=True)]


def _needles(query: HistoryQuery) -> list[str]:
    """Leading parts of each term, found in any folded text holding the word it came from: a stem
    may end differently from the word ("happi" from "happy"), but starts the same."""
    return [term if len(term) <= 2 else term[:max(2, len(term) - 2)] for term in query.all_terms]


def _may_match(folded: str, query: HistoryQuery, needles: list[str]) -> bool:
    return query.literal in folded or any(needle in folded for needle in needles)
