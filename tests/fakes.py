"""Fakes behind the domain's ports, for unit tests: in-memory DAOs, engine, clock and embedder."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, MemoryChunk, MemorySearchResult, MessageHit, SessionHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND, MemoryFilter
from oneclaw_search.domain.text import fold


@dataclass
class FixedClock:
    """Wall time stands still unless a test moves it; the monotonic clock is real by default."""

    now: int
    frozen_monotonic: float | None = None

    def now_ms(self) -> int:
        return self.now

    def monotonic(self) -> float:
        return self.frozen_monotonic if self.frozen_monotonic is not None else time.monotonic()


@dataclass
class FakeMessageDao:
    hits: list[MessageHit] = field(default_factory=list)
    calls: list[tuple] = field(default_factory=list)

    def search_content(self, query, created_after=0, created_before=NO_UPPER_BOUND, limit=50, *, deadline=None,
                       within=None):
        self.calls.append((query, created_after, created_before, limit))
        found = [
            hit for hit in self.hits
            if hit.type in SEARCHABLE_MESSAGE_TYPES and fold(query) in fold(hit.content)
            and created_after <= hit.created_at <= created_before
            and (within is None or within.types is None or hit.type in within.types)
            and (within is None or within.sessions is None or hit.session_id in within.sessions)
        ]
        return sorted(found, key=lambda hit: -hit.created_at)[:limit]


@dataclass
class FakeSessionDao:
    hits: list[SessionHit] = field(default_factory=list)
    calls: list[tuple] = field(default_factory=list)

    def search_by_title_or_preview(self, query, updated_after=0, updated_before=NO_UPPER_BOUND, limit=20, *, deadline=None,
                                   within=None):
        self.calls.append((query, updated_after, updated_before, limit))
        needle = fold(query)
        found = [
            hit for hit in self.hits
            if (needle in fold(hit.title) or needle in fold(hit.last_message_preview or ""))
            and updated_after <= hit.updated_at <= updated_before
            and (within is None or within.sessions is None or hit.id in within.sessions)
        ]
        return sorted(found, key=lambda hit: -hit.updated_at)[:limit]


@dataclass
class FakeMemorySearchEngine:
    """Returns canned results, applying the filter as the real engine must."""

    results: list[MemorySearchResult] = field(default_factory=list)
    calls: list[tuple] = field(default_factory=list)
    retrievers: tuple[str, ...] = ("canned memory",)

    def search(self, query, top_k=5, *, chunk_filter: MemoryFilter | None = None, deadline: Deadline | None = None):
        self.calls.append((query, top_k, chunk_filter))
        kept = [result for result in self.results if chunk_filter is None or chunk_filter.admits(result.chunk)]
        return sorted(kept, key=lambda result: -result.score)[:top_k]


@dataclass
class FakeMemoryIndexDao:
    chunks: list[MemoryChunk] = field(default_factory=list)

    def get_all(self, *, deadline=None):
        return list(self.chunks)

    def get_newest(self, count, *, deadline=None):
        return list(self.chunks[-count:]) if count > 0 else []

    def version(self, *, deadline=None):
        return None  # a list anyone may change: read afresh each search

    def get_by_source_type(self, source_type):
        return [chunk for chunk in self.chunks if chunk.source_type == source_type]

    def insert_all(self, chunks):
        for chunk in chunks:  # by id, in place: as the real upsert keeps the row where it stands
            at = next((n for n, old in enumerate(self.chunks) if old.id == chunk.id), None)
            if at is None:
                self.chunks.append(chunk)
            else:
                self.chunks[at] = chunk


class BlockingMessageDao:
    """A message search that hangs until released, to exercise the time budget."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def search_content(self, query, created_after=0, created_before=NO_UPPER_BOUND, limit=50, *, deadline=None):
        self.release.wait(timeout=10)
        return []


class FailingSessionDao:
    def search_by_title_or_preview(self, *args, **kwargs):
        raise RuntimeError("disk I/O error")


class KeywordEmbedder:
    """A tiny embedder whose dimensions are fixed keywords: easy to reason about in tests. Its vectors
    are unit length, as the port promises: each keyword found weighs 1/sqrt(keywords found)."""

    name = "keyword-test"

    def __init__(self, vocabulary: list[str]) -> None:
        self.vocabulary = vocabulary
        self.dimension = len(vocabulary)

    def embed(self, texts):
        vectors = []
        for text in texts:
            folded = fold(text)
            found = [1.0 if word in folded else 0.0 for word in self.vocabulary]
            norm = sum(found) ** 0.5
            vectors.append([value / norm for value in found] if norm else found)
        return vectors


class ParentOnlyEmbedder(KeywordEmbedder):
    """Picklable, but kills any other process that embeds with it: shows where batches were made."""

    def __init__(self, vocabulary: list[str]) -> None:
        super().__init__(vocabulary)
        self.parent = os.getpid()

    def embed(self, texts):
        if os.getpid() != self.parent:
            os._exit(3)
        return super().embed(texts)


class SlowChildEmbedder(KeywordEmbedder):
    """Picklable; in any process but the one that made it, each batch takes `delay` seconds longer."""

    def __init__(self, vocabulary: list[str], delay: float) -> None:
        super().__init__(vocabulary)
        self.parent, self.delay = os.getpid(), delay

    def embed(self, texts):
        if os.getpid() != self.parent:
            time.sleep(self.delay)
        return super().embed(texts)


def scanning_use_case(engine, messages, sessions, clock, zone, *, settings=None, aids=None):
    """The use case over fakes as a host without an index wires it: the DAOs behind the spec's scans."""
    from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
    from oneclaw_search.domain.search_history_use_case import SearchAids, SearchHistoryUseCase, SearchSources
    from oneclaw_search.domain.search_settings import SearchSettings

    sources = SearchSources(engine, LiteralMessageSearch(messages), LiteralSessionSearch(sessions))
    return SearchHistoryUseCase(sources, clock, zone, settings or SearchSettings(), aids or SearchAids())
