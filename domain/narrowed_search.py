"""What a search with the peers' parameters (beyond FEAT-032) does differently: the sessions a filter
admits, the sources it reaches, and the turns shown around each message hit (`context`).

Without role, session_id, project, agent_type, context or replies nothing here runs, so the spec's
search is untouched.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from oneclaw_search.domain.focused_search import FilterUnavailable, FocusedSearch
from oneclaw_search.domain.message_filter import MessageFilter, Within
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES, SearchSource, SourceType, UnifiedSearchResult
from oneclaw_search.domain.redaction import unchanged
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.domain.session_reading import SessionReader, Turn

NO_FILTERS = "This host cannot narrow a search by role, session, project or agent type"
_TURN_TYPES = frozenset(kind.value for kind in SEARCHABLE_MESSAGE_TYPES)
QUESTION_MARKS = frozenset("?？¿؟")  # Latin, full-width (CJK), Spanish opening, Arabic


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
                 replies: bool = False) -> list[UnifiedSearchResult]:
    """Each message hit with up to `turns` turns before and after it from its own session, only
    those created `within` the search's time bounds (when it has any); a hit that is no turn of its
    session (a tool row) keeps none. With no `turns` but `replies`, a hit that asks a question is
    shown with the turn after it, its reply: the one neighbour that tends to hold what a question
    hit was found for (docs/performance.md), where every other neighbour mostly spends the reader's
    room on turns that hold nothing of the query."""
    if reader is None or (turns <= 0 and not replies):
        return list(results)
    hits = [result.id for result in results if result.source_type is SourceType.MESSAGE and result.session_id is not None
            and (turns > 0 or asks(result.searched_text or result.text))]
    windows = reader.turns_around(hits, max(turns, 1)) if hits else {}
    out = []
    for result in results:
        shown = [turn for turn in windows.get(result.id, []) if within is None or within[0] <= turn.created_at <= within[1]]
        if turns <= 0:
            shown = reply_to(shown, result.id)
        out.append(replace(result, context=tuple(replace(turn, content=clean(turn.content)) for turn in shown)) if shown else result)
    return out


def asks(text: str) -> bool:
    """Whether the text asks a question: it holds a question mark of any script."""
    return not QUESTION_MARKS.isdisjoint(text)


def reply_to(window: Sequence[Turn], hit_id: str) -> list[Turn]:
    """The hit and the turn after it when the hit asks a question, else nothing."""
    at = next((index for index, turn in enumerate(window) if turn.id == hit_id), None)
    if at is None or at + 1 >= len(window) or not asks(window[at].content):
        return []
    return [window[at], window[at + 1]]
