"""Compatibility with OneClaw's own database: a file the app made and filled is searched in place
through the real container without a byte changing or a file appearing beside it, is recognised
as OneClaw's, and the files this package creates have exactly OneClaw's tables.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from contextlib import closing

import pytest
from builders import chunk, ms, new_message, new_session, write_history
from fakes import FixedClock
from oneclaw_ddl import ROOM_DDL, SEARCHED_TABLES, create_oneclaw_database, table_shape

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.di import create_injector
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.tools import ToolExecutionEngine

NOW, DINNER, GINZA = ms("2026-03-01T12:00"), ms("2026-02-25T19:00"), ms("2026-02-24T08:00")
SESSIONS = [  # id, title, message_count, last_message_preview, deleted_at, created_at, updated_at
    ("s-live", "Dinner Planning", 3, "Sakura Sushi is two minutes from the station.", None, DINNER, DINNER + 120_000),
    ("s-gone", "Old sushi ideas", 1, "Sushi in Ginza", GINZA + 3_600_000, GINZA, GINZA),
]
MESSAGES = [  # id, session_id, type, content, tool_name, tool_input, created_at
    ("m-user", "s-live", "USER", "Where can I find good sushi near Shibuya?", None, None, DINNER),
    ("m-ai", "s-live", "AI_RESPONSE", "Sakura Sushi is two minutes from the station.", None, None, DINNER + 60_000),
    ("m-call", "s-live", "TOOL_CALL", "", "set_reminder", '{"title":"sushi dinner"}', DINNER + 120_000),
    ("m-gone", "s-gone", "USER", "Sushi in Ginza", None, None, GINZA),
]
MEMORY = [  # id, source_type, source_date, chunk_text (embedding NULL)
    ("d-1", "daily_log", "2026-02-25", "Planned a sushi dinner with a friend."),
    ("lt-1", "long_term", None, "The user loves sushi and dislikes natto."),
]


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def connect(path):
    """A plain sqlite3 connection in autocommit mode, closed on exit (which removes any -wal file)."""
    return closing(sqlite3.connect(path, isolation_level=None))


def fill_like_the_app(path):
    """Rows written with plain sqlite3, as another program (the OneClaw app) would write them."""
    with connect(path) as db:
        db.executemany("INSERT INTO sessions (id, title, current_agent_id, message_count, last_message_preview,"
                       " is_active, deleted_at, created_at, updated_at) VALUES (?, ?, 'agent', ?, ?, 0, ?, ?, ?)", SESSIONS)
        db.executemany("INSERT INTO messages (id, session_id, type, content, tool_name, tool_input, created_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)", MESSAGES)
        db.executemany("INSERT INTO memory_index (id, source_type, source_date, chunk_text, embedding, created_at,"
                       f" updated_at) VALUES (?, ?, ?, ?, NULL, {NOW}, {NOW})", MEMORY)
    return path


@pytest.mark.spec("P-03", "BR-11", "NFR-6", "AC-01", "AC-02", "P-04", "P-05")
@pytest.mark.parametrize("wal", [False, True], ids=["rollback-journal", "wal"])
def test_a_database_filled_by_the_oneclaw_app_is_searched_in_place_without_changing_a_byte(tmp_path, wal):
    device = tmp_path / "device"
    device.mkdir()
    path = fill_like_the_app(create_oneclaw_database(device / "oneclaw.db", wal=wal))
    assert os.listdir(device) == ["oneclaw.db"]  # the writer's WAL was checkpointed and removed
    assert path.read_bytes()[18] == (2 if wal else 1)
    before = digest(path)

    engine = create_injector(path, clock=FixedClock(NOW), time_zone="Asia/Tokyo").get(ToolExecutionEngine)
    reply = engine.execute_tool("search_history", {"query": "sushi", "format": "json", "max_results": 50})

    assert reply.is_success, reply.error_message
    document = json.loads(reply.result)
    assert document["complete"] is True
    assert {hit["id"]: hit["source"] for hit in document["results"]} == {
        "m-user": "message", "m-ai": "message", "s-live": "session", "d-1": "daily_log", "lt-1": "memory",
    }
    assert digest(path) == before
    assert os.listdir(device) == ["oneclaw.db"]


@pytest.mark.spec("BR-11")
@pytest.mark.parametrize("user_version", [1, 12])
@pytest.mark.parametrize("wal", [False, True], ids=["rollback-journal", "wal"])
def test_open_read_only_recognises_a_oneclaw_app_database(tmp_path, user_version, wal):
    path = create_oneclaw_database(tmp_path / "oneclaw.db", wal=wal, user_version=user_version)
    assert HistoryDatabase.open_read_only(path).info.origin == "oneclaw"
    assert os.listdir(tmp_path) == ["oneclaw.db"]


@pytest.mark.spec("BR-11")
def test_open_read_only_recognises_a_later_oneclaw_schema_by_its_columns(tmp_path):
    path = create_oneclaw_database(tmp_path / "oneclaw.db", user_version=12)
    with connect(path) as db:
        db.execute("UPDATE room_master_table SET identity_hash = 'a later schema' WHERE id = 42")
    assert HistoryDatabase.open_read_only(path).info.origin == "oneclaw"


@pytest.mark.spec("P-13", "BR-11")
def test_a_database_this_package_creates_has_oneclaws_exact_tables_and_survives_oneclaws_ddl(tmp_path):
    ours = write_history(tmp_path / "ours.db", [new_session("s1", "Chat", "2026-02-01T10:00")],
                         [new_message("m1", "s1", "hello", "2026-02-01T10:00")], [chunk("c1", "note")])
    with connect(ours) as mine, connect(create_oneclaw_database(tmp_path / "theirs.db")) as app:
        oneclaws = {table: table_shape(app, table) for table in SEARCHED_TABLES}
        assert {table: table_shape(mine, table) for table in SEARCHED_TABLES} == oneclaws
        for statement in ROOM_DDL:  # what OneClaw would run to adopt the file
            mine.execute(statement)
        assert {table: table_shape(mine, table) for table in SEARCHED_TABLES} == oneclaws
        tables = {row[0] for row in mine.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"agents", "attachments", "room_master_table"} <= tables
        assert mine.execute("SELECT count(*) FROM messages").fetchone() == (1,)
    assert HistoryDatabase.open_read_only(ours).info.origin == "oneclaw"


@pytest.mark.spec("P-03")
@pytest.mark.parametrize("wal", [False, True], ids=["rollback-journal", "wal"])
def test_open_writable_refuses_a_oneclaw_app_database_and_leaves_it_untouched(tmp_path, wal):
    path = create_oneclaw_database(tmp_path / "oneclaw.db", wal=wal)
    before = digest(path)
    with pytest.raises(HistoryUnavailable, match="refusing"):
        open_writable(path)
    assert digest(path) == before
    assert os.listdir(tmp_path) == ["oneclaw.db"]


def _sqlite_without_messages(path):
    with connect(path) as db:
        db.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT)")


def _messages_without_content(path):
    """OneClaw's tables without room_master_table, and messages lacking its content column."""
    with connect(path) as db:
        for statement in (s for s in ROOM_DDL if "room_master_table" not in s):
            db.execute(statement.replace("`content` TEXT NOT NULL, ", ""))


@pytest.mark.spec("P-11")
@pytest.mark.parametrize(("make", "mentions"), [
    (lambda path: None, "not found"),
    (lambda path: path.mkdir(), "not a database file"),
    (lambda path: path.write_bytes(b""), "empty"),
    (lambda path: path.write_text("just some notes, not a database\n" * 10), "not a SQLite database"),
    (_sqlite_without_messages, "'messages'"),
    (_messages_without_content, "content"),
], ids=["missing-file", "directory", "empty-file", "text-file", "no-messages-table", "no-content-column"])
def test_open_read_only_rejects_what_is_not_a_history_database_naming_the_file(tmp_path, make, mentions):
    path = tmp_path / "history.db"
    make(path)
    existed, before = path.exists(), sorted(os.listdir(tmp_path))
    with pytest.raises(HistoryUnavailable) as raised:
        HistoryDatabase.open_read_only(path)
    assert str(path) in str(raised.value)
    assert mentions in str(raised.value)
    assert path.exists() == existed  # a missing file is not created
    assert sorted(os.listdir(tmp_path)) == before
