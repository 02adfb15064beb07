"""UnifiedSearchResult: one ranked hit from any source, and the source labels it prints (OUT-2).

Mirrors UnifiedSearchResult.kt.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from oneclaw_search.domain.explanations import MatchReasons, ScoreParts

if TYPE_CHECKING:  # session_reading imports the models this module feeds
    from oneclaw_search.domain.session_reading import Turn


class SourceType(StrEnum):
    """Where a result came from; the value is the label printed as `source:`."""

    MEMORY = "memory"
    DAILY_LOG = "daily_log"
    MESSAGE = "message"
    SESSION = "session"


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
    context: tuple[Turn, ...] = ()  # session_reading.Turn values around a message hit, when asked
    why: MatchReasons = MatchReasons()  # phrase and vector; `terms` are named when JSON asks
    searched_text: str = field(default="", repr=False, compare=False)  # the whole text the row was matched in
    parts: ScoreParts | None = None  # filled by the merge
