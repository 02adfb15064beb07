"""IndexSync: brings the side index up to date with the history before a search (issue 3).

Nothing is read while the file shows no new commit. Otherwise new messages are found by rowid,
deleted or replaced ones by a row count that stops adding up, edits by fingerprint (the recent
messages every time, older ones SWEEP_ROWS at a time in turn); sessions are compared whole. Each
batch is one IMMEDIATE transaction, so two processes never index the same rows twice.
"""
from __future__ import annotations

from oneclaw_search.data import index_schema
from oneclaw_search.data.batch_preparer import BatchPreparer, fingerprint, term_text
from oneclaw_search.data.database import HistoryDatabase
from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.message_indexer import (
    LAST_TURNS, MESSAGE_COLUMNS as _MESSAGE_COLUMNS, SEARCHABLE_TYPES as _TYPES, MessageIndexer, MessageRow, ReadAhead,
)
from oneclaw_search.data.index_docs import MESSAGES, SESSIONS, DocKind, IndexedDoc
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.ports import Embedder
from oneclaw_search.domain.text import fold

BATCH_ROWS = 5_000
BULK_BATCH_ROWS = 20_000  # a build without a waiting search: bigger segments, fewer of them to merge
SEARCH_MERGE_ROWS = 50_000  # about 0.3 s of merging; a search never waits for more
TAIL_ROWS = 64  # recent messages re-checked on every search: streamed replies are edited in place
SWEEP_ROWS = 500  # older messages re-checked per catch-up, in rowid order, wrapping around: 5 ms at 1M (2,000: 20-45 ms)
_IN_TYPES = f"type IN ({', '.join('?' * len(_TYPES))})"


def _session_doc(rowid: int, row_id: str, at: int, title: str | None, preview: str | None) -> IndexedDoc:
    texts = (title, preview)
    return IndexedDoc(rowid, row_id, at, fingerprint(*texts), tuple(map(term_text, texts)), tuple(fold(t or "") for t in texts))


