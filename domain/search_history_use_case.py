"""SearchHistoryUseCase: searches the sources a scope names, in parallel, and merges the hits.

Mirrors feature/search/usecase/SearchHistoryUseCase.kt, following the spec's merge where the
Kotlin code departs from it (see specs/divergences.md); when nothing matches it retries close
spellings of long words (issue 3).
"""
from __future__ import annotations

from dataclasses import replace
from datetime import tzinfo
from functools import partial

from oneclaw_search.domain.clock import Clock, Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.models import SearchOutcome, SearchSource
from oneclaw_search.domain.parallel import run_in_parallel
from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.ports import (
    MemorySearchEngine,
    MessageDao,
    MessageSearch,
    SessionDao,
    SessionSearch,
    Vocabulary,
)
from oneclaw_search.domain.ranking import merge
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.domain.search_window import RECENT_MESSAGE_BUFFER_MS, SearchWindow, search_window
from oneclaw_search.domain.source_searches import SourceHits, memory_results, message_results, session_results
from oneclaw_search.domain.spelling import correct_query, spelling_terms

DEFAULT_BUDGET_SECONDS = 30.0
DEFAULT_CANDIDATE_LIMIT = 200
CANDIDATES_PER_RESULT, MIN_CANDIDATES = 4, 50


class SearchHistoryUseCase:
    def __init__(
        self,
        engine: MemorySearchEngine,
        messages: MessageSearch | MessageDao,
        sessions: SessionSearch | SessionDao,
        clock: Clock,
        zone: tzinfo,
        *,
        vocabulary: Vocabulary | None = None,
        memory_retrievers: tuple[str, ...] = (),
        budget_seconds: float = DEFAULT_BUDGET_SECONDS,
        candidate_limit: int = DEFAULT_CANDIDATE_LIMIT,
        recent_message_buffer_ms: int = RECENT_MESSAGE_BUFFER_MS,
    ) -> None:
        self._engine = engine
        # A bare DAO is searched the spec's way: its literal LIKE-style scan.
        self._messages = messages if hasattr(messages, "search") else LiteralMessageSearch(messages)
        self._sessions = sessions if hasattr(sessions, "search") else LiteralSessionSearch(sessions)
        self._clock = clock
        self._zone = zone
        self._vocabulary = vocabulary
        self._memory_retrievers = memory_retrievers
        self._budget_seconds = budget_seconds
        self._candidate_limit = candidate_limit
        self._recent_buffer_ms = recent_message_buffer_ms

    def search(self, request: SearchRequest) -> SearchOutcome:
        deadline = Deadline.after(self._clock, self._budget_seconds)
        outcome = self._search_once(request, request.query, deadline)
        if outcome.results or self._vocabulary is None or deadline.expired():
            return outcome
        counts = self._vocabulary.frequencies(sorted(spelling_terms(request.query)))
        respelled = correct_query(request.query, lambda term: counts.get(term, 0))
        if respelled is None:
            return outcome
        retried = self._search_once(request, respelled, deadline)
        return replace(retried, corrected_query=respelled) if retried.results else outcome

    def _search_once(self, request: SearchRequest, text: str, deadline: Deadline) -> SearchOutcome:
        now_ms = self._clock.now_ms()
        window = search_window(request, now_ms, self._zone, self._recent_buffer_ms)
        query = HistoryQuery.parse(text)
        # Each source ranks a few times what can be shown: enough for the merge, decay and dedup to
        # choose from, and never so few that a whole-query hit which fits could be missed.
        limit = min(self._candidate_limit, max(CANDIDATES_PER_RESULT * request.max_results, MIN_CANDIDATES))
        tasks = {
            source: partial(self._search_source, source, query, window, deadline, limit)
            for source in request.scope.sources
        }
        found, unfinished = run_in_parallel(tasks, deadline)
        sources = [found[source] for source in tasks if source in found]
        owner = {(draft.source_type, draft.id): hits for hits in sources for draft in hits.drafts}
        ranked = merge([hits.drafts for hits in sources], now_ms, request.max_results,
                       lambda draft: owner[draft.source_type, draft.id].render(draft))
        return SearchOutcome(tuple(ranked), tuple(unfinished), self._budget_seconds, self._retrievers(request))

    def _retrievers(self, request: SearchRequest) -> tuple[str, ...]:
        named = {
            SearchSource.MEMORY_INDEX: self._memory_retrievers,
            SearchSource.MESSAGES: self._messages.retrievers,
            SearchSource.SESSIONS: self._sessions.retrievers,
        }
        return tuple(dict.fromkeys(name for source in request.scope.sources for name in named[source]))

    def _search_source(
        self, source: SearchSource, query: HistoryQuery, window: SearchWindow, deadline: Deadline, limit: int
    ) -> SourceHits:
        if source is SearchSource.MEMORY_INDEX:
            found = self._engine.search(query.raw, limit, chunk_filter=window.memory_filter, deadline=deadline)
            return memory_results([item for item in found if query.admits(item.chunk.chunk_text)], query.raw, self._zone)
        if source is SearchSource.MESSAGES:
            hits = self._messages.search(query, window.after, window.message_before, limit, deadline=deadline)
            return message_results(hits, query.raw, self._zone)
        sessions = self._sessions.search(query, window.after, window.session_before, limit, deadline=deadline)
        return session_results(sessions, query.raw, self._zone)
