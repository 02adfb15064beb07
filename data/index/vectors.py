"""MessageVectors: message embeddings kept in the side file, one int8 row per message, by history
rowid (Q-09).

Vectors are made when a message is indexed, after its words (keyword search is ready first), never
per query; a search compares the query with its candidates' vectors only.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from oneclaw_search.data.embedding.vectors import no_blas_products
from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import marks, sql_batches
from oneclaw_search.data.history.raw_sql import execute_sql, sqlite_connection
from oneclaw_search.data.index.documents import MESSAGE_COLUMNS, SEARCHABLE_TYPES, MessageRow
from oneclaw_search.data.index.side_index import VECTORS, SideIndex
from oneclaw_search.domain.ports import Embedder

_SCALE = np.dtype("<f4")
# Messages keep the leading components only: the shipped table is PCA-ordered, so these carry
# most of the meaning, and a history's vectors take a third of the bytes of all 384 columns.
MESSAGE_DIMENSIONS = 128
BATCH_ROWS = 5_000


def quantize(vectors: npt.NDArray[np.float32]) -> list[bytes]:
    """Each vector's leading components, made unit length, as a float32 scale then int8 values."""
    vectors = np.asarray(vectors, dtype=np.float32)[:, :MESSAGE_DIMENSIONS]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    scales = np.abs(unit).max(axis=1, keepdims=True) / 127.0
    codes = np.rint(np.divide(unit, scales, out=np.zeros_like(unit), where=scales > 0)).astype(np.int8)
    packed = np.concatenate([scales.astype(_SCALE).view(np.uint8), codes.view(np.uint8)], axis=1).tobytes()
    width = _SCALE.itemsize + codes.shape[1]  # one buffer cut into rows: far cheaper than row-by-row bytes
    return [packed[start:start + width] for start in range(0, len(packed), width)]


def dequantize(blobs: Sequence[bytes], dimension: int) -> npt.NDArray[np.float32]:
    """Unit float32 rows back from `quantize`'s blobs (zero rows for blobs of another size)."""
    width = _SCALE.itemsize + dimension
    sized = np.fromiter((len(blob) == width for blob in blobs), dtype=bool, count=len(blobs))
    rows = np.zeros((len(blobs), dimension), dtype=np.float32)
    if sized.any():  # one buffer for all: row by row is a noticeable cost on every search
        packed = np.frombuffer(b"".join(blob for blob, fits in zip(blobs, sized, strict=True) if fits), dtype=np.uint8).reshape(-1, width)
        scales = packed[:, :_SCALE.itemsize].copy().view(_SCALE)
        rows[sized] = packed[:, _SCALE.itemsize:].view(np.int8) * scales
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return cast(npt.NDArray[np.float32], np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0))


class MessageVectors:
    def __init__(self, index: SideIndex, embedder: Embedder) -> None:
        self._index = index
        self._embedder = embedder
        self.name = embedder.name

    def query_vector(self, text: str) -> npt.NDArray[np.float32]:
        vector = np.asarray(self._embedder.embed([text])[0], dtype=np.float32)[:MESSAGE_DIMENSIONS]
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm > 0 else vector

    def similarity(self, rowids: Sequence[int], query: npt.NDArray[np.float32]) -> dict[int, float]:
        """Cosine between the query and each listed message (by history rowid) that has a vector."""
        found: dict[int, float] = {}
        for chunk in sql_batches(list(rowids)):
            rows = self._index.execute(f"SELECT rowid, v FROM {VECTORS} WHERE rowid IN ({marks(chunk)})", chunk)
            if rows:
                scores = no_blas_products(dequantize([row[1] for row in rows], MESSAGE_DIMENSIONS), query)
                found.update((row[0], float(score)) for row, score in zip(rows, scores, strict=True))
        return found

    def catch_up(self, history: HistoryDatabase, stop: Callable[[], bool]) -> bool:
        """Embed the messages past the last one embedded; False when `stop` said so first."""
        done, batch = self._index.meta_int("v.read"), BATCH_ROWS
        while not stop():
            with history.connected() as database:
                rows = execute_sql(
                    database, f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?", (done, batch)
                ).fetchall()
            if not rows:
                return True
            self._store([MessageRow(*row) for row in rows if row[3] in SEARCHABLE_TYPES], v__read=rows[-1][0])
            done = rows[-1][0]
        return False

    def replace(self, rows: Sequence[MessageRow]) -> None:
        """Embed edited messages again."""
        self._store(rows)

    def _store(self, rows: Sequence[MessageRow], **meta: object) -> None:
        blobs = vectors([row.content for row in rows], self._embedder) if rows else []
        with self._index.peewee.atomic("IMMEDIATE"):
            sqlite_connection(self._index.peewee).executemany(
                f"INSERT OR REPLACE INTO {VECTORS} (rowid, v) VALUES (?, ?)", zip((row.rowid for row in rows), blobs, strict=True)
            )
            if meta:
                self._index.set_meta(**meta)


def vectors(texts: Sequence[str], embedder: Embedder) -> list[bytes]:
    """Each text's vector, quantized; an embedder that can skip the unkept columns does."""
    leading = getattr(embedder, "embed_leading", None)
    made = leading(list(texts), MESSAGE_DIMENSIONS) if leading else embedder.embed(list(texts))
    return quantize(np.asarray(made, dtype=np.float32))
