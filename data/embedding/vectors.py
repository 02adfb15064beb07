"""Embeddings: OneClaw's BLOB encoding and a default embedder that needs no network or model file.

Mirrors EmbeddingSerializer.kt (float32, little-endian). HashingEmbedder stands in for the
on-device MiniLM that OneClaw never shipped; any object with the Embedder port's shape can
replace it.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from oneclaw_search.domain.text import tokens

_FLOAT32_LE = np.dtype("<f4")


def encode_embedding(vector: Sequence[float]) -> bytes:
    return np.asarray(vector, dtype=_FLOAT32_LE).tobytes()


def decode_embedding(blob: bytes | None, dimension: int) -> npt.NDArray[np.float32] | None:
    """The stored vector, or None when absent or of another dimension."""
    if blob is None or len(blob) != dimension * _FLOAT32_LE.itemsize:
        return None
    return np.frombuffer(blob, dtype=_FLOAT32_LE)


class HashingEmbedder:
    """Feature hashing of words and their character trigrams into a unit vector.

    Texts that share words or word fragments point the same way, so related wordings
    ("migrate", "migration") meet; it knows no synonyms.
    """

    name = "hashing-v1"
    dimension = 384

    def embed(self, texts: Sequence[str]) -> list[npt.NDArray[np.float32]]:
        return [self._embed_one(text) for text in texts]

    def _embed_one(self, text: str) -> npt.NDArray[np.float32]:
        vector = np.zeros(self.dimension, dtype=np.float32)
        for word in tokens(text):
            self._add(vector, "w:" + word, 1.0)
            padded = f"<{word}>"
            for start in range(len(padded) - 2):
                self._add(vector, "c:" + padded[start:start + 3], 0.5)
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm > 0 else vector

    def _add(self, vector: npt.NDArray[np.float32], feature: str, weight: float) -> None:
        # blake2b, not hash(): Python salts str hashes per process, and stored vectors must
        # mean the same thing in every run.
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        sign = 1.0 if value & 1 else -1.0
        vector[(value >> 1) % self.dimension] += sign * weight


def no_blas_products(rows: npt.NDArray[np.float32], vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Each row's dot product with `vector`, without BLAS. OpenBLAS's threads spin for a while
    after every call big enough to share out, and on a two-core machine the spinning one takes
    the core the search's other sources run on; einsum's own loop costs the same on one core."""
    return cast(npt.NDArray[np.float32], np.einsum("ij,j->i", rows, vector))  # float32 in, float32 out
