"""HybridSearchEngine over memory_index: BM25 (rank-bm25) plus cosine similarity (numpy), decayed.

Mirrors feature/memory/search/HybridSearchEngine.kt, BM25Scorer.kt and TimeDecayCalculator.kt:
k1 1.2, b 0.75, weights 0.3 BM25 / 0.7 vector, exp(-0.01/day) decay. Unlike Kotlin, a row without
a usable vector is scored on BM25 alone, the tokenizer keeps every script's letters, and the
filter is applied before the top-k cut so daily logs are not crowded out (defect 14).
"""
from __future__ import annotations

import math
from datetime import tzinfo

import numpy as np
from rank_bm25 import BM25Okapi

from oneclaw_search.data.embedding import decode_embedding
from oneclaw_search.domain.clock import Clock, Deadline
from oneclaw_search.domain.local_time import content_time_ms
from oneclaw_search.domain.models import MemoryChunk, MemorySearchResult
from oneclaw_search.domain.ports import Embedder, MemoryFilter, MemoryIndexDao
from oneclaw_search.domain.ranking import time_decay
from oneclaw_search.domain.text import tokens

BM25_WEIGHT = 0.3
VECTOR_WEIGHT = 0.7
DEFAULT_TOP_K = 5
# A chunk that shares no word with the query must be at least this close in meaning to count.
MIN_VECTOR_SIMILARITY = 0.35


class _NonNegativeIdfBM25(BM25Okapi):
    """rank-bm25's Okapi scoring with the IDF OneClaw uses, ln(1 + (N - df + 0.5) / (df + 0.5)).

    Okapi's own IDF turns negative for words in over half the chunks, which breaks small memories.
    """

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log((self.corpus_size - freq + 0.5) / (freq + 0.5) + 1.0)


class HybridSearchEngine:
    def __init__(
        self,
        memory_index_dao: MemoryIndexDao,
        clock: Clock,
        zone: tzinfo,
        embedder: Embedder | None = None,
        vector_space: str | None = None,
    ) -> None:
        self._dao = memory_index_dao
        self._clock = clock
        self._zone = zone
        usable = embedder is not None and vector_space == embedder.name
        self._embedder = embedder if usable else None

    def search(
        self,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        *,
        chunk_filter: MemoryFilter | None = None,
        deadline: Deadline | None = None,
    ) -> list[MemorySearchResult]:
        chunks = self._dao.get_all(deadline=deadline)
        if not chunks or top_k <= 0:
            return []
        bm25 = _normalised(_bm25_scores(chunks, tokens(query)))
        if deadline is not None:
            deadline.check()
        cosine, has_vector = self._cosine_scores(chunks, query)
        vector = _normalised(cosine)
        relevance = np.where(has_vector, BM25_WEIGHT * bm25 + VECTOR_WEIGHT * vector, bm25)
        relevance[(bm25 == 0) & (cosine < MIN_VECTOR_SIMILARITY)] = 0.0
        return self._top(chunks, relevance, bm25, np.where(has_vector, vector, np.nan), chunk_filter, top_k)

    def _cosine_scores(self, chunks: list[MemoryChunk], query: str) -> tuple[np.ndarray, np.ndarray]:
        cosine = np.zeros(len(chunks))
        has_vector = np.zeros(len(chunks), dtype=bool)
        if self._embedder is None:
            return cosine, has_vector
        query_vector = np.asarray(self._embedder.embed([query])[0], dtype=np.float64)
        query_norm = float(np.linalg.norm(query_vector))
        for row, chunk in enumerate(chunks):
            stored = decode_embedding(chunk.embedding, self._embedder.dimension)
            if stored is None:
                continue
            has_vector[row] = True
            norm = float(np.linalg.norm(stored)) * query_norm
            # Opposite meaning is no match; clipping keeps the later max-normalisation from flipping signs.
            cosine[row] = max(0.0, float(stored @ query_vector) / norm) if norm > 0 else 0.0
        return cosine, has_vector

    def _top(self, chunks, relevance, bm25, vector, chunk_filter, top_k) -> list[MemorySearchResult]:
        now_ms = self._clock.now_ms()
        results = []
        for row, chunk in enumerate(chunks):
            if relevance[row] <= 0 or (chunk_filter is not None and not chunk_filter.admits(chunk)):
                continue
            decay = time_decay(now_ms - content_time_ms(chunk.source_date, chunk.updated_at, self._zone))
            vector_score = None if math.isnan(vector[row]) else float(vector[row])
            score = float(relevance[row]) * decay
            results.append(MemorySearchResult(chunk, float(bm25[row]), vector_score, float(relevance[row]), decay, score))
        results.sort(key=lambda result: -result.score)
        return results[:top_k]


def _bm25_scores(chunks: list[MemoryChunk], query_tokens: list[str]) -> np.ndarray:
    corpus = [tokens(chunk.chunk_text) for chunk in chunks]
    if not query_tokens or not any(corpus):
        return np.zeros(len(chunks))
    return np.asarray(_NonNegativeIdfBM25(corpus, k1=1.2, b=0.75).get_scores(query_tokens), dtype=np.float64)


def _normalised(scores: np.ndarray) -> np.ndarray:
    top = float(scores.max()) if scores.size else 0.0
    return scores / top if top > 0 else scores
