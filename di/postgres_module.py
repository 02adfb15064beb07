"""PostgresModule: the PostgreSQL backend's DAOs, searches, readers and caches, bound in place of
DatabaseModule and IndexModule when the history is a postgresql:// URL.

Search runs on the server (tsvector, pg_trgm), so there is no side index and no catch-up:
a committed row is searchable at once. The history is opened, and its tenant checked, before the
container is built, so no provider does more I/O than reading one setting.
"""
from __future__ import annotations

from injector import Module, provider, singleton

from oneclaw_search.data.index.summary_cache import MemorySummaryCache
from oneclaw_search.data.postgres.daos import PostgresMemoryIndexDao, PostgresSessionDao
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.message_dao import PostgresMessageDao
from oneclaw_search.data.postgres.reader import PostgresFilteredHistory, PostgresSessionReader
from oneclaw_search.data.postgres.schema import check_tenant, stored_embedder
from oneclaw_search.data.postgres.search import PostgresMessageSearch, PostgresSessionSearch
from oneclaw_search.data.postgres.vocabulary import PostgresVocabulary
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.di.core_module import chosen_embedder
from oneclaw_search.di.index_module import SearchBackends
from oneclaw_search.di.memory_module import MemoryStorage
from oneclaw_search.di.settings import Settings
from oneclaw_search.domain.focused_search import FocusedSearch
from oneclaw_search.domain.ports import MemoryIndexDao, MessageDao, SessionDao
from oneclaw_search.domain.session_reading import SessionReader
from oneclaw_search.domain.session_summary import SessionDirectory, SummaryCache


def open_postgres(settings: Settings) -> PostgresHistory:
    """The history at the settings' URL as their tenant; HistoryUnavailable when the server, the
    schema or the tenant is not there."""
    history = PostgresHistory(str(settings.database_path), settings.tenant)
    check_tenant(history)
    return history


class PostgresModule(Module):
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    @singleton
    @provider
    def provide_history(self) -> PostgresHistory:
        return self._history

    @singleton
    @provider
    def provide_message_dao(self, history: PostgresHistory) -> MessageDao:
        return PostgresMessageDao(history)

    @singleton
    @provider
    def provide_session_dao(self, history: PostgresHistory) -> SessionDao:
        return PostgresSessionDao(history)

    @singleton
    @provider
    def provide_memory_index_dao(self, history: PostgresHistory, settings: Settings) -> MemoryIndexDao:
        return PostgresMemoryIndexDao(history, PostgresHistoryWriter(history, chosen_embedder(settings)))

    @singleton
    @provider
    def provide_memory_storage(self, history: PostgresHistory) -> MemoryStorage:
        return MemoryStorage(stored_embedder(history), None)

    @singleton
    @provider
    def provide_backends(self, history: PostgresHistory, settings: Settings) -> SearchBackends:
        return SearchBackends(PostgresMessageSearch(history, PostgresMessageDao(history)),
                              PostgresSessionSearch(history, PostgresSessionDao(history)), PostgresVocabulary(history))

    @singleton
    @provider
    def provide_session_reader(self, history: PostgresHistory) -> SessionReader:
        return PostgresSessionReader(history)

    @singleton
    @provider
    def provide_session_directory(self, history: PostgresHistory) -> SessionDirectory:
        return PostgresSessionReader(history)

    @singleton
    @provider
    def provide_focused_search(self, history: PostgresHistory, settings: Settings) -> FocusedSearch:
        return FocusedSearch(PostgresFilteredHistory(history), settings.ranking.window)

    @singleton
    @provider
    def provide_summary_cache(self) -> SummaryCache:
        return MemorySummaryCache()
