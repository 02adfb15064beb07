"""Entities the search works with: scopes, source labels, stored rows and the merged result.

Mirrors UnifiedSearchResult.kt, MemorySearchResult.kt and the Room entities' enums (FEAT-032).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from oneclaw_search.domain.explanations import MatchReasons, ScoreParts, SourceReport


class SourceType(StrEnum):
    """Where a result came from; the value is the label printed as `source:`."""

    MEMORY = "memory"
    DAILY_LOG = "daily_log"
    MESSAGE = "message"
    SESSION = "session"


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


DAILY_LOG_TYPE = "daily_log"
LONG_TERM_TYPE = "long_term"


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
class Relevance:
    """How one row matched: BM25 over index terms, the spec's phrase score, cosine similarity.

    `literal` is above zero only when the row contains the whole query (the spec's LIKE test);
    `semantic` is None when no vector was compared.
    """

    keyword: float = 0.0
    literal: float = 0.0
    semantic: float | None = None


@dataclass(frozen=True, slots=True)
class ScoredMessage:
    hit: MessageHit
    relevance: Relevance


@dataclass(frozen=True, slots=True)
class ScoredSession:
    hit: SessionHit
    relevance: Relevance


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
class UnifiedSearchResult:
    """One ranked hit from any source, ready to print (UnifiedSearchResult.kt).

    `id` is the underlying row id; `matches` are [start, end) spans of the query inside `text`.
    """

    id: str
    source_type: SourceType
    text: str
    source_date: str | None
    session_id: str | None
    session_title: str | None
    raw_score: float
    final_score: float
    created_at: int
    matches: tuple[tuple[int, int], ...] = field(default=())
    exact: bool = False  # contains the whole query (for a message or session: the spec's own LIKE would return it)
    context: tuple = ()  # session_reading.Turn values around a message hit, when asked (issue 4)
    why: MatchReasons = MatchReasons()  # phrase and vector; `terms` are named on request (issue 4)
    searched_text: str = field(default="", repr=False, compare=False)  # the whole text the row was matched in
    parts: ScoreParts | None = None  # filled by the merge


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What one search produced, and which sources ran out of time before finishing."""

    results: tuple[UnifiedSearchResult, ...]
    unfinished_sources: tuple[SearchSource, ...] = ()
    budget_seconds: float = 0.0
    retrievers: tuple[str, ...] = ()  # what actually ran, e.g. "keyword (BM25)"
    corrected_query: str | None = None  # the respelled query the results are for, if any
    sources: tuple[SourceReport, ...] = ()  # what each source searched did (issue 4)
    index_note: str | None = None  # how far a keyword index still being built has come ("building 37 %")

    @property
    def complete(self) -> bool:
        return not self.unfinished_sources and self.index_note is None
