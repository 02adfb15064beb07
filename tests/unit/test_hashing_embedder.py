"""The embedding BLOB codec (OneClaw's little-endian float32) and the offline HashingEmbedder."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from oneclaw_search.data.embedding.vectors import HashingEmbedder, decode_embedding, encode_embedding, no_blas_products


def cosine(first: str, second: str) -> float:
    a, b = HashingEmbedder().embed([first, second])
    return float(np.dot(a, b))


def test_a_vector_is_encoded_as_little_endian_float32():
    assert encode_embedding([1.0]) == struct.pack("<f", 1.0)
    assert encode_embedding([0.5, -1.25, 3.0]) == struct.pack("<3f", 0.5, -1.25, 3.0)


def test_decoding_an_encoded_vector_gives_it_back():
    blob = encode_embedding([0.5, -1.25, 3.0])
    decoded = decode_embedding(blob, 3)
    assert decoded.dtype == np.dtype("<f4")
    assert decoded.tolist() == [0.5, -1.25, 3.0]


THREE_FLOATS = struct.pack("<3f", 1, 2, 3)


@pytest.mark.parametrize("blob, dimension", [(None, 3), (THREE_FLOATS, 4), (THREE_FLOATS[:-1], 3), (b"", 3)])
def test_decoding_gives_none_for_a_missing_blob_or_one_of_another_length(blob, dimension):
    assert decode_embedding(blob, dimension) is None


def test_hashing_vectors_have_384_dimensions_and_unit_length():
    vectors = HashingEmbedder().embed(["database migration", "Sakura Sushi near Shibuya", "寿司"])
    assert [len(vector) for vector in vectors] == [384, 384, 384]
    assert [float(np.linalg.norm(vector)) for vector in vectors] == pytest.approx([1.0, 1.0, 1.0], abs=1e-6)


def test_hashing_is_deterministic_across_calls_and_instances():
    first = HashingEmbedder().embed(["rehearse the migration on a copy"])[0]
    second = HashingEmbedder().embed(["rehearse the migration on a copy"])[0]
    assert np.array_equal(first, second)
    assert encode_embedding(first) == encode_embedding(second)


def test_related_wordings_are_closer_than_unrelated_text():
    related = cosine("database migration", "migrating the database")
    unrelated = cosine("database migration", "sushi restaurant in Shibuya")
    assert related > 0.3
    assert related > unrelated + 0.2


def test_case_does_not_change_the_vector():
    first, second = HashingEmbedder().embed(["Database Migration", "database migration"])
    assert np.array_equal(first, second)


@pytest.mark.parametrize("text", ["", "   ", "!!! ... ???", "%%%"])
def test_text_without_words_gives_a_zero_vector(text):
    [vector] = HashingEmbedder().embed([text])
    assert len(vector) == 384
    assert not np.any(vector)


def test_row_products_without_blas_equal_the_matrix_product_and_take_no_rows():
    rng = np.random.default_rng(3)
    rows, vector = rng.standard_normal((500, 384)).astype(np.float32), rng.standard_normal(384).astype(np.float32)
    assert np.allclose(no_blas_products(rows, vector), rows @ vector, rtol=1e-5, atol=1e-4)
    assert no_blas_products(np.zeros((0, 384), dtype=np.float32), vector).shape == (0,)
