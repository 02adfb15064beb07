"""Message and session search on the keyword index, with the spec's literal reading beside it
(AC-07, AC-08, Q-01, Q-02, Q-04).

Implements the domain's MessageSearch and SessionSearch ports: the DAO's own literal test finds
whole-query hits (from trigram candidates), tantivy's BM25 adds keyword hits, message vectors weigh
how close each is in meaning, and every hit is re-read from the history, which decides what is live.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.data.history.session_dao import PeeweeSessionDao
from oneclaw_search.data.index.documents import fingerprint
from oneclaw_search.data.index.keyword_search import admitted, clauses, keyword_hits
from oneclaw_search.data.index.lookup import H, HitsByRowid, KeywordLookup
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS, IndexKind
from oneclaw_search.data.index.vectors import MessageVectors
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit, Relevance, ScoredMessage, ScoredSession, SessionHit

INDEXED_RETRIEVERS = ("keyword (BM25, tantivy)", "phrase (trigram candidates)")
# A row matching only words that are everywhere (a name in every title) is no hit. For messages,
# unless every row is that weak: in a session of a few turns each turn's window holds the others'
# words, so every keyword is everywhere, and half the best coverage then still counts.
MIN_KEYWORD_COVERAGE, MIN_OF_BEST = 0.1, 0.5
LENT_WHEN_WEAK = 0.25  # what a row only its neighbours lend keywords to keeps, when every row is that weak
_KEYWORD_OVERFETCH = 2  # rows of deleted sessions are dropped when re-read


class _Scored(Protocol):
    """A ScoredMessage or ScoredSession: a hit and how it matched."""

    @property
    def hit(self) -> Any: ...  # the search's H: a type variable's bound cannot name another

    @property
    def relevance(self) -> Relevance: ...


S = TypeVar("S", bound=_Scored)


class _Ranked(Protocol[S]):
    """The spec's literal search of the same rows (LiteralMessageSearch, LiteralSessionSearch)."""

    @property
    def retrievers(self) -> tuple[str, ...]: ...

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[S]: ...


