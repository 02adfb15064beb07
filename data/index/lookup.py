"""KeywordLookup: the keyword index as a search sees it. Before each search it looks, in constant
time, whether the index took in every row of the history; when not, it starts a maintenance build in
the background and says which rows the search must read itself. The one build a search makes is the
first of a small history, which it then answers from the index; no search waits for a background
build (Q-11, Q-15).

It is also the DAOs' LiteralIndex: trigram candidates for the spec's literal reading (AC-07, AC-08).
"""
from __future__ import annotations

import logging
import threading
import time

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.literal_index import MESSAGES as MESSAGE_TABLE
from oneclaw_search.data.history.literal_index import UNINDEXED_SECONDS, Unindexed
from oneclaw_search.data.history.raw_sql import execute_sql
from oneclaw_search.data.index.background import BUSY, BackgroundBuild
from oneclaw_search.data.index.index_state import IndexState, Reach, describe
from oneclaw_search.data.index.keyword_index import KeywordIndex
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS
from oneclaw_search.data.index.side_index import SideIndex, damaged, damaged_index
from oneclaw_search.data.index.sync import IndexSync
from oneclaw_search.data.index.trigram_search import literal_rowids, literal_share
from oneclaw_search.domain.clock import Deadline, PerSearch
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, WindowLayout

_log = logging.getLogger(__name__)
# The first search on a history whose index holds nothing has the index built and waits for it when the
# history is at most this many rows: a build of seconds, the price of a first answer exactly as the
# index gives it (docs/performance.md); a count, not a timed guess, keeps the answer the same on a
# fast machine and a slow one.
FIRST_BUILD_ROWS = 50_000
# Indexed messages a search also reads itself while the history changed since the index caught up: the
# newest turns, where a streamed reply is edited in place (older edits wait for the maintenance build).
EDITED_READS = 64
OTHER_BUILD_POLL_SECONDS = 0.02  # how often a first search looks whether another's first build has ended


UNUSABLE = IndexState(0, 0, usable=False)


