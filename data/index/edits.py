"""Reconciler: finds what changed in place in the history (deleted and edited messages, any change
to sessions) and makes the keyword index agree, keyed by history rowid (Q-11).

Documents are compared by their fingerprints, read from tantivy's fast fields a rowid range at a time.
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
    fingerprint,
    message_document,
    rows_up_to,
    session_document,
    session_fingerprint,
)
from oneclaw_search.data.index.keyword_index import KeywordIndex, unsigned_values
from oneclaw_search.data.index.schema import FINGERPRINT, ROWID, IndexKind
from oneclaw_search.data.index.side_index import SideIndex

TAIL_ROWS = 64  # the newest messages, checked on every catch-up: streamed replies are edited in place
SWEEP_ROWS = 500  # older messages checked per catch-up, in turn, wrapping around
RANGE_ROWS = 50_000  # rowids compared at a time when rows went missing


def indexed(keyword: KeywordIndex, kind: IndexKind, low: int, high: int) -> dict[int, int]:
    """rowid → fingerprint of the documents with rowids in [low, high]."""
    query = tantivy.Query.range_query(kind.schema, ROWID, tantivy.FieldType.Unsigned, low, high)
    return _fingerprints(keyword, kind, query, high - low + 1)


def indexed_among(keyword: KeywordIndex, kind: IndexKind, rowids: list[int]) -> dict[int, int]:
    """rowid → fingerprint of those of `rowids` the index holds."""
    query = tantivy.Query.term_set_query(kind.schema, ROWID, rowids)
    return _fingerprints(keyword, kind, query, len(rowids)) if rowids else {}


def _fingerprints(keyword: KeywordIndex, kind: IndexKind, query: tantivy.Query, most: int) -> dict[int, int]:
    searcher = keyword.searcher(kind, fresh=True)
    hits = searcher.search(query, max(min(most, searcher.num_docs), 1), count=False).hits
    addresses = [address for _, address in hits]
    return dict(zip(unsigned_values(searcher, ROWID, addresses), unsigned_values(searcher, FINGERPRINT, addresses), strict=True))


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
        stale = [rowid for rowid, fp in known.items() if rowid not in current or session_fingerprint(current[rowid]) != fp]
        fresh = [row for rowid, row in current.items() if rowid not in known or rowid in stale]
        self._replace(stale, [session_document(row) for row in fresh])
        with self._side.peewee.atomic("IMMEDIATE"):
            self._side.set_meta(s__state="/".join(map(str, state)))

    def deleted_messages(self, read: int) -> None:
        """Rows gone since the last look (or never indexed) are compared a rowid range at a time."""
        count = rows_up_to(self._history, read)
        if str(count) == self._side.meta("m.count", "0"):
            return
        for low in range(0, read + 1, RANGE_ROWS):
            high = min(low + RANGE_ROWS - 1, read)
            live = {row[0]: row for row in self._message_rows("rowid BETWEEN ? AND ?", (low, high))}
            known = indexed(self._keyword, self._kind, low, high)
            gone = [rowid for rowid in known if rowid not in live]
            missing = [row for rowid, row in live.items() if rowid not in known]
            if gone or missing:
                self._replace(gone, [message_document(row) for row in missing])
        with self._side.peewee.atomic("IMMEDIATE"):
            self._side.set_meta(m__count=count)

    def edited_messages(self, read: int) -> None:
        """The newest messages, the next few older ones in turn, and those a search found changed,
        re-indexed where their text changed."""
        tail = self._message_rows("rowid <= ? ORDER BY rowid DESC LIMIT ?", (read, TAIL_ROWS))
        swept = self._side.meta_int("m.swept")
        sweep = self._message_rows("rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?", (swept, read, SWEEP_ROWS))
        noted = self._side.meta("m.stale", "[]")
        found = self._message_rows("rowid IN (SELECT value FROM json_each(?)) AND rowid <= ?", (noted, read))
        self._replace_edited([*tail, *sweep, *found])
        with self._side.peewee.atomic("IMMEDIATE"):
            self._side.set_meta(m__swept=sweep[-1].rowid if len(sweep) == SWEEP_ROWS else 0)
            self._side.execute("DELETE FROM meta WHERE key = 'm.stale' AND value = ?", (noted,))

    def every_edit(self, read: int) -> int:
        """Every message compared with its document, a rowid range at a time (`oneclaw-search
        index`); how many had changed."""
        changed = 0
        for low in range(0, read + 1, RANGE_ROWS):
            rows = self._message_rows("rowid BETWEEN ? AND ?", (low, min(low + RANGE_ROWS - 1, read)))
            changed += self._replace_edited(rows)
        return changed

    def _replace_edited(self, rows: list[MessageRow]) -> int:
        rows = list({row.rowid: row for row in rows}.values())
        known = indexed_among(self._keyword, self._kind, [row.rowid for row in rows])
        changed = [row for row in rows if row.rowid in known and known[row.rowid] != fingerprint(row.content)]
        if changed:
            self._replace([row.rowid for row in changed], [message_document(row) for row in changed])
        return len(changed)

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
        writer.commit()
        writer.wait_merging_threads()

