"""MemoryModule: the HybridSearchEngine over memory_index, with the chosen embedder.

Mirrors di/MemoryModule.kt. Stored vectors are used only when the database says they came from
the same embedder; otherwise memory search is BM25 alone. With a side index, the engine keeps its
snapshot there for the next process.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo

from injector import Module, provider, singleton

from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.data.memory.memory_snapshot import SnapshotStore
from oneclaw_search.di.core_module import chosen_embedder
from oneclaw_search.di.settings import Settings
from oneclaw_search.domain.clock import Clock
from oneclaw_search.domain.ports import MemoryIndexDao, MemorySearchEngine


@dataclass(frozen=True)
class MemoryStorage:
    """What the history backend tells the memory engine: which embedder made the stored vectors, and
    where a snapshot may be kept between processes (None: rebuilt in each)."""

    stored_embedder: str | None
    snapshots: SnapshotStore | None


class MemoryModule(Module):
    @singleton
    @provider
    def provide_hybrid_search_engine(
        self, dao: MemoryIndexDao, storage: MemoryStorage, settings: Settings, clock: Clock, zone: tzinfo,
    ) -> HybridSearchEngine:
        return HybridSearchEngine(dao, clock, zone, chosen_embedder(settings), storage.stored_embedder, storage.snapshots)

    @singleton
    @provider
    def provide_memory_search_engine(self, engine: HybridSearchEngine, settings: Settings) -> MemorySearchEngine:
        return settings.wrapped("memory", engine)  # type: ignore[no-any-return]
