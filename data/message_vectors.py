"""MessageVectors: message embeddings kept in the side index, one int8 row per indexed message.

Vectors are made when a message is indexed, never per query (issue 3). A search compares the
query with its candidates' vectors and, on histories small enough to scan in a few milliseconds,
with every message, so hits that share no word with the query can still be found.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from oneclaw_search.data.side_index import MESSAGES, SideIndex
from oneclaw_search.domain.ports import Embedder

FULL_SCAN_LIMIT = 100_000  # messages; beyond this, vectors re-rank keyword candidates only
_SCALE = np.dtype("<f4")


def quantize(vectors: np.ndarray) -> list[bytes]:
    """Each unit vector as a float32 scale then int8 components: a quarter of float32's size."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    scales = np.abs(unit).max(axis=1, keepdims=True) / 127.0
    codes = np.rint(np.divide(unit, scales, out=np.zeros_like(unit), where=scales > 0)).astype(np.int8)
    return [scale.astype(_SCALE).tobytes() + code.tobytes() for scale, code in zip(scales, codes)]


def dequantize(blobs: Sequence[bytes], dimension: int) -> np.ndarray:
    """Unit float32 rows back from `quantize`'s blobs (zero rows for blobs of another size)."""
    rows = np.zeros((len(blobs), dimension), dtype=np.float32)
    for row, blob in enumerate(blobs):
        if len(blob) == _SCALE.itemsize + dimension:
            scale = np.frombuffer(blob[:_SCALE.itemsize], dtype=_SCALE)[0]
            rows[row] = np.frombuffer(blob[_SCALE.itemsize:], dtype=np.int8) * scale
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)


class MessageVectors:
    def __init__(self, index: SideIndex, embedder: Embedder) -> None:
        self._index = index
        self._embedder = embedder
        self.name = embedder.name
        self._lock = threading.Lock()
        self._matrix: tuple[object, np.ndarray, np.ndarray, np.ndarray] | None = None

    def query_vector(self, text: str) -> np.ndarray:
        vector = np.asarray(self._embedder.embed([text])[0], dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm > 0 else vector

    def similarity(self, ids: Sequence[str], query: np.ndarray) -> dict[str, float]:
        """Cosine between the query and each listed message that has a vector."""
        found: dict[str, float] = {}
        table, docs = MESSAGES.table("vec"), MESSAGES.table("docs")
        for start in range(0, len(ids), 500):
            chunk = list(ids[start:start + 500])
            rows = self._index.execute(
                f"SELECT d.id, v.v FROM {docs} d JOIN {table} v ON v.doc = d.doc WHERE d.id IN ({', '.join('?' * len(chunk))})",
                chunk,
            )
            if rows:
                scores = dequantize([row[1] for row in rows], self._embedder.dimension) @ query
                found.update((row[0], float(score)) for row, score in zip(rows, scores))
        return found

    def nearest(self, query: np.ndarray, after: int, before: int, limit: int, floor: float) -> dict[str, float]:
        """The `limit` messages in the window closest to the query (at least `floor`), if the
        history is small enough to scan; an empty answer otherwise."""
        ids, times, matrix = self._all()
        if not len(ids):
            return {}
        scores = matrix @ query
        scores[(times < after) | (times > before) | (scores < floor)] = -1.0
        best = np.argsort(-scores)[:limit]
        return {ids[row]: float(scores[row]) for row in best if scores[row] >= floor}

    def _all(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every vector as one matrix, reloaded only when the index has changed."""
        table, docs = MESSAGES.table("vec"), MESSAGES.table("docs")
        with self._lock:
            version = self._index.execute(f"SELECT count(*), max(doc) FROM {table}")[0]
            if self._matrix is None or self._matrix[0] != version:
                if version[0] > FULL_SCAN_LIMIT:
                    empty = np.zeros((0, self._embedder.dimension), dtype=np.float32)
                    self._matrix = (version, np.array([], dtype=object), np.array([]), empty)
                else:
                    rows = self._index.execute(f"SELECT d.id, d.at, v.v FROM {docs} d JOIN {table} v ON v.doc = d.doc")
                    matrix = dequantize([row[2] for row in rows], self._embedder.dimension)
                    ids = np.array([row[0] for row in rows], dtype=object)
                    self._matrix = (version, ids, np.array([row[1] for row in rows], dtype=np.int64), matrix)
            return self._matrix[1], self._matrix[2], self._matrix[3]
