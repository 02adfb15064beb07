"""Turns a request's whole local days into the bounds each store is filtered by (BR-5..BR-7).

Mirrors the bound arithmetic of SearchHistoryTool.kt and SearchHistoryUseCase.kt: a day ends at
its last millisecond (DST-aware here), and messages from the last few seconds are left out when
no date_to is given, so the message that asked for the search does not find itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo

from oneclaw_search.domain.local_time import end_of_day_ms, local_date, start_of_day_ms
from oneclaw_search.domain.ports import NO_UPPER_BOUND, MemoryFilter
from oneclaw_search.domain.search_request import SearchRequest

RECENT_MESSAGE_BUFFER_MS = 5_000


@dataclass(frozen=True, slots=True)
class SearchWindow:
    """Inclusive epoch-ms bounds for messages (by created_at) and sessions (by updated_at).

    Both start at the same moment; they end differently because only messages leave out the
    last few seconds.
    """

    after: int
    message_before: int
    session_before: int
    memory_filter: MemoryFilter


def search_window(
    request: SearchRequest, now_ms: int, zone: tzinfo, recent_buffer_ms: int = RECENT_MESSAGE_BUFFER_MS
) -> SearchWindow:
    after = start_of_day_ms(request.date_from, zone) if request.date_from else 0
    if request.date_to:
        before = end_of_day_ms(request.date_to, zone)
        message_before = session_before = before
    else:
        message_before = now_ms - recent_buffer_ms
        session_before = now_ms if request.date_from else NO_UPPER_BOUND
    day_to = request.date_to or (local_date(now_ms, zone) if request.date_from else None)
    memory_filter = MemoryFilter(request.scope.memory_source_types, request.date_from, day_to)
    return SearchWindow(after, message_before, session_before, memory_filter)
