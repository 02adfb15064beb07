"""A message's window as the history holds it now: the user and assistant turns before and after it in
its session, in the order written, as many as the ranking model's layout reaches (Q-01, Q-11).

A build reads them mostly from its own batch (a session's turns usually sit close together); the
rest, and any row read on its own, are found along OneClaw's session_id index, which keeps a
session's rows in rowid order.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import peewee as pw

from oneclaw_search.data.history.entities import marks, sql_batches
from oneclaw_search.data.history.message_dao import turns_beside
from oneclaw_search.data.history.raw_sql import execute_sql
from oneclaw_search.data.index.documents import IS_SEARCHABLE, MESSAGE_COLUMNS, SEARCHABLE_TYPES, MessageRow, WindowedRow

_SIDES = ("before", "after")


def with_windows(history: pw.Database, rows: Sequence[MessageRow], reach: int) -> list[WindowedRow]:
    """`rows` (every searchable turn of a rowid range, in rowid order) each with its window: neighbours
    found in `rows` themselves first, the rest read from the history."""
    chains: dict[str, list[MessageRow]] = {}
    for row in rows:
        chains.setdefault(row.session_id, []).append(row)
    done: dict[int, WindowedRow] = {}
    for session, chain in chains.items():
        earlier = turns_beside(history, session, chain[0].rowid, "before", reach) if reach else []
        later = turns_beside(history, session, chain[-1].rowid, "after", reach) if reach else []
        turns = [*reversed(earlier), *((row.rowid, row.content) for row in chain), *later]
        first = len(earlier)
        for at, row in enumerate(chain, start=first):
            before = tuple(reversed(turns[max(0, at - reach):at]))
            after = tuple(turns[at + 1:at + 1 + reach])
            done[row.rowid] = WindowedRow(row, before, after, reach - len(after))
    return [done[row.rowid] for row in rows]


def windows_of(history: pw.Database, rows: Sequence[MessageRow], reach: int) -> list[WindowedRow]:
    """Rows that need not sit together (a re-add, an edit), each with its window read from the history."""
    found = []
    for row in rows:
        before = tuple(turns_beside(history, row.session_id, row.rowid, "before", reach)) if reach else ()
        after = tuple(turns_beside(history, row.session_id, row.rowid, "after", reach)) if reach else ()
        found.append(WindowedRow(row, before, after, reach - len(after)))
    return found


def rows_by_rowid(history: pw.Database, rowids: Iterable[int]) -> list[MessageRow]:
    """The searchable turns among `rowids` (those still in the history), in rowid order."""
    found: list[MessageRow] = []
    for chunk in sql_batches(sorted(set(rowids))):
        sql = f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE {IS_SEARCHABLE} AND rowid IN ({marks(chunk)}) ORDER BY rowid"
        found += [MessageRow(*row) for row in execute_sql(history, sql, (*SEARCHABLE_TYPES, *chunk))]
    return sorted(found)


def around(history: pw.Database, rows: Sequence[MessageRow], reach: int) -> set[int]:
    """The rowids of the turns within `reach` of each of `rows` in its session: whose windows hold it."""
    near: set[int] = set()
    for row in rows:
        for side in _SIDES:
            near.update(rowid for rowid, _ in turns_beside(history, row.session_id, row.rowid, side, reach))
    return near


def beyond(history: pw.Database, anchors: Iterable[tuple[int, str]], reach: int) -> set[int]:
    """For the turns beside a row that is gone (`anchors`: (rowid, 'before' or 'after')), them and the
    turns further out within `reach`: every turn whose window held the row gone."""
    wanted = {rowid: side for rowid, side in anchors if rowid}
    live = {row.rowid: row for row in rows_by_rowid(history, wanted)}
    near = set(live)
    for rowid, row in live.items():
        if reach > 1:
            near.update(found for found, _ in turns_beside(history, row.session_id, rowid, wanted[rowid], reach - 1))
    return near
