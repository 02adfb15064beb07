"""VectorIndex: a large memory's vectors in a usearch HNSW graph, so a query reads a few hundred of
them instead of all (the speed issue's decision 2); no Kotlin counterpart, which scans every chunk.

The graph only proposes rows: memory_scores.py scores each proposed row exactly from the snapshot's
float32 matrix, and reads every row instead when a row left out might reach the best few, so the
graph's float16 copy never decides a score. usearch is imported on first use: most searches never need it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

# A memory smaller than this is read whole: at 20,000 chunks one ask of the graph costs 0.66 ms against
# 1.16 ms for reading every vector, so an ask that does not settle the answer costs more than it saves;
# at 50,000, 0.67 against 2.94 ms (tests/benchmarks/bench_memory_index.py).
GRAPH_FLOOR = 50_000
# Scoring one row in this many by its row number costs a third of reading every row in order (one
# in eight costs as much: tests/benchmarks/bench_memory_index.py --gather); past it, memory is read whole.
GRAPH_SHARE = 16
# The graph's candidate lists while building and searching (usearch's expansion_add, whose default is
# 128, and expansion_search): the least of those tried with which memory's top 50 through the graph
# equalled the top 50 read whole on every query of LoCoMo and of this repository's text
# (tests/benchmarks/bench_memory_index.py; tests/integration/test_memory_graph_exactness.py).
BUILD_BREADTH = 256
SEARCH_BREADTH = 512
LINKS = 32


class VectorIndex:
    proposals = SEARCH_BREADTH  # rows asked for: the graph explores as many whether fewer are asked or not
    share = GRAPH_SHARE

    def __init__(self, graph: Any) -> None:
        self._graph = graph
        graph.expansion_search = SEARCH_BREADTH

    @classmethod
    def build(cls, vectors: npt.NDArray[np.float32], has_vector: npt.NDArray[np.bool_]) -> VectorIndex:
        """The graph of every row that has a vector, keyed by row number. A static embedder's vectors
        crowd into a narrow cone (their mean is about 0.7 long), where a cosine graph links poorly. So
        the graph holds each vector less the mean, y = x - mean, which ranks rows for a query q as x
        does (q·x = q·y + q·mean, the same last term for every row), and one more coordinate,
        sqrt(longest² - |y|²), that gives every row the same length: cosine against (q, 0) then orders
        rows by q·y (the usual reduction of inner-product search to nearest neighbours)."""
        from usearch.index import Index

        graph = Index(ndim=vectors.shape[1] + 1, metric="cos", dtype="f16", expansion_add=BUILD_BREADTH,
                      connectivity=LINKS)
        rows = np.flatnonzero(has_vector)
        if len(rows):
            centred = vectors[rows] - vectors[rows].mean(axis=0)
            lengths = np.einsum("ij,ij->i", centred, centred)
            level = np.sqrt(np.maximum(lengths.max() - lengths, 0.0))[:, None]
            # one thread: the same memory gives the same graph, so every process and door gives the same answer
            graph.add(rows.astype(np.uint64), np.hstack([centred, level]).astype(np.float32), threads=1)
        return cls(graph)

    @classmethod
    def from_bytes(cls, data: bytes) -> VectorIndex:
        from usearch.index import Index

        return cls(Index.restore(data))

    def to_bytes(self) -> bytes:
        return bytes(self._graph.save())

    def __len__(self) -> int:
        return len(self._graph)

    def closest(self, query: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
        """The `proposals` rows (or all there are) the graph finds closest to `query`, a unit vector."""
        if not len(self):
            return np.zeros(0, dtype=np.int64)
        lifted = np.append(query, np.float32(0.0))
        return np.asarray(self._graph.search(lifted, min(self.proposals, len(self))).keys, dtype=np.int64)
