"""Faults the `fault` op can put into one source of this package's search (ERR-4, ERR-5, P-15).

Each source is wrapped through create_injector's public `source_wrapper` setting, so the rest of the
search (parallel run, budget, partial results) is the production code, unchanged.
"""
from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any

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

    def wrap(self, source: str, port: Any) -> Any:
        """create_injector's source_wrapper: the source meets its fault first, whenever one is set."""
        return Faulty(port, source, self)

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
