"""Message and session search backed by the side index, with the spec's scan as the safety net.

Implements the domain's MessageSearch and SessionSearch ports (issue 3): the DAO's own LIKE
test finds whole-query hits (answered from trigrams), BM25 over index terms adds keyword hits,
message vectors weigh how close each is in meaning, and every hit is re-read from the history. While the
index is still catching up (a first build longer than half the budget), a search is the spec's scan.
"""
from __future__ import annotations

from collections.abc import Callable

from oneclaw_search.data.index_lookup import IndexLookup
from oneclaw_search.data.index_queries import phrase_rows
from oneclaw_search.data.keyword_ranking import keyword_hits
from oneclaw_search.data.message_dao import PeeweeMessageDao
from oneclaw_search.data.message_vectors import MessageVectors
from oneclaw_search.data.session_dao import PeeweeSessionDao
from oneclaw_search.data.index_docs import MESSAGES, SESSIONS, DocKind
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.models import Relevance, ScoredMessage, ScoredSession

INDEXED_RETRIEVERS = ("keyword (BM25)", "phrase (FTS5 trigram)")
SESSION_COLUMN_WEIGHTS = (1.0, 0.6)  # title, preview: as the literal session score weighs them
MESSAGE_COLUMN_WEIGHTS = (1.0, 0.5)  # the message's own words, the previous turn's words
# A row matching only words that are everywhere (a name in every title) is no hit.
MIN_KEYWORD_COVERAGE = 0.1


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
        self._indexed_retrievers = INDEXED_RETRIEVERS + (() if vectors is None else (f"semantic ({vectors.name})",))

    @property
    def retrievers(self) -> tuple[str, ...]:
        """What the latest search ran: the index, or the spec's scan when the index could not serve."""
        return self._indexed_retrievers if self._lookup.usable else self._literal.retrievers

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None):
        literal = self._literal.search(query, after, before, limit, deadline=deadline)
        if not self._lookup.ensure_fresh(deadline):
            return literal
        index = self._lookup.index
        matched = keyword_hits(index, self.kind, query, after, before, limit, self.weights, phrase_rows(index, self.kind, query))
        keyword = matched.scores
        found = {item.hit.id: item for item in literal}
        semantic = self._semantic(query, list(dict.fromkeys([*found, *keyword])))
        extra = [hit_id for hit_id in keyword if hit_id not in found]
        hits = [hit for hit in self._hits_by_id(extra, after, before, deadline=deadline)
                if query.admits(self._text_of(hit)) and (hit.id not in matched.unsure or query.has_compound(self._text_of(hit)))]
        scored = [self.scored(item.hit, Relevance(keyword.get(hit_id, 0.0), item.relevance.literal, semantic.get(hit_id)))
                  for hit_id, item in found.items()]
        scored += [self.scored(hit, Relevance(keyword.get(hit.id, 0.0), 0.0, semantic.get(hit.id))) for hit in hits]
        scored = [item for item in scored if _relevant(item.relevance)]
        # Whole-query hits first, then by keyword score: the order the merge will rank them in.
        return sorted(scored, key=lambda item: (item.relevance.literal <= 0, -item.relevance.keyword))[:limit]

    def _semantic(self, query: HistoryQuery, candidates: list[str]) -> dict[str, float]:
        """How close in meaning each candidate is to the query (when messages have vectors).

        Vectors re-rank what the words found rather than add rows of their own: on LoCoMo, rows
        found by meaning alone added 0.1 points of R@10 and many false friends ("Roppongi" →
        "Shibuya"), and a scan of every vector would not fit a million messages in the budget.
        """
        if self._vectors is None or not candidates:
            return {}
        vector = self._vectors.query_vector(query.raw)
        return {hit_id: max(score, 0.0) for hit_id, score in self._vectors.similarity(candidates, vector).items()}


def _relevant(relevance: Relevance) -> bool:
    """A hit holds the whole query, or enough of its keywords."""
    return relevance.literal > 0 or relevance.keyword >= MIN_KEYWORD_COVERAGE


class IndexedMessageSearch(_IndexedSearch):
    kind = MESSAGES
    weights = MESSAGE_COLUMN_WEIGHTS
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
