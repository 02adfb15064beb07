"""PeeweeSessionDao.search_by_title_or_preview: caseless substring search over live sessions.

Mirrors SessionDao.searchByTitleOrPreview (data/local/dao/SessionDao.kt), matching as
PeeweeMessageDao does; a session is dated by its last activity (updated_at) for filtering, where
Kotlin filtered on created_at.
"""
from __future__ import annotations

import peewee as pw

from oneclaw_search.data.database import HistoryDatabase
from oneclaw_search.data.entities import SessionEntity
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.models import SessionHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold


class PeeweeSessionDao:
    def __init__(self, database: HistoryDatabase) -> None:
        self._database = database

    def search_by_title_or_preview(
        self,
        query: str,
        updated_after: int = 0,
        updated_before: int = NO_UPPER_BOUND,
        limit: int = 20,
        *,
        deadline: Deadline | None = None,
    ) -> list[SessionHit]:
        if updated_after > updated_before or limit <= 0:
            return []
        session, needle = SessionEntity, fold(query)
        select = (
            session.select(
                session.id, session.title, session.message_count,
                session.last_message_preview, session.created_at, session.updated_at,
            )
            .where(
                session.deleted_at.is_null()
                & session.updated_at.between(updated_after, updated_before)
                & (
                    (pw.fn.instr(pw.fn.oc_fold(session.title), needle) > 0)
                    | (pw.fn.instr(pw.fn.oc_fold(session.last_message_preview), needle) > 0)
                )
            )
            .order_by(session.updated_at.desc(), session.id)
            .limit(limit)
        )
        with self._database.connected(deadline) as database:
            return [SessionHit(*row) for row in select.bind(database).tuples()]
