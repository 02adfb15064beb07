"""The memory score of the rows a search reads: HybridSearchEngine.kt's weighted BM25 and cosine,
decayed by TimeDecayCalculator.kt, with this repository's vector floor.

With a query vector every row is scored in one pass of numpy over the memory; without one only the
rows holding a query word can score above zero, and only they are scored.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from oneclaw_search.data.memory.memory_snapshot import MemorySnapshot
from oneclaw_search.domain.local_time import MS_PER_DAY
from oneclaw_search.domain.ranking import DECAY_LAMBDA_PER_DAY

BM25_WEIGHT = 0.3
VECTOR_WEIGHT = 0.7
# A chunk that shares no word with the query must be at least this close in meaning to count: on
# LoCoMo dev, 99.9 % of such query-chunk pairs from different conversations (which cannot answer
# each other) stay below it (tests/benchmarks/calibrate_vector_floor.py).
MIN_VECTOR_SIMILARITY = 0.43
Floats = npt.NDArray[np.float64]
Rows = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Scored:
    """Aligned arrays over `rows` (sorted), which hold every row scoring above zero."""

    rows: Rows
    bm25: Floats  # normalised by the best BM25 score of the memory
    vector: Floats  # cosine normalised by the closest row's
    has_vector: npt.NDArray[np.bool_]
    relevance: Floats
    decay: Floats
    score: Floats


def decay_of(times: Floats, now_ms: float) -> Floats:
    """exp(-λ · age in days): the age is turned into days first, as the decay has always been computed."""
    return np.exp(-DECAY_LAMBDA_PER_DAY * (np.maximum(now_ms - times, 0) / MS_PER_DAY))


def word_rows(snapshot: MemorySnapshot, hits: Rows, hit_bm25: Floats, now_ms: float) -> Scored:
    """With no query vector (no embedder, no stored vectors, or a query of no known token), only the
    rows holding a query word can score above zero."""
    return _scored(snapshot, hits, hit_bm25, np.zeros(len(hits)), 0.0, now_ms)


def every_row(snapshot: MemorySnapshot, hits: Rows, hit_bm25: Floats,
              query_vector: npt.NDArray[np.float32], now_ms: float) -> Scored:
    size = len(snapshot.chunks)
    bm25 = np.zeros(size)
    bm25[hits] = hit_bm25
    cosine = snapshot.cosine(query_vector)
    return _scored(snapshot, np.arange(size), bm25, cosine, float(cosine.max(initial=0.0)), now_ms, whole=True)


def _scored(snapshot: MemorySnapshot, rows: Rows, bm25: Floats, cosine: Floats, top: float, now_ms: float,
            whole: bool = False) -> Scored:
    at: Rows | slice = slice(None) if whole else rows
    vector = cosine / top if top > 0 else cosine
    has_vector = snapshot.has_vector[at]
    relevance = np.where(has_vector, BM25_WEIGHT * bm25 + VECTOR_WEIGHT * vector, bm25)
    relevance[(bm25 == 0) & (cosine < MIN_VECTOR_SIMILARITY)] = 0.0
    decay = decay_of(snapshot.content_times[at], now_ms)
    return Scored(rows, bm25, vector, has_vector, relevance, decay, relevance * decay)
