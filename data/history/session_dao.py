"""PeeweeSessionDao: caseless substring search over live sessions, and the reads a keyword search makes
of its candidates.

Mirrors SessionDao.searchByTitleOrPreview (data/local/dao/SessionDao.kt), matching as PeeweeMessageDao
does; a session is dated by its last activity (updated_at) for filtering, where Kotlin filtered on
created_at.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from oneclaw_search.data.history.database import HistoryDatabase, folded
from oneclaw_search.data.history.entities import marks, sql_batches
from oneclaw_search.data.history.literal_index import SESSIONS, LiteralIndex, Newest, Unindexed
from oneclaw_search.data.history.literal_scan import RowSet, verified_newest
from oneclaw_search.data.history.raw_sql import execute_sql, fetch_all
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SessionHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold

_HIT = "s.id, s.title, s.message_count, s.last_message_preview, s.created_at, s.updated_at"
# Looking rows up by id, SQLite would still pick OneClaw's deleted_at index and walk every live
# session for every page of ids; wrapping the column keeps that index out of the plan.
_LIVE = "FROM sessions s WHERE coalesce(s.deleted_at, NULL) IS NULL AND s.updated_at BETWEEN ? AND ?"
_HOLDS = f"(instr({folded('s.title')}, ?) > 0 OR instr({folded('s.last_message_preview')}, ?) > 0)"


@dataclass(frozen=True, slots=True)
class SessionRowHit(SessionHit):
    """A session found, with its rowid: what a keyword search ranks without reading it again."""

    rowid: int = 0


def _narrowed(within: Within | None) -> tuple[str, list[object]]:
    if within is None or within.sessions is None:
        return "", []
    return " AND s.id IN (SELECT value FROM json_each(?))", [json.dumps(sorted(within.sessions))]


def _among(rows: RowSet) -> tuple[str, list[object]]:
    if rows is None:
        return "", []
    if isinstance(rows, Unindexed):
        if rows.active_since is None:
            return " AND s.rowid > ?", [rows.rowid]
        return " AND (s.rowid > ? OR s.updated_at >= ?)", [rows.rowid, rows.active_since]
    if isinstance(rows, Newest):  # sessions are dated by their last activity: never read from the newest back
        raise TypeError("sessions are not read from the newest back")
    return " AND s.rowid IN (SELECT value FROM json_each(?))", [json.dumps(list(rows))]


class PeeweeSessionDao:
    def __init__(self, database: HistoryDatabase, index: LiteralIndex | None = None) -> None:
        self._database = database
        self._index = index
        self._hidden: tuple[tuple[object, ...], list[str]] | None = None

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
        window = (updated_after, updated_before)
        return verified_newest(self._index, SESSIONS, fold(query), window, limit, deadline, within, self._holding)

    def _holding(self, needle: str, window: tuple[int, int], limit: int, deadline: Deadline | None,
                 within: Within | None, rows: RowSet) -> list[SessionHit]:
        narrowed, params = _narrowed(within)
        among, among_params = _among(rows)
        sql = f"SELECT {_HIT}, s.rowid {_LIVE}{narrowed}{among} AND {_HOLDS} ORDER BY s.updated_at DESC, s.id LIMIT ?"
        with self._database.connected(deadline) as database:
            found = fetch_all(database, sql, [*window, *params, *among_params, needle, needle, limit])
        return [SessionRowHit(*row) for row in found]

    def hits(self, rowids: Sequence[int], after: int, before: int, within: Within | None = None,
             deadline: Deadline | None = None) -> list[tuple[int, SessionHit]]:
        """(rowid, hit) of the live sessions among `rowids` last active in the window (and `within`)."""
        narrowed, params = _narrowed(within)
        found: dict[int, SessionHit] = {}
        with self._database.connected(deadline) as database:
            for chunk in sql_batches(list(rowids)):
                sql = f"SELECT s.rowid, {_HIT} {_LIVE}{narrowed} AND s.rowid IN ({marks(chunk)})"
                rows = fetch_all(database, sql, [after, before, *params, *chunk])
                found.update((row[0], SessionHit(*row[1:])) for row in rows)
        return list(found.items())

    def hidden(self, deadline: Deadline | None = None) -> list[str]:
        """The ids of the soft-deleted sessions, whose rows a search never shows; read again only when
        the history changed."""
        token = self._database.change_token()
        if self._hidden is None or self._hidden[0] != token:
            with self._database.connected(deadline) as database:
                found = execute_sql(database, "SELECT id FROM sessions WHERE deleted_at IS NOT NULL ORDER BY id").fetchall()
            self._hidden = (token, [row[0] for row in found])
        return self._hidden[1]

    def unindexed(self, unindexed: Unindexed, limit: int, offset: int = 0,
                  deadline: Deadline | None = None) -> list[tuple[int, str]]:
        """(rowid, title) of the sessions an index has not taken in, live or not, most recently active
        first: `limit` of them from `offset`, a page for a search to read itself."""
        among, params = _among(unindexed)
        sql = f"SELECT s.rowid, s.title FROM sessions s WHERE 1{among} ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ? OFFSET ?"
        with self._database.connected(deadline) as database:
            return [(row[0], row[1]) for row in execute_sql(database, sql, [*params, limit, offset]).fetchall()]

    def texts_by_rowid(self, rowids: Sequence[int]) -> list[str]:
        """Titles and previews of the listed sessions, for words a vocabulary looks up."""
        texts: list[str] = []
        with self._database.connected() as database:
            for chunk in sql_batches(list(rowids)):
                sql = f"SELECT title, last_message_preview FROM sessions WHERE rowid IN ({marks(chunk)})"
                texts += [f"{row[0]}\n{row[1] or ''}" for row in execute_sql(database, sql, chunk).fetchall()]
        return texts
