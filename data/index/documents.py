"""History rows as keyword-index documents: a message with the turns around it, a session with its
preview (Q-01, Q-11).

A conversational answer rarely repeats its question, so each message is also found through the
turns near it in its session (schema.py weighs them).
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import NamedTuple

import peewee as pw
import tantivy

from oneclaw_search.data.history.raw_sql import execute_sql
from oneclaw_search.data.index import schema as f
from oneclaw_search.data.index.analyzer import name_parts, spaced
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES
from oneclaw_search.domain.text import fold

SEARCHABLE_TYPES = tuple(kind.value for kind in SEARCHABLE_MESSAGE_TYPES)
IS_SEARCHABLE = f"type IN ({', '.join('?' * len(SEARCHABLE_TYPES))})"  # SQL, bound with SEARCHABLE_TYPES
MESSAGE_COLUMNS = "rowid, id, session_id, type, created_at, content"
SESSION_COLUMNS = "rowid, id, updated_at, title, last_message_preview"


class MessageRow(NamedTuple):  # a tuple: a build makes a million of them
    rowid: int
    id: str
    session_id: str
    type: str
    created_at: int
    content: str


class SessionRow(NamedTuple):
    rowid: int
    id: str
    updated_at: int
    title: str | None
    preview: str | None


def fingerprint(*texts: str | None) -> int:
    """Changes whenever the indexed text does: how an edit in place is noticed."""
    joined = (texts[0] or "").encode() if len(texts) == 1 else "\x00".join(text or "" for text in texts).encode()
    return zlib.crc32(joined) | (len(joined) << 32)


def message_document(row: MessageRow, earlier: Sequence[str] = (), later: Sequence[str] = (),
                     body: str | None = None) -> tantivy.Document:
    """`earlier` and `later`: the texts of the turns before and after it, nearest first, as `spaced`
    made them; `body`: this row's own, when made already."""
    doc = tantivy.Document()
    doc.add_unsigned(f.ROWID, row.rowid)
    doc.add_integer(f.AT, row.created_at)
    doc.add_unsigned(f.FINGERPRINT, fingerprint(row.content))
    body = spaced(row.content) if body is None else body
    doc.add_text(f.BODY, body)
    around = f.TURNS_AROUND
    doc.add_text(f.WINDOW, "\n".join([body] * f.OWN_REPEATS + [*earlier[:1]] * f.BEFORE_REPEATS
                                     + [*earlier[1:around], *later[:around]]))
    doc.add_text(f.PARTS, name_parts(row.content))
    doc.add_text(f.LITERAL, fold(row.content))
    doc.add_text(f.SESSION, row.session_id)
    doc.add_text(f.ROLE, row.type)
    return doc


def session_document(row: SessionRow) -> tantivy.Document:
    doc = tantivy.Document()
    doc.add_unsigned(f.ROWID, row.rowid)
    doc.add_integer(f.AT, row.updated_at)
    doc.add_unsigned(f.FINGERPRINT, session_fingerprint(row))
    doc.add_text(f.TITLE, spaced(row.title or ""))
    doc.add_text(f.PREVIEW, spaced(row.preview or ""))
    doc.add_text(f.SESSION, row.id)
    doc.add_text(f.LITERAL, fold(row.title or ""))
    doc.add_text(f.LITERAL, fold(row.preview or ""))
    return doc


def session_fingerprint(row: SessionRow) -> int:
    """Its time too: a session's last activity dates it for the search window."""
    return fingerprint(row.title, row.preview, str(row.updated_at))


def rows_up_to(history: pw.Database, rowid: int) -> int:
    """How many history rows have rowids up to `rowid`: all of them less the few past it (a count of
    a rowid range walks the table itself; a count of all reads a narrow index, far faster)."""
    total: int = execute_sql(history, "SELECT count(*) FROM messages").fetchone()[0]
    past: int = execute_sql(history, "SELECT count(*) FROM messages WHERE rowid > ?", (rowid,)).fetchone()[0]
    return total - past


class _Turn:
    """A message waiting for the turns after it, changed in place as they arrive."""

    __slots__ = ("row", "body", "earlier", "later", "written", "current")

    def __init__(self, row: MessageRow, body: str, earlier: tuple[str, ...], later: list[str], written: bool) -> None:
        self.row, self.body, self.earlier, self.later = row, body, earlier, later  # earlier: nearest first
        self.written = written  # a document of it, with fewer turns after it, is in the index
        self.current = written  # and it shows the turns after it seen so far

    def document(self) -> tantivy.Document:
        return message_document(self.row, self.earlier, self.later, self.body)


SessionTurns = tuple[int, list[_Turn]]  # TurnWindows' state for one session


class TurnWindows:
    """Documents for new messages, each with the turns around it in its session.

    A message's document waits for the turns after it: it is written once TURNS_AROUND turns have
    followed, or at a commit (`pending`), and then written again as more follow. Rows arrive in
    rowid order; within a batch they are taken by time, as a session's turns are; a row older than
    its session's newest turn gets no context."""

    def __init__(self, lookup: Callable[[list[str]], dict[str, SessionTurns]]) -> None:
        self._last: dict[str, SessionTurns] = {}  # session → (newest turn's time, its last turns, oldest first)
        self._lookup = lookup  # session ids → the same, for the turns indexed before this pass

    def documents(self, rows: list[MessageRow]) -> tuple[list[int], list[tantivy.Document]]:
        """(rowids whose documents the new ones replace, the new documents)."""
        ordered = sorted(rows, key=lambda row: (row.created_at, row.rowid))
        unknown = {row.session_id for row in ordered} - self._last.keys()
        if unknown:
            self._last.update(self._lookup(sorted(unknown)))
        stale: list[int] = []
        made: list[tantivy.Document] = []
        for row in ordered:
            at, turns = self._last.get(row.session_id, (None, []))
            body = spaced(row.content)
            if at is not None and row.created_at < at:
                made.append(message_document(row, body=body))
                continue
            earlier = tuple(turn.body for turn in reversed(turns[-f.TURNS_AROUND:]))
            for turn in turns:
                turn.later.append(body)
                turn.current = False
                if len(turn.later) == f.TURNS_AROUND:
                    stale += [turn.row.rowid] if turn.written else []
                    made.append(turn.document())
            waiting = [turn for turn in turns if len(turn.later) < f.TURNS_AROUND]
            waiting.append(_Turn(row, body, earlier, [], False))
            self._last[row.session_id] = (row.created_at, waiting)
        return stale, made

    def pending(self) -> tuple[list[int], list[tantivy.Document]]:
        """The waiting messages' documents as they stand, before a commit."""
        stale: list[int] = []
        made: list[tantivy.Document] = []
        for _, turns in self._last.values():
            for turn in turns:
                if not turn.current:
                    stale += [turn.row.rowid] if turn.written else []
                    made.append(turn.document())
                    turn.written = turn.current = True
        return stale, made


def last_turns(rows: Sequence[MessageRow]) -> SessionTurns:
    """TurnWindows' state for a session from its newest indexed turns, newest first (up to
    2 × TURNS_AROUND): the last TURNS_AROUND of them were written with fewer turns after them."""
    ordered = list(reversed(rows))
    bodies = [spaced(row.content) for row in ordered]
    turns = []
    for at in range(max(0, len(ordered) - f.TURNS_AROUND), len(ordered)):
        earlier = tuple(reversed(bodies[max(0, at - f.TURNS_AROUND):at]))
        turns.append(_Turn(ordered[at], bodies[at], earlier, bodies[at + 1:], True))
    return ordered[-1].created_at, turns
