"""KeywordLookup: the keyword index as searches see it. Before a search it is caught up in place
when little is new, or built in the background when much is; a search never waits for a build
and reads the index as far as its last commit, saying how far that is (Q-11, Q-15).

It also answers the DAOs' literal test (AC-07, AC-08) from trigram candidates re-checked against the
history, with the rows the index has not read yet scanned directly for at most half a second.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

import peewee as pw

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.index.background import BackgroundBuild
from oneclaw_search.data.index.edits import Reconciler
from oneclaw_search.data.index.keyword_index import KeywordIndex, WriterBusy
from oneclaw_search.data.index.keyword_search import literal_rowids
from oneclaw_search.data.index.schema import SESSIONS, IndexKind
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.data.index.sync import IndexSync
from oneclaw_search.domain.clock import Deadline, SearchTimedOut
from oneclaw_search.domain.message_filter import Within

if TYPE_CHECKING:  # named in annotations only: keeping the keyword index up needs no numpy
    from oneclaw_search.data.index.vectors import MessageVectors

_log = logging.getLogger(__name__)
SYNC_ROWS = 20_000  # a backlog this small is indexed before the search: well under a second
TAIL_SCAN_SECONDS = 0.5  # the rows a build has not reached yet are scanned for at most this long
# Candidates read beyond the hits wanted: trigram candidates rarely fail the re-check, and the
# second, larger page keeps "newest first" exact unless a text is nearly everywhere.
_SLACK, _CANDIDATES_PER_HIT, _MIN_CANDIDATES = 50, 4, 1_000


@dataclass(frozen=True)
class IndexState:
    read: int  # the history rowid the message index has read up to
    top: int  # the history's highest rowid
    sessions_ready: bool = True
    usable: bool = True  # False: the index could not be opened or written; searches scan

    @property
    def complete(self) -> bool:
        return self.usable and self.read >= self.top and self.sessions_ready

    def describe(self) -> str | None:
        """None when complete, else how far the index has read ('building 37 %')."""
        if self.complete or not self.usable:
            return None
        return f"building {int(100 * self.read / self.top) if self.top else 0} %"


class Hit(Protocol):
    """A message or session hit, as the literal test sorts them."""

    @property
    def id(self) -> str: ...

    @property
    def at_ms(self) -> int: ...


H = TypeVar("H", bound=Hit)


class HitsByRowid(Protocol[H]):
    """A DAO's hits_by_rowid: the live rows among `rowids` in the window, as hits by rowid."""

    def __call__(self, rowids: Sequence[int], after: int, before: int, /, *,
                 deadline: Deadline | None = None) -> dict[int, H]: ...


