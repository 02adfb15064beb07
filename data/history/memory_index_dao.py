"""PeeweeMemoryIndexDao: reads and writes memory_index rows (MEMORY.md and daily-log chunks).

Mirrors data/local/dao/MemoryIndexDao.kt: getAll in insertion order, getBySourceType, and
insertAll with REPLACE semantics.
"""
from __future__ import annotations

from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import MemoryIndexEntity, upsert_many
from oneclaw_search.data.history.raw_sql import Row, execute_sql
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.models import MemoryChunk

_COLUMNS = (
    MemoryIndexEntity.id, MemoryIndexEntity.source_type, MemoryIndexEntity.source_date,
    MemoryIndexEntity.chunk_text, MemoryIndexEntity.embedding,
    MemoryIndexEntity.created_at, MemoryIndexEntity.updated_at,
)


class PeeweeMemoryIndexDao:
    def __init__(self, database: HistoryDatabase) -> None:
        self._database = database
        self._seen: tuple[tuple[object, ...], Row | None] = ((), None)  # (change token, version read at it)

    def get_all(self, *, deadline: Deadline | None = None) -> list[MemoryChunk]:
        return self._read(MemoryIndexEntity.select(*_COLUMNS), deadline)

    def get_newest(self, count: int, *, deadline: Deadline | None = None) -> list[MemoryChunk]:
        newest = MemoryIndexEntity.select(pw.SQL("rowid")).order_by(pw.SQL("rowid DESC")).limit(count)
        return self._read(MemoryIndexEntity.select(*_COLUMNS).where(pw.SQL("rowid").in_(newest)), deadline)

    def get_by_source_type(self, source_type: str) -> list[MemoryChunk]:
        return self._read(MemoryIndexEntity.select(*_COLUMNS).where(MemoryIndexEntity.source_type == source_type), None)

    def version(self, *, deadline: Deadline | None = None) -> Row:
        """Changes whenever a row is added, removed or updated: the engine's cache key. Read from
        the table only when the file says something was committed since the last look."""
        token = self._database.change_token()
        seen_token, seen_version = self._seen
        if token == seen_token and seen_version is not None:  # no token equals the first, empty one
            return seen_version
        with self._database.connected(deadline) as database:
            version = tuple(execute_sql(
                database, "SELECT count(*), max(rowid), max(updated_at), total(updated_at) FROM memory_index"
            ).fetchone())
        self._seen = (token, version)
        return version

    def insert_all(self, chunks: Sequence[MemoryChunk]) -> None:
        with self._database.connected() as database, database.atomic("IMMEDIATE"):
            upsert_many(database, MemoryIndexEntity, [chunk_row(chunk) for chunk in chunks])

    def _read(self, select: pw.ModelSelect[MemoryIndexEntity], deadline: Deadline | None) -> list[MemoryChunk]:
        # Fetched in one call: peewee's row-by-row iteration costs several times the read itself.
        with self._database.connected(deadline) as database:
            sql, params = select.order_by(pw.SQL("rowid")).bind(database).sql()
            return [MemoryChunk(*_with_bytes(row)) for row in execute_sql(database, sql, params).fetchall()]


def chunk_row(chunk: MemoryChunk) -> dict[str, object]:
    return {
        "id": chunk.id, "source_type": chunk.source_type, "source_date": chunk.source_date,
        "chunk_text": chunk.chunk_text, "embedding": chunk.embedding,
        "created_at": chunk.created_at, "updated_at": chunk.updated_at,
    }


def _with_bytes(row: Row) -> Row:
    """BLOBs arrive as memoryview or bytes depending on the driver; the domain wants bytes."""
    embedding = row[4]
    return (*row[:4], bytes(embedding) if embedding is not None else None, *row[5:])
