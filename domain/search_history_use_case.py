"""SearchHistoryUseCase: searches the sources a scope names, in parallel, and merges the hits.

Mirrors feature/search/usecase/SearchHistoryUseCase.kt, following the spec's merge where the
Kotlin code departs from it (see specs/divergences.md).
"""
from __future__ import annotations

from datetime import tzinfo
from functools import partial

from oneclaw_search.domain.clock import Clock, Deadline
from oneclaw_search.domain.models import SearchOutcome, SearchSource, UnifiedSearchResult
from oneclaw_search.domain.parallel import run_in_parallel
from oneclaw_search.domain.ports import MemorySearchEngine, MessageDao, SessionDao
from oneclaw_search.domain.ranking import merge
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.domain.search_window import RECENT_MESSAGE_BUFFER_MS, SearchWindow, search_window
from oneclaw_search.domain.source_searches import memory_results, message_results, session_results

DEFAULT_BUDGET_SECONDS = 30.0
DEFAULT_CANDIDATE_LIMIT = 200


class SearchHistoryUseCase:
    def __init__(
        self,
        engine: MemorySearchEngine,
        message_dao: MessageDao,
        session_dao: SessionDao,
        clock: Clock,
        zone: tzinfo,
        *,
        budget_seconds: float = DEFAULT_BUDGET_SECONDS,
        candidate_limit: int = DEFAULT_CANDIDATE_LIMIT,
        recent_message_buffer_ms: int = RECENT_MESSAGE_BUFFER_MS,
    ) -> None:
        self._engine = engine
        self._message_dao = message_dao
        self._session_dao = session_dao
        self._clock = clock
        self._zone = zone
        self._budget_seconds = budget_seconds
        self._candidate_limit = candidate_limit
        self._recent_buffer_ms = recent_message_buffer_ms

    def search(self, request: SearchRequest) -> SearchOutcome:
        now_ms = self._clock.now_ms()
        window = search_window(request, now_ms, self._zone, self._recent_buffer_ms)
        deadline = Deadline.after(self._clock, self._budget_seconds)
        tasks = {
            source: partial(self._search_source, source, request.query, window, deadline)
            for source in request.scope.sources
        }
        found, unfinished = run_in_parallel(tasks, deadline)
        ranked = merge([found[source] for source in tasks if source in found], now_ms, request.max_results)
        return SearchOutcome(tuple(ranked), tuple(unfinished), self._budget_seconds)

    def _search_source(
        self, source: SearchSource, query: str, window: SearchWindow, deadline: Deadline
    ) -> list[UnifiedSearchResult]:
        limit = self._candidate_limit
        if source is SearchSource.MEMORY_INDEX:
            found = self._engine.search(query, limit, chunk_filter=window.memory_filter, deadline=deadline)
            return memory_results(found, query, self._zone)
        if source is SearchSource.MESSAGES:
            hits = self._message_dao.search_content(
                query, window.after, window.message_before, limit, deadline=deadline
            )
            return message_results(hits, query, self._zone)
        sessions = self._session_dao.search_by_title_or_preview(
            query, window.after, window.session_before, limit, deadline=deadline
        )
        return session_results(sessions, query, self._zone)
