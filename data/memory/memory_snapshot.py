"""MemorySnapshot: one version of memory_index, ready to score: chunks, BM25 model, vector matrix.

Built once per change of the table (HybridSearchEngine's cache): stored vectors are decoded into
one contiguous unit-length float32 matrix, so a query costs one matrix-vector product. It also
travels as arrays (`parts`), so a new process can read it back instead of rebuilding it.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any, Protocol, overload

import numpy as np
import numpy.typing as npt

from oneclaw_search.data.embedding.vectors import decode_embedding, no_blas_products
from oneclaw_search.data.memory.memory_bm25 import MemoryBM25
from oneclaw_search.data.text.analyzer import memory_terms
from oneclaw_search.domain.local_time import content_time_ms
from oneclaw_search.domain.models import MemoryChunk
from oneclaw_search.domain.ports import Embedder


class SnapshotStore(Protocol):
    """Where a snapshot is kept for the next process (the side index's SideSnapshotStore): a cache, so
    any trouble reading or writing it only means building it again. `in_thread_rows`: the most rows a
    search models itself; a larger model is built apart and kept here (as the index builds its rows)."""

    in_thread_rows: int

    def load(self, key: str) -> dict[str, bytes] | None:
        """The parts saved under `key`, else None."""

    def save(self, key: str, parts: dict[str, bytes]) -> None: ...

class _StoredChunks(Sequence[MemoryChunk]):
    """A snapshot's chunks as plain fields, each made into a MemoryChunk only when first read: a search
    reads a few dozen of thousands, and making them all is a large share of a one-shot search. The
    fields are tuples of strings and numbers, which the garbage collector stops walking: as lists or
    chunks, a large memory doubled the cost of every full collection in a host's process."""

    def __init__(self, fields: Iterable[Sequence[Any]]) -> None:
        # each chunk's (id, source_type, source_date, chunk_text, created_at, updated_at)
        self._fields = tuple(map(tuple, fields))
        self._made: dict[int, MemoryChunk] = {}

    @classmethod
    def of(cls, chunks: Iterable[MemoryChunk]) -> _StoredChunks:
        """Chunks as read from the table, less their stored embeddings (the snapshot's matrix holds them)."""
        return cls((c.id, c.source_type, c.source_date, c.chunk_text, c.created_at, c.updated_at) for c in chunks)

    def fields(self) -> tuple[tuple[Any, ...], ...]:
        return self._fields

    def __len__(self) -> int:
        return len(self._fields)

    @overload
    def __getitem__(self, row: int) -> MemoryChunk: ...

    @overload
    def __getitem__(self, row: slice) -> list[MemoryChunk]: ...

    def __getitem__(self, row: int | slice) -> MemoryChunk | list[MemoryChunk]:
        if isinstance(row, slice):
            return [self[i] for i in range(*row.indices(len(self)))]
        if row not in self._made:  # two threads may both make it: equal chunks, either kept
            ident, kind, day, text, created, updated = self._fields[row]
            self._made[row] = MemoryChunk(ident, kind, day, text, None, created, updated)
        return self._made[row]


@dataclass(frozen=True)
class MemorySnapshot:
    version: object
    chunks: _StoredChunks
    bm25: MemoryBM25 | None
    vectors: npt.NDArray[np.float32]
    has_vector: npt.NDArray[np.bool_]
    content_times: npt.NDArray[np.float64]

    @classmethod
    def build(cls, version: object, chunks: list[MemoryChunk], dimension: int, zone: tzinfo) -> MemorySnapshot:
        corpus = [memory_terms(chunk.chunk_text) for chunk in chunks]
        bm25 = MemoryBM25(corpus) if any(corpus) else None
        vectors = np.zeros((len(chunks), dimension), dtype=np.float32)
        for row, chunk in enumerate(chunks if dimension else ()):
            stored = decode_embedding(chunk.embedding, dimension)
            if stored is not None:
                vectors[row] = stored
        norms = np.linalg.norm(vectors, axis=1)
        has_vector = norms > 0  # a missing or all-zero vector points nowhere
        vectors[has_vector] /= norms[has_vector, None]
        times = np.array([content_time_ms(c.source_date, c.updated_at, zone) for c in chunks], dtype=np.float64)
        return cls(version, _StoredChunks.of(chunks), bm25, vectors, has_vector, times)

    def parts(self) -> dict[str, bytes]:
        """Everything but the chunks' stored embeddings (the matrix holds them), as bytes."""
        parts = {"chunks": json.dumps(self.chunks.fields()).encode(), "vectors": self.vectors.tobytes(),
                 "has_vector": self.has_vector.tobytes(), "times": self.content_times.tobytes()}
        if self.bm25 is not None:
            parts |= {"terms": json.dumps(self.bm25.terms).encode(), "offsets": self.bm25.offsets.tobytes(),
                      "rows": self.bm25.rows.tobytes(), "counts": self.bm25.counts.tobytes(),
                      "doc_len": np.asarray(self.bm25.doc_len, dtype=np.float64).tobytes()}
        return parts

    @classmethod
    def from_parts(cls, version: object, parts: dict[str, bytes], dimension: int) -> MemorySnapshot:
        chunks = _StoredChunks(json.loads(parts["chunks"]))
        bm25 = None
        if "terms" in parts:
            bm25 = MemoryBM25.from_postings(
                json.loads(parts["terms"]), np.frombuffer(parts["offsets"], dtype=np.int64),
                np.frombuffer(parts["rows"], dtype=np.int32), np.frombuffer(parts["counts"], dtype=np.float64),
                np.frombuffer(parts["doc_len"], dtype=np.float64),
            )
        vectors = np.frombuffer(parts["vectors"], dtype=np.float32).reshape(len(chunks), dimension)
        return cls(version, chunks, bm25, vectors, np.frombuffer(parts["has_vector"], dtype=bool),
                   np.frombuffer(parts["times"], dtype=np.float64))

    def bm25_scores(self, terms: list[str]) -> npt.NDArray[np.float64]:
        if self.bm25 is None or not terms:
            return np.zeros(len(self.chunks))
        return self.bm25.get_scores(terms)

    def cosine(self, embedder: Embedder | None, query: str) -> npt.NDArray[np.float64]:
        """Cosine similarity to the query, clipped at zero: opposite meaning is no match, and
        clipping keeps the later max-normalisation from flipping signs."""
        if embedder is None or not self.has_vector.any():
            return np.zeros(len(self.chunks))
        query_vector = np.asarray(embedder.embed([query])[0], dtype=np.float32)
        norm = float(np.linalg.norm(query_vector))
        if norm == 0:
            return np.zeros(len(self.chunks))
        return np.maximum(no_blas_products(self.vectors, query_vector / norm), 0.0).astype(np.float64)
