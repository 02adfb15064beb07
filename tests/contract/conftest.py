"""The history DAOs and searches the contract suites run over: one set of rows written to a real
SQLite file, then searched by the fakes, by the spec's scan and through the keyword index, and the
same rows written to a PostgreSQL tenant and searched there (MessageDao.kt, SessionDao.kt).

A fake holds no sessions table: it is given the rows of live sessions only, so a soft-deleted
session's rows are simply not there, as they are not there for a search of the real file.
"""
from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from itertools import count

import pytest
from builders import write_history
from fakes import FakeMessageDao, FakeSessionDao

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.data.history.session_dao import PeeweeSessionDao
from oneclaw_search.data.index.indexed_search import IndexedMessageSearch, IndexedSessionSearch
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.models import MessageHit, SessionHit
from oneclaw_search.domain.ports import MessageDao, MessageSearch, SessionDao, SessionSearch

LIVE_MESSAGES = """SELECT m.id, m.session_id, s.title, m.type, m.content, m.created_at
                   FROM messages m LEFT JOIN sessions s ON s.id = m.session_id
                   WHERE s.deleted_at IS NULL ORDER BY m.rowid"""
LIVE_SESSIONS = """SELECT id, title, message_count, last_message_preview, created_at, updated_at
                   FROM sessions WHERE deleted_at IS NULL ORDER BY rowid"""


@dataclass(frozen=True)
class HistoryDaos:
    """The DAOs, and the MessageSearch and SessionSearch ports production wires over them."""

    messages: object
    sessions: object
    message_search: object
    session_search: object


def literal(messages, sessions) -> HistoryDaos:
    """The spec's scans over the DAOs, as a host without an index wires them (and the unit tests do)."""
    return HistoryDaos(messages, sessions, LiteralMessageSearch(messages), LiteralSessionSearch(sessions))


def fake_daos(path) -> HistoryDaos:
    """Fakes holding every row of the file's live sessions, of every message type."""
    with closing(sqlite3.connect(path)) as connection:
        messages = [MessageHit(*row) for row in connection.execute(LIVE_MESSAGES)]
        sessions = [SessionHit(*row) for row in connection.execute(LIVE_SESSIONS)]
    return literal(FakeMessageDao(messages), FakeSessionDao(sessions))


def scanning_daos(path) -> HistoryDaos:
    database = HistoryDatabase.open_read_only(path)
    return literal(PeeweeMessageDao(database, None), PeeweeSessionDao(database, None))


def indexed_daos(path, side) -> HistoryDaos:
    """The DAOs answering from a keyword index caught up with the whole file, as searches use them."""
    database = HistoryDatabase.open_read_only(path)
    lookup = KeywordLookup.open(database, SideIndex(side))
    assert lookup.sync.catch_up()  # else the DAOs would quietly fall back to the scan
    messages, sessions = PeeweeMessageDao(database, lookup), PeeweeSessionDao(database, lookup)
    return HistoryDaos(messages, sessions, IndexedMessageSearch(lookup, messages, sessions), IndexedSessionSearch(lookup, sessions))


def postgres_daos(url, tenant, sessions, messages) -> HistoryDaos:
    """The PostgreSQL backend's DAOs and searches, as its container wires them, over a tenant of its own."""
    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
    from oneclaw_search.di import create_injector

    PostgresHistoryWriter(PostgresHistory(url, tenant), None).write(list(sessions), list(messages), [])
    container = create_injector(url, tenant=tenant, embedder=None)
    return HistoryDaos(container.get(MessageDao), container.get(SessionDao), container.get(MessageSearch),
                       container.get(SessionSearch))


@pytest.fixture(params=["fake", "scan", "index", "postgres"])
def history_daos(request, tmp_path):
    """Factory: (sessions, messages) -> the message and session DAOs of one implementation over them."""
    numbers = count()
    new_tenant = request.getfixturevalue("new_tenant") if request.param == "postgres" else None

    def build(sessions=(), messages=()) -> HistoryDaos:
        n = next(numbers)
        if new_tenant is not None:
            return postgres_daos(request.getfixturevalue("postgres_url"), new_tenant(), sessions, messages)
        path = write_history(tmp_path / f"history-{n}.db", sessions, messages)
        if request.param == "fake":
            return fake_daos(path)
        if request.param == "scan":
            return scanning_daos(path)
        return indexed_daos(path, tmp_path / f"side-{n}.sqlite")

    return build
