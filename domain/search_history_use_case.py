"""SearchHistoryUseCase: searches the sources a scope names, in parallel, and merges the hits.

Mirrors feature/search/usecase/SearchHistoryUseCase.kt, following the spec's merge where the
Kotlin code departs from it (see specs/divergences.md); when nothing matches it retries close
spellings of long words (Q-08). It sees ports only: one per source, and optional aids.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import tzinfo
from functools import partial

from oneclaw_search.domain.clock import Clock, Deadline
from oneclaw_search.domain.errors import HistoryChanged
from oneclaw_search.domain.explanations import SourceReport
from oneclaw_search.domain.focused_search import FocusedSearch
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.models import SearchOutcome, SearchSource
from oneclaw_search.domain.narrowed_search import Narrowing, narrowing, with_context
from oneclaw_search.domain.parallel import run_in_parallel
from oneclaw_search.domain.ports import MemorySearchEngine, MessageSearch, Progress, SessionSearch, Vocabulary
from oneclaw_search.domain.ranking import merge
from oneclaw_search.domain.redaction import redact, unchanged
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.domain.search_settings import SearchSettings
from oneclaw_search.domain.search_terms import unchanged as unstemmed
from oneclaw_search.domain.search_window import SearchWindow, search_window
from oneclaw_search.domain.session_reading import SessionReader
from oneclaw_search.domain.source_searches import SourceHits, memory_results, message_results, session_results
from oneclaw_search.domain.spelling import respell

# A recorder that opens and closes the history for every turn can come and go between two reads;
# a search meeting it more than a few times in a row is rare.
HISTORY_CHANGE_RETRIES = 3


@dataclass(frozen=True, slots=True)
class SearchSources:
    """The three source ports: memory through the HybridSearchEngine (AC-06), messages and
    sessions through their searches (AC-07, AC-08)."""

    memory: MemorySearchEngine
    messages: MessageSearch
    sessions: SessionSearch


@dataclass(frozen=True, slots=True)
class SearchAids:
    """What a search can do more with, each optional: respelling a query that finds nothing, the
    role/session/project filters, the turns around a hit, and the index's progress."""

    vocabulary: Vocabulary | None = None
    focused: FocusedSearch | None = None
    turns: SessionReader | None = None
    index_progress: Progress | None = None
    memory_progress: Progress | None = None


DEFAULT_SETTINGS = SearchSettings()
NO_AIDS = SearchAids()


