"""HybridSearchEngine over memory_index: BM25 (rank-bm25) plus cosine similarity (numpy), decayed.

Mirrors feature/memory/search/HybridSearchEngine.kt, BM25Scorer.kt and TimeDecayCalculator.kt:
k1 1.2, b 0.75, weights 0.3 BM25 / 0.7 vector, exp(-0.01/day) decay. Unlike Kotlin, a row without
a usable vector is scored on BM25 alone, terms are index terms (any script, accents, stems), the
filter is applied before the top-k cut (SCOPE-3), and the BM25 model and vector matrix are built
once per version of memory_index rather than per query, kept for the next process (Q-14), and built
away from the searches when memory is large (snapshot_keeper.py).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import tzinfo

import numpy as np
import numpy.typing as npt

from oneclaw_search.data.memory.memory_snapshot import SnapshotStore
from oneclaw_search.data.memory.snapshot_keeper import SnapshotKeeper
from oneclaw_search.data.text.analyzer import query_terms, stem
from oneclaw_search.domain.clock import Clock, Deadline
from oneclaw_search.domain.local_time import MS_PER_DAY
from oneclaw_search.domain.models import MemorySearchResult
from oneclaw_search.domain.ports import Embedder, MemoryFilter, MemoryIndexDao
from oneclaw_search.domain.ranking import DECAY_LAMBDA_PER_DAY
from oneclaw_search.domain.spelling import one_edit_away

BM25_WEIGHT = 0.3
VECTOR_WEIGHT = 0.7
DEFAULT_TOP_K = 5
# A chunk that shares no word with the query must be at least this close in meaning to count: on
# LoCoMo dev, 99.9 % of such query-chunk pairs from different conversations (which cannot answer
# each other) stay below it (tests/benchmarks/calibrate_vector_floor.py).
MIN_VECTOR_SIMILARITY = 0.43
FILTER_SLACK = 4  # rows ranked first per result wanted: a date or scope filter may refuse some


def _why_lexical(embedder: Embedder | None, vector_space: str | None) -> str:
    if embedder is None:
        return "lexical only: no embedder"
    if vector_space is None:
        return "memory lexical only: no stored vectors"
    return f"memory lexical only: its vectors are from {vector_space}, not {embedder.name}"


class HybridSearchEngine:
    def __init__(
        self,
        memory_index_dao: MemoryIndexDao,
        clock: Clock,
        zone: tzinfo,
        embedder: Embedder | None = None,
        vector_space: str | None = None,
        store: SnapshotStore | None = None,
    ) -> None:
        self._dao = memory_index_dao
        self._clock = clock
        self._zone = zone
        usable = embedder is not None and vector_space == embedder.name
        self._embedder = embedder if usable else None
        self._no_vectors = _why_lexical(embedder, vector_space)
        self._keeper = SnapshotKeeper(memory_index_dao, zone, self._embedder.dimension if self._embedder else 0, store)

    @property
    def retrievers(self) -> tuple[str, ...]:
        if self._embedder is None:
            return ("keyword (rank-bm25)", self._no_vectors)
        return ("keyword (rank-bm25)", f"semantic ({self._embedder.name})")

    def stem(self, word: str) -> str:
        return stem(word)

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        return {term: self.frequency(term) for term in terms}

    def spellings_near(self, word: str) -> set[str]:
        """Every spelling one edit from `word` that some chunk uses (a dictionary look-up each)."""
        return {candidate for candidate in one_edit_away(word) if self.frequency(stem(candidate)) > 0}

    def frequency(self, term: str) -> int:
        """From the model the latest search used: asked once per spelling candidate, so no re-check."""
        snapshot = self._keeper.latest or self._keeper.current(None)
        return snapshot.bm25.document_frequency(term) if snapshot.bm25 is not None else 0

    def search(
        self,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        *,
        chunk_filter: MemoryFilter | None = None,
        deadline: Deadline | None = None,
    ) -> list[MemorySearchResult]:
        snapshot = self._keeper.current(deadline)
        if not snapshot.chunks or top_k <= 0:
            return []
        bm25 = _normalised(snapshot.bm25_scores(query_terms(query)))
        if deadline is not None:
            deadline.check()
        cosine = snapshot.cosine(self._embedder, query)
        vector = _normalised(cosine)
        relevance = np.where(snapshot.has_vector, BM25_WEIGHT * bm25 + VECTOR_WEIGHT * vector, bm25)
        relevance[(bm25 == 0) & (cosine < MIN_VECTOR_SIMILARITY)] = 0.0
        age_days = np.maximum(self._clock.now_ms() - snapshot.content_times, 0) / MS_PER_DAY
        decay = np.exp(-DECAY_LAMBDA_PER_DAY * age_days)
        score = relevance * decay
        results: list[MemorySearchResult] = []
        for rows in _best_first(score, top_k):
            results.clear()
            for row in rows:
                chunk = snapshot.chunks[row]
                if chunk_filter is not None and not chunk_filter.admits(chunk):
                    continue
                vector_score = float(vector[row]) if snapshot.has_vector[row] else None
                results.append(MemorySearchResult(chunk, float(bm25[row]), vector_score, float(relevance[row]),
                                                  float(decay[row]), float(score[row])))
                if len(results) == top_k:
                    return results
        return results

    def describe(self, deadline: Deadline | None = None) -> str | None:
        """Progress: None when the search with this deadline scored every chunk."""
        return self._keeper.describe(deadline)

    def flush(self) -> None:
        """Wait until the whole model being built and every snapshot being kept are written."""
        self._keeper.wait()


def _best_first(score: npt.NDArray[np.float64], top_k: int) -> Iterator[npt.NDArray[np.intp]]:
    """Rows scoring above zero, best first (ties by row): first only the best few (sorting every
    chunk would cost each search more than it needs), then all of them, for a filter that refused too many."""
    positive = np.flatnonzero(score > 0)
    wanted = top_k * FILTER_SLACK
    if len(positive) > wanted:
        kth = np.partition(score[positive], len(positive) - wanted)[len(positive) - wanted]
        few = positive[score[positive] >= kth]  # every row tied with the last one kept, too
        yield few[np.lexsort((few, -score[few]))]
    yield positive[np.lexsort((positive, -score[positive]))]


def _normalised(scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    top = float(scores.max()) if scores.size else 0.0
    return scores / top if top > 0 else scores
