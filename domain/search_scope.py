"""The `scope` parameter and the three stores it chooses among (SCOPE-1..SCOPE-4).

Mirrors the scope handling of SearchHistoryUseCase.kt: `all` searches every store, `memory` and
`daily_log` the memory index, `sessions` the messages and the sessions.
"""
from __future__ import annotations

from enum import StrEnum

DAILY_LOG_TYPE = "daily_log"
LONG_TERM_TYPE = "long_term"


class SearchSource(StrEnum):
    """The three stores searched in parallel, each normalised on its own (spec merge steps 1-3)."""

    MEMORY_INDEX = "memory"
    MESSAGES = "messages"
    SESSIONS = "sessions"


class SearchScope(StrEnum):
    """The `scope` parameter: which stores one call searches."""

    ALL = "all"
    MEMORY = "memory"
    DAILY_LOG = "daily_log"
    SESSIONS = "sessions"

    @property
    def sources(self) -> tuple[SearchSource, ...]:
        if self is SearchScope.ALL:
            return tuple(SearchSource)
        if self is SearchScope.SESSIONS:
            return (SearchSource.MESSAGES, SearchSource.SESSIONS)
        return (SearchSource.MEMORY_INDEX,)

    @property
    def memory_source_types(self) -> frozenset[str] | None:
        """memory_index.source_type values this scope admits; None admits every type."""
        if self is SearchScope.DAILY_LOG:
            return frozenset({DAILY_LOG_TYPE})
        return None
