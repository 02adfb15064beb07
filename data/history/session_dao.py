"""PeeweeSessionDao.search_by_title_or_preview: caseless substring search over live sessions.

Mirrors SessionDao.searchByTitleOrPreview (data/local/dao/SessionDao.kt), matching as
PeeweeMessageDao does; a session is dated by its last activity (updated_at) for filtering, where
Kotlin filtered on created_at.
"""
from __future__ import annotations

import json
from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import RowsById, SessionEntity
from oneclaw_search.data.history.raw_sql import tuples
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.schema import SESSIONS
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SessionHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold


class PeeweeSessionDao:
    def __init__(self, database: HistoryDatabase, lookup: KeywordLookup | None = None) -> None:
        self._database = database
        self._lookup = lookup

    def search_by_title_or_preview(
        self,
        query: str,
        updated_after: int = 0,
        updated_before: int = NO_UPPER_BOUND,
        limit: int = 20,
        *,
        deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[SessionHit]:
        if updated_after > updated_before or limit <= 0:
            return []
        session, needle = SessionEntity, fold(query)
        if self._lookup is not None:
            hits = self._lookup.verified_literal(
                SESSIONS, needle, updated_after, updated_before, limit, deadline,
                self.hits_by_rowid, lambda hit: needle in fold(hit.title) or needle in fold(hit.last_message_preview or ""),
                within=within,
            )
            if hits is not None:
                return hits
        matching = (pw.fn.instr(pw.fn.oc_fold(pw.Cast(session.title, "BLOB")), needle) > 0) | (
            pw.fn.instr(pw.fn.oc_fold(pw.Cast(session.last_message_preview, "BLOB")), needle) > 0
        )
        if within is not None and within.sessions is not None:
            matching &= pw.SQL('"t1"."id" IN (SELECT value FROM json_each(?))', (json.dumps(sorted(within.sessions)),))
        select = _live_sessions(matching, updated_after, updated_before).order_by(
            session.updated_at.desc(), session.id
        ).limit(limit)
        with self._database.connected(deadline) as database:
            return [SessionHit(*row) for row in tuples(select.bind(database))]

    def hits_by_rowid(
        self, rowids: Sequence[int], updated_after: int, updated_before: int, *, deadline: Deadline | None = None
    ) -> dict[int, SessionHit]:
        """The live sessions among `rowids` last active in the window (index hits, checked at the source)."""
        with self._database.connected(deadline) as database:
            return {row[-1]: SessionHit(*row[:-1]) for row in _BY_ROWID.fetch(database, rowids, updated_after, updated_before)}


def _live_sessions(condition: pw.Node, updated_after: int, updated_before: int, *extra: pw.Node, by_id: bool = False,
                   ) -> pw.ModelSelect[SessionEntity]:
    session = SessionEntity
    # Looking rows up by id, SQLite would still pick OneClaw's deleted_at index and walk every live
    # session for every page of ids; wrapping the column keeps that index out of the plan.
    live = pw.fn.coalesce(session.deleted_at, None).is_null() if by_id else session.deleted_at.is_null()
    return session.select(
        session.id, session.title, session.message_count, session.last_message_preview, session.created_at, session.updated_at,
        *extra,
    ).where(live & session.updated_at.between(updated_after, updated_before) & condition)


_ROWID = pw.SQL('"t1"."rowid"')
_BY_ROWID = RowsById(lambda rowids, after, before: _live_sessions(pw.NodeList((_ROWID, pw.SQL("IN"), rowids)), after, before,
                                                                  _ROWID, by_id=True))
