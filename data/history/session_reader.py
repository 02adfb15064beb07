"""PeeweeSessionReader: one session's turns read from the history, for read_session (beyond FEAT-032).

Implements the domain's SessionReader port over OneClaw's sessions and messages tables, read-only.
Only the window's contents are read: a long session costs its ids, not its text.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import MessageEntity, SessionEntity, sql_batches
from oneclaw_search.data.history.raw_sql import execute_sql, tuples
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import SessionVersion

_TURN_TYPES = [kind.value for kind in SEARCHABLE_MESSAGE_TYPES]
_MARKS = ", ".join("?" for _ in _TURN_TYPES)
# Turns are numbered in each hit's session in the order written (time, then rowid); only ids are
# numbered, and only the turns shown are read whole.
_AROUND = f"""WITH hit AS (SELECT id, session_id FROM messages WHERE id IN (SELECT value FROM json_each(?)) AND type IN ({_MARKS})),
    numbered AS (SELECT id, session_id, rowid AS r, row_number() OVER (PARTITION BY session_id ORDER BY created_at, rowid) AS n
                 FROM messages WHERE session_id IN (SELECT session_id FROM hit) AND type IN ({_MARKS})),
    placed AS (SELECT numbered.id, numbered.session_id, numbered.n FROM numbered JOIN hit ON hit.id = numbered.id)
    SELECT placed.id, m.id, m.type, m.content, m.created_at FROM placed
    JOIN numbered ON numbered.session_id = placed.session_id AND numbered.n BETWEEN placed.n - ? AND placed.n + ?
    JOIN messages m ON m.rowid = numbered.r ORDER BY placed.id, numbered.n"""


class PeeweeSessionReader:
    def __init__(self, database: HistoryDatabase) -> None:
        self._database = database

    def session(self, session_id: str) -> SessionInfo | None:
        found = SessionEntity.select(SessionEntity.id, SessionEntity.title, SessionEntity.created_at, SessionEntity.updated_at)
        found = found.where((SessionEntity.id == session_id) & SessionEntity.deleted_at.is_null())
        with self._database.connected() as database:
            row = found.bind(database).tuples().first()
        return SessionInfo(*row) if row else None

    def turn_ids(self, session_id: str) -> list[str]:
        ids = (MessageEntity.select(MessageEntity.id)
               .where((MessageEntity.session_id == session_id) & MessageEntity.type.in_(_TURN_TYPES))
               .order_by(MessageEntity.created_at, pw.SQL("rowid")))  # equal times: the order written
        with self._database.connected() as database:
            return [row[0] for row in tuples(ids.bind(database))]

    def turns(self, ids: Sequence[str]) -> list[Turn]:
        found: dict[str, Turn] = {}
        with self._database.connected() as database:
            for chunk in sql_batches(list(ids)):
                rows = tuples(
                    MessageEntity.select(MessageEntity.id, MessageEntity.type, MessageEntity.content, MessageEntity.created_at)
                    .where(MessageEntity.id.in_(chunk)).bind(database))
                found.update((row[0], Turn(*row)) for row in rows)
        return [found[turn_id] for turn_id in ids if turn_id in found]

    def turns_around(self, ids: Sequence[str], span: int) -> dict[str, list[Turn]]:
        """One statement for a whole reply: each hit's place among its session's turns, then the turns
        within `span` of it."""
        found: dict[str, list[Turn]] = {}
        with self._database.connected() as database:
            for row in execute_sql(database, _AROUND, [json.dumps(list(ids)), *_TURN_TYPES, *_TURN_TYPES, span, span]).fetchall():
                found.setdefault(row[0], []).append(Turn(*row[1:]))
        return found

    def all_turns(self, session_id: str) -> list[Turn]:
        """SessionDirectory: the whole session in one statement, as a summary reads it."""
        sql = (f"SELECT id, type, content, created_at FROM messages WHERE session_id = ? AND type IN ({_MARKS}) "
               "ORDER BY created_at, rowid")
        with self._database.connected() as database:
            return [Turn(*row) for row in execute_sql(database, sql, [session_id, *_TURN_TYPES]).fetchall()]

    def version(self, session_id: str) -> SessionVersion:
        """SessionDirectory: the turns' bytes hashed as SQLite hands them over in one value, so no
        turn is decoded or built."""
        sql = ("SELECT count(*), min(created_at), max(created_at), "
               "CAST(group_concat(id || char(0) || type || char(0) || content, char(1)) AS BLOB) FROM "
               f"(SELECT id, type, content, created_at FROM messages WHERE session_id = ? AND type IN ({_MARKS}) "
               "ORDER BY created_at, rowid)")
        with self._database.connected() as database:
            count, first, last, joined = execute_sql(database, sql, [session_id, *_TURN_TYPES]).fetchone()
        digest = hashlib.sha256(session_id.encode() + b"\0" + (joined or b""))
        return SessionVersion(digest.hexdigest(), count, first, last)

    def recent(self, limit: int) -> list[SessionInfo]:
        """SessionDirectory: the live sessions most recently active, newest first."""
        found = (SessionEntity.select(SessionEntity.id, SessionEntity.title, SessionEntity.created_at, SessionEntity.updated_at)
                 .where(SessionEntity.deleted_at.is_null())
                 .order_by(SessionEntity.updated_at.desc(), SessionEntity.id).limit(limit))
        with self._database.connected() as database:
            return [SessionInfo(*row) for row in tuples(found.bind(database))]
