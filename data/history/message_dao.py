"""PeeweeMessageDao.search_content: literal, caseless substring search over message content.

Mirrors MessageDao.searchContent (data/local/dao/MessageDao.kt) with its defects fixed. The
spec's `LIKE '%query%'` becomes instr() over Unicode-folded text: the same substring test, but
`%`, `_` and `\\` match only themselves, case folding covers all of Unicode, and no pattern
length limit applies. Messages of soft-deleted sessions are left out.
"""
from __future__ import annotations

import json
from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import MessageEntity, RowsById, SessionEntity
from oneclaw_search.data.history.raw_sql import tuples
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.schema import MESSAGES
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MessageHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold


class PeeweeMessageDao:
    def __init__(self, database: HistoryDatabase, lookup: KeywordLookup | None = None) -> None:
        self._database = database
        self._lookup = lookup

    def search_content(
        self,
        query: str,
        created_after: int = 0,
        created_before: int = NO_UPPER_BOUND,
        limit: int = 50,
        *,
        deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[MessageHit]:
        if created_after > created_before or limit <= 0:
            return []
        needle = fold(query)
        if self._lookup is not None:
            hits = self._lookup.verified_literal(
                MESSAGES, needle, created_after, created_before, limit, deadline,
                self.hits_by_rowid, lambda hit: needle in fold(hit.content),
                lambda above, scan_deadline: self._scan(needle, created_after, created_before, limit, scan_deadline,
                                                        above, within),
                within,
            )
            if hits is not None:
                return hits
        return self._scan(needle, created_after, created_before, limit, deadline, within=within)

    def _scan(self, needle: str, created_after: int, created_before: int, limit: int, deadline: Deadline | None,
              above_rowid: int = 0, within: Within | None = None) -> list[MessageHit]:
        """The spec's scan, newest first, of the rows above `above_rowid` (and inside `within`)."""
        matching = pw.fn.instr(pw.fn.oc_fold(pw.Cast(MessageEntity.content, "BLOB")), needle) > 0
        if above_rowid:
            matching &= pw.SQL('"t1"."rowid" > ?', (above_rowid,))
        if within is not None and within.types is not None:
            matching &= MessageEntity.type.in_(sorted(within.types))
        if within is not None and within.sessions is not None:
            matching &= pw.SQL('"t1"."session_id" IN (SELECT value FROM json_each(?))', (json.dumps(sorted(within.sessions)),))
        select = _live_messages(matching, created_after, created_before).order_by(
            MessageEntity.created_at.desc(), MessageEntity.id
        ).limit(limit)
        with self._database.connected(deadline) as database:
            return [MessageHit(*row) for row in tuples(select.bind(database))]

    def hits_by_rowid(
        self, rowids: Sequence[int], created_after: int, created_before: int, *, deadline: Deadline | None = None
    ) -> dict[int, MessageHit]:
        """The messages among `rowids` that search_content could return for some query (index hits)."""
        with self._database.connected(deadline) as database:
            return {row[-1]: MessageHit(*row[:-1]) for row in _BY_ROWID.fetch(database, rowids, created_after, created_before)}


def _live_messages(condition: pw.Node, created_after: int, created_before: int, *extra: pw.Node,
                   ) -> pw.ModelSelect[MessageEntity]:
    """USER and AI_RESPONSE messages of live sessions, created in the window, meeting `condition`."""
    message, session = MessageEntity, SessionEntity
    return (
        message.select(message.id, message.session_id, session.title, message.type, message.content, message.created_at,
                       *extra)
        .join(session, pw.JOIN.LEFT_OUTER, on=(session.id == message.session_id))
        .where(
            message.type.in_([kind.value for kind in SEARCHABLE_MESSAGE_TYPES])
            & session.deleted_at.is_null()
            & message.created_at.between(created_after, created_before)
            & condition
        )
    )


_ROWID = pw.SQL('"t1"."rowid"')
_BY_ROWID = RowsById(lambda rowids, after, before: _live_messages(pw.NodeList((_ROWID, pw.SQL("IN"), rowids)), after, before, _ROWID))
