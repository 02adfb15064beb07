"""MessageDao, SessionDao and MemoryIndexDao over PostgreSQL, as one tenant.

The spec's `LIKE '%query%'` is a LIKE of folded text against the folded query, its `%`, `_` and `\\`
escaped (so they match only themselves), answered from the pg_trgm indexes over the folded text
(schema.py); each row it finds is checked again with the domain's Unicode folding, which decides.
Messages of soft-deleted sessions are left out, as everywhere.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from oneclaw_search.data.postgres.database import PostgresHistory, Rows
from oneclaw_search.data.postgres.functions import MEMORY_VERSION
from oneclaw_search.data.postgres.literal_reading import (
    ALONG_TIME,
    THROUGH_INDEX,
    WALK_TIME,
    along_time,
    first_admitted,
    folded_like,
    literal_plan,
    through_piece,
)
from oneclaw_search.data.postgres.message_rows import storable_text
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MemoryChunk, MessageHit, SessionHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold

TURN_TYPES = [kind.value for kind in SEARCHABLE_MESSAGE_TYPES]
MESSAGE_COLUMNS = "m.id, m.session_id, s.title, m.type, m.content, m.created_at"
SESSION_COLUMNS = "s.id, s.title, s.message_count, s.last_message_preview, s.created_at, s.updated_at"
# Each of a few hundred chosen messages with its session, looked up by key: joined freely, the planner
# reads and hashes every session of the tenant for them (its cost then grows with the sessions held).
SESSION_OF_EACH = ("JOIN LATERAL (SELECT s.title, s.deleted_at FROM sessions s WHERE s.tenant = m.tenant "
                   "AND s.id = m.session_id LIMIT 1) s ON true")


def message_conditions(within: Within | None, *, joined: bool = True) -> tuple[str, list[object]]:
    """SQL (and its parameters) for the live messages a search may return: the spec's user and
    assistant turns, of `within`'s types and sessions; with `joined`, of live sessions (`s`)."""
    types = sorted(set(TURN_TYPES) & within.types) if within is not None and within.types is not None else TURN_TYPES
    sql, params = " AND m.type = ANY(%s)" + (" AND s.deleted_at IS NULL" if joined else ""), list[object]([types])
    if within is not None and within.sessions is not None:
        sql, params = sql + " AND m.session_id = ANY(%s)", [*params, sorted(within.sessions)]
    return sql, params


class PostgresMessageDao:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    def search_content(self, query: str, created_after: int = 0, created_before: int = NO_UPPER_BOUND, limit: int = 50,
                       *, deadline: Deadline | None = None, within: Within | None = None) -> list[MessageHit]:
        if created_after > created_before or limit <= 0:
            return []
        needle, text, window = fold(query), storable_text(query), [created_after, created_before]
        plan = literal_plan(self._history, query, limit, deadline, some_sessions=within is not None and within.sessions is not None)
        unjoined = message_conditions(within, joined=False)
        page = None
        if plan.piece is not None:
            page = through_piece(self._history, plan.piece, text, window, unjoined, MESSAGE_COLUMNS, SESSION_OF_EACH,
                                 limit, deadline)
        if page is None:
            page = self._whole(text, window, within, THROUGH_INDEX if plan.rows_back else plan.order, deadline)
            if plan.rows_back:
                page = along_time(self._history, plan.rows_back, text, window, unjoined, MESSAGE_COLUMNS,
                                  SESSION_OF_EACH, page, deadline)
        return [MessageHit(*row) for row in first_admitted(page, lambda row: needle in fold(row[4]), limit)]

    def _whole(self, text: str, window: list[int], within: Within | None, order: str | None,
               deadline: Deadline | None) -> Callable[[int, int], Rows]:
        """Pages of the needle over every row: through the trigram index (ordered by an expression no
        index gives, so the planner cannot walk back along time instead), back along time (no bitmap,
        no scan of every row), or as the planner picks."""
        narrowed, params = message_conditions(within)
        newest = "m.created_at + 0" if order == THROUGH_INDEX else "m.created_at"
        without = WALK_TIME if order == ALONG_TIME else ()
        sql = (f"SELECT {MESSAGE_COLUMNS} FROM messages m JOIN sessions s ON s.tenant = m.tenant AND s.id = m.session_id "
               f"WHERE {folded_like('m.content')} AND m.created_at BETWEEN %s AND %s{narrowed} "
               f"ORDER BY {newest} DESC, m.id LIMIT %s OFFSET %s")
        return lambda size, skip: self._history.rows(sql, [text, *window, *params, size, skip], deadline, without=without)


