"""Reconciler: finds what changed in place in the history (deleted and edited messages, any change
to sessions) and makes the keyword index agree, keyed by history rowid (Q-11).

Documents are compared by their fingerprints, read from tantivy's fast fields a rowid range at a time:
a message's own text's and its neighbours'. A message edited or gone has the turns whose windows
held it written again too (message_writes.py).
"""
from __future__ import annotations

from collections.abc import Sequence

import peewee as pw
import tantivy

from oneclaw_search.data.history.raw_sql import Row, execute_sql
from oneclaw_search.data.index.documents import (
    IS_SEARCHABLE,
    MESSAGE_COLUMNS,
    SEARCHABLE_TYPES,
    SESSION_COLUMNS,
    MessageRow,
    SessionRow,
    WindowedRow,
    fingerprint,
    rows_up_to,
    session_document,
    session_fingerprint,
    window_fingerprint,
)
from oneclaw_search.data.index.keyword_index import KeywordIndex
from oneclaw_search.data.index.message_writes import MessageWrites
from oneclaw_search.data.index.schema import FINGERPRINT, NEXT, PREVIOUS, ROWID, WINDOW_FINGERPRINT, IndexKind, unsigned_values
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.data.index.windows import around, beyond, windows_of, with_windows

TAIL_ROWS = 64  # the newest messages, checked on every catch-up: streamed replies are edited in place
SWEEP_ROWS = 500  # older messages checked per catch-up, in turn, wrapping around
RANGE_ROWS = 50_000  # rowids compared at a time when rows went missing


def indexed(keyword: KeywordIndex, kind: IndexKind, low: int, high: int, fields: tuple[str, ...] = (FINGERPRINT,),
            ) -> dict[int, tuple[int, ...]]:
    """rowid → the `fields` (fingerprints, neighbours) of the documents with rowids in [low, high]."""
    query = tantivy.Query.range_query(kind.schema, ROWID, tantivy.FieldType.Unsigned, low, high)
    return _fast_fields(keyword, kind, query, high - low + 1, fields)


def indexed_among(keyword: KeywordIndex, kind: IndexKind, rowids: list[int], fields: tuple[str, ...] = (FINGERPRINT,),
                  ) -> dict[int, tuple[int, ...]]:
    """rowid → the `fields` of those of `rowids` the index holds."""
    query = tantivy.Query.term_set_query(kind.schema, ROWID, rowids)
    return _fast_fields(keyword, kind, query, len(rowids), fields) if rowids else {}


def _fast_fields(keyword: KeywordIndex, kind: IndexKind, query: tantivy.Query, most: int, fields: tuple[str, ...],
                 ) -> dict[int, tuple[int, ...]]:
    searcher = keyword.searcher(kind, fresh=True)
    hits = searcher.search(query, max(min(most, searcher.num_docs), 1), count=False).hits
    addresses = [address for _, address in hits]
    values = [unsigned_values(searcher, field, addresses) for field in (ROWID, *fields)]
    return {row[0]: row[1:] for row in zip(*values, strict=True)}


_COMPARED = (FINGERPRINT, WINDOW_FINGERPRINT)
_NEIGHBOURS = (PREVIOUS, NEXT)


