"""VectorIndex, memory's vector graph: it proposes the rows closest to a query, the same graph from
the same memory, and the same proposals after a trip through bytes (a side file)."""
from __future__ import annotations

import numpy as np
import pytest

from oneclaw_search.data.memory.vector_index import VectorIndex

pytestmark = pytest.mark.spec("AC-06")


def unit_rows(count: int, seed: int = 3) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((count, 24)).astype(np.float32) + 2.0  # a cone, as embeddings crowd
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_the_graph_proposes_the_rows_closest_to_the_query_and_only_rows_with_vectors():
    vectors = unit_rows(2_000)
    has_vector = np.ones(len(vectors), dtype=bool)
    has_vector[::7] = False
    graph = VectorIndex.build(vectors, has_vector)
    query = vectors[10]
    proposed = graph.closest(query)
    closest_true = [row for row in np.argsort(-(vectors @ query)) if has_vector[row]][:20]
    assert len(proposed) == min(graph.proposals, int(has_vector.sum()))
    assert set(closest_true) <= set(proposed.tolist())
    assert not set(np.flatnonzero(~has_vector)) & set(proposed.tolist())


def test_the_same_memory_gives_the_same_graph_and_bytes_give_it_back():
    vectors = unit_rows(1_500)
    has_vector = np.ones(len(vectors), dtype=bool)
    first, second = VectorIndex.build(vectors, has_vector), VectorIndex.build(vectors, has_vector)
    assert first.to_bytes() == second.to_bytes()
    restored = VectorIndex.from_bytes(first.to_bytes())
    for query in vectors[:5]:
        assert restored.closest(query).tolist() == first.closest(query).tolist()


def test_a_memory_with_no_vector_has_an_empty_graph():
    graph = VectorIndex.build(unit_rows(10), np.zeros(10, dtype=bool))
    assert len(graph) == 0 and graph.closest(unit_rows(1)[0]).tolist() == []
