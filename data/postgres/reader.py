"""read_session's and get_session_summary's reads (SessionReader, SessionDirectory) and the filtered
search's rows (FilteredHistory) over PostgreSQL, as one tenant.

The same rules as the SQLite readers: only live sessions, turns in the order written (created_at,
then the row's sequence), tool rows searchable by their name, input and output.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from oneclaw_search.data.history.filtered_history import BATCH_ROWS, searchable_text, sessions_of_origin
from oneclaw_search.data.postgres.daos import TURN_TYPES
from oneclaw_search.data.postgres.database import PostgresHistory, connection_of
from oneclaw_search.domain.message_filter import MessageFilter
from oneclaw_search.domain.models import MessageHit
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import SessionVersion

_TURNS = "FROM messages WHERE session_id = %s AND type = ANY(%s) ORDER BY created_at, seq"
_INFO = "SELECT id, title, created_at, updated_at FROM sessions WHERE deleted_at IS NULL"
_AROUND = """WITH hit AS (SELECT id, session_id FROM messages WHERE id = ANY(%s) AND type = ANY(%s)),
    numbered AS (SELECT id, session_id, seq, row_number() OVER (PARTITION BY session_id ORDER BY created_at, seq) AS n
                 FROM messages WHERE session_id IN (SELECT session_id FROM hit) AND type = ANY(%s)),
    placed AS (SELECT numbered.id, numbered.session_id, numbered.n FROM numbered JOIN hit ON hit.id = numbered.id)
    SELECT placed.id, m.id, m.type, m.content, m.created_at FROM placed
    JOIN numbered ON numbered.session_id = placed.session_id AND numbered.n BETWEEN placed.n - %s AND placed.n + %s
    JOIN messages m ON m.session_id = numbered.session_id AND m.id = numbered.id ORDER BY placed.id, numbered.n"""


class PostgresSessionReader:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    def session(self, session_id: str) -> SessionInfo | None:
        rows = self._history.rows(f"{_INFO} AND id = %s", (session_id,))
        return SessionInfo(*rows[0]) if rows else None

    def turn_ids(self, session_id: str) -> list[str]:
        return [row[0] for row in self._history.rows(f"SELECT id {_TURNS}", (session_id, TURN_TYPES))]

    def turns(self, ids: Sequence[str]) -> list[Turn]:
        rows = self._history.rows("SELECT id, type, content, created_at FROM messages WHERE id = ANY(%s)", (list(ids),))
        found = {row[0]: Turn(*row) for row in rows}
        return [found[turn_id] for turn_id in ids if turn_id in found]

    def turns_around(self, ids: Sequence[str], span: int) -> dict[str, list[Turn]]:
        found: dict[str, list[Turn]] = {}
        for row in self._history.rows(_AROUND, (list(ids), TURN_TYPES, TURN_TYPES, span, span)):
            found.setdefault(row[0], []).append(Turn(*row[1:]))
        return found

    def all_turns(self, session_id: str) -> list[Turn]:
        return [Turn(*row) for row in self._history.rows(f"SELECT id, type, content, created_at {_TURNS}",
                                                         (session_id, TURN_TYPES))]

    def version(self, session_id: str) -> SessionVersion:
        """The turns hashed in the order written, so any edit, addition or removal changes it."""
        digest = hashlib.sha256(session_id.encode() + b"\0")
        first = last = None
        count = 0
        for turn in self.all_turns(session_id):
            digest.update(f"{turn.id}\0{turn.role}\0{turn.content}\1".encode("utf-8", "surrogatepass"))
            first = turn.created_at if first is None else first
            last, count = turn.created_at, count + 1
        return SessionVersion(digest.hexdigest(), count, first, last)

    def recent(self, limit: int) -> list[SessionInfo]:
        return [SessionInfo(*row) for row in self._history.rows(f"{_INFO} ORDER BY updated_at DESC, id LIMIT %s", (limit,))]


class PostgresFilteredHistory:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    def session_ids(self, message_filter: MessageFilter) -> frozenset[str] | None:
        if not message_filter.narrows_sessions:
            return None
        sql, params = "SELECT id FROM sessions WHERE deleted_at IS NULL", []
        if message_filter.session_id is not None:
            sql, params = sql + " AND id = %s", [message_filter.session_id]
        ids = {row[0] for row in self._history.rows(sql, params)}
        if message_filter.project is None and message_filter.agent_type is None:
            return frozenset(ids)
        origins = self._history.rows("SELECT session_id, project_path, agent_type FROM oneclaw_search_origins")
        return sessions_of_origin(message_filter, ids, origins)

    def messages(self, types: frozenset[str], session_ids: frozenset[str] | None, after: int, before: int,
                 ) -> Iterator[list[MessageHit]]:
        sql = ("SELECT m.id, m.session_id, s.title, m.type, m.content, m.created_at, m.tool_name, m.tool_input,"
               " m.tool_output FROM messages m JOIN sessions s ON s.tenant = m.tenant AND s.id = m.session_id"
               " WHERE s.deleted_at IS NULL AND m.type = ANY(%s) AND m.created_at BETWEEN %s AND %s")
        params: list[object] = [sorted(types), after, before]
        if session_ids is not None:
            sql, params = sql + " AND m.session_id = ANY(%s)", [*params, sorted(session_ids)]
        # A server-side cursor: a filter that admits most of a large history streams it in batches
        # rather than holding it all in memory at once.
        with self._history.connected() as database, database.atomic(), \
                connection_of(database).cursor(name="oneclaw_search_filtered") as cursor:
            cursor.execute(sql + " ORDER BY m.created_at DESC, m.id", params)
            while rows := cursor.fetchmany(BATCH_ROWS):
                yield [MessageHit(r[0], r[1], r[2], r[3], searchable_text(r), r[5]) for r in rows]