class Reconciler:
    def __init__(self, history: pw.Database, keyword: KeywordIndex, side: SideIndex, kind: IndexKind) -> None:
        self._history, self._keyword, self._side, self._kind = history, keyword, side, kind

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return execute_sql(self._history, sql, params).fetchall()

    def sessions(self) -> None:
        """Sessions changed since the last look: only those active since (or new) when none was
        removed, else all of them; a recorded turn touches its session every time."""
        state = tuple(value or 0 for value in self._rows("SELECT max(rowid), count(*), max(updated_at) FROM sessions")[0])
        noted = self._side.meta("s.state")
        if noted == "/".join(map(str, state)):
            return
        before = tuple(map(int, noted.split("/"))) if noted else None
        if before is not None and state[1] - before[1] == state[0] - before[0] >= 0:  # rows only added
            rows = self._rows(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE updated_at >= ? OR rowid > ?", (before[2], before[0]))
            current = {row.rowid: row for row in map(SessionRow._make, rows)}
            known = indexed_among(self._keyword, self._kind, list(current))
        else:
            current = {row.rowid: row for row in map(SessionRow._make, self._rows(f"SELECT {SESSION_COLUMNS} FROM sessions"))}
            known = indexed(self._keyword, self._kind, 0, 2**63 - 1)
        stale = [rowid for rowid, (fp,) in known.items() if rowid not in current or session_fingerprint(current[rowid]) != fp]
        fresh = [row for rowid, row in current.items() if rowid not in known or rowid in stale]
        self._replace(stale, [session_document(row) for row in fresh])
        with self._side.peewee.atomic("IMMEDIATE"):
            self._side.set_meta(s__state="/".join(map(str, state)))

    def deleted_messages(self, read: int) -> int:
        """Rows gone since the last look (or never indexed) are compared a rowid range at a time; the
        turns whose windows held a row gone are written again. How many rows the history held up to
        `read` before the comparison: what the index holds, whatever is deleted meanwhile."""
        count = rows_up_to(self._history, read)
        if str(count) == self._side.meta("m.count", "0"):
            return count
        for low in range(0, read + 1, RANGE_ROWS):
            high = min(low + RANGE_ROWS - 1, read)
            live = {row.rowid: row for row in self._message_rows("rowid BETWEEN ? AND ?", (low, high))}
            known = indexed(self._keyword, self._kind, low, high, _NEIGHBOURS)
            gone = [rowid for rowid in known if rowid not in live]
            missing = [row for rowid, row in live.items() if rowid not in known]
            if gone or missing:
                anchors = [(known[rowid][side], name) for rowid in gone for side, name in ((0, "before"), (1, "after"))]
                reach = self._keyword.layout.reach
                self._rewrite({*gone, *(row.rowid for row in missing), *beyond(self._history, anchors, reach),
                               *around(self._history, missing, reach)}, read)
        with self._side.peewee.atomic("IMMEDIATE"):
            self._side.set_meta(m__count=count)
        return count

    def edited_messages(self, read: int) -> None:
        """The newest messages, the next few older ones in turn, and those a search found changed,
        written again where their text or a neighbour's changed."""
        tail = self._message_rows("rowid <= ? ORDER BY rowid DESC LIMIT ?", (read, TAIL_ROWS))
        swept = self._side.meta_int("m.swept")
        sweep = self._message_rows("rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?", (swept, read, SWEEP_ROWS))
        noted = self._side.meta("m.stale", "[]")
        found = self._message_rows("rowid IN (SELECT value FROM json_each(?)) AND rowid <= ?", (noted, read))
        rows = list({row.rowid: row for row in (*tail, *sweep, *found)}.values())
        self._rewrite_edited(windows_of(self._history, rows, self._keyword.layout.reach), read)
        with self._side.peewee.atomic("IMMEDIATE"):
            self._side.set_meta(m__swept=sweep[-1].rowid if sweep and len(sweep) == SWEEP_ROWS else 0)
            self._side.execute("DELETE FROM meta WHERE key = 'm.stale' AND value = ?", (noted,))

    def every_edit(self, read: int) -> int:
        """Every message compared with its document, a rowid range at a time (`oneclaw-search
        index`); how many had changed."""
        changed = 0
        for low in range(0, read + 1, RANGE_ROWS):
            rows = self._message_rows("rowid BETWEEN ? AND ? ORDER BY rowid", (low, min(low + RANGE_ROWS - 1, read)))
            changed += self._rewrite_edited(with_windows(self._history, rows, self._keyword.layout.reach), read)
        return changed

    def _rewrite_edited(self, rows: list[WindowedRow], read: int) -> int:
        """Rows whose own text or whose neighbours changed since they were written, written again (with
        the turns around a row whose own text changed); how many rows' own text had changed."""
        known = indexed_among(self._keyword, self._kind, [windowed.row.rowid for windowed in rows], _COMPARED)
        changed = [windowed for windowed in rows if windowed.row.rowid in known
                   and known[windowed.row.rowid] != (fingerprint(windowed.row.content), window_fingerprint(windowed))]
        edited = [windowed.row for windowed in changed if known[windowed.row.rowid][0] != fingerprint(windowed.row.content)]
        self._rewrite({*(windowed.row.rowid for windowed in changed), *around(self._history, edited, self._keyword.layout.reach)},
                      read)
        return len(edited)

    def _rewrite(self, rowids: set[int], read: int) -> None:
        """Write these messages again, those up to `read` (the rest are the index's next to read)."""
        if not any(rowid <= read for rowid in rowids):
            return
        writer = self._keyword.writer(self._kind)
        MessageWrites(self._history, writer, self._keyword.layout).rewrite(rowids, read)
        self._keyword.commit(self._kind, writer)

    def _message_rows(self, condition: str, params: tuple[object, ...]) -> list[MessageRow]:
        sql = f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE {IS_SEARCHABLE} AND {condition}"
        return [MessageRow(*row) for row in self._rows(sql, (*SEARCHABLE_TYPES, *params))]

    def _replace(self, rowids: list[int], documents: list[tantivy.Document]) -> None:
        if not rowids and not documents:
            return
        writer = self._keyword.writer(self._kind)
        if rowids:
            # A query built with the schema: delete_documents_by_term makes a Python int a signed term,
            # which never meets the unsigned rowid field.
            writer.delete_documents_by_query(tantivy.Query.term_set_query(self._kind.schema, ROWID, list(rowids)))
        for document in documents:
            writer.add_document(document)
        self._keyword.commit(self._kind, writer)

