"""History rows as keyword-index documents: a message with its window, a session (Q-01, Q-11).

A message's document holds its window, the turns beside it weighed as the ranking model's layout says
(domain/relevance.py), so writing, editing or deleting a turn rewrites its neighbours' documents too
(sync.py, edits.py). A session's words are its title's: its preview is its last message, found by its
words as a message (the preview still counts for the spec's literal reading).
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import peewee as pw
import tantivy

from oneclaw_search.data.history.raw_sql import execute_sql
from oneclaw_search.data.index import schema as f
from oneclaw_search.data.text.analyzer import indexed_text, text_terms
from oneclaw_search.data.text.term_counts import indexed_lengths
from oneclaw_search.domain.models import SEARCHABLE_MESSAGE_TYPES
from oneclaw_search.domain.text import fold
from oneclaw_search.domain.window_bm25 import WindowLayout

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


Turn = tuple[int, str]  # a neighbour: (rowid, content)


@dataclass(frozen=True, slots=True)
class WindowedRow:
    """A message and the turns beside it, nearest first; `open`: how many turns after it its window
    still lacks (it is among its session's last), so a new turn in its session rewrites it."""

    row: MessageRow
    before: tuple[Turn, ...]
    after: tuple[Turn, ...]
    open: int


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


_fingerprint = lru_cache(maxsize=1024)(fingerprint)  # an edit's check reads each neighbour's twice or more


class Prepared(NamedTuple):
    """A turn's text as its documents take it: as its words field holds it, its length in terms, its fingerprint."""

    indexed: str
    length: int
    fingerprint: int


def prepared(rows: Sequence[WindowedRow]) -> dict[str, Prepared]:
    """Every text in these rows' windows, prepared once for the batch: a turn stands in its own
    document and in its neighbours' windows, and a batch's texts are measured together."""
    texts = list(dict.fromkeys(text for windowed in rows for text in _texts(windowed)))
    indexed, lengths = indexed_lengths(texts)
    return {text: Prepared(words, length, fingerprint(text)) for text, words, length in zip(texts, indexed, lengths, strict=True)}


def _texts(windowed: WindowedRow) -> Iterator[str]:
    yield windowed.row.content
    yield from (text for _, text in windowed.before)
    yield from (text for _, text in windowed.after)


def window_fingerprint(windowed: WindowedRow) -> int:
    """Changes whenever a neighbour's text does, or a neighbour comes or goes."""
    return _window_print([_fingerprint(text) for _, text in windowed.before], [_fingerprint(text) for _, text in windowed.after])


def _window_print(before: list[int], after: list[int]) -> int:
    prints = [*before, 0, *after]
    return zlib.crc32(struct.pack(f"<{len(prints)}Q", *prints)) | (len(prints) << 32)


def message_document(windowed: WindowedRow, layout: WindowLayout, texts: Mapping[str, Prepared]) -> tantivy.Document:
    """`texts`: what `prepared` made of the batch it is written in. The window field holds the row's own
    words and its neighbours', each as often as the layout says, in one string (only its terms' counts
    and its length are indexed); its length, as tantivy counts it, is kept with the document, as the
    live documents' statistics are read from it (live_counts.py)."""
    row = windowed.row
    own = texts[row.content]
    before, after = [texts[text] for _, text in windowed.before], [texts[text] for _, text in windowed.after]
    weighted = [(layout.own, own), *zip(layout.before, before, strict=False), *zip(layout.after, after, strict=False)]
    doc = tantivy.Document()
    doc.add_unsigned(f.ROWID, row.rowid)
    doc.add_integer(f.AT, row.created_at)
    doc.add_unsigned(f.FINGERPRINT, own.fingerprint)
    doc.add_unsigned(f.WINDOW_FINGERPRINT, _window_print([text.fingerprint for text in before], [text.fingerprint for text in after]))
    doc.add_unsigned(f.PREVIOUS, windowed.before[0][0] if windowed.before else 0)
    doc.add_unsigned(f.NEXT, windowed.after[0][0] if windowed.after else 0)
    doc.add_text(f.BODY, own.indexed)
    doc.add_text(f.WINDOW, "\n".join(text.indexed for times, text in weighted for _ in range(times)))
    doc.add_text(f.LITERAL, fold(row.content))
    doc.add_text(f.SESSION, row.session_id)
    doc.add_text(f.ROLE, row.type)
    doc.add_text(f.EVERY, f.EVERY_TERM)
    doc.add_unsigned(f.LENGTH, sum(times * text.length for times, text in weighted))
    doc.add_unsigned(f.OWN_LENGTH, own.length)
    return doc


def session_document(row: SessionRow) -> tantivy.Document:
    doc = tantivy.Document()
    doc.add_unsigned(f.ROWID, row.rowid)
    doc.add_integer(f.AT, row.updated_at)
    doc.add_unsigned(f.FINGERPRINT, session_fingerprint(row))
    doc.add_text(f.TITLE, indexed_text(row.title or ""))
    doc.add_text(f.PREVIEW, indexed_text(row.preview or ""))
    doc.add_text(f.SESSION, row.id)
    doc.add_text(f.LITERAL, fold(row.title or ""))
    doc.add_text(f.LITERAL, fold(row.preview or ""))
    doc.add_text(f.EVERY, f.EVERY_TERM)
    doc.add_unsigned(f.LENGTH, len(text_terms(row.title or "")))
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
