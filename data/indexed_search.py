"""Message and session search backed by the side index, with the spec's scan as the safety net.

Implements the domain's MessageSearch and SessionSearch ports (issue 3): the DAO's own LIKE
test finds whole-query hits (answered from trigrams), BM25 over index terms adds keyword hits,
message vectors add hits close in meaning, and every hit is re-read from the history. While the
index is still catching up (a first build longer than half the budget), a search is the spec's scan.
"""
from __future__ import annotations

from collections.abc import Callable

from oneclaw_search.data.index_lookup import IndexLookup
from oneclaw_search.data.index_queries import keyword_hits
from oneclaw_search.data.message_dao import PeeweeMessageDao
from oneclaw_search.data.message_vectors import MessageVectors
from oneclaw_search.data.session_dao import PeeweeSessionDao
from oneclaw_search.data.side_index import MESSAGES, SESSIONS, DocKind
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.models import Relevance, ScoredMessage, ScoredSession

INDEXED_RETRIEVERS = ("keyword (FTS5 BM25)", "phrase (FTS5 trigram)")
SESSION_COLUMN_WEIGHTS = (1.0, 0.6)  # title, preview: as the literal session score weighs them
# A message sharing no word with the query must be at least this close in meaning to count.
MIN_SEMANTIC_SIMILARITY = 0.45


class _IndexedSearch:
    """Whole-query hits from the DAO, keyword (and meaning) hits from the index, re-read and re-checked."""

    kind: DocKind
    weights: tuple[float, ...] = ()
    scored: Callable

    def __init__(self, lookup: IndexLookup, literal, hits_by_id, text_of, vectors: MessageVectors | None = None) -> None:
        self._lookup = lookup
        self._literal = literal
        self._hits_by_id = hits_by_id
        self._text_of = text_of
        self._vectors = vectors
        semantic = () if vectors is None else (f"semantic ({vectors.name})",)
        self.retrievers = INDEXED_RETRIEVERS + semantic

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None):
        literal = self._literal.search(query, after, before, limit, deadline=deadline)
        if not self._lookup.ensure_fresh(deadline):
            return literal
        keyword = keyword_hits(self._lookup.index, self.kind, query, after, before, limit, self.weights)
        found = {item.hit.id: item for item in literal}
        semantic = self._semantic(query, [*found, *keyword], after, before, limit)
        extra = [hit_id for hit_id in dict.fromkeys([*keyword, *semantic]) if hit_id not in found]
        hits = [hit for hit in self._hits_by_id(extra, after, before, deadline=deadline) if query.admits(self._text_of(hit))]
        scored = [self.scored(item.hit, Relevance(keyword.get(hit_id, 0.0), item.relevance.literal, semantic.get(hit_id)))
                  for hit_id, item in found.items()]
        scored += [self.scored(hit, Relevance(keyword.get(hit.id, 0.0), 0.0, semantic.get(hit.id))) for hit in hits]
        scored = [item for item in scored if _relevant(item.relevance)]
        # Whole-query hits first, then by keyword score: the order the merge will rank them in.
        return sorted(scored, key=lambda item: (item.relevance.literal <= 0, -item.relevance.keyword))[:limit]

    def _semantic(self, query: HistoryQuery, candidates: list[str], after: int, before: int, limit: int) -> dict[str, float]:
        """Similarity of each candidate and of the nearest rows in meaning (when vectors exist)."""
        if self._vectors is None:
            return {}
        vector = self._vectors.query_vector(query.raw)
        nearest = self._vectors.nearest(vector, after, before, limit, MIN_SEMANTIC_SIMILARITY)
        known = self._vectors.similarity([hit_id for hit_id in candidates if hit_id not in nearest], vector)
        return {hit_id: max(score, 0.0) for hit_id, score in {**known, **nearest}.items()}


def _relevant(relevance: Relevance) -> bool:
    semantic = relevance.semantic or 0.0
    return relevance.keyword > 0 or relevance.literal > 0 or semantic >= MIN_SEMANTIC_SIMILARITY


class IndexedMessageSearch(_IndexedSearch):
    kind = MESSAGES
    scored = ScoredMessage

    def __init__(self, lookup: IndexLookup, dao: PeeweeMessageDao, vectors: MessageVectors | None = None) -> None:
        super().__init__(lookup, LiteralMessageSearch(dao), dao.hits_by_id, lambda hit: hit.content, vectors)


class IndexedSessionSearch(_IndexedSearch):
    kind = SESSIONS
    weights = SESSION_COLUMN_WEIGHTS
    scored = ScoredSession

    def __init__(self, lookup: IndexLookup, dao: PeeweeSessionDao) -> None:
        super().__init__(lookup, LiteralSessionSearch(dao), dao.hits_by_id,
                         lambda hit: f"{hit.title}\n{hit.last_message_preview or ''}")
