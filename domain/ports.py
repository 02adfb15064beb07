"""Ports the use case and tools depend on; adapters in data/ implement them.

Mirror MessageDao.kt, SessionDao.kt, MemoryIndexDao.kt and HybridSearchEngine.kt as seen from
SearchHistoryUseCase.kt. Every search method matches the query as literal, caseless text.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.local_time import parse_iso_day
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import (
    MemoryChunk,
    MemorySearchResult,
    MessageHit,
    ScoredMessage,
    ScoredSession,
    SessionHit,
)

NO_UPPER_BOUND = 2**63 - 1


class MessageDao(Protocol):
    def search_content(
        self,
        query: str,
        created_after: int = 0,
        created_before: int = NO_UPPER_BOUND,
        limit: int = 50,
        *,
        deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[MessageHit]:
        """USER and AI_RESPONSE messages of live sessions containing `query`, newest first; with
        `within`, only those of its types and sessions."""


class SessionDao(Protocol):
    def search_by_title_or_preview(
        self,
        query: str,
        updated_after: int = 0,
        updated_before: int = NO_UPPER_BOUND,
        limit: int = 20,
        *,
        deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[SessionHit]:
        """Live sessions whose title or preview contains `query`, most recently active first; with
        `within`, only those of its sessions."""


class MemoryIndexDao(Protocol):
    def get_all(self, *, deadline: Deadline | None = None) -> list[MemoryChunk]:
        """Every memory_index row in insertion order."""

    def get_newest(self, count: int, *, deadline: Deadline | None = None) -> list[MemoryChunk]:
        """The `count` rows inserted last, in insertion order (every row when there are no more)."""

    def get_by_source_type(self, source_type: str) -> list[MemoryChunk]:
        """Rows of one source_type ("daily_log" or "long_term")."""

    def insert_all(self, chunks: Sequence[MemoryChunk]) -> None:
        """Insert or replace rows by id."""

    def version(self, *, deadline: Deadline | None = None) -> object | None:
        """A value that changes whenever the rows change, so a search may reuse what it built from
        them; None when the store cannot tell (every search then reads the rows again)."""


class VectorRows(Protocol):
    """What an embedder returns: one row of floats per text, sized and indexable (a list of lists, or
    a numpy matrix: the domain names no array library)."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> Any: ...


class Embedder(Protocol):
    """Turns text into unit vectors; `name` identifies the vector space stored vectors belong to."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> VectorRows:
        """One vector of `dimension` floats per text."""


@dataclass(frozen=True, slots=True)
class MemoryFilter:
    """Which chunks a memory search may return: source types and an inclusive day range.

    Undated chunks (MEMORY.md) pass only when no day bound is set.
    """

    source_types: frozenset[str] | None = None
    day_from: date | None = None
    day_to: date | None = None

    @property
    def bounded(self) -> bool:
        return self.day_from is not None or self.day_to is not None

    def admits(self, chunk: MemoryChunk) -> bool:
        if self.source_types is not None and chunk.source_type not in self.source_types:
            return False
        day = parse_iso_day(chunk.source_date)
        if day is None:
            return not self.bounded
        if self.day_from is not None and day < self.day_from:
            return False
        return self.day_to is None or day <= self.day_to


class MemorySearchEngine(Protocol):
    """Memory's source port: hybrid BM25 and vector search over memory_index (HybridSearchEngine.kt).

    `retrievers` names what actually runs, so a reply can say how it searched.
    """

    @property
    def retrievers(self) -> tuple[str, ...]: ...

    def search(
        self,
        query: str,
        top_k: int = 5,
        *,
        chunk_filter: MemoryFilter | None = None,
        deadline: Deadline | None = None,
    ) -> list[MemorySearchResult]:
        """The best `top_k` chunks by hybrid relevance times time decay, filter applied first."""


class MessageSearch(Protocol):
    """The messages' source port: ranked by keywords in any order, the spec's phrase, and meaning.
    The spec's own LIKE scan over a MessageDao is one implementation (literal_search.py).

    `retrievers` names what actually runs, so a reply can say how it searched.
    """

    @property
    def retrievers(self) -> tuple[str, ...]: ...

    def search(
        self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[ScoredMessage]:
        """Up to `limit` live USER/AI_RESPONSE messages created in [after, before], best first;
        with `within`, only those of its types and sessions."""


class SessionSearch(Protocol):
    """The sessions' source port, ranked like MessageSearch over titles and previews."""

    @property
    def retrievers(self) -> tuple[str, ...]: ...

    def search(
        self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
        within: Within | None = None,
    ) -> list[ScoredSession]:
        """Up to `limit` live sessions last active in [after, before] whose title or preview match;
        with `within`, only those of its sessions."""


class Progress(Protocol):
    """A part built away from the searches: the keyword index, memory's model."""

    def describe(self, deadline: Deadline | None = None) -> str | None:
        """None when the search with this deadline searched every row the part stands for, else how far
        the part had come and what the search read meanwhile ("building 37 %: ...", "building: ...")."""


class Vocabulary(Protocol):
    def stem(self, word: str) -> str:
        """A folded word as this vocabulary's terms spell it (its stem)."""
    def frequency(self, term: str) -> int:
        """How many searchable rows hold this index term; 0 when the history never uses it."""

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """frequency() of many terms at once."""

    def spellings_near(self, word: str) -> set[str]:
        """Words the history uses (folded) one edit from the folded `word`, or whose stems are."""
