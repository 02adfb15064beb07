"""What a search with the peers' parameters (beyond FEAT-032) does differently: the sessions a filter
admits, the sources it reaches, and the turns shown around each message hit (`context`).

Without role, session_id, project, agent_type or context nothing here runs, so the spec's search
is untouched.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from oneclaw_search.domain.focused_search import FilterUnavailable, FocusedSearch
from oneclaw_search.domain.message_filter import MessageFilter, Within
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, SearchSource, SourceType, UnifiedSearchResult
from oneclaw_search.domain.redaction import unchanged
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.domain.session_reading import SessionReader

NO_FILTERS = "This host cannot narrow a search by role, session, project or agent type"
_TURN_TYPES = frozenset(kind.value for kind in SEARCHABLE_MESSAGE_TYPES)


@dataclass(frozen=True, slots=True)
class Narrowing:
    """A filter and the live sessions it admits (None: every session)."""

    message_filter: MessageFilter
    sessions: frozenset[str] | None

    @property
    def needs_scan(self) -> bool:
        """Whether messages must be read and ranked here (FocusedSearch): tool rows are in no index,
        while user and assistant turns are searched by the message search itself, kept `within`."""
        return not self.message_filter.types <= _TURN_TYPES

    @property
    def within(self) -> Within:
        return Within(self.message_filter.types, self.sessions)

    def sources(self, asked: Sequence[SearchSource]) -> tuple[SearchSource, ...]:
        """Memory belongs to no session, so a search kept inside sessions leaves it out."""
        if self.sessions is None:
            return tuple(asked)
        return tuple(source for source in asked if source is not SearchSource.MEMORY_INDEX)


def narrowing(request: SearchRequest, focused: FocusedSearch | None) -> Narrowing | None:
    if request.message_filter is None:
        return None
    if focused is None:
        raise FilterUnavailable(NO_FILTERS)
    return Narrowing(request.message_filter, focused.session_ids(request.message_filter))


def with_context(results: Sequence[UnifiedSearchResult], reader: SessionReader | None, turns: int,
                 clean: Callable[[str], str] = unchanged, within: tuple[int, int] | None = None,
                 ) -> list[UnifiedSearchResult]:
    """Each message hit with up to `turns` turns before and after it from its own session, only
    those created `within` the search's time bounds (when it has any); a hit that is no turn of its
    session (a tool row) keeps none."""
    if turns <= 0 or reader is None:
        return list(results)
    hits = [result.id for result in results if result.source_type is SourceType.MESSAGE and result.session_id is not None]
    windows = reader.turns_around(hits, turns) if hits else {}
    out = []
    for result in results:
        shown = [turn for turn in windows.get(result.id, []) if within is None or within[0] <= turn.created_at <= within[1]]
        out.append(replace(result, context=tuple(replace(turn, content=clean(turn.content)) for turn in shown)) if shown else result)
    return out