class PostgresSessionDao:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    def search_by_title_or_preview(self, query: str, updated_after: int = 0, updated_before: int = NO_UPPER_BOUND,
                                   limit: int = 20, *, deadline: Deadline | None = None,
                                   within: Within | None = None) -> list[SessionHit]:
        if updated_after > updated_before or limit <= 0:
            return []
        sql, text = "", storable_text(query)
        params: list[object] = [text, text, updated_after, updated_before]
        if within is not None and within.sessions is not None:
            sql, params = " AND s.id = ANY(%s)", [*params, sorted(within.sessions)]
        statement = (f"SELECT {SESSION_COLUMNS} FROM sessions s WHERE ({folded_like('s.title')} "
                     f"OR {folded_like('s.last_message_preview')}) AND s.deleted_at IS NULL "
                     f"AND s.updated_at BETWEEN %s AND %s{sql} ORDER BY s.updated_at DESC, s.id LIMIT %s OFFSET %s")
        needle = fold(query)
        return [SessionHit(*row) for row in first_admitted(
            lambda page, skip: self._history.rows(statement, [*params, page, skip], deadline),
            lambda row: needle in fold(row[1]) or needle in fold(row[3] or ""), limit)]


class PostgresMemoryIndexDao:
    _COLUMNS = "id, source_type, source_date, chunk_text, embedding, created_at, updated_at"

    def __init__(self, history: PostgresHistory, writer: PostgresHistoryWriter) -> None:
        self._history = history
        self._writer = writer

    def get_all(self, *, deadline: Deadline | None = None) -> list[MemoryChunk]:
        return self._read("", [], deadline)

    def get_newest(self, count: int, *, deadline: Deadline | None = None) -> list[MemoryChunk]:
        if count <= 0:  # no newest rows, where the lowest of none would be every row
            return []
        return self._read(" WHERE seq >= coalesce((SELECT min(seq) FROM (SELECT seq FROM memory_index ORDER BY seq DESC"
                          " LIMIT %s) newest), 0)", [count], deadline)

    def get_by_source_type(self, source_type: str) -> list[MemoryChunk]:
        return self._read(" WHERE source_type = %s", [source_type], None)

    def version(self, *, deadline: Deadline | None = None) -> tuple[object, ...]:
        """Changes whenever a row is added, removed or updated: the memory engine's cache key. It is the
        counter schema.py's trigger moves; until a change has made one (memory written before the
        trigger existed), the rows' own count and latest times."""
        rows = self._history.rows(f"SELECT coalesce((SELECT value FROM oneclaw_search_meta WHERE key = '{MEMORY_VERSION}'), "
                                  "(SELECT concat_ws('/', count(*), max(seq), max(updated_at), sum(updated_at)) "
                                  "FROM memory_index))", (), deadline)
        return (rows[0][0],)

    def insert_all(self, chunks: Sequence[MemoryChunk]) -> None:
        self._writer.write([], [], chunks)

    def _read(self, where: str, params: list[object], deadline: Deadline | None) -> list[MemoryChunk]:
        rows = self._history.rows(f"SELECT {self._COLUMNS} FROM memory_index{where} ORDER BY seq", params, deadline)
        return [MemoryChunk(row[0], row[1], row[2], row[3], bytes(row[4]) if row[4] is not None else None, row[5], row[6])
                for row in rows]