class KeywordLookup:
    @classmethod
    def open(cls, history: HistoryDatabase, side: SideIndex, build_command: list[str] | None = None,
             layout: WindowLayout = DEFAULT_WINDOW) -> KeywordLookup:
        """The lookup of `history`'s keyword index, kept beside `side` (build_command:
        background.build_command for a build in its own process, else a thread's), its messages'
        windows written as `layout` says."""
        keyword = KeywordIndex(side.keyword_folder, layout)
        return cls(keyword, IndexSync(history, keyword, side), history, build_command)

    def __init__(self, keyword: KeywordIndex, sync: IndexSync, history: HistoryDatabase,
                 build_command: list[str] | None = None) -> None:
        self.keyword = keyword
        self.sync = sync
        self._history = history
        self.builder = BackgroundBuild(sync, build_command)
        self._lock = threading.Lock()
        self._state_for: Deadline | None = None
        self._token: tuple[object, ...] | None = None
        self.state_now = UNUSABLE
        self.reach_now = Reach()
        self._reaches: PerSearch[Reach] = PerSearch()
        self.first_build_rows = FIRST_BUILD_ROWS
        self.read_seconds = UNINDEXED_SECONDS

    def reindex(self, rowids: list[int]) -> None:
        """Messages a search found edited since they were indexed: the next catch-up takes them in."""
        with self._lock:
            self.sync.reindex(rowids)
            self._token = None
        self.builder.start()

    def describe(self, deadline: Deadline | None = None) -> str | None:
        """Progress: how far the index had come in the search with this deadline (the latest one
        without), and how far that search read past it (None: it read every row the index lacks)."""
        with self._lock:
            reach = self._reaches.get(deadline, Reach()) if deadline is not None else self.reach_now
            return describe(self.state_now, reach)

    def state(self, deadline: Deadline | None) -> IndexState:
        """The index as this search reads it: the sources of one search share one deadline, so one look."""
        with self._lock:
            if deadline is None or deadline is not self._state_for:
                self.state_now, self.reach_now = self._look(deadline), Reach()
                self._state_for = deadline
                if deadline is not None:  # for as long as its search may still reply
                    self._reaches.put(deadline, self.reach_now)
            return self.state_now

    def reached(self, deadline: Deadline | None, messages: int | None, whole: bool) -> None:
        """What one of this search's sources read of the rows the index lacks (messages: how many)."""
        with self._lock:
            reach = self._reaches.get(deadline, self.reach_now) if deadline is not None else self.reach_now
            reach.messages = max(reach.messages, messages or 0)  # a respelled retry reads the same rows again
            reach.whole &= whole

    def scan_cut_short(self, deadline: Deadline | None) -> None:
        """LiteralIndex: the scan of the rows this index lacks ran out of time before it read them all."""
        self.reached(deadline, None, False)

    def _look(self, deadline: Deadline | None) -> IndexState:
        try:
            token = self._history.change_token()
            if token == self._token and self.state_now.settled:
                return self.state_now  # nothing committed to the history since the index caught up
            top = self.sync.settled(token)
            state = self._behind() if top is None else None
            if state is not None and self._built_here(state, token, deadline):
                top, state = self.sync.settled(token), None
            if top is not None:  # caught up with this very history, as an earlier catch-up left it
                self.keyword.refresh()
                self._token = token
                return IndexState(top, top, settled=True)
            state = state or self._behind()  # the history changed while this search built its index
            self.builder.start()
            self.keyword.refresh()
            return state
        except (ValueError, OSError, pw.DatabaseError) as error:  # damaged: built anew in the background
            return self._started_over(error) if damaged_index(error) else self._unusable(error)

    def _built_here(self, state: IndexState, token: tuple[object, ...], deadline: Deadline | None) -> bool:
        """Whether the index of a small history whose index held nothing is built now: this search had
        it built, or waited for the first build another search runs (for at most half the time it has
        left), so two first searches side by side answer alike."""
        if state.read or state.top > self.first_build_rows:
            return False
        timeout = deadline.remaining() / 2 if deadline is not None else UNINDEXED_SECONDS
        until = time.monotonic() + timeout
        outcome = self.builder.build_now(state.top, timeout)
        while outcome is BUSY and self.sync.settled(token) is None and time.monotonic() < until:
            time.sleep(OTHER_BUILD_POLL_SECONDS)
        return self.sync.settled(token) is not None

    def _behind(self) -> IndexState:
        """How far the index is behind the history: two short reads of each, no scan."""
        noted = self.sync.side.meta("s.state")
        with self._history.connected() as history:
            top = execute_sql(history, "SELECT max(rowid) FROM messages").fetchone()[0] or 0
            sessions = "/".join(map(str, (value or 0 for value in execute_sql(
                history, "SELECT max(rowid), count(*), max(updated_at) FROM sessions").fetchone())))
        changed = None
        if sessions != noted:
            rowid, _, active = map(int, noted.split("/")) if noted else (0, 0, 0)
            changed = Unindexed(rowid, active if noted else None)
        return IndexState(self.sync.read_up_to(), top, changed)

    def _started_over(self, damage: Exception) -> IndexState:
        """A damaged folder or side file, built anew in the background (the side file goes too when
        it is itself damaged, or turns out to be once the folder is dropped)."""
        _log.warning("keyword index %s damaged, building it anew: %s", self.keyword.folder, damage)
        side_file = isinstance(damage, pw.DatabaseError)
        try:
            try:
                self.sync.start_over(side_file)
                self.sync.prepare()
            except pw.DatabaseError as error:
                if side_file or not damaged(error):
                    raise
                self.sync.start_over(side_file=True)
                self.sync.prepare()
            self.builder.start()
            return self._behind()
        except (OSError, ValueError, pw.DatabaseError) as error:
            return self._unusable(error)

    def _unusable(self, error: Exception) -> IndexState:
        # An index we cannot open or write (read-only folder, full disk) must not fail the search.
        _log.warning("keyword index %s unusable, scanning instead: %s", self.keyword.folder, error)
        return UNUSABLE

    def literal_rowids(self, table: str, needle: str, after: int, before: int, limit: int, offset: int = 0,
                       within: Within | None = None, deadline: Deadline | None = None, by_words: bool = False) -> list[int] | None:
        """LiteralIndex: trigram candidates (or phrase hits), or None while the index cannot be read."""
        if not self.state(deadline).usable:
            return None
        kind = MESSAGES if table == MESSAGE_TABLE else SESSIONS
        return literal_rowids(self.keyword, kind, needle, after, before, limit, offset, within, by_words)

    def share(self, table: str, needle: str, deadline: Deadline | None = None) -> float | None:
        """LiteralIndex: the share of rows holding the needle's rarest gram, while the index is usable."""
        if not self.state(deadline).usable:
            return None
        return literal_share(self.keyword, MESSAGES if table == MESSAGE_TABLE else SESSIONS, needle)

    def unindexed(self, table: str, deadline: Deadline | None = None) -> Unindexed | None:
        """LiteralIndex: the messages above the rowid the index read, or the sessions changed since it
        took them in."""
        state = self.state(deadline)
        if table == MESSAGE_TABLE:
            return Unindexed(state.read) if state.read < state.top else None
        return state.sessions
