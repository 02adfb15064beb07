"""A session result shown with the turn of its session that matches the query best (a part of the
ranking model chosen by cross-validation, docs/performance.md): a session found by its title takes a
result's room, and its best turn is what a reader of the reply was looking for (MRG-1 untouched: the
session keeps its place and score).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.errors import HistoryChanged
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SourceType, UnifiedSearchResult
from oneclaw_search.domain.parallel import run_in_parallel
from oneclaw_search.domain.ports import MessageSearch
from oneclaw_search.domain.relevance import RankingSettings
from oneclaw_search.domain.search_window import SearchWindow
from oneclaw_search.domain.session_reading import Turn
from oneclaw_search.domain.source_searches import ranked

TURNS_ASKED = 50  # best turns asked for, across all the sessions shown


def with_best_turns(results: Sequence[UnifiedSearchResult], messages: MessageSearch, query: HistoryQuery, window: SearchWindow,
                    ranking: RankingSettings, clean: Callable[[str], str], deadline: Deadline | None = None,
                    ) -> list[UnifiedSearchResult]:
    """Each session result with its best turn as its context, where one holds the query's words."""
    sessions = frozenset(result.id for result in results if result.source_type is SourceType.SESSION and not result.context)
    if not sessions:
        return list(results)
    found = messages.search(query, window.after, window.message_before, TURNS_ASKED, deadline=deadline,
                            within=Within(sessions=sessions))
    best: dict[str, Turn] = {}
    for item, _ in ranked(found, ranking, len(found)):
        hit = item.hit
        best.setdefault(hit.session_id, Turn(hit.id, hit.type, clean(hit.content), hit.created_at))
    return [replace(result, context=(best[result.id],)) if result.source_type is SourceType.SESSION and result.id in best
            else result for result in results]


def best_turns_in_time(results: Sequence[UnifiedSearchResult], messages: MessageSearch, query: HistoryQuery,
                       window: SearchWindow, ranking: RankingSettings, clean: Callable[[str], str], deadline: Deadline,
                       ) -> list[UnifiedSearchResult]:
    """with_best_turns within the search's budget: a search of turns that cannot finish in time leaves
    the sessions as they were, as a source that overruns leaves the others' results; so does a history
    that changed under it (the results already found stand, and the turns are only their context)."""
    if deadline.expired():
        return list(results)
    try:
        done, _ = run_in_parallel({"turns": partial(with_best_turns, results, messages, query, window, ranking, clean,
                                                    deadline)}, deadline)
    except HistoryChanged:
        return list(results)
    return done.get("turns", list(results))
