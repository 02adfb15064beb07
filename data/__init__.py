"""Adapters that implement the domain's ports, one room a folder, each importing only the rooms below
it (tests/test_layering.py):

- history: the SQLite history file in OneClaw's schema (Room version 1, identity
  9a862db541b23c44221f9a687649d220): opening it read-only, the spec's DAOs, the writer and recorder;
- index: its tantivy side index and the SQLite backend's message and session search;
- postgres: the PostgreSQL backend, the same ports on a server;
- memory: the memory_index engine (rank-bm25 and vectors); embedding: the shipped embedder;
- text: the analyzer every side splits words with; importers: bundles, folders and peers' histories;
- summaries: session summaries through chat models.
"""
