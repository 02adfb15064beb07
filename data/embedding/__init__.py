"""Embedders: the shipped static model2vec table, a hashing embedder for tests, and vector blobs
(EmbeddingSerializer.kt; Q-09)."""
