"""KeywordIndex: the tantivy indexes (messages/, sessions/) of one history, in one folder (Q-11, Q-12).

Opened once per process, with our analyzers registered on every open. One writer per index at a
time, across processes (tantivy's lock): a process that cannot get it only reads, and sees the
writer's commits when it reloads.
"""
from __future__ import annotations

import shutil
import threading
from pathlib import Path

import tantivy

from oneclaw_search.data.index.live_counts import LiveStatistics, write_whole
from oneclaw_search.data.index.schema import MESSAGES, ROWID, SESSIONS, IndexKind
from oneclaw_search.data.text.analyzer import register
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, WindowLayout

FORMAT = "tantivy-9"  # bump whenever fields or analyzers change: older folders are built anew
_FORMAT_FILE = "FORMAT"
WRITER_HEAP = 256_000_000
WRITER_THREADS = 2


class WriterBusy(Exception):
    """Another writer (another process, usually) holds this index's lock."""


class KeywordIndex:
    def __init__(self, folder: Path, layout: WindowLayout = DEFAULT_WINDOW) -> None:
        """`layout`: how each message's window is written; a folder written with another is built anew."""
        self.folder = folder
        self.layout = layout
        self._format = f"{FORMAT} window {layout.token}"
        self._lock = threading.Lock()
        self._indexes: dict[str, tantivy.Index] = {}
        self.live = LiveStatistics(folder)

    def open(self, kind: IndexKind) -> tantivy.Index:
        with self._lock:
            if kind.name not in self._indexes:
                self._indexes[kind.name] = self._open(kind)
            return self._indexes[kind.name]

    def _open(self, kind: IndexKind) -> tantivy.Index:
        folder = self.folder / kind.name
        marker = self.folder / _FORMAT_FILE
        written = marker.read_text() if marker.exists() else ""
        if written and written != self._format:
            shutil.rmtree(self.folder, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        if written != self._format:
            write_whole(marker, self._format)
        index = tantivy.Index(kind.schema, path=str(folder), reuse=True)
        register(index)
        return index

    def searcher(self, kind: IndexKind, fresh: bool = False) -> tantivy.Searcher:
        """A searcher over the commit last reloaded (`refresh`), or over the latest one when `fresh`."""
        index = self.open(kind)
        if fresh:
            index.reload()
        return index.searcher()

    def refresh(self) -> None:
        """See the latest commits, this process's or another's: once per search, not per question.
        Raises ValueError when an index cannot be read."""
        for kind in KINDS:
            self.open(kind).reload()
            self.searcher(kind)

    def writer(self, kind: IndexKind) -> tantivy.IndexWriter:
        """This index's one writer; raises WriterBusy when another holds the lock."""
        try:
            return self.open(kind).writer(heap_size=WRITER_HEAP, num_threads=WRITER_THREADS)
        except ValueError as error:
            if "lock" in str(error).lower():
                raise WriterBusy(str(error)) from error
            raise

    def commit(self, kind: IndexKind, writer: tantivy.IndexWriter, last: bool = True) -> None:
        """Commit `writer`'s changes (the `last` of its commits: its merges awaited and the writer let go),
        then note the live documents' totals as the index now shows them (live_counts.py)."""
        writer.commit()
        if last:
            writer.wait_merging_threads()
        self.live.note(self.searcher(kind, fresh=True), kind)

    def drop_above(self, kind: IndexKind, rowid: int) -> None:
        """Delete the documents past `rowid`: what a build committed but had not yet noted as read
        when it was killed, so resuming from the note adds nothing twice."""
        above = tantivy.Query.range_query(kind.schema, ROWID, tantivy.FieldType.Unsigned, rowid + 1, None)
        if not self.searcher(kind, fresh=True).search(above, 1, count=False).hits:
            return  # the usual case: nothing to take back, and no writer to open
        writer = self.writer(kind)
        writer.delete_documents_by_query(above)
        self.commit(kind, writer)

    def drop(self) -> None:
        """Forget every index (another history, or a broken folder): the next open starts afresh."""
        with self._lock:
            self._indexes.clear()
            shutil.rmtree(self.folder, ignore_errors=True)


KINDS = (MESSAGES, SESSIONS)
