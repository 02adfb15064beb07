"""SessionDao and MemoryIndexDao over PostgreSQL, as one tenant (MessageDao is message_dao.py).

The spec's `LIKE '%query%'` over a session's title or preview is a LIKE of folded text against the
folded query, its `%`, `_` and `\\` escaped (so they match only themselves), answered from the pg_trgm
indexes over the folded text (schema.py); each row it finds is checked again with the domain's
Unicode folding, which decides.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.folded import folded_like, folded_walk
from oneclaw_search.data.postgres.functions import MEMORY_VERSION
from oneclaw_search.data.postgres.literal_reading import WALK_TIME, first_admitted
from oneclaw_search.data.postgres.message_rows import storable_text
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.data.text.analyzer import TRIGRAM
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MemoryChunk, SessionHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold

TURN_TYPES = [kind.value for kind in SEARCHABLE_MESSAGE_TYPES]
SESSION_COLUMNS = "s.id, s.title, s.message_count, s.last_message_preview, s.created_at, s.updated_at"


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
        needle = fold(query)
        # A needle shorter than a trigram gives the trigram indexes only the tenant's mark to look up, which
        # names every session: read back along time instead, as far as it takes.
        short = len(needle) < TRIGRAM
        held = (lambda column: folded_walk(column, needle.isascii())) if short else folded_like
        statement = (f"SELECT {SESSION_COLUMNS} FROM sessions s WHERE ({held('s.title')} "
                     f"OR {held('s.last_message_preview')}) AND s.deleted_at IS NULL "
                     f"AND s.updated_at BETWEEN %s AND %s{sql} ORDER BY s.updated_at DESC, s.id LIMIT %s OFFSET %s")
        without = WALK_TIME if short else ()
        return [SessionHit(*row) for row in first_admitted(
            lambda page, skip: self._history.rows(statement, [*params, page, skip], deadline, without=without),
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