class SearchHistoryUseCase:
    def __init__(self, sources: SearchSources, clock: Clock, zone: tzinfo, settings: SearchSettings = DEFAULT_SETTINGS,
                 aids: SearchAids = NO_AIDS) -> None:
        self._engine, self._messages, self._sessions = sources.memory, sources.messages, sources.sessions
        self._clock = clock
        self._zone = zone
        self._vocabulary = aids.vocabulary
        self._budget_seconds = settings.budget_seconds
        self._candidate_limit = settings.candidate_limit
        self._recent_buffer_ms = settings.recent_message_buffer_ms
        self._focused = aids.focused
        self._turns = aids.turns
        self._index_progress = aids.index_progress
        self._memory_progress = aids.memory_progress
        self._clean = redact if settings.redact_secrets else unchanged
        self._ranking = settings.ranking
        self._stem = self._vocabulary.stem if self._vocabulary is not None else unstemmed

    def search(self, request: SearchRequest) -> SearchOutcome:
        """Raises FilterUnavailable when the request's filter names facts this history lacks. A
        search that saw the history change under it (HistoryChanged) runs again."""
        deadline = Deadline.after(self._clock, self._budget_seconds)
        for _ in range(HISTORY_CHANGE_RETRIES):
            try:
                return self._search(request, deadline)
            except HistoryChanged:
                continue  # each retry opens the history anew, with locks while a writer is at work
        return self._search(request, deadline)

    def _search(self, request: SearchRequest, deadline: Deadline) -> SearchOutcome:
        narrowed = narrowing(request, self._focused)
        outcome = self._search_once(request, request.query, deadline, narrowed)
        if not outcome.results and self._vocabulary is not None and not deadline.expired():
            respelled = respell(request.query, self._vocabulary)
            retried = self._search_once(request, respelled, deadline, narrowed) if respelled else outcome
            outcome = replace(retried, corrected_query=respelled) if retried.results else outcome
        dated = request.date_from is not None or request.date_to is not None
        bounds = search_window(request, self._clock.now_ms(), self._zone, 0)
        within = (bounds.after, bounds.message_before) if dated else None
        results = with_context(outcome.results, self._turns, request.context, self._clean, within, request.replies)
        return replace(outcome, results=tuple(results))

    def _search_once(self, request: SearchRequest, text: str, deadline: Deadline, narrowed: Narrowing | None) -> SearchOutcome:
        now_ms = self._clock.now_ms()
        window = search_window(request, now_ms, self._zone, self._recent_buffer_ms)
        query = HistoryQuery.parse(text, self._stem)
        limit = self._candidate_limit
        sources = narrowed.sources(request.scope.sources) if narrowed else request.scope.sources
        tasks = {source: partial(self._timed, source, query, window, deadline, limit, narrowed) for source in sources}
        started = self._clock.monotonic()
        timed, unfinished = run_in_parallel(tasks, deadline)
        found = {source: hits for source, (hits, _) in timed.items()}
        reports = tuple(SourceReport(str(source), len(found[source].drafts), timed[source][1]) if source in found
                        else SourceReport(str(source), None, self._clock.monotonic() - started) for source in tasks)
        done = [found[source] for source in tasks if source in found]
        owner = {(draft.source_type, draft.id): hits for hits in done for draft in hits.drafts}
        ranked = merge([hits.drafts for hits in done], now_ms, request.max_results,
                       lambda draft: owner[draft.source_type, draft.id].render(draft))
        progress = self._index_progress
        indexed = progress is not None and bool({SearchSource.MESSAGES, SearchSource.SESSIONS} & set(sources))
        memory = self._memory_progress if SearchSource.MEMORY_INDEX in found else None
        return SearchOutcome(tuple(ranked), tuple(unfinished), self._budget_seconds, self._retrievers(sources, narrowed),
                             sources=reports, index_note=progress.describe(deadline) if progress is not None and indexed else None,
                             memory_note=memory.describe(deadline) if memory is not None else None)

    def _timed(self, source: SearchSource, query: HistoryQuery, window: SearchWindow, deadline: Deadline, limit: int,
               narrowed: Narrowing | None) -> tuple[SourceHits, float]:
        started = self._clock.monotonic()
        hits = self._search_source(source, query, window, deadline, limit, narrowed)
        return hits, self._clock.monotonic() - started

    def _retrievers(self, sources: tuple[SearchSource, ...], narrowed: Narrowing | None) -> tuple[str, ...]:
        named = {
            SearchSource.MEMORY_INDEX: self._engine.retrievers,
            SearchSource.MESSAGES: self._focused.retrievers if self._focused and narrowed and narrowed.needs_scan
            else self._messages.retrievers,
            SearchSource.SESSIONS: self._sessions.retrievers,
        }
        return tuple(dict.fromkeys(name for source in sources for name in named[source]))

    def _search_source(
        self, source: SearchSource, query: HistoryQuery, window: SearchWindow, deadline: Deadline, limit: int,
        narrowed: Narrowing | None = None,
    ) -> SourceHits:
        within = narrowed.within if narrowed is not None else None
        focused = self._focused
        if focused is not None and narrowed is not None and narrowed.needs_scan and source is SearchSource.MESSAGES:
            hits = focused.messages(query, narrowed.message_filter, narrowed.sessions, window.after,
                                    window.message_before, limit, deadline)
            return message_results(hits, query.raw, self._zone, self._ranking, limit, self._clean)
        if source is SearchSource.MEMORY_INDEX:
            found = self._engine.search(query.raw, limit, chunk_filter=window.memory_filter, deadline=deadline)
            return memory_results([item for item in found if query.admits(item.chunk.chunk_text)], query.raw, self._zone,
                                  self._clean)
        if source is SearchSource.MESSAGES:
            narrowed_to = {} if within is None else {"within": within}  # the spec's call, unless narrowed
            hits = self._messages.search(query, window.after, window.message_before, limit, deadline=deadline, **narrowed_to)
            return message_results(hits, query.raw, self._zone, self._ranking, limit, self._clean)
        narrowed_to = {} if within is None or within.sessions is None else {"within": replace(within, types=None)}
        sessions = self._sessions.search(query, window.after, window.session_before, limit, deadline=deadline, **narrowed_to)
        return session_results(sessions, query.raw, self._zone, self._ranking, limit, self._clean)
