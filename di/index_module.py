"""IndexModule: the message and session DAOs and their search, over the keyword index, or the spec's
scans without one.

`index_path="auto"` puts the side file (and the tantivy folder named after it) beside a history
this project created and in the user's cache for any other; a path puts it there; None keeps the
spec's literal scans (data/index/side_index.py decides where).
"""
from __future__ import annotations

from dataclasses import dataclass

from injector import Module, provider, singleton

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.data.history.session_dao import PeeweeSessionDao
from oneclaw_search.data.index.background import build_command
from oneclaw_search.data.index.indexed_search import IndexedMessageSearch, IndexedSessionSearch
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.side_index import SideIndex, side_index_location
from oneclaw_search.data.index.snapshot_store import SideSnapshotStore
from oneclaw_search.data.index.summary_cache import MemorySummaryCache, SideSummaryCache
from oneclaw_search.data.index.vocabulary import keyword_vocabulary
from oneclaw_search.di.memory_module import MemoryStorage
from oneclaw_search.di.settings import Settings
from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.ports import MessageDao, MessageSearch, Progress, SessionDao, SessionSearch, Vocabulary
from oneclaw_search.domain.session_summary import SummaryCache


@dataclass(frozen=True)
class IndexParts:
    """The keyword index's lookup and its side file, or None when search runs the spec's scans alone."""

    lookup: KeywordLookup | None
    side: SideIndex | None = None


@dataclass(frozen=True)
class HistoryRows:
    """This package's DAOs over the history, which the keyword index hydrates its hits through."""

    messages: PeeweeMessageDao
    sessions: PeeweeSessionDao


@dataclass(frozen=True)
class SearchBackends:
    messages: MessageSearch
    sessions: SessionSearch
    vocabulary: Vocabulary | None
    progress: Progress | None = None


class IndexModule(Module):
    @singleton
    @provider
    def provide_index_parts(self, database: HistoryDatabase, settings: Settings) -> IndexParts:
        location = side_index_location(settings.index_path, database)
        if location is None:
            return IndexParts(None)
        side = SideIndex(location)
        layout = settings.ranking.window
        return IndexParts(KeywordLookup.open(database, side, build_command(database.info.path, location, layout), layout), side)

    @singleton
    @provider
    def provide_history_rows(self, database: HistoryDatabase, index: IndexParts) -> HistoryRows:
        return HistoryRows(PeeweeMessageDao(database, index.lookup), PeeweeSessionDao(database, index.lookup))

    @singleton
    @provider
    def provide_message_dao(self, rows: HistoryRows) -> MessageDao:
        return rows.messages

    @singleton
    @provider
    def provide_session_dao(self, rows: HistoryRows) -> SessionDao:
        return rows.sessions

    @singleton
    @provider
    def provide_backends(self, parts: IndexParts, message_dao: MessageDao, session_dao: SessionDao,
                         rows: HistoryRows, settings: Settings) -> SearchBackends:
        """The spec's scans over the DAO ports without an index (`index_path=None`); with one, the
        keyword index over this package's own DAOs, which read the rows it points to."""
        if parts.lookup is None:
            layout = settings.ranking.window
            return SearchBackends(LiteralMessageSearch(message_dao, layout), LiteralSessionSearch(session_dao), None)
        message_dao, session_dao = rows.messages, rows.sessions
        return SearchBackends(
            IndexedMessageSearch(parts.lookup, message_dao, session_dao),
            IndexedSessionSearch(parts.lookup, session_dao),
            keyword_vocabulary(parts.lookup, message_dao, session_dao),
            parts.lookup,
        )

    @singleton
    @provider
    def provide_memory_storage(self, database: HistoryDatabase, parts: IndexParts) -> MemoryStorage:
        """Memory's snapshot is kept in the side index, when there is one, for the next process."""
        return MemoryStorage(database.info.embedder, SideSnapshotStore(parts.side) if parts.side is not None else None)

    @singleton
    @provider
    def provide_summary_cache(self, parts: IndexParts) -> SummaryCache:
        return SideSummaryCache(parts.side) if parts.side is not None else MemorySummaryCache()



class SearchPortsModule(Module):
    """The MessageSearch and SessionSearch ports, from whichever backend provides SearchBackends, each
    as the host's source_wrapper returns it."""

    @singleton
    @provider
    def provide_message_search(self, backends: SearchBackends, settings: Settings) -> MessageSearch:
        return settings.wrapped("messages", backends.messages)  # type: ignore[no-any-return]

    @singleton
    @provider
    def provide_session_search(self, backends: SearchBackends, settings: Settings) -> SessionSearch:
        return settings.wrapped("sessions", backends.sessions)  # type: ignore[no-any-return]
