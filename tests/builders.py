"""Builders for test rows and SQLite history files written through the real data layer."""
from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from oneclaw_search.data.history.history_writer import HistoryWriter, NewMessage, NewSession
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.domain.models import MemoryChunk, MemorySearchResult, MessageHit, SessionHit

TOKYO = ZoneInfo("Asia/Tokyo")


def ms(moment: str, zone: tzinfo = TOKYO) -> int:
    """Epoch ms of an ISO local time such as '2026-02-25T19:00' in `zone`."""
    parsed = datetime.fromisoformat(moment)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=zone)
    return int(parsed.timestamp() * 1000)


def new_session(id: str, title: str, at: str, *, updated: str | None = None, deleted: str | None = None,
                zone: tzinfo = TOKYO) -> NewSession:
    return NewSession(id, title, ms(at, zone), ms(updated, zone) if updated else None, ms(deleted, zone) if deleted else None)


def new_message(id: str, session_id: str, content: str, at: str, type: str = "USER", *, zone: tzinfo = TOKYO,
                **tool: str) -> NewMessage:
    return NewMessage(id, session_id, type, content, ms(at, zone), **tool)


def chunk(id: str, text: str, date: str | None = None, *, source_type: str | None = None,
          written: str = "2026-03-01T03:00", embedding: bytes | None = None) -> MemoryChunk:
    kind = source_type or ("daily_log" if date else "long_term")
    return MemoryChunk(id, kind, date, text, embedding, ms(written), ms(written))


def write_history(path: Path, sessions=(), messages=(), chunks=(), embedder=None) -> Path:
    """A real SQLite history file at `path`, written the way `oneclaw-search import` writes."""
    database = open_writable(path)
    try:
        HistoryWriter(database, embedder).write(list(sessions), list(messages), list(chunks))
    finally:
        database.close()
    return path


def add_messages(path: Path, messages) -> None:
    """Append messages to a history this package wrote, through its own writer."""
    database = open_writable(path)
    HistoryWriter(database, None).write([], list(messages), [])
    database.close()


def run_sql(path: Path, statement: str, params=()) -> None:
    """One statement against the history file in a transaction of its own, as another writer would."""
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute(statement, params)


def message_hit(id: str, content: str, at: str, *, session_id: str = "s1", title: str | None = "Chat",
                type: str = "USER") -> MessageHit:
    return MessageHit(id, session_id, title, type, content, ms(at))


def session_hit(id: str, title: str, at: str, *, preview: str | None = None, count: int = 2) -> SessionHit:
    return SessionHit(id, title, count, preview, ms(at), ms(at))


def memory_result(id: str, text: str, relevance: float, date: str | None = None, *, decay: float = 1.0) -> MemorySearchResult:
    return MemorySearchResult(chunk(id, text, date), relevance, None, relevance, decay, relevance * decay)


def built(container):
    """The container with its side index built in the foreground, as `oneclaw-search index` builds it
    (after any build a search started in the background has ended)."""
    from oneclaw_search.di.index_module import IndexParts

    lookup = container.get(IndexParts).lookup
    lookup.builder.wait(120)
    assert lookup.sync.catch_up()
    return container
