"""The messages' literal reading over PostgreSQL: the spec's `LIKE '%query%'` (FEAT-032) on folded
text, newest first, paged as the domain's folding admits rows, read the way the server's kept word
counts say is cheapest, never as ANALYZE's sample happens to make the planner guess.

pg_trgm reads the posting list of every trigram in the needle, so a phrase of common words costs far
more in the index than the rows it finds; a phrase whose rarest word is rare is read through that
word's rows (at most PIECE_ROWS) and checked whole. A common word is read back along time until
enough rows hold it; a rare one through the trigram index, then sorted.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from oneclaw_search.data.postgres.database import PostgresHistory, Rows
from oneclaw_search.data.postgres.folded import folded_like, folded_walk
from oneclaw_search.data.postgres.term_counts import ROWS, message_counts
from oneclaw_search.data.text.analyzer import TRIGRAM, text_terms
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.stopwords import STOPWORDS
from oneclaw_search.domain.text import fold

PIECE_ROWS = 2_000  # the most rows of its rarest word a phrase is read through before going to the index
# A row read back along the time index until enough hold the needle costs about a quarter of one
# read through the trigram index's bitmap (heap in time order, no sort), measured at 1M messages.
ALONG_TIME_SHARE = 0.25
_WORD = re.compile(r"\w+")
_HELD = """WITH held AS MATERIALIZED (SELECT m.tenant, m.id, m.session_id, m.type, m.content, m.folded, m.created_at FROM messages m
    WHERE {piece} AND m.created_at BETWEEN %s AND %s{narrowed} LIMIT {rows}),
    found AS (SELECT {columns} FROM held m {sessions}
    WHERE {needle} AND s.deleted_at IS NULL ORDER BY m.created_at DESC, m.id LIMIT %s OFFSET %s)
    SELECT (SELECT count(*) FROM held), found.* FROM (SELECT 1) one LEFT JOIN found ON true
    ORDER BY found.created_at DESC, found.id"""
_RECENT = """SELECT {columns} FROM (SELECT m.tenant, m.id, m.session_id, m.type, m.content, m.folded, m.created_at FROM messages m
    WHERE m.created_at BETWEEN %s AND %s{narrowed} ORDER BY m.created_at DESC, m.id LIMIT {rows}) m {sessions}
    WHERE {needle} AND s.deleted_at IS NULL ORDER BY m.created_at DESC, m.id LIMIT %s OFFSET %s"""


def first_admitted(page: Callable[[int, int], Rows], admits: Callable[[tuple[Any, ...]], bool], limit: int) -> Rows:
    """The first `limit` rows, in the statement's order, that the domain's folding admits. The server's
    folding seldom admits a row the domain's refuses, so a page asks for just `limit`; a page that lost
    rows to the check is followed by one more for as many as it lost."""
    kept: Rows = []
    size, skip = limit, 0
    while True:
        rows = page(size, skip)
        kept += [row for row in rows if admits(row)]
        if len(kept) >= limit or len(rows) < size:
            return kept[:limit]
        skip, size = skip + len(rows), limit - len(kept)


def words_of(query: str) -> list[str]:
    """The needle's words, as the server's folding leaves them (compatibility forms composed, lower case)."""
    return _WORD.findall(unicodedata.normalize("NFKC", query).lower())


def pieces(words: list[str]) -> list[str]:
    """Of a needle of several `words`, those that could stand for it: each whole, ASCII (so a part of
    the server's folded needle however it folds) and at least a trigram long."""
    return [word for word in words if word.isascii() and len(word) >= TRIGRAM] if len(words) > 1 else []


@dataclass(frozen=True)
class LiteralPlan:
    """How the needle's rows are read: through one of its words (`piece`), back along time, through
    the trigram index, or (neither known) as the planner picks."""
    piece: str | None = None
    order: str | None = None  # ALONG_TIME or THROUGH_INDEX
    rows_back: int | None = None  # along time: past this many rows read, the index is the cheaper way
    held: tuple[int, int] | None = None  # at most how many of how many turns hold it, as its rarest counted word says

    @property
    def share(self) -> float | None:
        return self.held[0] / self.held[1] if self.held and self.held[1] else None


ALONG_TIME, THROUGH_INDEX = "along time", "through the index"
WALK_TIME = ("enable_seqscan", "enable_bitmapscan")  # the planner methods a reading back along time may not use


def literal_plan(history: PostgresHistory, query: str, limit: int, deadline: Deadline | None, *,
                 some_sessions: bool = False) -> LiteralPlan:
    """The cheaper reading by the counts the server keeps. A phrase goes through its rarest word when
    fewer than PIECE_ROWS messages hold it (a word no row holds whole may still lie inside longer
    words: PIECE_ROWS bounds what that costs; a stop word has no count since the index leaves it out,
    and is not chosen). A word held by `held` of `rows` messages is read back along time, about
    limit·rows/held rows, when that costs less than its `held` rows through the index, each dearer by
    1/ALONG_TIME_SHARE; a phrase, through the index; a needle shorter than a trigram has no index to
    go through. The counts are the tenant's: a search of `some_sessions` only is left to the planner.
    The plan says too how many turns at most hold the needle, as its rarest counted word says."""
    split = words_of(query)
    words = {piece: text_terms(piece) for piece in pieces(split) if piece not in STOPWORDS}
    single = text_terms(split[0]) if len(split) == 1 else []
    counts = message_counts(history, sorted({term for terms in words.values() for term in terms} | {*single, ROWS}),
                            deadline) if words or single else {}
    held = sorted((min(counts.get(term, 0) for term in terms), piece) for piece, terms in words.items() if terms)
    known = [count for count, _ in held] + ([min(counts[term] for term in single)] if single and set(single) <= set(counts) else [])
    rows = counts.get(ROWS)
    return replace(_chosen(query, limit, split, held, (single, counts), some_sessions),
                   held=(min(known), rows) if known and rows else None)


def _chosen(query: str, limit: int, split: list[str], held: list[tuple[int, str]], single: tuple[list[str], dict[str, int]],
            some_sessions: bool) -> LiteralPlan:
    single_terms, counts = single
    if len(fold(query)) < TRIGRAM:
        return LiteralPlan(order=ALONG_TIME)
    # A phrase is rarer than its words, by how much no count says: read back along time, it could
    # read far past its page; through the index it reads the rows holding its trigrams.
    phrase = LiteralPlan(order=THROUGH_INDEX if len(split) > 1 and not some_sessions else None)
    if held and held[0][0] < PIECE_ROWS:
        return replace(phrase, piece=held[0][1])
    if some_sessions or len(split) > 1:
        return phrase
    rows = counts.get(ROWS)
    if not single_terms or rows is None or any(term not in counts for term in single_terms):
        return LiteralPlan()
    held_by = min(counts[term] for term in single_terms)
    if held_by * held_by <= limit * rows * ALONG_TIME_SHARE:
        return LiteralPlan(order=THROUGH_INDEX)
    # The count is an estimate (the index's words drop accents and endings the needle keeps): reading
    # back stops where the index would have cost less.
    return LiteralPlan(order=ALONG_TIME, rows_back=int(held_by / ALONG_TIME_SHARE))


def through_piece(history: PostgresHistory, piece: str, needle: str, window: Sequence[object], narrowed: tuple[str, list[object]],
                  columns: str, sessions: str, limit: int, deadline: Deadline | None, *,
                  marked: bool = True) -> Callable[[int, int], Rows] | None:
    """A page reader for the needle through `piece`'s rows, its first page (`limit` rows) read at once;
    None when more than PIECE_ROWS hold the piece."""
    sql = _HELD.format(piece=folded_like("m.content", marked), needle=folded_like("m.content"), narrowed=narrowed[0],
                       rows=PIECE_ROWS + 1, columns=columns, sessions=sessions)

    def read(size: int, skip: int) -> Rows:
        return history.rows(sql, [piece, *window, *narrowed[1], needle, size, skip], deadline)

    first = read(limit, 0)
    if first[0][0] > PIECE_ROWS:
        return None

    def page(size: int, skip: int) -> Rows:
        return [row[1:] for row in (first if (size, skip) == (limit, 0) else read(size, skip)) if row[1] is not None]
    return page


def along_time(history: PostgresHistory, rows_back: int, needle: str, window: Sequence[object],
               narrowed: tuple[str, list[object]], columns: str, sessions: str, otherwise: Callable[[int, int], Rows],
               deadline: Deadline | None) -> Callable[[int, int], Rows]:
    """A page reader for the needle among the newest `rows_back` messages; a page they cannot fill is
    read by `otherwise` (the same order over every row)."""
    sql = _RECENT.format(columns=columns, narrowed=narrowed[0], rows=int(rows_back), sessions=sessions,
                         needle=folded_walk("m.content", fold(needle).isascii()))

    def page(size: int, skip: int) -> Rows:
        # Back along the time index, however many rows the bound allows: near the table's size the planner
        # would rather sort every row (a word nearly every turn holds: 'the', 334 ms at 200K, 2 along time).
        rows = history.rows(sql, [*window, *narrowed[1], needle, size, skip], deadline, without=WALK_TIME)
        return rows if len(rows) == size else otherwise(size, skip)
    return page
