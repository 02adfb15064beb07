"""The Embedder port's promises (the MiniLM embedder HybridSearchEngine.kt expects; Q-09), proven
alike by KeywordEmbedder, HashingEmbedder and StaticEmbedder: a name, vectors of the declared
dimension, each a unit vector (zero for a text it can read nothing in), the same for the same text.

Outside the contract: how near two texts of similar meaning come, which only the static table
is made for; here a text sharing words is merely nearer than one sharing none.
"""
from __future__ import annotations

import numpy as np
import pytest
from fakes import KeywordEmbedder

from oneclaw_search.data.embedding.static_embedder import StaticEmbedder
from oneclaw_search.data.embedding.vectors import HashingEmbedder

TEXTS = ["sushi for dinner in Tokyo", "ramen", "Tokyo sushi and ramen tonight", "a quarterly tax return"]
VOCABULARY = ["sushi", "ramen", "dinner", "tokyo", "tonight", "tax"]


@pytest.fixture(scope="module", params=["keyword", "hashing", "static"])
def embedder(request):
    return {"keyword": lambda: KeywordEmbedder(VOCABULARY), "hashing": HashingEmbedder, "static": StaticEmbedder}[request.param]()


def vectors(embedder, texts):
    return np.asarray(embedder.embed(texts), dtype=np.float64).reshape(len(texts), embedder.dimension)


def test_it_names_its_vector_space_and_declares_a_dimension(embedder):
    assert isinstance(embedder.name, str) and embedder.name
    assert isinstance(embedder.dimension, int) and embedder.dimension > 0


def test_each_text_gets_one_vector_of_the_declared_dimension(embedder):
    found = embedder.embed(TEXTS)
    assert len(found) == len(TEXTS) and all(len(vector) == embedder.dimension for vector in found)
    assert len(embedder.embed([])) == 0


def test_vectors_are_unit_length_and_a_text_with_nothing_to_read_gives_zeros(embedder):
    assert np.allclose(np.linalg.norm(vectors(embedder, TEXTS), axis=1), 1.0, atol=1e-5)
    empty = vectors(embedder, [""])
    assert np.all(np.isfinite(empty)) and not empty.any()


def test_the_same_text_gets_the_same_vector_alone_or_in_a_batch_and_every_time(embedder):
    batch = vectors(embedder, TEXTS)
    assert np.array_equal(batch, vectors(embedder, TEXTS))
    assert np.allclose(vectors(embedder, [TEXTS[2]])[0], batch[2], atol=1e-6)


def test_a_text_sharing_words_is_nearer_than_one_sharing_none(embedder):
    sushi, _, both, tax = vectors(embedder, TEXTS)
    assert sushi @ both > sushi @ tax
