"""PeeweeSessionReader: one session's turns read from the history, for read_session (beyond FEAT-032).

Implements the domain's SessionReader port over OneClaw's sessions and messages tables, read-only.
Only the window's contents are read: a long session costs its ids, not its text.
"""
from __future__ import annotations

from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import MessageEntity, SessionEntity, sql_batches
from oneclaw_search.data.history.raw_sql import tuples
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES
from oneclaw_search.domain.session_reading import SessionInfo, Turn

_TURN_TYPES = [kind.value for kind in SEARCHABLE_MESSAGE_TYPES]


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
