"""MessageDao over PostgreSQL, as one tenant (AC-07, Q-04): the spec's `LIKE '%query%'` on folded text,
newest first, read the cheapest way the server's counts show (literal_reading.py, literal_words.py).
Each row found is checked again with the domain's Unicode folding, which decides; messages of
soft-deleted sessions are left out, as everywhere.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from oneclaw_search.data.history.literal_scan import newest_rows, phrase_candidates
from oneclaw_search.data.postgres.daos import TURN_TYPES
from oneclaw_search.data.postgres.database import PostgresHistory, Rows
from oneclaw_search.data.postgres.folded import alone, folded_like
from oneclaw_search.data.postgres.literal_reading import (
    ALONG_TIME,
    THROUGH_INDEX,
    WALK_TIME,
    LiteralPlan,
    along_time,
    first_admitted,
    literal_plan,
    through_piece,
)
from oneclaw_search.data.postgres.literal_words import PhraseReading, phrase_of
from oneclaw_search.data.postgres.message_rows import storable_text
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.text import fold

MESSAGE_COLUMNS = "m.id, m.session_id, s.title, m.type, m.content, m.created_at"
# Each of a few hundred chosen messages with its session, looked up by key: joined freely, the planner
# reads and hashes every session of the tenant for them (its cost then grows with the sessions held).
SESSION_OF_EACH = ("JOIN LATERAL (SELECT s.title, s.deleted_at FROM sessions s WHERE s.tenant = m.tenant "
                   "AND s.id = m.session_id LIMIT 1) s ON true")


def message_conditions(within: Within | None, *, joined: bool = True) -> tuple[str, list[object]]:
    """SQL (and its parameters) for the live messages a search may return: the spec's user and
    assistant turns, of `within`'s types and sessions; with `joined`, of live sessions (`s`)."""
    types = sorted(set(TURN_TYPES) & within.types) if within is not None and within.types is not None else TURN_TYPES
    sql, params = " AND m.type = ANY(%s)" + (" AND s.deleted_at IS NULL" if joined else ""), list[object]([types])
    if within is not None and within.sessions is not None:
        sql, params = sql + " AND m.session_id = ANY(%s)", [*params, sorted(within.sessions)]
    return sql, params


@dataclass(frozen=True)
class _Asked:
    """One literal question: the needle as stored and folded, its window and narrowing, its page size."""

    text: str
    folded: str
    window: list[int]
    within: Within | None
    limit: int
    deadline: Deadline | None

    def admits(self, row: tuple[object, ...]) -> bool:
        """The domain's folding decides (the server's rarely admits a row it refuses)."""
        return self.folded in fold(str(row[4]))

    @property
    def unjoined(self) -> tuple[str, list[object]]:
        return message_conditions(self.within, joined=False)

    @property
    def narrowed(self) -> bool:
        """Kept to some types or sessions, where the tenant's counts do not describe the rows searched."""
        return Within.narrows(self.within)


class PostgresMessageDao:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    def search_content(self, query: str, created_after: int = 0, created_before: int = NO_UPPER_BOUND, limit: int = 50,
                       *, deadline: Deadline | None = None, within: Within | None = None) -> list[MessageHit]:
        """The newest rows holding the needle: from the newest rows when it is common, by its words (a CJK
        needle, or words most rows hold between words), else through the trigram index or back along time."""
        if created_after > created_before or limit <= 0:
            return []
        asked = _Asked(storable_text(query), fold(query), [created_after, created_before], within, limit, deadline)
        plan = literal_plan(self._history, query, limit, deadline, some_sessions=within is not None and within.sessions is not None)
        hits = self._newest(plan, asked)
        if hits is None and (phrase := phrase_of(asked.text, self._history.tenant)) is not None:
            reading = PhraseReading(self._history, phrase, asked.text, asked.window, asked.unjoined,
                                    (MESSAGE_COLUMNS, SESSION_OF_EACH), deadline)
            hits = _between_words(reading, None if asked.narrowed else plan.held, asked)
        if hits is None:
            hits = first_admitted(self._by_trigrams(plan, asked), asked.admits, limit)
        return [MessageHit(*row) for row in hits]

    def _newest(self, plan: LiteralPlan, asked: _Asked) -> Rows | None:
        """The hits among the newest rows when the needle is common enough for them to hold all it asks
        for, as on SQLite (literal_scan.py); None when it is not, or they did not."""
        rows = newest_rows(plan.share, asked.limit)
        if rows is None:
            return None
        page = along_time(self._history, rows, asked.text, asked.window, asked.unjoined, MESSAGE_COLUMNS, SESSION_OF_EACH,
                          lambda size, skip: [], asked.deadline)
        hits = [row for row in page(asked.limit, 0) if asked.admits(row)]
        return hits if len(hits) == asked.limit else None

    def _by_trigrams(self, plan: LiteralPlan, asked: _Asked) -> Callable[[int, int], Rows]:
        """Pages of the needle as the plan reads it: through its rarest word, through the trigram index
        (without the tenant's mark when the tenant holds most rows), or back along time."""
        marked = not alone(self._history, plan.held[1] if plan.held else None, asked.deadline)
        if plan.piece is not None:
            page = through_piece(self._history, plan.piece, asked.text, asked.window, asked.unjoined, MESSAGE_COLUMNS,
                                 SESSION_OF_EACH, asked.limit, asked.deadline, marked=marked)
            if page is not None:
                return page
        page = self._whole(asked, THROUGH_INDEX if plan.rows_back else plan.order, marked)
        if plan.rows_back:
            page = along_time(self._history, plan.rows_back, asked.text, asked.window, asked.unjoined, MESSAGE_COLUMNS,
                              SESSION_OF_EACH, page, asked.deadline)
        return page

    def _whole(self, asked: _Asked, order: str | None, marked: bool) -> Callable[[int, int], Rows]:
        """Pages of the needle over every row: through the trigram index (ordered by an expression no
        index gives, so the planner cannot walk back along time instead), back along time (no bitmap,
        no scan of every row), or as the planner picks."""
        narrowed, params = message_conditions(asked.within)
        newest = "m.created_at + 0" if order == THROUGH_INDEX else "m.created_at"
        without = WALK_TIME if order == ALONG_TIME else ()
        sql = (f"SELECT {MESSAGE_COLUMNS} FROM messages m JOIN sessions s ON s.tenant = m.tenant AND s.id = m.session_id "
               f"WHERE {folded_like('m.content', marked)} AND m.created_at BETWEEN %s AND %s{narrowed} "
               f"ORDER BY {newest} DESC, m.id LIMIT %s OFFSET %s")
        return lambda size, skip: self._history.rows(sql, [asked.text, *asked.window, *params, size, skip], asked.deadline,
                                                     without=without)


def _between_words(reading: PhraseReading, held: tuple[int, int] | None, asked: _Asked) -> Rows | None:
    """A CJK needle's rows, or a needle of words' newest rows when more than it asks for hold it between
    words (literal_words.py); None when the trigram index must read it."""
    if reading.whole:
        return first_admitted(reading.every(reading.since(asked.limit, held)), asked.admits, asked.limit)
    newest = [row for row in reading.newest(asked.limit, reading.since(phrase_candidates(asked.limit), held))
              if asked.admits(row)]
    return newest[:asked.limit] if len(newest) > asked.limit else None
