"""MessageDao, SessionDao and MemoryIndexDao over PostgreSQL, as one tenant.

The spec's `LIKE '%query%'` is a LIKE of folded text against the folded query, its `%`, `_` and `\\`
escaped (so they match only themselves), answered from the pg_trgm indexes over the folded text
(schema.py); each row it finds is checked again with the domain's Unicode folding, which decides.
Messages of soft-deleted sessions are left out, as everywhere.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from oneclaw_search.data.postgres.database import PostgresHistory, Rows
from oneclaw_search.data.postgres.functions import MEMORY_VERSION
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter, storable_text
from oneclaw_search.data.text.analyzer import TRIGRAM
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MemoryChunk, MessageHit, SessionHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold

TURN_TYPES = [kind.value for kind in SEARCHABLE_MESSAGE_TYPES]
MESSAGE_COLUMNS = "m.id, m.session_id, s.title, m.type, m.content, m.created_at"
SESSION_COLUMNS = "s.id, s.title, s.message_count, s.last_message_preview, s.created_at, s.updated_at"
# A needle shorter than a trigram (寿司) gives the trigram index nothing to look up. Its rows are read
# back along the time index until enough hold it: a plan whose cost follows how common the needle is,
# never which rows ANALYZE happened to sample (left free, the planner swung between that and a scan
# and sort of every row).
_ALONG_TIME = ("enable_seqscan", "enable_bitmapscan")


def folded_like(column: str) -> str:
    """SQL: `column` holds the query (the next parameter) as the literal reading reads it."""
    return f"oneclaw_search_fold({column}) LIKE oneclaw_search_like(%s) ESCAPE '\\'"


def message_conditions(within: Within | None) -> tuple[str, list[object]]:
    """SQL (and its parameters) for the live messages a search may return: the spec's user and
    assistant turns, of `within`'s types and sessions."""
    types = sorted(set(TURN_TYPES) & within.types) if within is not None and within.types is not None else TURN_TYPES
    sql, params = " AND m.type = ANY(%s) AND s.deleted_at IS NULL", list[object]([types])
    if within is not None and within.sessions is not None:
        sql, params = sql + " AND m.session_id = ANY(%s)", [*params, sorted(within.sessions)]
    return sql, params


def first_admitted(page: Callable[[int, int], Rows], admits: Callable[[tuple[Any, ...]], bool], limit: int) -> Rows:
    """The first `limit` rows, in the statement's order, that the domain's folding admits. The server's
    folding seldom admits a row the domain's refuses, so a page asks for just `limit`; a page that lost
    rows to the check is followed by one more for as many as it lost."""
    kept: Rows = []
    size, skip = limit, 0
    while True:
        rows = page(size, skip)
        kept += [row for row in rows if admits(row)]
        if len(kept) >= limit or len(rows) < size:
            return kept[:limit]
        skip, size = skip + len(rows), limit - len(kept)


class PostgresMessageDao:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    def search_content(self, query: str, created_after: int = 0, created_before: int = NO_UPPER_BOUND, limit: int = 50,
                       *, deadline: Deadline | None = None, within: Within | None = None) -> list[MessageHit]:
        if created_after > created_before or limit <= 0:
            return []
        narrowed, params = message_conditions(within)
        needle = fold(query)
        along_time = _ALONG_TIME if len(needle) < TRIGRAM else ()
        sql = (f"SELECT {MESSAGE_COLUMNS} FROM messages m JOIN sessions s ON s.tenant = m.tenant AND s.id = m.session_id "
               f"WHERE {folded_like('m.content')} AND m.created_at BETWEEN %s AND %s{narrowed} "
               "ORDER BY m.created_at DESC, m.id LIMIT %s OFFSET %s")
        return [MessageHit(*row) for row in first_admitted(
            lambda page, skip: self._history.rows(sql, [storable_text(query), created_after, created_before, *params,
                                                        page, skip], deadline, without=along_time),
            lambda row: needle in fold(row[4]), limit)]


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
