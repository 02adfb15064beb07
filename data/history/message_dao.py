"""PeeweeMessageDao: literal, caseless substring search over message content, and the reads a keyword
search makes of its candidates.

Mirrors MessageDao.searchContent (data/local/dao/MessageDao.kt) with its defects fixed. The spec's
`LIKE '%query%'` becomes instr() over Unicode-folded text: the same substring test, but `%`, `_` and
`\\` match only themselves, case folding covers all of Unicode, and no pattern length limit applies.
Messages of soft-deleted sessions are left out. With a LiteralIndex beside the history, its
candidates are re-read and re-checked, and only the rows it has not taken in are scanned.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase, folded
from oneclaw_search.data.history.entities import marks, sql_batches
from oneclaw_search.data.history.literal_index import MESSAGES, LiteralIndex, Newest, Unindexed
from oneclaw_search.data.history.literal_scan import RowSet, verified_newest
from oneclaw_search.data.history.raw_sql import execute_sql, fetch_all
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MessageHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold

TURN_TYPES = tuple(kind.value for kind in SEARCHABLE_MESSAGE_TYPES)
_HIT = "m.id, m.session_id, s.title, m.type, m.content, m.created_at"
_LIVE = ("FROM messages m LEFT JOIN sessions s ON s.id = m.session_id "
         "WHERE s.deleted_at IS NULL AND m.created_at BETWEEN ? AND ?")
_SIDES = {"before": ("<", "DESC"), "after": (">", "ASC")}


@dataclass(frozen=True, slots=True)
class RowHit(MessageHit):
    """A message found, with its rowid: what a keyword search ranks without reading it again."""

    rowid: int = 0


def turns_beside(database: pw.Database, session: str, rowid: int, side: str, reach: int) -> list[tuple[int, str]]:
    """(rowid, content) of the `reach` user and assistant turns of `session` just before (or after)
    `rowid`, nearest first: one short walk of OneClaw's session_id index, which keeps a session's rows
    in rowid order."""
    compare, order = _SIDES[side]
    sql = (f"SELECT rowid, content FROM messages WHERE session_id = ? AND rowid {compare} ? AND type IN ({marks(TURN_TYPES)}) "
           f"ORDER BY rowid {order} LIMIT ?")
    return [(found[0], found[1]) for found in execute_sql(database, sql, (session, rowid, *TURN_TYPES, reach))]


def _narrowed(within: Within | None) -> tuple[str, list[object]]:
    """SQL keeping rows of `m` to the spec's user and assistant turns, inside `within`."""
    types = sorted(set(TURN_TYPES) & within.types) if within is not None and within.types is not None else list(TURN_TYPES)
    sql, params = f" AND m.type IN ({marks(types)})", list[object](types)
    if within is not None and within.sessions is not None:
        sql += " AND m.session_id IN (SELECT value FROM json_each(?))"
        params.append(json.dumps(sorted(within.sessions)))
    return sql, params


class PeeweeMessageDao:
    def __init__(self, database: HistoryDatabase, index: LiteralIndex | None = None) -> None:
        self._database = database
        self._index = index

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
        """The spec's search; each hit a RowHit, with its rowid."""
        if created_after > created_before or limit <= 0:
            return []
        needle = fold(query)
        window = (created_after, created_before)
        return verified_newest(self._index, MESSAGES, needle, window, limit, deadline, within, self._holding, True)

    def _holding(self, needle: str, window: tuple[int, int], limit: int, deadline: Deadline | None,
                 within: Within | None, rows: RowSet) -> list[MessageHit]:
        """The spec's scan, newest first, of `rows` (every row, rowids a literal index named, or the
        rows it has not taken in)."""
        narrowed, params = _narrowed(within)
        among, among_params = _among(rows, window)
        sql = (f"SELECT m.rowid, {_HIT} {_LIVE}{narrowed}{among} AND instr({folded('m.content')}, ?) > 0 "
               "ORDER BY m.created_at DESC, m.id LIMIT ?")
        with self._database.connected(deadline) as database:
            found = fetch_all(database, sql, [*window, *params, *among_params, needle, limit])
        return [RowHit(row[1], row[2], row[3], row[4], row[5], row[6], row[0]) for row in found]

    def hits(self, rowids: Sequence[int], after: int, before: int, within: Within | None = None,
             deadline: Deadline | None = None) -> list[tuple[int, MessageHit]]:
        """(rowid, hit) of the live messages among `rowids` in the window (and `within`): the
        one read of a keyword search's rows."""
        narrowed, params = _narrowed(within)
        found: dict[int, MessageHit] = {}
        with self._database.connected(deadline) as database:
            for chunk in sql_batches(list(rowids)):
                sql = f"SELECT m.rowid, {_HIT} {_LIVE}{narrowed} AND m.rowid IN ({marks(chunk)})"
                rows = fetch_all(database, sql, [after, before, *params, *chunk])
                found.update((row[0], MessageHit(*row[1:7])) for row in rows)
        return list(found.items())

    def windows(self, rows: Sequence[tuple[int, MessageHit]], reach: int,
                deadline: Deadline | None = None) -> list[tuple[list[str], list[str]]]:
        """The texts of the `reach` turns before and after each of `rows` in its session, nearest first:
        what a search reads of the few rows it scores itself."""
        found = []
        with self._database.connected(deadline) as database:
            for rowid, hit in rows:
                before, after = (turns_beside(database, hit.session_id, rowid, side, reach) for side in _SIDES)
                found.append(([text for _, text in before], [text for _, text in after]))
        return found

    def turns_between(self, above_rowid: int, below_rowid: int, limit: int,
                      deadline: Deadline | None = None) -> list[tuple[int, str]]:
        """(rowid, content) of the newest `limit` user and assistant turns whose rowids lie strictly
        between the two, newest first: a page of rows a keyword index may not hold as they are now,
        for a search to read itself."""
        sql = (f"SELECT rowid, content FROM messages WHERE rowid > ? AND rowid < ? AND type IN ({marks(TURN_TYPES)})"
               " ORDER BY rowid DESC LIMIT ?")
        with self._database.connected(deadline) as database:
            rows = execute_sql(database, sql, [above_rowid, below_rowid, *TURN_TYPES, limit]).fetchall()
        return [(row[0], row[1]) for row in rows]

    def texts_by_rowid(self, rowids: Sequence[int]) -> list[str]:
        """The contents of the listed messages (any that exist), for words a vocabulary looks up."""
        texts: list[str] = []
        with self._database.connected() as database:
            for chunk in sql_batches(list(rowids)):
                rows = execute_sql(database, f"SELECT content FROM messages WHERE rowid IN ({marks(chunk)})", chunk).fetchall()
                texts += [row[0] for row in rows]
        return texts


def _among(rows: RowSet, window: tuple[int, int]) -> tuple[str, list[object]]:
    if rows is None:
        return "", []
    if isinstance(rows, Unindexed):
        return " AND m.rowid > ?", [rows.rowid]
    if isinstance(rows, Newest):  # OneClaw's created_at index walked back; ties with the last row taken too
        newest = "SELECT created_at FROM messages WHERE created_at BETWEEN ? AND ? ORDER BY created_at DESC LIMIT 1 OFFSET ?"
        return f" AND m.created_at >= COALESCE(({newest}), ?)", [*window, rows.rows - 1, window[0]]
    return " AND m.rowid IN (SELECT value FROM json_each(?))", [json.dumps(list(rows))]