class _IndexedSearch(Generic[H, S]):
    """Whole-query hits from the DAO, keyword (and meaning) hits from the index, re-read and re-checked."""

    kind: IndexKind
    scored: Callable[[H, Relevance], S]

    def __init__(self, lookup: KeywordLookup, literal: _Ranked[S], hits_by_rowid: HitsByRowid[H],
                 text_of: Callable[[H], str], vectors: MessageVectors | None = None) -> None:
        self._lookup = lookup
        self._literal = literal
        self._hits_by_rowid = hits_by_rowid
        self._text_of = text_of
        self._vectors = vectors
        self._indexed_retrievers = INDEXED_RETRIEVERS + (() if vectors is None else (f"semantic ({vectors.name})",))

    @property
    def retrievers(self) -> tuple[str, ...]:
        """What the latest search ran: the index, or the spec's scan when the index could not serve."""
        return self._indexed_retrievers if self._lookup.state_now.usable else self._literal.retrievers

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[S]:
        literal = self._literal.search(query, after, before, limit, deadline=deadline, within=within)
        if not self._lookup.state(deadline).usable:
            return literal
        keyword, indexed_as = keyword_hits(self._lookup.keyword, self.kind, query, after, before,
                                           limit * _KEYWORD_OVERFETCH, within)
        rows = self._hits_by_rowid(list(keyword), after, before, deadline=deadline)
        lent: set[int] = set()
        if self.kind.own is not None:
            rows = self._current(rows, indexed_as)
            own, lent = admitted(self._lookup.keyword, self.kind, list(rows), clauses(query.raw))
            rows = {rowid: hit for rowid, hit in rows.items() if rowid in own or rowid in lent}
        floor = _floor(keyword, windows_overlap=self.kind.own is not None)
        weighted = _own_words_first(keyword, lent)
        found = {item.hit.id: item for item in literal}
        by_id = {hit.id: (rowid, hit) for rowid, hit in rows.items()}
        semantic = self._semantic(query, [rowid for rowid, _ in by_id.values()])
        scored = []
        for hit_id, (rowid, hit) in by_id.items():
            if hit_id in found or keyword[rowid] < floor or not query.admits(self._text_of(hit)):
                continue
            scored.append(self.scored(hit, Relevance(weighted[rowid], 0.0, semantic.get(rowid))))
        for hit_id, item in found.items():
            indexed = by_id[hit_id][0] if hit_id in by_id else None  # None: found by the literal test alone
            keyword_score = weighted.get(indexed, 0.0) if indexed is not None else 0.0
            semantic_score = semantic.get(indexed) if indexed is not None else None
            scored.append(self.scored(item.hit, Relevance(keyword_score, item.relevance.literal, semantic_score)))
        # Whole-query hits first, then by keyword score: the order the merge will rank them in.
        return sorted(scored, key=lambda item: (item.relevance.literal <= 0, -item.relevance.keyword))[:limit]

    def _current(self, rows: dict[int, H], indexed_as: dict[int, int]) -> dict[int, H]:
        """The rows whose text is still what the index holds; the others (edited in place since)
        are left out of this search and re-indexed on the next."""
        stale = [rowid for rowid, hit in rows.items() if fingerprint(self._text_of(hit)) != indexed_as.get(rowid)]
        if stale:
            self._lookup.reindex(stale)
        return {rowid: hit for rowid, hit in rows.items() if rowid not in stale}

    def _semantic(self, query: HistoryQuery, rowids: list[int]) -> dict[int, float]:
        """How close in meaning each candidate is to the query (when messages have vectors).

        Vectors re-rank what the words found rather than add rows of their own: on LoCoMo, rows
        found by meaning alone barely raised recall and brought many false friends ("Roppongi" →
        "Shibuya"; docs/performance.md), and a scan of every vector would not fit a million
        messages in the budget.
        """
        if self._vectors is None or not rowids:
            return {}
        vector = self._vectors.query_vector(query.raw)
        return {rowid: max(score, 0.0) for rowid, score in self._vectors.similarity(rowids, vector).items()}


def _own_words_first(keyword: dict[int, float], lent: set[int]) -> dict[int, float]:
    """When every hit is weak (no keyword is rare among the windows: a chat of a few turns, where
    each window holds every turn), rows only their neighbours lend keywords count for LENT_WHEN_WEAK:
    there the turns holding the words come first, and those between them after."""
    if not lent or max(keyword.values(), default=0.0) >= MIN_KEYWORD_COVERAGE / MIN_OF_BEST:
        return keyword
    return {rowid: score * LENT_WHEN_WEAK if rowid in lent else score for rowid, score in keyword.items()}


def _floor(keyword: dict[int, float], windows_overlap: bool) -> float:
    """The coverage a keyword-only hit needs (messages' windows overlap; a session's title is its own)."""
    best = max(keyword.values(), default=0.0)
    floor = min(MIN_KEYWORD_COVERAGE, MIN_OF_BEST * best) if windows_overlap else MIN_KEYWORD_COVERAGE
    return floor if floor > 0 else float("inf")


class IndexedMessageSearch(_IndexedSearch[MessageHit, ScoredMessage]):
    kind = MESSAGES
    scored = ScoredMessage

    def __init__(self, lookup: KeywordLookup, dao: PeeweeMessageDao, vectors: MessageVectors | None = None) -> None:
        super().__init__(lookup, LiteralMessageSearch(dao), dao.hits_by_rowid, lambda hit: hit.content, vectors)


class IndexedSessionSearch(_IndexedSearch[SessionHit, ScoredSession]):
    kind = SESSIONS
    scored = ScoredSession

    def __init__(self, lookup: KeywordLookup, dao: PeeweeSessionDao) -> None:
        super().__init__(lookup, LiteralSessionSearch(dao), dao.hits_by_rowid,
                         lambda hit: f"{hit.title}\n{hit.last_message_preview or ''}")
