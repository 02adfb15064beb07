"""HistoryWriter: puts sessions, messages and memory chunks into a database we own, in OneClaw's
tables (P-12, P-13).

Keeps OneClaw's derived session columns right (message_count counts every row, the preview is
the first 100 characters of the latest user or assistant text, updated_at the last activity) and
embeds memory chunks as they are written, recording which embedder made the vectors.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import peewee as pw

from oneclaw_search.data.embedding.vectors import encode_embedding
from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import (
    MemoryIndexEntity,
    MessageEntity,
    SearchMetaEntity,
    SessionEntity,
    SessionOriginEntity,
    insert_many,
    marks,
    sql_batches,
    upsert_many,
)
from oneclaw_search.data.history.memory_index_dao import chunk_row
from oneclaw_search.data.history.new_rows import NewMessage, NewSession, SessionOrigin, message_row, origin_row, session_row
from oneclaw_search.data.history.raw_sql import execute_sql, tuples
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MemoryChunk
from oneclaw_search.domain.ports import Embedder

PREVIEW_LENGTH = 100
WRITE_CACHE_KIB = 65_536  # room for the pages and index entries of a large import, so none spill mid-write
__all__ = ["HistoryWriter", "NewMessage", "NewSession", "SessionOrigin"]  # importers take the rows from here


class HistoryWriter:
    def __init__(self, database: HistoryDatabase, embedder: Embedder | None) -> None:
        self._database = database
        self._embedder = embedder

    def write(self, sessions: Sequence[NewSession], messages: Sequence[NewMessage], chunks: Sequence[MemoryChunk],
              *, keep_existing: bool = False) -> int:
        """Insert or replace every row by id, in one transaction; returns how many of `messages` were
        already there. With `keep_existing` those stay as they are (an importer reading a file again
        adds only its new lines). Writes take SQLite's write lock first (IMMEDIATE): a deferred
        transaction whose first statement writes fails at once, without waiting, when another
        process committed in between."""
        with self._database.connected() as database, database.atomic("IMMEDIATE"):
            execute_sql(database, f"PRAGMA cache_size = -{WRITE_CACHE_KIB}")  # SQLite's 2 MB spills pages mid-import
            upsert_many(database, SessionEntity, [session_row(session) for session in sessions])
            upsert_many(database, SessionOriginEntity, [origin_row(s) for s in sessions if s.origin is not None])
            already = _write_messages(database, messages, keep_existing)
            if chunks:
                self._adopt_vector_space(database)
            upsert_many(database, MemoryIndexEntity, [chunk_row(chunk) for chunk in self._embedded(chunks)])
            touched = {session.id for session in sessions} | {message.session_id for message in messages}
            _refresh_session_stats(database, sorted(touched))
        return already

    def sync_chunks(self, prefix: str, chunks: Sequence[MemoryChunk]) -> tuple[int, int]:
        """Make the chunks whose ids start with `prefix` exactly `chunks`, in one transaction:
        those already there stay untouched (and are not embedded again), the rest are added or
        removed. Returns (added, removed)."""
        with self._database.connected() as database, database.atomic("IMMEDIATE"):
            present = {row[0] for row in execute_sql(  # exact: LIKE would ignore case
                database, "SELECT id FROM memory_index WHERE substr(id, 1, ?) = ?", (len(prefix), prefix))}
            wanted = {chunk.id for chunk in chunks}
            stale = sorted(present - wanted)
            for batch in sql_batches(stale):
                MemoryIndexEntity.delete().where(MemoryIndexEntity.id.in_(batch)).execute(database)
            new = [chunk for chunk in chunks if chunk.id not in present]
            if new:
                self._adopt_vector_space(database)
            upsert_many(database, MemoryIndexEntity, [chunk_row(chunk) for chunk in self._embedded(new)])
        return len(new), len(stale)

    def existing_session_ids(self, ids: set[str]) -> set[str]:
        """Which of `ids` already name a session in the database."""
        with self._database.connected() as database:
            return _ids_in(database, SessionEntity, ids)

    def _adopt_vector_space(self, database: pw.Database) -> None:
        """Vectors from another embedder cannot be compared with ours, so re-embed them once."""
        if self._embedder is None:
            return
        meta = SearchMetaEntity.select().where(SearchMetaEntity.key == "embedder").bind(database).first()
        if meta is not None and meta.value == self._embedder.name:
            return
        stale = list(tuples(
            MemoryIndexEntity.select(MemoryIndexEntity.id, MemoryIndexEntity.chunk_text)
            .where(MemoryIndexEntity.embedding.is_null(False)).bind(database)
        ))
        vectors = iter(self._embedder.embed([text for _, text in stale]))
        for (chunk_id, _), vector in zip(stale, vectors, strict=True):
            MemoryIndexEntity.update(embedding=encode_embedding(vector)).where(MemoryIndexEntity.id == chunk_id).execute(database)
        SearchMetaEntity.insert(key="embedder", value=self._embedder.name).on_conflict_replace().execute(database)

    def _embedded(self, chunks: Sequence[MemoryChunk]) -> list[MemoryChunk]:
        if self._embedder is None:
            return list(chunks)
        missing = [chunk for chunk in chunks if chunk.embedding is None]
        vectors = iter(self._embedder.embed([chunk.chunk_text for chunk in missing]))
        return [
            replace(chunk, embedding=encode_embedding(next(vectors))) if chunk.embedding is None else chunk
            for chunk in chunks
        ]


def _ids_in(database: pw.Database, model: type[pw.Model], ids: set[str]) -> set[str]:
    found: set[str] = set()
    for chunk in sql_batches(sorted(ids)):
        found.update(row[0] for row in execute_sql(
            database, f'SELECT id FROM "{model._meta.table_name}" WHERE id IN ({marks(chunk)})', chunk))
    return found


def _write_messages(database: pw.Database, messages: Sequence[NewMessage], keep_existing: bool) -> int:
    """New ids take a plain INSERT, only ids already there the upsert (or nothing, to keep them): an
    upsert that may change a foreign key (session_id) costs SQLite more per row, even when
    nothing conflicts. Returns how many ids were already there."""
    latest = {message.id: message for message in messages}  # an id twice: last row, first place, as upserts gave
    present = _ids_in(database, MessageEntity, set(latest))
    insert_many(database, MessageEntity, [message_row(message) for key, message in latest.items() if key not in present])
    if not keep_existing:
        upsert_many(database, MessageEntity, [message_row(latest[key]) for key in latest if key in present])
    return len(present)


def _refresh_session_stats(database: pw.Database, session_ids: list[str]) -> None:
    searchable = ", ".join(f"'{kind.value}'" for kind in SEARCHABLE_MESSAGE_TYPES)
    for batch in sql_batches(session_ids):
        execute_sql(
            database,
            f"""UPDATE sessions SET
                message_count = (SELECT COUNT(*) FROM messages m WHERE m.session_id = sessions.id),
                last_message_preview = COALESCE((SELECT substr(m.content, 1, {PREVIEW_LENGTH}) FROM messages m
                    WHERE m.session_id = sessions.id AND m.type IN ({searchable}) AND m.content != ''
                    ORDER BY m.created_at DESC LIMIT 1), last_message_preview),
                updated_at = MAX(updated_at, COALESCE((SELECT MAX(m.created_at) FROM messages m
                    WHERE m.session_id = sessions.id), 0))
            WHERE id IN ({marks(batch)})""",
            batch,
        )
