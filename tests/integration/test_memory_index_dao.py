"""PeeweeMemoryIndexDao against real SQLite files: rows come back in insertion order with embeddings
as float32 little-endian bytes, filter by source_type, and insert_all upserts by id in place.
"""
from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from builders import chunk

from oneclaw_search.data.embedding.vectors import decode_embedding, encode_embedding
from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.memory_index_dao import PeeweeMemoryIndexDao
from oneclaw_search.data.history.schema import open_writable

VECTOR = [0.25, -1.5, 3.0, 0.0]


def reader(path):
    return PeeweeMemoryIndexDao(HistoryDatabase.open_read_only(path))


@pytest.mark.spec("AC-06")
def test_get_all_returns_rows_in_insertion_order_not_id_order(history):
    chunks = [chunk("zeta", "last by id", "2026-02-03"), chunk("alpha", "first by id"), chunk("mid", "middle", "2026-02-01")]
    rows = reader(history(chunks=chunks)).get_all()
    assert [row.id for row in rows] == ["zeta", "alpha", "mid"]
    assert rows == chunks


@pytest.mark.spec("AC-06")
def test_get_all_returns_the_embedding_as_bytes_that_decode_to_the_stored_vector(history):
    blob = encode_embedding(VECTOR)
    path = history(chunks=[chunk("vec", "has a vector", "2026-02-01", embedding=blob), chunk("none", "no vector")])
    with_vector, without_vector = reader(path).get_all()
    assert type(with_vector.embedding) is bytes
    assert with_vector.embedding == blob == np.asarray(VECTOR, dtype="<f4").tobytes()
    assert decode_embedding(with_vector.embedding, len(VECTOR)).tolist() == VECTOR
    assert without_vector.embedding is None


def test_get_all_on_an_empty_memory_index_returns_nothing(history):
    assert reader(history()).get_all() == []


def test_get_by_source_type_returns_only_rows_of_that_type_in_insertion_order(history):
    chunks = [
        chunk("log-2", "second log", "2026-02-02"),
        chunk("memory", "a long-term note"),
        chunk("log-1", "first log", "2026-02-01"),
    ]
    dao = reader(history(chunks=chunks))
    assert [row.id for row in dao.get_by_source_type("daily_log")] == ["log-2", "log-1"]
    assert [row.id for row in dao.get_by_source_type("long_term")] == ["memory"]
    assert dao.get_by_source_type("unknown") == []


def test_insert_all_adds_new_rows_to_a_writable_database(tmp_path):
    database = open_writable(tmp_path / "memory.db")
    dao = PeeweeMemoryIndexDao(database)
    blob = encode_embedding(VECTOR)
    dao.insert_all([chunk("a", "alpha", "2026-02-01", embedding=blob), chunk("b", "beta")])
    database.close()
    rows = reader(tmp_path / "memory.db").get_all()
    assert [(row.id, row.chunk_text) for row in rows] == [("a", "alpha"), ("b", "beta")]
    assert rows[0].embedding == blob


def test_insert_all_updates_an_existing_id_in_place_without_a_duplicate(tmp_path):
    path = tmp_path / "memory.db"
    database = open_writable(path)
    dao = PeeweeMemoryIndexDao(database)
    dao.insert_all([chunk("a", "alpha"), chunk("b", "beta old", "2026-02-01"), chunk("c", "gamma")])
    newer = chunk("b", "beta new", "2026-02-05", written="2026-03-01T09:00", embedding=encode_embedding(VECTOR))
    dao.insert_all([newer, chunk("d", "delta")])
    database.close()
    rows = reader(path).get_all()
    assert [row.id for row in rows] == ["a", "b", "c", "d"]
    assert rows[1] == newer
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT count(*) FROM memory_index WHERE id = 'b'").fetchone() == (1,)
    connection.close()
