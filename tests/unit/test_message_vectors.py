"""Message vectors as the side index stores them: a float32 scale then int8 codes (data/index/vectors.py)."""
from __future__ import annotations

import numpy as np

from oneclaw_search.data.index.vectors import MESSAGE_DIMENSIONS, dequantize, quantize


def test_quantized_vectors_come_back_as_unit_rows_close_to_the_originals():
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((40, 384)).astype(np.float32)
    rows = dequantize(quantize(vectors), MESSAGE_DIMENSIONS)
    leading = vectors[:, :MESSAGE_DIMENSIONS] / np.linalg.norm(vectors[:, :MESSAGE_DIMENSIONS], axis=1, keepdims=True)
    assert rows.shape == (40, MESSAGE_DIMENSIONS) and rows.dtype == np.float32
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert np.min(np.einsum("ij,ij->i", rows, leading)) > 0.999  # int8 codes keep the direction


def test_a_blob_of_another_size_or_a_zero_vector_becomes_a_zero_row_beside_intact_ones():
    blobs = quantize(np.array([[3.0, 4.0] + [0.0] * (MESSAGE_DIMENSIONS - 2), [0.0] * MESSAGE_DIMENSIONS]))
    rows = dequantize([blobs[0], b"\x00" * 9, blobs[1], blobs[0]], MESSAGE_DIMENSIONS)
    assert np.allclose(rows[0, :2], [0.6, 0.8], atol=0.01) and np.array_equal(rows[0], rows[3])
    assert not rows[1].any() and not rows[2].any()
    assert dequantize([], MESSAGE_DIMENSIONS).shape == (0, MESSAGE_DIMENSIONS)
