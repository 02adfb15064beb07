"""Faults the `fault` op can put into one source of this package's search (ERR-4, ERR-5, P-15).

Each source port is wrapped where the container builds it, so the rest of the search (parallel run,
budget, partial results) is the production code, unchanged.
"""
from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field, replace
from typing import Any

from injector import Module, provider, singleton

from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.di.index_module import HistoryRows, IndexModule, IndexParts, SearchBackends
from oneclaw_search.domain.ports import MemorySearchEngine, MessageDao, SessionDao

SOURCES = ("memory", "messages", "sessions")
# The budget while a source is made to overrun it: a suite cannot wait 30 s, and the sources it does
# not delay need a second on a busy machine.
OVERRUN_BUDGET_SECONDS = 1.0


@dataclass
class Faults:
    """Per source: ("fails", message) or ("delay", seconds); `released` ends every delay at once."""

    by_source: dict[str, tuple[str, Any]] = field(default_factory=dict)
    released: threading.Event = field(default_factory=threading.Event)

    def set(self, message: dict[str, Any]) -> float | None:
        """Apply one `fault` op; returns the search budget it needs, or None for the default."""
        kind, source = message.get("fault"), message.get("source")
        if kind == "none":
            self.clear()
            return None
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}; expected one of {', '.join(SOURCES)}")
        self.released.clear()
        if kind == "source_fails":
            self.by_source[source] = ("fails", str(message.get("message", "injected failure")))
        elif kind == "source_overruns_budget":
            self.by_source[source] = ("delay", OVERRUN_BUDGET_SECONDS * 6)
            return OVERRUN_BUDGET_SECONDS
        elif kind == "source_delay":
            self.by_source[source] = ("delay", float(message.get("seconds", 1.0)))
        else:
            raise ValueError(f"unknown fault {kind!r}")
        return None

    def clear(self) -> None:
        self.by_source.clear()
        self.released.set()

    def strike(self, source: str) -> None:
        kind, value = self.by_source.get(source, (None, None))
        if kind == "fails":
            raise sqlite3.OperationalError(value)  # what a broken history raises
        if kind == "delay":
            self.released.wait(value)


class Faulty:
    """A source port whose `search` first meets its fault; everything else passes straight through."""

    def __init__(self, inner: Any, source: str, faults: Faults) -> None:
        self._inner, self._source, self._faults = inner, source, faults

    def search(self, *args: Any, **kwargs: Any) -> Any:
        self._faults.strike(self._source)
        return self._inner.search(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class FaultModule(Module):
    def __init__(self, faults: Faults) -> None:
        self._faults = faults

    @singleton
    @provider
    def provide_backends(self, parts: IndexParts, message_dao: MessageDao, session_dao: SessionDao,
                         rows: HistoryRows) -> SearchBackends:
        return self.faulty(IndexModule().provide_backends(parts, message_dao, session_dao, rows))

    def faulty(self, real: SearchBackends) -> SearchBackends:
        """The backends' message and session searches, each meeting its fault first."""
        return replace(real, messages=Faulty(real.messages, "messages", self._faults),
                       sessions=Faulty(real.sessions, "sessions", self._faults))

    @singleton
    @provider
    def provide_memory_search_engine(self, engine: HybridSearchEngine) -> MemorySearchEngine:
        return Faulty(engine, "memory", self._faults)
