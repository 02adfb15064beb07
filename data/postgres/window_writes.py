"""Which turns' windows a write changes, and their new windows (Q-01, Q-11): the written turns, and
the turns within the layout's reach of where each written row now stands and of where it stood
before (an edit, a move, a turn that became a tool row). The writer stores them in the same
transaction as the rows themselves.

A session's turns stand in the order written (the row's sequence, as SQLite's rowid orders them for
the keyword index), so a new row joins its session's end and a rewritten one keeps its place. Only the
turns near the written ones are read from the server: around the rewritten rows and at the end of a
session new rows join, twice the reach deep, enough to know every changed window whole.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import peewee as pw

from oneclaw_search.data.postgres.database import execute
from oneclaw_search.data.postgres.windows import OwnWords, WindowCounts, own_words, window_of
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES
from oneclaw_search.domain.window_bm25 import WindowLayout

TURN_TYPES = [kind.value for kind in SEARCHABLE_MESSAGE_TYPES]
# Per session: the turns around the stored rows rewritten (between the first and last of them, and
# `beyond` either side), and its last `beyond` turns when new rows join its end. NULL bounds read nothing.
_NEAR = """SELECT r.session_id, x.id, x.seq, x.content
    FROM unnest(%s::text[], %s::bigint[], %s::bigint[], %s::boolean[]) r(session_id, lo, hi, appended) CROSS JOIN LATERAL (
    (SELECT m.id, m.seq, m.content FROM messages m WHERE m.session_id = r.session_id AND m.type = ANY(%s)
        AND m.seq < r.lo ORDER BY m.seq DESC LIMIT %s)
    UNION (SELECT m.id, m.seq, m.content FROM messages m WHERE m.session_id = r.session_id
        AND m.type = ANY(%s) AND m.seq BETWEEN r.lo AND r.hi)
    UNION (SELECT m.id, m.seq, m.content FROM messages m WHERE m.session_id = r.session_id
        AND m.type = ANY(%s) AND m.seq > r.hi ORDER BY m.seq LIMIT %s)
    UNION (SELECT m.id, m.seq, m.content FROM messages m WHERE r.appended AND m.session_id = r.session_id
        AND m.type = ANY(%s) ORDER BY m.seq DESC LIMIT %s)) x"""


Near = tuple[str, str, int, str]  # a stored turn near a written one: session, id, seq, content


@dataclass(frozen=True, slots=True)
class Written:
    """A message as written now: where it stands, and (for a turn) its own words."""

    id: str
    session_id: str
    words: OwnWords | None  # None: not a turn


@dataclass(frozen=True, slots=True)
class Stored:
    """A message already stored: its session and its place in the order written."""

    session_id: str
    seq: int


@dataclass(frozen=True)
class NewWindows:
    written: dict[str, WindowCounts]  # the written turns' windows
    neighbours: dict[str, WindowCounts]  # stored turns whose windows the write changed


def new_windows(database: pw.Database, written: Sequence[Written], stored: dict[str, Stored],
                layout: WindowLayout) -> NewWindows:
    """The windows a write of `written` changes (`stored`: those of its ids already stored, as they were)."""
    near = _near(database, written, stored, layout.reach * 2)
    by_session: dict[str, list[Written]] = {}
    for row in written:
        if row.words is not None:
            by_session.setdefault(row.session_id, []).append(row)
    rewritten = {row.id for row in written}
    words = cache(lambda key: own_words(near_text[key]))
    near_text = {row[1]: row[3] for rows in near.values() for row in rows}
    found = NewWindows({}, {})
    for session in {*near, *by_session}:
        # (0, seq) for a row stored, (1, order in the write) for a new one: new rows take their sequence
        # numbers after every row already stored
        before = sorted(((0, row[2]), row[1]) for row in near.get(session, []))
        after = sorted([place for place in before if place[1] not in rewritten]
                       + [((0, stored[row.id].seq) if row.id in stored else (1, at), row.id)
                          for at, row in enumerate(by_session.get(session, []))])
        chain = [key for _, key in after]
        changed = _changed(chain, [key for _, key in before], rewritten, layout.reach)
        own = {row.id: row.words for row in by_session.get(session, []) if row.words is not None}
        owns = [own[key] if key in own else words(key) for key in chain]
        for at, key in enumerate(chain):
            if key in changed:
                (found.written if key in own else found.neighbours)[key] = window_of(owns, at, layout)
    return found


def _changed(chain: list[str], was: list[str], rewritten: set[str], reach: int) -> set[str]:
    """The turns of `chain` within `reach` of a rewritten row, where it stands now or stood before (`was`)."""
    changed: set[str] = set()
    for order in (chain, was):
        for at, key in enumerate(order):
            if key in rewritten:
                changed.update(order[max(0, at - reach):at + reach + 1])
    return changed & set(chain)


def _near(database: pw.Database, written: Sequence[Written], stored: dict[str, Stored], beyond: int,
          ) -> dict[str, list[Near]]:
    """The stored turns near where each written row stands now and stood before, by session."""
    spans: dict[str, tuple[int | None, int | None]] = {}
    appended: set[str] = set()
    for row in written:
        if row.id not in stored:
            appended.add(row.session_id)
            spans.setdefault(row.session_id, (None, None))
            continue
        was = stored[row.id]  # keeps its place, in its session or the one it moved to
        for session in {row.session_id, was.session_id}:
            low, high = spans.get(session, (None, None))
            spans[session] = (was.seq if low is None else min(low, was.seq), was.seq if high is None else max(high, was.seq))
    if not spans:
        return {}
    sessions = sorted(spans)
    rows = execute(database, _NEAR, (sessions, [spans[s][0] for s in sessions], [spans[s][1] for s in sessions],
                                     [s in appended for s in sessions], TURN_TYPES, beyond, TURN_TYPES, TURN_TYPES, beyond,
                                     TURN_TYPES, beyond)).fetchall()
    found: dict[str, list[Near]] = {}
    for session, key, seq, content in rows:
        found.setdefault(session, []).append((session, key, seq, content))
    return found
