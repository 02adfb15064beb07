"""DatabaseModule: the opened history database, the memory DAO over it, read_session's reader and the
filtered search's rows (the message and session DAOs come with the side index: IndexModule).

Mirrors di/DatabaseModule.kt. The database is opened (and checked) before the container is
built, so no provider does I/O.
"""
from __future__ import annotations

from injector import Module, provider, singleton

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.filtered_history import PeeweeFilteredHistory
from oneclaw_search.data.history.memory_index_dao import PeeweeMemoryIndexDao
from oneclaw_search.data.history.session_reader import PeeweeSessionReader
from oneclaw_search.di.settings import Settings
from oneclaw_search.domain.focused_search import FocusedSearch
from oneclaw_search.domain.ports import MemoryIndexDao
from oneclaw_search.domain.session_reading import SessionReader
from oneclaw_search.domain.session_summary import SessionDirectory


class DatabaseModule(Module):
    def __init__(self, database: HistoryDatabase) -> None:
        self._database = database

    @singleton
    @provider
    def provide_database(self) -> HistoryDatabase:
        return self._database

    @singleton
    @provider
    def provide_memory_index_dao(self, database: HistoryDatabase) -> MemoryIndexDao:
        return PeeweeMemoryIndexDao(database)

    @singleton
    @provider
    def provide_session_reader(self, database: HistoryDatabase) -> SessionReader:
        return PeeweeSessionReader(database)

    @singleton
    @provider
    def provide_session_directory(self, database: HistoryDatabase) -> SessionDirectory:
        return PeeweeSessionReader(database)

    @singleton
    @provider
    def provide_focused_search(self, database: HistoryDatabase, settings: Settings) -> FocusedSearch:
        return FocusedSearch(PeeweeFilteredHistory(database), settings.ranking.window)
