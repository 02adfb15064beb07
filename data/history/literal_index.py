"""LiteralIndex: what narrows the spec's LIKE scan when a keyword index lies beside the history (AC-07,
AC-08, Q-11). The DAOs depend on this protocol and data/index implements it, so the history's own
code never imports the index.

An index answers with rows that may hold a folded needle, newest first (the DAO re-reads and re-checks
each), and says which rows it has not taken in yet (the DAO scans those itself).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within

MESSAGES, SESSIONS = "messages", "sessions"
# How long a search reads the rows its index has not taken in, newest first, for each way it reads them
# (keywords, the whole query): no search waits on a large backlog, and the reply says how far it read.
UNINDEXED_SECONDS = 0.5


@dataclass(frozen=True, slots=True)
class Unindexed:
    """Rows an index has not taken in: rowids above `rowid`, and (sessions) rows active since
    `active_since` (None: none of them by activity)."""

    rowid: int
    active_since: int | None = None


@dataclass(frozen=True, slots=True)
class Newest:
    """The newest `rows` rows in the window by time, and every row dated as the last of them."""

    rows: int


class LiteralIndex(Protocol):
    def literal_rowids(self, table: str, needle: str, after: int, before: int, limit: int, offset: int = 0,
                       within: Within | None = None, deadline: Deadline | None = None, by_words: bool = False) -> list[int] | None:
        """Rowids of `table` rows in the window that may hold `needle` (folded), newest first; None
        when the index cannot say (unusable, or a needle too short for it): the caller scans.
        `by_words`: rows whose words hold the needle's words in a row instead (not those holding it
        only inside a longer word); None when the needle does not begin and end on a word."""

    def share(self, table: str, needle: str, deadline: Deadline | None = None) -> float | None:
        """At most what share of `table`'s rows hold `needle` (folded), from the index's counts; None
        when the index cannot say."""

    def unindexed(self, table: str, deadline: Deadline | None = None) -> Unindexed | None:
        """The rows of `table` the index has not taken in (None: it took in every row)."""

    def scan_cut_short(self, deadline: Deadline | None) -> None:
        """The scan of the rows it has not taken in ran out of time: the reply must say so."""
