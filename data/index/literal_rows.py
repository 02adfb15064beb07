"""Where the spec's literal reading (AC-07, AC-08, Q-04) can be left out of a keyword search of
messages or sessions, and how its rows join the ranked ones: held against LIKE by
tests/integration/test_literal_differential.py.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from oneclaw_search.data.index.keyword_search import Ranked
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.text import fold

H = TypeVar("H")


def scored_rows(query: HistoryQuery, ranked: Ranked, others: Sequence[tuple[int, H]], limit: int,
                text: Callable[[H], str], literal: Callable[[], Iterable[tuple[int, H]]]) -> list[tuple[int, H]]:
    """The rows a source scores, each admitted by the query: the literal reading's (`literal`, read only
    unless left out), then the ranked and unread ones it did not find (`others`)."""
    read = [] if left_out(query, ranked, others, limit, text) else list(literal())
    return [(rowid, hit) for rowid, hit in _joined(others, read) if query.admits(text(hit))]


def left_out(query: HistoryQuery, ranked: Ranked, rows: Sequence[tuple[int, H]], limit: int, text: Callable[[H], str]) -> bool:
    """Whether the spec's literal reading (its newest `limit` rows holding the query as written) is left
    out. It is there so that such rows are never pushed out while they all fit; when the engine's best
    `limit` rows (`rows` holds them, read) already hold it `limit` times, they cannot all fit in this
    source's candidates. Not when rows the engine did not read tie with its last: which rows it read
    among equals depends on how the index was built, and the reading's newest do not."""
    if not ranked.whole:  # nor is anything whole for a limit of 0
        return False
    texts = (text(hit) for rowid, hit in rows if rowid in ranked.scores)
    return sum(query.literal in fold(written) and query.admits(written) for written in texts) >= limit


def _joined(found: Sequence[tuple[int, H]], literal: Sequence[tuple[int, H]]) -> list[tuple[int, H]]:
    """The literal reading's rows, then the others it did not find (a row in both comes once)."""
    known = {rowid for rowid, _ in literal}
    return [*literal, *[(rowid, hit) for rowid, hit in found if rowid not in known]]
