"""MessageIndexer: turns message rows into index documents: terms, a link to the turn before, a vector.

A conversational answer rarely repeats the question it answers, so each message is also found
through the previous turn of its session (on LoCoMo this lifts plain BM25 R@10 from 0.57 to
0.68, issue 3); readers take that turn's words from its own postings, by the link. The last
indexed turn of every session is kept in the side index for the next batch.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from oneclaw_search.data.batch_preparer import BatchPreparer, Pending, Prepared, fingerprint, prepare
from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.index_docs import MESSAGES, IndexedDoc
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES
from oneclaw_search.domain.ports import Embedder
from oneclaw_search.domain.text import fold

LAST_TURNS = "m_last"
MESSAGE_COLUMNS = "rowid, id, session_id, created_at, content"
SEARCHABLE_TYPES = tuple(kind.value for kind in SEARCHABLE_MESSAGE_TYPES)


class MessageRow(NamedTuple):  # a tuple: a build makes a million of them
    rowid: int
    id: str
    session_id: str
    created_at: int
    content: str


class MessageBatch(NamedTuple):
    last: int  # the highest history rowid read
    size: int  # rows read, searchable or not
    searchable: list[MessageRow]  # oldest first
    prepared: Pending  # batch_preparer.prepare of their contents


class MessageIndexer:
    def __init__(self, index: SideIndex, embedder: Embedder | None) -> None:
        self._index = index
        self._embedder = embedder

    def create_tables(self) -> None:
        self._index.execute(
            f"CREATE TABLE IF NOT EXISTS {LAST_TURNS} (session TEXT PRIMARY KEY, src INTEGER, at INTEGER)"
        )

    def next_batch(self, history, after: int, size: int, preparer: BatchPreparer) -> MessageBatch | None:
        """Up to `size` history rows after rowid `after`, already being prepared by `preparer`."""
        rows = history.execute_sql(
            f"SELECT type, {MESSAGE_COLUMNS} FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?", (after, size)
        ).fetchall()
        if not rows:
            return None
        searchable = sorted((MessageRow(*r[1:]) for r in rows if r[0] in SEARCHABLE_TYPES), key=lambda m: (m.created_at, m.rowid))
        return MessageBatch(rows[-1][1], len(rows), searchable, preparer.submit([row.content for row in searchable]))

    def add(self, rows: Sequence[MessageRow], *, advance: bool = True, prepared: Prepared | None = None,
            largest_merge: int | None = None, bulk: bool = False) -> int:
        """Index `rows` (oldest first). With `advance` they are new turns, each linked to its
        session's last turn and then becoming it; without (a re-indexed edit, a row found missing)
        they are linked to nothing, as each turn must be the turn before of one row at most.
        `prepared` is `prepare` of their contents when it was already made."""
        prepared = prepared or prepare([row.content for row in rows], self._embedder)
        last = self._last_turns({row.session_id for row in rows}) if advance else {}
        docs = []
        for row, vector in zip(rows, prepared.vectors or [None] * len(rows)):
            previous = last.get(row.session_id)
            earlier = previous is not None and previous[0] != row.rowid and previous[1] <= row.created_at
            docs.append(IndexedDoc(row.rowid, row.id, row.created_at, fingerprint(row.content), (), (fold(row.content),),
                                   vector, previous[0] if earlier else 0))
            if advance and (previous is None or earlier):
                last[row.session_id] = (row.rowid, row.created_at)
        if advance:
            self._index.peewee.connection().executemany(
                f"INSERT OR REPLACE INTO {LAST_TURNS} (session, src, at) VALUES (?, ?, ?)",
                [(session, *turn) for session, turn in last.items()],
            )
        return self._index.add(MESSAGES, docs, largest_merge, prepared.terms, bulk)

    def _last_turns(self, sessions: set[str]) -> dict[str, tuple[int, int]]:
        found: dict[str, tuple[int, int]] = {}
        for chunk in sql_batches(sorted(sessions)):
            rows = self._index.execute(f"SELECT session, src, at FROM {LAST_TURNS} WHERE session IN ({marks(chunk)})", chunk)
            found.update((row[0], tuple(row[1:])) for row in rows)
        return found


class ReadAhead:
    """Batches read and handed to the preparer `depth` ahead of the one being written. With two,
    the preparing process still has a batch queued while this one prepares a batch itself."""

    def __init__(self, indexer: MessageIndexer, history, top: int, size: int, preparer: BatchPreparer, depth: int) -> None:
        self._indexer, self._history, self._top, self._size = indexer, history, top, size
        self._preparer, self._depth = preparer, depth
        self._ahead: deque[tuple[int, MessageBatch]] = deque()  # each batch with the rowid it was read after

    def take(self, done: int) -> MessageBatch | None:
        """The batch after history rowid `done` (batches read ahead from elsewhere are dropped:
        another process indexed them meanwhile), with the next ones already on their way."""
        if self._ahead and self._ahead[0][0] != done:
            self._ahead.clear()
        self._fill(done, 1)
        if not self._ahead:
            return None
        _, batch = self._ahead.popleft()
        self._fill(batch.last, self._depth)
        return batch

    def _fill(self, after: int, count: int) -> None:
        last = self._ahead[-1][1].last if self._ahead else after
        while len(self._ahead) < count and last < self._top:
            batch = self._indexer.next_batch(self._history, last, self._size, self._preparer)
            if batch is None:
                return
            self._ahead.append((last, batch))
            last = batch.last