class IndexSync:
    def __init__(self, history: HistoryDatabase, index: SideIndex, embedder: Embedder | None = None) -> None:
        self._history = history
        self._index = index
        self._embedder = embedder
        self._messages = MessageIndexer(index, embedder)
        self._schema_checked = False
        self._synced_token: tuple | None = None
        self._largest_merge: int | None = None

    def catch_up(self, deadline: Deadline | None = None) -> bool:
        """Index what changed; False when time ran out first (the index is then partly fresh).

        The deadline is checked between batches only, so a batch in flight always commits.
        """
        if not self._schema_checked:
            embedder = self._embedder.name if self._embedder is not None else "none"
            index_schema.ensure_schema(self._index, str(self._history.info.path.resolve()), embedder)
            self._messages.create_tables()
            index_schema.restore_secondary_indexes(self._index, MESSAGES)  # a first build that stopped midway left them out
            self._schema_checked = True
        # A search waits on this catch-up: bigger merges are left to `oneclaw-search index`.
        self._largest_merge = None if deadline is None else SEARCH_MERGE_ROWS
        token = self._history.change_token()
        if token == self._synced_token:
            return True  # nothing committed to the history since the last catch-up
        with self._history.connected() as history:
            if not self._append_messages(history, deadline):
                return False
            self._reconcile_messages_if_counts_differ(history)
            self._recheck_recent_messages(history)
            self._sweep_older_messages(history)
            self._sync_sessions(history)
        self._synced_token = token
        return True

    def _add(self, kind: DocKind, docs: list[IndexedDoc]) -> int:
        return self._index.add(kind, docs, self._largest_merge)

    def _rows(self, history, sql: str, params=()) -> list[tuple]:
        return history.execute_sql(sql, params).fetchall()

    def _append_messages(self, history, deadline: Deadline | None) -> bool:
        done = self._index.meta_int("m.max_src")
        top = self._rows(history, "SELECT max(rowid) FROM messages")[0][0] or 0
        if top < done:
            self._reset(MESSAGES)
            done = 0
        batches = 0
        # The next batch is prepared elsewhere while this one is written (data/batch_preparer.py).
        preparer = BatchPreparer(self._embedder, top - done if deadline is None else 0)
        size = BULK_BATCH_ROWS if preparer.uses_process else BATCH_ROWS
        deferred = preparer.uses_process and done == 0  # a first build: nobody can look anything up yet
        if deferred:
            with self._index.peewee.atomic("IMMEDIATE"):
                index_schema.defer_secondary_indexes(self._index, MESSAGES)
        try:
            ahead = ReadAhead(self._messages, history, top, size, preparer, depth=2 if preparer.uses_process else 1)
            while (batch := ahead.take(done)) is not None:
                if deadline is not None and deadline.expired():
                    return False
                with self._index.peewee.atomic("IMMEDIATE"):
                    if self._index.meta_int("m.max_src") == done:  # else another process got there first
                        self._messages.add(batch.searchable, prepared=batch.prepared.result(),
                                           largest_merge=self._largest_merge, bulk=preparer.uses_process)
                        self._index.set_meta(m__max_src=batch.last, m__rows=self._index.meta_int("m.rows") + batch.size)
                done, batches = self._index.meta_int("m.max_src"), batches + 1
        finally:
            preparer.shutdown()
            if deferred:
                with self._index.peewee.atomic("IMMEDIATE"):
                    index_schema.restore_secondary_indexes(self._index, MESSAGES)
        if batches > 1:  # a build leaves a WAL as big as its biggest batch; give the space back
            self._index.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return True

    def _reconcile_messages_if_counts_differ(self, history) -> None:
        count = self._rows(history, "SELECT count(*) FROM messages")[0][0]
        if count == self._index.meta_int("m.rows"):
            return
        done = self._index.meta_int("m.max_src")
        live = {r[0] for r in self._rows(history, f"SELECT rowid FROM messages WHERE rowid <= ? AND {_IN_TYPES}", (done, *_TYPES))}
        with self._index.peewee.atomic("IMMEDIATE"):
            indexed = {r[0] for r in self._index.execute(f"SELECT src FROM {MESSAGES.table('docs')}")}
            self._index.forget(MESSAGES, sorted(indexed - live))
            missing = self._message_rows(sorted(live - indexed), history)
            self._messages.add(missing, advance=False, largest_merge=self._largest_merge)
            self._index.set_meta(m__rows=count)

    def _recheck_recent_messages(self, history) -> None:
        rows = self._rows(
            history,
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE {_IN_TYPES} ORDER BY rowid DESC LIMIT ?",
            (*_TYPES, TAIL_ROWS),
        )
        self._reindex_changed([MessageRow(*r) for r in reversed(rows)])

    def _sweep_older_messages(self, history) -> None:
        """Re-check the next SWEEP_ROWS indexed messages after the last swept one: an old message
        rewritten in place (by an import or another tool) is caught within rows / SWEEP_ROWS commits."""
        after = self._index.meta_int("m.swept")
        rows = self._rows(
            history,
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE rowid > ? AND rowid <= ? AND {_IN_TYPES} ORDER BY rowid LIMIT ?",
            (after, self._index.meta_int("m.max_src"), *_TYPES, SWEEP_ROWS),
        )
        self._reindex_changed([MessageRow(*r) for r in rows])
        swept = rows[-1][0] if rows and len(rows) == SWEEP_ROWS else 0  # the end: the next sweep starts over
        if swept != after:
            with self._index.peewee.atomic("IMMEDIATE"):
                self._index.set_meta(m__swept=swept)

    def _reindex_changed(self, rows: list[MessageRow]) -> None:
        """Re-index those of `rows` (oldest first) whose text no longer matches the indexed fingerprint."""
        if not rows:
            return
        known = dict(self._index.execute(
            f"SELECT src, fp FROM {MESSAGES.table('docs')} WHERE src BETWEEN ? AND ?", (rows[0].rowid, rows[-1].rowid)
        ))
        changed = [row for row in rows if row.rowid in known and known[row.rowid] != fingerprint(row.content)]
        if changed:
            with self._index.peewee.atomic("IMMEDIATE"):
                self._index.forget(MESSAGES, [row.rowid for row in changed])
                self._messages.add(changed, advance=False, largest_merge=self._largest_merge)

    def _message_rows(self, rowids: list[int], history) -> list[MessageRow]:
        """The rows with these rowids, oldest first, so each turn follows the one before it."""
        found: list[MessageRow] = []
        for chunk in sql_batches(rowids):
            sql = f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE rowid IN ({marks(chunk)})"
            found += [MessageRow(*r) for r in self._rows(history, sql, chunk)]
        return sorted(found, key=lambda row: (row.created_at, row.rowid))

    def _sync_sessions(self, history) -> None:
        state = "/".join(map(str, self._rows(history, "SELECT max(rowid), count(*), max(updated_at) FROM sessions")[0]))
        if state == self._index.meta("s.state"):
            return
        self._rebuild_if_mostly_orphans(SESSIONS)
        rows = self._rows(history, "SELECT rowid, id, updated_at, title, last_message_preview FROM sessions")
        current = {r[0]: r for r in rows}
        with self._index.peewee.atomic("IMMEDIATE"):
            known = dict(self._index.execute(f"SELECT src, fp FROM {SESSIONS.table('docs')}"))
            stale = {src for src, fp in known.items() if src not in current or fingerprint(*current[src][3:]) != fp}
            self._index.forget(SESSIONS, sorted(stale))
            self._add(SESSIONS, [_session_doc(*r) for r in rows if r[0] not in known or r[0] in stale])
            self._index.set_meta(s__state=state)

    def _rebuild_if_mostly_orphans(self, kind: DocKind) -> None:
        live = self._index.execute(f"SELECT count(*) FROM {kind.table('docs')}")[0][0]
        if self._index.meta_int(f"{kind.prefix}.orphans") > max(5_000, live):
            self._reset(kind)

    def _reset(self, kind: DocKind) -> None:
        with self._index.peewee.atomic("IMMEDIATE"):
            index_schema.drop_kind(self._index, kind)
            index_schema.create_kind(self._index, kind)
            if kind is MESSAGES:
                self._index.execute(f"DELETE FROM {LAST_TURNS}")
