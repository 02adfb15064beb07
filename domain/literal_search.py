"""The spec's own message and session search (LIKE '%query%', newest first), as searches of candidates.

Used when no side index is available or wanted: every row the DAO's LIKE returns holds the whole
query, and its evidence is counted from its text, BM25's statistics taken over the rows found, so the
ranking model scores LIKE hits by how well they match (MRG-1, P-17), as the spec asks.
"""
from __future__ import annotations

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import ScoredMessage, ScoredSession, SessionHit
from oneclaw_search.domain.ports import MessageDao, SessionDao
from oneclaw_search.domain.text_evidence import scanned_evidence
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, TITLE_ONLY, WindowLayout

LITERAL_RETRIEVERS: tuple[str, ...] = ("phrase (LIKE scan)",)


def session_text(hit: SessionHit) -> str:
    """What a session is matched in: its title, then its last message's preview."""
    return f"{hit.title}\n{hit.last_message_preview or ''}"


class LiteralMessageSearch:
    retrievers = LITERAL_RETRIEVERS

    def __init__(self, dao: MessageDao, layout: WindowLayout = DEFAULT_WINDOW) -> None:
        self._dao = dao
        self._layout = layout  # a scan scores each row as its own window, weighed as the index would

    def search(
        self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[ScoredMessage]:
        # A host's own DAO may have only the spec's parameters: `within` goes to it only when narrowed.
        narrowed = {} if within is None else {"within": within}
        hits = [hit for hit in self._dao.search_content(query.raw, after, before, limit, deadline=deadline, **narrowed)
                if query.admits(hit.content)]
        evidence = scanned_evidence(query, [hit.content for hit in hits], self._layout)
        return [ScoredMessage(hit, found) for hit, found in zip(hits, evidence, strict=True)]


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
        hits = [hit for hit in hits if query.admits(session_text(hit))]
        evidence = scanned_evidence(query, [session_text(hit) for hit in hits], TITLE_ONLY)
        return [ScoredSession(hit, found) for hit, found in zip(hits, evidence, strict=True)]
