"""IndexSync: brings the keyword index up to date with the history (Q-11).

New messages are everything above the newest row read, written with their windows (the turns whose
windows now reach them written again); deleted ones show as a row count that no longer adds up;
edits show as a changed fingerprint of a row's text or of its neighbours' (the newest TAIL_ROWS
messages every time, older ones SWEEP_ROWS at a time in turn); sessions are compared whole whenever
their table changed. Each step may stop between batches: a later catch-up, here or in another process,
resumes from tantivy's last commit.
"""
from __future__ import annotations

import json
from collections.abc import Callable

import peewee as pw
import tantivy

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.raw_sql import execute_sql, fetch_all
from oneclaw_search.data.index.documents import MESSAGE_COLUMNS, SEARCHABLE_TYPES, MessageRow
from oneclaw_search.data.index.edits import Reconciler
from oneclaw_search.data.index.keyword_index import KeywordIndex
from oneclaw_search.data.index.message_writes import MessageWrites
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.data.index.windows import with_windows
from oneclaw_search.domain.errors import HistoryChanged

BATCH_ROWS = 10_000
COMMIT_ROWS = 100_000  # a build commits this often: what a killed build loses
KEYWORDS = "keywords"  # the stage a catch-up reports progress of
Progress = Callable[[str, int, int], None]  # (stage, highest rowid read, highest rowid in the history)


class IndexSync:
    def __init__(self, history: HistoryDatabase, keyword: KeywordIndex, side: SideIndex) -> None:
        self._history = history
        self._keyword = keyword
        self.side = side
        self._prepared = False

    def prepare(self) -> None:
        """Make the side file's tables; a file started over takes the keyword index along, and
        notes about an index that is gone (its folder deleted) are forgotten."""
        if not self._prepared:
            if self.side.ensure_schema(str(self._history.info.path.resolve())):
                self._keyword.drop()
            elif self._keyword.searcher(MESSAGES, fresh=True).num_docs == 0 and self.read_up_to():
                with self.side.peewee.atomic("IMMEDIATE"):
                    self.side.execute("DELETE FROM meta WHERE key IN ('m.read', 'm.count', 'm.swept', 's.state', 'h.synced')")
            self._prepared = True

    def reindex(self, rowids: list[int]) -> None:
        """Note messages to index again (edited in place); the index no longer counts as settled."""
        stale = self.side.meta("m.stale")
        noted: set[int] = set(json.loads(stale)) if stale is not None else set()
        with self.side.peewee.atomic("IMMEDIATE"):
            self.side.set_meta(m__stale=json.dumps(sorted(noted | set(rowids))))
            self.side.execute("DELETE FROM meta WHERE key = 'h.synced'")

    def start_over(self, side_file: bool = False) -> None:
        """Drop the keyword index (a damaged folder), and the side file too when `side_file` (damaged
        itself): the next look finds them empty and builds them anew."""
        self._keyword.drop()
        if side_file:
            self.side.start_over()
        self._prepared = False

    def backlog(self) -> tuple[int, int]:
        """(rowid the index has read up to, highest rowid in the history)."""
        self.prepare()
        with self._history.connected() as history:
            top = _newest(history)
        return self.read_up_to(), top

    def read_up_to(self) -> int:
        """The highest history rowid the committed index has read (messages not searched included),
        as noted after each commit."""
        return self.side.meta_int("m.read")

    def settled(self, token: tuple[object, ...]) -> int | None:
        """The history's highest rowid when the index took in every commit up to the
        history's `token` (this process or an earlier one), else None: a new process on an
        unchanged history need not read it at all."""
        self.prepare()
        noted = self.side.meta("h.synced")
        if noted is None or noted.partition("|")[2] != repr(token):
            return None
        return int(noted.partition("|")[0])

    def catch_up(self, stop: Callable[[], bool] = lambda: False, progress: Progress | None = None) -> bool:
        """Index what changed; False when `stop` said so first. Raises WriterBusy while another
        process writes the index. A catch-up that saw the history written to while it read goes once
        more (what it committed stays; the history is then read with locks), so a busy writer does not
        leave the index behind until the next build."""
        try:
            return self._catch_up(stop, progress)
        except HistoryChanged:
            pass  # out of the handler first: its traceback would keep the index's writer, and its lock
        return self._catch_up(stop, progress)

    def _catch_up(self, stop: Callable[[], bool], progress: Progress | None) -> bool:
        self.prepare()
        token = self._history.change_token()
        if self.settled(token) is not None:
            return True
        with self._history.connected() as history:
            Reconciler(history, self._keyword, self.side, SESSIONS).sessions()
            messages = Reconciler(history, self._keyword, self.side, MESSAGES)
            counted = messages.deleted_messages(self.read_up_to())
            if not self._append_messages(history, counted, stop, progress):
                return False
            messages.edited_messages(self.read_up_to())
        with self.side.peewee.atomic("IMMEDIATE"):
            self.side.set_meta(h__synced=f"{self.read_up_to()}|{token!r}")
        return True

    def verify(self) -> int:
        """Compare every indexed message with the history, not only the newest and a slice of the
        rest (`oneclaw-search index`); how many had been edited in place. Nothing to compare when the
        history is as it was at the last comparison."""
        self.prepare()
        token = repr(self._history.change_token())
        if self.side.meta("h.verified") == token:
            return 0
        with self._history.connected() as history:
            edited = Reconciler(history, self._keyword, self.side, MESSAGES).every_edit(self.read_up_to())
        with self.side.peewee.atomic("IMMEDIATE"):
            self.side.set_meta(h__verified=token)
        return edited

    def _append_messages(self, history: pw.Database, counted: int, stop: Callable[[], bool], progress: Progress | None) -> bool:
        """Index the rows above the one read last. `counted`: the history's rows up to it when this
        catch-up compared them; each commit notes that count and the rows read since, not a count taken
        then, so a row deleted below meanwhile (which the index still holds) leaves the next look's
        count short and is found."""
        start = done = self.read_up_to()
        top = _newest(history)
        if done >= top:
            return True
        self._keyword.drop_above(MESSAGES, start)
        writer = self._keyword.writer(MESSAGES)
        writes = MessageWrites(history, writer, self._keyword.layout)
        pending, finished = 0, True
        while done < top:
            if stop():
                finished = False
                break
            rows = fetch_all(history, f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?", (done, BATCH_ROWS))
            if not rows:
                break
            turns = [MessageRow(*row) for row in rows if row[3] in SEARCHABLE_TYPES]
            writes.add(with_windows(history, turns, writes.layout.reach), done)
            done, pending, counted = rows[-1][0], pending + len(rows), counted + len(rows)
            if pending >= COMMIT_ROWS:
                self._commit(writer, done, counted)
                pending = 0
            if progress is not None:
                progress(KEYWORDS, done, top)
        self._commit(writer, done, counted, last=True)
        return finished

    def _commit(self, writer: tantivy.IndexWriter, done: int, counted: int, last: bool = False) -> None:
        """Commit, then note how far the history was read and how many of its rows up to there the index took in."""
        self._keyword.commit(MESSAGES, writer, last)
        with self.side.peewee.atomic("IMMEDIATE"):
            self.side.set_meta(m__read=done, m__count=counted)


def _newest(history: pw.Database) -> int:
    newest: int = execute_sql(history, "SELECT max(rowid) FROM messages").fetchone()[0] or 0
    return newest