class KeywordLookup:
    @classmethod
    def open(cls, history: HistoryDatabase, side: SideIndex, vectors: MessageVectors | None = None,
             build_command: list[str] | None = None) -> KeywordLookup:
        """The lookup of `history`'s keyword index, kept beside `side` (vectors: its MessageVectors;
        build_command: background.build_command for a build in its own process, else a thread's)."""
        keyword = KeywordIndex(side.keyword_folder)
        return cls(keyword, IndexSync(history, keyword, side, vectors), history, build_command)

    def __init__(self, keyword: KeywordIndex, sync: IndexSync, history: HistoryDatabase,
                 build_command: list[str] | None = None) -> None:
        self.keyword = keyword
        self.sync = sync
        self._history = history
        self.builder = BackgroundBuild(sync, build_command)
        self._lock = threading.Lock()
        self._state_for: Deadline | None = None
        self._token: tuple[object, ...] | None = None
        self.state_now = IndexState(0, 0, usable=False)

    def reindex(self, rowids: list[int]) -> None:
        """Messages a search found edited since they were indexed: the next catch-up takes them in."""
        with self._lock:
            self.sync.reindex(rowids)
            self._token = None

    def describe(self) -> str | None:
        """How far the index had come in the latest search (None: it covered the whole history)."""
        return self.state_now.describe()

    def state(self, deadline: Deadline | None) -> IndexState:
        """The index ready for this search: the sources of one search share one deadline, so one look."""
        with self._lock:
            if deadline is None or deadline is not self._state_for:
                self.state_now = self._prepare()
                self._state_for = deadline
            return self.state_now

    def _prepare(self, repair: bool = True) -> IndexState:
        try:
            token = self._history.change_token()
            if token == self._token and self.state_now.complete:
                return self.state_now  # nothing committed to the history since the index was last complete
            top = self.sync.settled(token)
            if top is not None:  # complete for this very history, as an earlier catch-up left it
                self.keyword.refresh()
                self._token = token
                return IndexState(top, top)
            sessions_ready = self._sessions()
            read, vectors, top = self.sync.backlog()
            if max(top - read, top - vectors) <= SYNC_ROWS and not self.builder.running:
                with suppress(WriterBusy):  # another process is writing: read its commits
                    self.sync.catch_up()
                read, vectors, top = self.sync.backlog()
            if read < top or vectors < top:
                self.builder.start()
            self.keyword.refresh()
            self._token = token
            return IndexState(read, top, sessions_ready)
        except ValueError as error:  # tantivy's word for a folder it cannot read: damaged, so built anew
            if repair and "os error" not in str(error):  # but a full disk or a refused write is no damage
                _log.warning("keyword index %s damaged, building it anew: %s", self.keyword.folder, error)
                return self._rebuilt()
            return self._unusable(error)
        except (OSError, pw.DatabaseError) as error:
            return self._unusable(error)

    def _rebuilt(self) -> IndexState:
        try:
            self.sync.start_over()
        except OSError as error:
            return self._unusable(error)
        return self._prepare(repair=False)

    def _unusable(self, error: Exception) -> IndexState:
        # An index we cannot open or write (read-only folder, full disk) must not fail the search.
        _log.warning("keyword index %s unusable, scanning instead: %s", self.keyword.folder, error)
        return IndexState(0, 0, usable=False)

    def _sessions(self) -> bool:
        """Sessions are few: they are compared whole before the search (False: another process holds them)."""
        self.sync.prepare()
        try:
            with self._history.connected() as history:
                Reconciler(history, self.keyword, self.sync.side, SESSIONS).sessions()
            return True
        except WriterBusy:
            return False

    def verified_literal(self, kind: IndexKind, needle: str, after: int, before: int, limit: int,
                         deadline: Deadline | None, fetch: HitsByRowid[H], holds: Callable[[H], bool],
                         scan: Callable[[int, Deadline | None], list[H]] | None = None,
                         within: Within | None = None) -> list[H] | None:
        """Up to `limit` rows holding `needle`, newest first: index candidates re-read by `fetch`
        (rowids, after, before → {rowid: hit}) and re-checked by `holds`, plus `scan` (above_rowid,
        deadline → hits) of the messages the index has not read (sessions are indexed whole before
        any search). None when the index cannot say (the caller scans it all)."""
        state = self.state(deadline)
        if not state.usable or (kind is SESSIONS and not state.sessions_ready):
            return None
        first, most = limit + _SLACK, max(limit * _CANDIDATES_PER_HIT, _MIN_CANDIDATES)
        rowids = literal_rowids(self.keyword, kind, needle, after, before, first, within=within)
        if rowids is None:
            return None

        def checked(page: list[int]) -> list[H]:
            return [hit for hit in fetch(page, after, before, deadline=deadline).values() if holds(hit)]

        hits = checked(rowids)
        if len(hits) < limit and len(rowids) == first:
            more = literal_rowids(self.keyword, kind, needle, after, before, most - first, first, within)
            hits += checked(more) if more is not None else []  # never None: the first page took this needle
        if scan is not None and state.read < state.top:
            hits += self._unread(scan, state.read, deadline)
        unique = {hit.id: hit for hit in hits}  # a row committed since the state was read comes twice
        return sorted(unique.values(), key=lambda hit: (-hit.at_ms, hit.id))[:limit]

    @staticmethod
    def _unread(scan: Callable[[int, Deadline | None], list[H]], above: int, deadline: Deadline | None) -> list[H]:
        if deadline is None:
            return scan(above, None)
        seconds = min(deadline.remaining(), TAIL_SCAN_SECONDS)
        try:
            return scan(above, Deadline(deadline.clock, deadline.clock.monotonic() + seconds))
        except SearchTimedOut:
            return []
