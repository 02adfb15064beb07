"""The memory score of the rows a search reads: HybridSearchEngine.kt's weighted BM25 and cosine, decayed
by TimeDecayCalculator.kt, with this repository's vector floor.

A memory without a vector graph is scored row by row in one pass over every row. With a graph (a large
memory), only rows that could reach the best few are scored: the graph's proposals, closest first, and
the rows holding a query word whose upper bound reaches the score they must beat (a threshold search).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

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
    """Aligned arrays over `rows` (sorted). `complete`: every row scoring above zero is among them;
    otherwise only the best `wanted` are sure to be."""

    rows: Rows
    bm25: Floats  # normalised by the best BM25 score of the memory
    vector: Floats  # cosine normalised by the closest row's
    has_vector: npt.NDArray[np.bool_]
    relevance: Floats
    decay: Floats
    score: Floats
    complete: bool = True


def decay_of(times: Floats, now_ms: float) -> Floats:
    return np.exp(-DECAY_LAMBDA_PER_DAY * np.maximum(now_ms - times, 0) / MS_PER_DAY)


def word_rows(snapshot: MemorySnapshot, hits: Rows, hit_bm25: Floats, now_ms: float) -> Scored:
    """With no query vector, only the rows holding a query word score above zero."""
    return _scored(snapshot, hits, hit_bm25, np.zeros(len(hits)), 0.0, now_ms)


def every_row(snapshot: MemorySnapshot, hits: Rows, hit_bm25: Floats,
              query_vector: npt.NDArray[np.float32] | None, now_ms: float) -> Scored:
    size = len(snapshot.chunks)
    bm25 = np.zeros(size)
    bm25[hits] = hit_bm25
    cosine = snapshot.cosine(query_vector, slice(None))
    return _scored(snapshot, np.arange(size), bm25, cosine, float(cosine.max(initial=0.0)), now_ms, whole=True)


def best_rows(snapshot: MemorySnapshot, hits: Rows, hit_bm25: Floats,
              query_vector: npt.NDArray[np.float32], now_ms: float, wanted: int) -> Scored | None:
    """The rows that can reach the `wanted` best: the graph's proposals and the rows holding a query
    word whose bound reaches the `wanted`-th score among them. None when a row the graph left out
    might still reach it, or when so many rows would be scored one by one that reading all costs less."""
    graph = snapshot.neighbours
    assert graph is not None
    most = len(snapshot.chunks) // graph.share
    if len(hits) > most:
        return None  # each row holding a query word may need its cosine: most are read one by one
    near = graph.closest(query_vector)
    cosine = snapshot.cosine(query_vector, near)
    top = float(cosine.max(initial=0.0))
    seen_all = len(near) < graph.proposals
    # No row the graph left out is closer than the middle of its proposals: asked for n rows, it
    # misses a few of the true n closest, but next to none of the closest n / 2.
    reach = 0.0 if seen_all else float(np.partition(cosine, len(cosine) // 2)[len(cosine) // 2])
    outside = ~np.isin(hits, near)
    others, other_bm25 = hits[outside], hit_bm25[outside]
    bound = np.where(snapshot.has_vector[others], BM25_WEIGHT * other_bm25 + VECTOR_WEIGHT * _share(reach, top),
                     other_bm25) * decay_of(snapshot.content_times[others], now_ms)
    scored = _scored(snapshot, *_with_hits(near, cosine, hits, hit_bm25), top, now_ms)
    more = others[bound >= _kth(scored.score, wanted)]
    if len(near) + len(more) > most:
        return None
    if len(more):
        rows = np.union1d(near, more)
        cosine = snapshot.cosine(query_vector, rows)
        scored = _scored(snapshot, *_with_hits(rows, cosine, hits, hit_bm25), max(top, cosine.max()), now_ms)
    if reach >= MIN_VECTOR_SIMILARITY and VECTOR_WEIGHT * _share(reach, top) >= _kth(scored.score, wanted):
        return None  # a row sharing no word, beyond the proposals, might stand among the best
    return replace(scored, complete=len(more) == len(others) and reach < MIN_VECTOR_SIMILARITY)


def _share(cosine: float, top: float) -> float:
    return cosine / top if top > 0 else 0.0


def _with_hits(rows: Rows, cosine: Floats, hits: Rows, hit_bm25: Floats) -> tuple[Rows, Floats, Floats]:
    """`rows` sorted, with their cosine and BM25 (0 for a row holding no query word)."""
    order = np.argsort(rows)
    rows, cosine = rows[order], cosine[order]
    bm25 = np.zeros(len(rows))
    at = np.searchsorted(hits, rows)
    held = at < len(hits)
    held[held] = hits[at[held]] == rows[held]
    bm25[held] = hit_bm25[at[held]]
    return rows, bm25, cosine


def _kth(score: Floats, wanted: int) -> float:
    """The score a row must reach to stand among the `wanted` best (0 when fewer score above it)."""
    positive = score[score > 0]
    if len(positive) < wanted:
        return 0.0
    return float(np.partition(positive, len(positive) - wanted)[len(positive) - wanted])


def _scored(snapshot: MemorySnapshot, rows: Rows, bm25: Floats, cosine: Floats, top: float, now_ms: float,
            whole: bool = False) -> Scored:
    at: Rows | slice = slice(None) if whole else rows
    vector = cosine / top if top > 0 else cosine
    has_vector = snapshot.has_vector[at]
    relevance = np.where(has_vector, BM25_WEIGHT * bm25 + VECTOR_WEIGHT * vector, bm25)
    relevance[(bm25 == 0) & (cosine < MIN_VECTOR_SIMILARITY)] = 0.0
    decay = decay_of(snapshot.content_times[at], now_ms)
    return Scored(rows, bm25, vector, has_vector, relevance, decay, relevance * decay)
