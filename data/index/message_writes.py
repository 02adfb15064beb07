"""MessageWrites: message documents written with their windows through one tantivy writer (Q-11).

A turn's document holds the turns beside it, so whatever adds, edits or removes a turn also writes
its neighbours' documents again, in the same commit: the index then ranks exactly as a fresh build of
the history as it is would.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import peewee as pw
import tantivy

from oneclaw_search.data.index.documents import WindowedRow, message_document, prepared
from oneclaw_search.data.index.schema import MESSAGES, ROWID
from oneclaw_search.data.index.windows import rows_by_rowid, windows_of
from oneclaw_search.domain.window_bm25 import WindowLayout


class MessageWrites:
    def __init__(self, history: pw.Database, writer: tantivy.IndexWriter, layout: WindowLayout) -> None:
        self._history, self._writer, self.layout = history, writer, layout
        # Rows this writer wrote whose window still lacked turns after it: only they are written again
        # when a turn arrives after them in their session (rows written by an earlier build, unknown
        # here, always are).
        self._open: set[int] = set()
        self._written_above: int | None = None

    def add(self, rows: Sequence[WindowedRow], indexed_up_to: int) -> None:
        """New rows (above `indexed_up_to`, the rowid the index had read), and the earlier turns whose
        windows now reach them, written again."""
        if self._written_above is None:
            self._written_above = indexed_up_to
        earlier = {rowid for windowed in rows for rowid, _ in windowed.before if rowid <= indexed_up_to}
        stale = {rowid for rowid in earlier if rowid <= self._written_above or rowid in self._open}
        self._write(rows)
        self.rewrite(stale)

    def rewrite(self, rowids: Iterable[int], up_to: int | None = None) -> int:
        """Write these rows again (those up to rowid `up_to`: the rest are the index's next rows to
        read), their windows read from the history as it is now; a row no longer in the history is
        only removed. How many were written."""
        wanted = sorted(rowid for rowid in set(rowids) if up_to is None or rowid <= up_to)
        if not wanted:
            return 0
        self._writer.delete_documents_by_query(tantivy.Query.term_set_query(MESSAGES.schema, ROWID, wanted))
        found = windows_of(self._history, rows_by_rowid(self._history, wanted), self.layout.reach)
        self._write(found)
        return len(found)

    def _write(self, rows: Sequence[WindowedRow]) -> None:
        texts = prepared(rows)
        for windowed in rows:
            self._writer.add_document(message_document(windowed, self.layout, texts))
            if windowed.open:
                self._open.add(windowed.row.rowid)
            else:
                self._open.discard(windowed.row.rowid)
