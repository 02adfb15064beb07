"""PeeweeMessageDao.search_content: literal, caseless substring search over message content.

Mirrors MessageDao.searchContent (data/local/dao/MessageDao.kt) with its defects fixed. The
spec's `LIKE '%query%'` becomes instr() over Unicode-folded text: the same substring test, but
`%`, `_` and `\\` match only themselves, case folding covers all of Unicode, and no pattern
length limit applies. Messages of soft-deleted sessions are left out.
"""
from __future__ import annotations

import peewee as pw

from oneclaw_search.data.database import HistoryDatabase
from oneclaw_search.data.entities import MessageEntity, SessionEntity
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MessageHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold


class PeeweeMessageDao:
    def __init__(self, database: HistoryDatabase) -> None:
        self._database = database

    def search_content(
        self,
        query: str,
        created_after: int = 0,
        created_before: int = NO_UPPER_BOUND,
        limit: int = 50,
        *,
        deadline: Deadline | None = None,
    ) -> list[MessageHit]:
        if created_after > created_before or limit <= 0:
            return []
        message, session = MessageEntity, SessionEntity
        select = (
            message.select(message.id, message.session_id, session.title, message.type, message.content, message.created_at)
            .join(session, pw.JOIN.LEFT_OUTER, on=(session.id == message.session_id))
            .where(
                message.type.in_([kind.value for kind in SEARCHABLE_MESSAGE_TYPES])
                & session.deleted_at.is_null()
                & message.created_at.between(created_after, created_before)
                & (pw.fn.instr(pw.fn.oc_fold(message.content), fold(query)) > 0)
            )
            .order_by(message.created_at.desc(), message.id)
            .limit(limit)
        )
        with self._database.connected(deadline) as database:
            return [MessageHit(*row) for row in select.bind(database).tuples()]
