"""PostgresHistoryWriter: HistoryWriter's three methods over the PostgreSQL tables, as one tenant.

Keeps OneClaw's derived session columns as HistoryWriter does, writes each memory chunk's vector
beside it (a committed row is searchable at once), and never names the tenant: the column's default
and the row-level policies take it from the connection. Once it has written as many
rows as the server's own autovacuum rule calls stale, it refreshes the planner's statistics at once,
so the first search after an import or a recorder's first turns is planned on what is there.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import peewee as pw

from oneclaw_search.data.embedding.vectors import encode_embedding
from oneclaw_search.data.history.memory_index_dao import chunk_row
from oneclaw_search.data.history.new_rows import NewMessage, NewSession, origin_row, session_row
from oneclaw_search.data.postgres.database import PostgresHistory, cursor_of, execute
from oneclaw_search.data.postgres.message_rows import (
    copy_messages,
    storable,
    store_windows,
    stored_messages,
    titled,
    windowed,
    with_window,
)
from oneclaw_search.data.postgres.window_writes import new_windows
from oneclaw_search.data.postgres.windows import tenant_mark
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MemoryChunk
from oneclaw_search.domain.ports import Embedder
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, WindowLayout

PREVIEW_LENGTH = 100
UPSERT_ROWS = 2_000  # rows per statement
_TURN_TYPES = [kind.value for kind in SEARCHABLE_MESSAGE_TYPES]
# What the statistics describe (pg_class.reltuples, negative when never gathered) and autovacuum's
# rule for when they are stale: more changed rows than its threshold plus its share of those described.
_DESCRIBED = """SELECT min(reltuples), sum(greatest(reltuples, 0)),
    current_setting('autovacuum_analyze_threshold')::float8, current_setting('autovacuum_analyze_scale_factor')::float8
    FROM pg_class WHERE oid = ANY(ARRAY['sessions', 'messages', 'memory_index']::regclass[])"""


class PostgresHistoryWriter:
    def __init__(self, history: PostgresHistory, embedder: Embedder | None, layout: WindowLayout = DEFAULT_WINDOW) -> None:
        self._history = history
        self._layout = layout
        self._mark = tenant_mark(history.tenant)
        self._embedder = embedder  # memory chunks' vectors; messages are ranked by words (docs/how-search-works.md)
        self._unanalyzed = 0  # rows this writer has written since it last refreshed the statistics
        self._stale_after: float | None = None  # how many that may be before a refresh, as last read

    def write(self, sessions: Sequence[NewSession], messages: Sequence[NewMessage], chunks: Sequence[MemoryChunk],
              *, keep_existing: bool = False) -> int:
        """Insert or replace every row by id in one transaction; returns how many of `messages` were
        already there (left as they are with `keep_existing`)."""
        latest = {message.id: message for message in messages}  # an id twice: the last row wins
        with self._history.connected() as database, database.atomic():
            _upsert(database, "sessions", ["id"], [titled(session_row(session), self._mark) for session in sessions])
            _upsert(database, "oneclaw_search_origins", ["session_id"],
                    [origin_row(session) for session in sessions if session.origin is not None])
            stored = stored_messages(database, list(latest))
            written = [latest[key] for key in latest if not (keep_existing and key in stored)]
            rows = [windowed(message) for message in written]
            windows = new_windows(database, [row for row, _ in rows], stored, self._layout)
            copy_messages(database, [with_window(row, values, windows.written.get(row.id), self._mark)
                                     for row, values in rows])
            store_windows(database, windows.neighbours)
            if chunks:
                self._adopt_vector_space(database)
            _upsert(database, "memory_index", ["id"], [chunk_row(chunk) for chunk in self._embedded(chunks)])
            touched = sorted({session.id for session in sessions} | {message.session_id for message in messages})
            _refresh_session_stats(database, touched)
        self._unanalyzed += len(sessions) + len(written) + len(chunks)
        self._refresh_statistics()
        return len(stored)

    def settle(self) -> None:
        """The end of an import: statistics and index entries brought up to date now, whatever the
        count, so the first search after it is planned and answered as any later one."""
        self._refresh_statistics(always=True)

    def _refresh_statistics(self, *, always: bool = False) -> None:
        """ANALYZE the tenant tables when never analyzed, or when this writer alone has changed more
        rows since it last did than autovacuum would wait for."""
        if not self._unanalyzed or (not always and self._stale_after is not None and self._unanalyzed <= self._stale_after):
            return  # a recorder's turn asks the server nothing: the bound read last still holds
        least, described, threshold, scale = self._history.rows(_DESCRIBED)[0]
        self._stale_after = None if least < 0 else threshold + scale * described
        if always or self._stale_after is None or self._unanalyzed > self._stale_after:
            try:
                self._history.rows("SELECT oneclaw_search_analyze()")
            except HistoryUnavailable as problem:
                if "oneclaw_search_analyze" not in str(problem):
                    raise  # a schema made before the function leaves it to autovacuum
            self._unanalyzed, self._stale_after = 0, None

    def sync_chunks(self, prefix: str, chunks: Sequence[MemoryChunk]) -> tuple[int, int]:
        """Make the chunks whose ids start with `prefix` exactly `chunks`; returns (added, removed)."""
        with self._history.connected() as database, database.atomic():
            present = {row[0] for row in execute(database,
                "SELECT id FROM memory_index WHERE left(id, %s) = %s", (len(prefix), prefix)).fetchall()}
            wanted = {chunk.id for chunk in chunks}
            stale = sorted(present - wanted)
            if stale:
                execute(database, "DELETE FROM memory_index WHERE id = ANY(%s)", (stale,))
            new = [chunk for chunk in chunks if chunk.id not in present]
            if new:
                self._adopt_vector_space(database)
            _upsert(database, "memory_index", ["id"], [chunk_row(chunk) for chunk in self._embedded(new)])
        self._unanalyzed += len(new) + len(stale)
        self._refresh_statistics()
        return len(new), len(stale)

    def existing_session_ids(self, ids: set[str]) -> set[str]:
        with self._history.connected() as database:
            return _present(database, "sessions", "id", sorted(ids))

    def _adopt_vector_space(self, database: pw.Database) -> None:
        """Memory vectors from another embedder cannot be compared with ours: embed them again, once."""
        if self._embedder is None:
            return
        meta = execute(database, "SELECT value FROM oneclaw_search_meta WHERE key = 'embedder'").fetchone()
        if meta is not None and meta[0] == self._embedder.name:
            return
        stale = execute(database, "SELECT id, chunk_text FROM memory_index WHERE embedding IS NOT NULL").fetchall()
        vectors = self._embedder.embed([text for _, text in stale]) if stale else []
        with cursor_of(database) as cursor:
            cursor.executemany("UPDATE memory_index SET embedding = %s WHERE id = %s",
                               [(encode_embedding(vectors[i]), chunk_id) for i, (chunk_id, _) in enumerate(stale)])
        _upsert(database, "oneclaw_search_meta", ["key"], [{"key": "embedder", "value": self._embedder.name}])

    def _embedded(self, chunks: Sequence[MemoryChunk]) -> list[MemoryChunk]:
        if self._embedder is None:
            return list(chunks)
        missing = [chunk for chunk in chunks if chunk.embedding is None]
        vectors = iter(self._embedder.embed([chunk.chunk_text for chunk in missing]))
        return [replace(chunk, embedding=encode_embedding(next(vectors))) if chunk.embedding is None else chunk
                for chunk in chunks]


def _upsert(database: pw.Database, table: str, key: list[str], rows: Sequence[dict[str, object]]) -> None:
    """Insert or update rows (dicts with the same keys) by `key`, in statements of UPSERT_ROWS rows
    passed as one array per column: a statement per row costs the server several times as much."""
    if not rows:
        return
    latest = {tuple(row[k] for k in key): row for row in rows}  # one statement may touch a row only once
    columns = list(rows[0])
    types = _column_types(database, table)
    listed = ", ".join(f'"{column}"' for column in columns)
    arrays = ", ".join(f"%s::{types[column]}[]" for column in columns)
    updates = ", ".join(f'"{column}" = excluded."{column}"' for column in columns if column not in key)
    sql = (f'INSERT INTO "{table}" ({listed}) SELECT * FROM unnest({arrays}) '
           f"ON CONFLICT ({', '.join(['tenant', *key])}) DO UPDATE SET {updates}")
    batch = list(latest.values())
    for start in range(0, len(batch), UPSERT_ROWS):
        part = batch[start:start + UPSERT_ROWS]
        execute(database, sql, [[storable(row[column]) for row in part] for column in columns])


def _column_types(database: pw.Database, table: str) -> dict[str, str]:
    """Each column's type as an array element type ("text", "bigint", ...)."""
    rows = execute(database, "SELECT attname, format_type(atttypid, NULL) FROM pg_attribute "
                             "WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped", (table,)).fetchall()
    return {name: kind for name, kind in rows}


def _present(database: pw.Database, table: str, column: str, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    found = execute(database, f'SELECT "{column}" FROM "{table}" WHERE "{column}" = ANY(%s)',
                                 ([storable(i) for i in ids],)).fetchall()
    return {row[0] for row in found}


def _refresh_session_stats(database: pw.Database, session_ids: list[str]) -> None:
    if not session_ids:
        return
    execute(database,
        f"""UPDATE sessions s SET
            message_count = (SELECT count(*) FROM messages m WHERE m.tenant = s.tenant AND m.session_id = s.id),
            last_message_preview = COALESCE((SELECT left(m.content, {PREVIEW_LENGTH}) FROM messages m
                WHERE m.tenant = s.tenant AND m.session_id = s.id AND m.type = ANY(%s) AND m.content <> ''
                ORDER BY m.created_at DESC, m.seq DESC LIMIT 1), s.last_message_preview),
            updated_at = GREATEST(s.updated_at, COALESCE((SELECT max(m.created_at) FROM messages m
                WHERE m.tenant = s.tenant AND m.session_id = s.id), 0))
        WHERE s.id = ANY(%s)""",
        (_TURN_TYPES, [storable(i) for i in session_ids]),
    )
