"""The spec's own message and session search (LIKE '%query%', newest first), as ranked searches.

Used when no side index is available or wanted; scores every hit by how well it contains the
whole query (MRG-1, P-17), as the spec's own search would.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import Relevance, ScoredMessage, ScoredSession, SessionHit
from oneclaw_search.domain.ports import MessageDao, SessionDao
from oneclaw_search.domain.ranking import average_word_count, phrase_match_score

LITERAL_RETRIEVERS: tuple[str, ...] = ("phrase (LIKE scan)",)
# A title is chosen to name the whole conversation; a preview is a clipped recent line.
TITLE_WEIGHT, PREVIEW_WEIGHT = 1.0, 0.6


class LiteralMessageSearch:
    retrievers = LITERAL_RETRIEVERS

    def __init__(self, dao: MessageDao) -> None:
        self._dao = dao

    def search(
        self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[ScoredMessage]:
        # A host's own DAO may have only the spec's parameters: `within` goes to it only when narrowed.
        narrowed = {} if within is None else {"within": within}
        hits = [hit for hit in self._dao.search_content(query.raw, after, before, limit, deadline=deadline, **narrowed)
                if query.admits(hit.content)]
        average = average_word_count(hit.content for hit in hits)
        return [ScoredMessage(hit, Relevance(literal=phrase_match_score(hit.content, query.raw, average))) for hit in hits]


class LiteralSessionSearch:
    retrievers = LITERAL_RETRIEVERS

    def __init__(self, dao: SessionDao) -> None:
        self._dao = dao

    def search(
        self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[ScoredSession]:
        narrowed = {} if within is None else {"within": within}
        hits = self._dao.search_by_title_or_preview(query.raw, after, before, limit, deadline=deadline, **narrowed)
        hits = [hit for hit in hits if query.admits(f"{hit.title}\n{hit.last_message_preview or ''}")]
        scores = session_literal_scores(hits, query.raw)
        return [ScoredSession(hit, Relevance(literal=score)) for hit, score in zip(hits, scores, strict=True)]


def session_literal_scores(hits: Sequence[SessionHit], query: str) -> list[float]:
    """Phrase scores of title and preview, the title counting for more."""
    title_average = average_word_count(hit.title for hit in hits)
    preview_average = average_word_count(hit.last_message_preview or "" for hit in hits)
    return [
        TITLE_WEIGHT * phrase_match_score(hit.title, query, title_average)
        + PREVIEW_WEIGHT * phrase_match_score(hit.last_message_preview or "", query, preview_average)
        for hit in hits
    ]
