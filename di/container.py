"""create_injector(database_path, **settings): the injector modules put together for one history.

Mirrors OneClaw's Koin modules (DatabaseModule, MemoryModule, ToolModule) with injector modules.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from injector import Injector, Module

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.importers.backup_archive import open_history
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.di.core_module import CoreModule
from oneclaw_search.di.database_module import DatabaseModule
from oneclaw_search.di.index_module import IndexModule, IndexParts, SearchPortsModule
from oneclaw_search.di.memory_module import MemoryModule
from oneclaw_search.di.settings import Settings
from oneclaw_search.di.summary_module import SummaryModule
from oneclaw_search.di.tool_module import ToolModule
from oneclaw_search.domain.errors import HistoryUnavailable

STOP_SECONDS = 30.0  # a build stops after its batch in hand, its commits kept
__all__ = ["Injector", "close_container", "create_injector"]  # Injector too: the type a front door's container has


def create_injector(database_path: str | Path, **settings: Any) -> Injector:
    """A container over the history at `database_path` (a OneClaw backup zip too), opened
    read-only and checked now; or over a postgresql:// URL as the `tenant` setting's tenant.

    Raises HistoryUnavailable when the file is missing, unreadable or not a history database,
    TypeError or ValueError for a bad setting. Extra injector modules go in `modules=[...]` and
    are applied last, so they can add tools or override any binding.
    """
    config = Settings.build(database_path, **settings)
    modules = [CoreModule(config), *_backend(config), SearchPortsModule(), MemoryModule(), SummaryModule(), ToolModule(),
               *config.modules]
    return Injector(modules, auto_bind=False)


def close_container(container: Injector) -> None:
    """Hand back what a container holds open: its history's connections (a PostgreSQL server's
    pool, or the SQLite file's and its side index's, after stopping a build it started), once a
    memory snapshot it is writing for the next process is written. A long-lived host that moves to
    another history calls this."""
    container.get(HybridSearchEngine).flush()
    if container.get(Settings).on_postgres:
        from oneclaw_search.data.postgres.database import PostgresHistory
        container.get(PostgresHistory).close()
        return
    parts = container.get(IndexParts)
    if parts.lookup is not None:
        parts.lookup.builder.stop(STOP_SECONDS)
    if parts.side is not None:
        parts.side.peewee.close()
    container.get(HistoryDatabase).close()


def _backend(config: Settings) -> list[Module]:
    """SQLite with its side index, or PostgreSQL (imported only then: its driver is an extra)."""
    if not config.on_postgres:
        database = open_history(Path(config.database_path), HistoryDatabase.open_read_only)  # a backup zip: the history inside
        return [DatabaseModule(database), IndexModule()]
    try:
        from oneclaw_search.di.postgres_module import PostgresModule, open_postgres
    except ImportError as missing:
        raise HistoryUnavailable(f"a postgresql:// history needs the postgres extra (psycopg): {missing}") from missing
    return [PostgresModule(open_postgres(config))]
