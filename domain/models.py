"""Entities the search works with: stored rows, their scored forms and one search's outcome.

Mirrors MemorySearchResult.kt and the Room entities' enums (FEAT-032); the scope enum lives in
search_scope.py, the merged result in unified_search_result.py and a candidate's features in
relevance.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from oneclaw_search.domain.explanations import SourceReport
from oneclaw_search.domain.relevance import Evidence
from oneclaw_search.domain.search_scope import DAILY_LOG_TYPE, LONG_TERM_TYPE, SearchScope, SearchSource
from oneclaw_search.domain.unified_search_result import SourceType, UnifiedSearchResult

# The scope enum and the merged result have modules of their own, as the design card names them;
# they are imported here too because most of the domain reads its entities from this module.
__all__ = ["DAILY_LOG_TYPE", "LONG_TERM_TYPE", "SearchScope", "SearchSource", "SourceType", "UnifiedSearchResult"]


class MessageType(StrEnum):
    """messages.type as OneClaw writes it; this column is the message's role."""

    USER = "USER"
    AI_RESPONSE = "AI_RESPONSE"
    TOOL_CALL = "TOOL_CALL"
    TOOL_RESULT = "TOOL_RESULT"
    ERROR = "ERROR"
    SYSTEM = "SYSTEM"


SEARCHABLE_MESSAGE_TYPES: tuple[MessageType, ...] = (MessageType.USER, MessageType.AI_RESPONSE)


@dataclass(frozen=True, slots=True)
class MessageHit:
    """A user or assistant message whose content matched, with its live session's title."""

    id: str
    session_id: str
    session_title: str | None
    type: str
    content: str
    created_at: int

    @property
    def at_ms(self) -> int:
        """The moment the spec's search orders this hit by."""
        return self.created_at


@dataclass(frozen=True, slots=True)
class SessionHit:
    """A live session whose title or last-message preview matched."""

    id: str
    title: str
    message_count: int
    last_message_preview: str | None
    created_at: int
    updated_at: int

    @property
    def at_ms(self) -> int:
        """The moment the spec's search orders this hit by: its last activity."""
        return self.updated_at


@dataclass(frozen=True, slots=True)
class ScoredMessage:
    """A candidate message and its raw features, which the ranking model (relevance.py) scores."""

    hit: MessageHit
    evidence: Evidence


@dataclass(frozen=True, slots=True)
class ScoredSession:
    hit: SessionHit
    evidence: Evidence


@dataclass(frozen=True, slots=True)
class MemoryChunk:
    """One memory_index row: a MEMORY.md paragraph (undated) or a daily-log chunk."""

    id: str
    source_type: str
    source_date: str | None
    chunk_text: str
    embedding: bytes | None
    created_at: int
    updated_at: int


@dataclass(frozen=True, slots=True)
class MemorySearchResult:
    """A chunk scored by the hybrid engine; `relevance` is before decay, `score` after."""

    chunk: MemoryChunk
    bm25_score: float
    vector_score: float | None
    relevance: float
    decay: float
    score: float


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What one search produced, and which sources ran out of time before finishing."""

    results: tuple[UnifiedSearchResult, ...]
    unfinished_sources: tuple[SearchSource, ...] = ()
    budget_seconds: float = 0.0
    retrievers: tuple[str, ...] = ()  # what actually ran, e.g. "keyword (BM25)"
    corrected_query: str | None = None  # the respelled query the results are for, if any
    sources: tuple[SourceReport, ...] = ()  # what each source searched did: candidates and time, for JSON
    index_note: str | None = None  # how far a keyword index still being built has come ("building 37 %")
    memory_note: str | None = None  # what of memory was searched while its model is built ("building: ...")

    @property
    def complete(self) -> bool:
        return not self.unfinished_sources and self.index_note is None and self.memory_note is None
