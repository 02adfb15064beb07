"""Message vectors in PostgreSQL: a pgvector column where the server has the extension, compared
by the server; a float array otherwise, compared in numpy. Either way they re-rank the rows words
found, as the SQLite backend's vectors do (docs/how-search-works.md says why meaning alone adds none).
"""
from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
import peewee as pw
from pgvector.psycopg import register_vector

from oneclaw_search.data.postgres.database import PostgresHistory, cursor_of, execute
from oneclaw_search.domain.ports import Embedder

_COLUMN_TYPE = """SELECT format_type(atttypid, atttypmod) FROM pg_attribute
    WHERE attrelid = 'oneclaw_search_message_vectors'::regclass AND attname = 'embedding'"""


class MessageVectorStore:
    def __init__(self, history: PostgresHistory, embedder: Embedder) -> None:
        self._history = history
        self._embedder = embedder
        self._column: str | None = None  # "vector(384)" or "real[]", read once
        self._adapted: weakref.WeakSet[Any] = weakref.WeakSet()  # connections that send numpy arrays as vectors

    @property
    def name(self) -> str:
        return self._embedder.name

    def column(self, database: pw.Database) -> str:
        if self._column is None:
            row = execute(database, _COLUMN_TYPE).fetchone()
            self._column = row[0] if row else "real[]"
        return self._column

    def put(self, database: pw.Database, rows: Sequence[tuple[str, str]]) -> None:
        """Embed and store the vectors of these (message id, text) rows, replacing older ones."""
        if not rows or not self._fits(database):
            return
        vectors = self._embedder.embed([text for _, text in rows])
        values = [(message_id, self.name, self._value(database, vectors[i])) for i, (message_id, _) in enumerate(rows)]
        with cursor_of(database) as cursor:  # one row a statement: arrays of vectors travel as text, slower
            cursor.executemany(
                "INSERT INTO oneclaw_search_message_vectors (message_id, embedder, embedding) VALUES (%s, %s, %s) "
                "ON CONFLICT (tenant, message_id) DO UPDATE SET embedder = excluded.embedder, embedding = excluded.embedding",
                values)

    def similarity(self, ids: Sequence[str], query: str) -> dict[str, float]:
        """Cosine similarity of each message's stored vector (from this embedder) to the query's."""
        if not ids:
            return {}
        with self._history.connected() as database:
            if not self._fits(database):
                return {}
            vector = self._embedder.embed([query])[0]
            if not np.any(vector):  # a query with no known token has no direction to compare
                return {}
            if self.column(database).startswith("vector"):
                rows = execute(database, "SELECT message_id, 1 - (embedding <=> %s) FROM oneclaw_search_message_vectors "
                               "WHERE message_id = ANY(%s) AND embedder = %s",
                               (self._value(database, vector), list(ids), self.name)).fetchall()
                return {row[0]: float(row[1]) for row in rows}
            rows = execute(database, "SELECT message_id, embedding FROM oneclaw_search_message_vectors "
                           "WHERE message_id = ANY(%s) AND embedder = %s", (list(ids), self.name)).fetchall()
        if not rows:
            return {}
        matrix = np.asarray([row[1] for row in rows], dtype=np.float32)
        scores = matrix @ np.asarray(vector, dtype=np.float32)
        return {row[0]: float(score) for row, score in zip(rows, scores, strict=True)}

    def _value(self, database: pw.Database, vector: Any) -> Any:
        """A vector as this column takes it: a numpy array pgvector's adapter sends in binary, or a
        list of floats for the array column."""
        if not self.column(database).startswith("vector"):
            return [float(x) for x in vector]
        connection = database.connection()  # type: ignore[no-untyped-call]
        if connection not in self._adapted:
            register_vector(connection)
            self._adapted.add(connection)
        return np.asarray(vector, dtype=np.float32)

    def _fits(self, database: pw.Database) -> bool:
        """A pgvector column has one dimension; another embedder's vectors have no place in it."""
        column = self.column(database)
        return not column.startswith("vector") or column == f"vector({self._embedder.dimension})"

