"""The spec's LIKE reading over messages or sessions, narrowed by a LiteralIndex when there is one
(AC-07, AC-08, Q-04, Q-11): the index's candidates re-read and re-checked by the DAO, newest first, and
the rows it has not taken in scanned for at most UNINDEXED_SECONDS. When more rows hold a needle
between words than are asked for, those are the rows read (specs/divergences.md).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol, TypeVar

from oneclaw_search.data.history.literal_index import UNINDEXED_SECONDS, LiteralIndex, Newest, Unindexed
from oneclaw_search.domain.clock import Deadline, SearchTimedOut
from oneclaw_search.domain.message_filter import Within

# Candidates read beyond the hits wanted: trigram candidates rarely fail the re-check, and the
# second, larger page keeps "newest first" exact unless a text is nearly everywhere.
_SLACK, _CANDIDATES_PER_HIT, _MIN_CANDIDATES = 50, 4, 1_000
RowSet = Sequence[int] | Unindexed | Newest | None  # rowids an index named, rows it lacks, the newest rows, or every row
Window = tuple[int, int]


class Hit(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def at_ms(self) -> int: ...


H = TypeVar("H", bound=Hit)


class Holding(Protocol[H]):
    def __call__(self, needle: str, window: Window, limit: int, deadline: Deadline | None, within: Within | None,
                 rows: RowSet) -> list[H]:
        """The DAO's own test: up to `limit` live rows among `rows` in the window holding `needle`, newest first."""


def verified_newest(index: LiteralIndex | None, table: str, needle: str, window: Window, limit: int,
                    deadline: Deadline | None, within: Within | None, holding: Holding[H], newest_first: bool = False) -> list[H]:
    """Up to `limit` rows holding the folded `needle`, newest first. `newest_first`: the table's rows
    can be read back from the newest by time (holding takes Newest)."""
    if newest_first and index is not None:
        hits = _from_the_newest(index.share(table, needle, deadline), needle, window, limit, deadline, within, holding)
        if hits is not None:
            return hits
    if index is None:
        return holding(needle, window, limit, deadline, within, None)
    hits = _between_words(index, table, needle, window, limit, deadline, within, holding)
    hits = hits if hits is not None else _by_trigrams(index, table, needle, window, limit, deadline, within, holding)
    if hits is None:
        return holding(needle, window, limit, deadline, within, None)
    unindexed = index.unindexed(table, deadline)
    if unindexed is not None:
        hits += _unread(index, table, (holding, needle), window, limit, deadline, within, unindexed)
    unique = {hit.id: hit for hit in hits}  # a row indexed since the index was asked comes twice
    return sorted(unique.values(), key=lambda hit: (-hit.at_ms, hit.id))[:limit]


def _by_trigrams(index: LiteralIndex, table: str, needle: str, window: Window, limit: int, deadline: Deadline | None,
                 within: Within | None, holding: Holding[H]) -> list[H] | None:
    """The hits among the index's candidates, newest first: a first page, then a larger one when it held
    too few; None when the index cannot look the needle up (the caller scans)."""
    rowids = index.literal_rowids(table, needle, *window, limit + _SLACK, 0, within, deadline)
    if rowids is None:
        return None
    hits = holding(needle, window, limit, deadline, within, rowids) if rowids else []
    if len(hits) < limit and len(rowids) == limit + _SLACK:
        most = max(limit * _CANDIDATES_PER_HIT, _MIN_CANDIDATES)
        more = index.literal_rowids(table, needle, *window, most - len(rowids), len(rowids), within, deadline) or []
        hits += holding(needle, window, limit, deadline, within, more) if more else []
    return hits


def _between_words(index: LiteralIndex, table: str, needle: str, window: Window, limit: int, deadline: Deadline | None,
                   within: Within | None, holding: Holding[H]) -> list[H] | None:
    """The newest `limit` rows holding the needle between words, when the newest rows whose words
    hold its words show more than `limit` of them; None when they do not. So many rows hold it that
    they cannot all be candidates, so rows a phrase of its words does not find (holding it only
    inside a longer word, or in letters the index folds otherwise), which trigrams must look for, are
    not. This spares reading through the trigram candidates of common words met side by side, few of
    which hold them as written."""
    rowids = index.literal_rowids(table, needle, *window, phrase_candidates(limit), 0, within, deadline, by_words=True)
    if not rowids or len(rowids) <= limit:
        return None
    hits = holding(needle, window, limit + 1, deadline, within, rowids)
    return hits[:limit] if len(hits) > limit else None


def _from_the_newest(share: float | None, needle: str, window: Window, limit: int, deadline: Deadline | None,
                     within: Within | None, holding: Holding[H]) -> list[H] | None:
    """The hits among the newest rows (and every row dated as the last of them) when the needle is
    common enough for them to hold all `limit` of them: no row further back can come first. None
    when it is not, or they did not. A needle most rows hold is read so because ordering every match
    by time through the index costs more; the rows read are those the index's counts say hold the
    hits wanted as many times over as the index's candidates per hit, and never more rows than its
    own re-read of candidates would reach."""
    rows = newest_rows(share, limit)
    if rows is None:
        return None
    hits = holding(needle, window, limit, deadline, within, Newest(rows))
    return hits if len(hits) == limit else None


def phrase_candidates(limit: int) -> int:
    """How many of the newest rows holding a needle's words are read to see whether more than `limit`
    hold it as written (the phrase's reading: _between_words here, and PostgreSQL's)."""
    return limit + _SLACK


def newest_rows(share: float | None, limit: int) -> int | None:
    """How many of the newest rows hold `limit` hits of a needle at most `share` of the rows hold, as
    many times over as the index's candidates per hit; None when that is more than its own re-read of
    candidates would reach (or nothing is known)."""
    most = max(limit * _CANDIDATES_PER_HIT, _MIN_CANDIDATES)
    if not share or limit <= 0 or (rows := math.ceil(limit * _CANDIDATES_PER_HIT / share)) > most:
        return None
    return rows


def _unread(index: LiteralIndex, table: str, test: tuple[Holding[H], str], window: Window, limit: int,
            deadline: Deadline | None, within: Within | None, unindexed: Unindexed) -> list[H]:
    """The rows the index lacks, scanned for the needle for at most UNINDEXED_SECONDS; the index is
    told when the scan ran out of time first."""
    holding, needle = test
    if deadline is None:
        return holding(needle, window, limit, None, within, unindexed)
    seconds = min(deadline.remaining(), UNINDEXED_SECONDS)
    try:
        return holding(needle, window, limit, Deadline(deadline.clock, deadline.clock.monotonic() + seconds), within, unindexed)
    except SearchTimedOut:
        index.scan_cut_short(deadline)
        return []
