"""BundleImporter writing a JSONL bundle into a real SQLite file: timestamps in every accepted form,
idempotent re-imports, and bad lines skipped with their line numbers while good ones still land."""
from __future__ import annotations

import json
import sqlite3
from datetime import UTC

import pytest
from builders import TOKYO, ms

from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.importers.bundle_importer import BundleImporter

NOW_MS = ms("2026-03-01T12:00")
SESSION = {"kind": "session", "id": "s1", "title": "Dinner", "created_at": "2026-02-25T18:00"}
BUNDLE = [
    SESSION,
    {"kind": "message", "id": "m1", "session_id": "s1", "role": "user", "content": "Find sushi",
     "created_at": 1772013600000},
    {"kind": "message", "id": "m2", "session_id": "s1", "type": "AI_RESPONSE", "content": "Sakura Sushi",
     "created_at": "2026-02-25T10:01:00Z"},
    {"kind": "message", "id": "m3", "session_id": "s1", "role": "tool_call", "content": "",
     "created_at": "2026-02-25T19:02+09:00", "tool_name": "set_reminder",
     "tool_input": {"title": "Dinner at 寿司", "at": 19}},
    {"kind": "message", "id": "m4", "session_id": "s1", "role": "assistant", "content": "Reminder set.",
     "created_at": "2026-02-25T19:03"},
    {"kind": "memory", "id": "c-day", "text": "Went to Kamakura.", "source_date": "2026-02-24"},
    {"kind": "memory", "id": "c-keys", "text": "API keys live in Settings.", "created_at": "2026-02-01T09:00"},
    {"kind": "memory", "id": "c-now", "text": "Prefers window seats."},
]


def import_bundle(path, items):
    lines = [item if isinstance(item, str) else json.dumps(item, ensure_ascii=False) for item in items]
    database = open_writable(path)
    try:
        return BundleImporter(HistoryWriter(database, None), TOKYO, NOW_MS).import_lines(lines)
    finally:
        database.close()


def rows(path, sql):
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchall()


def dump(path):
    tables = ("sessions", "messages", "memory_index")
    return {table: rows(path, f"SELECT * FROM {table} ORDER BY id") for table in tables}


@pytest.mark.spec("P-12")
def test_sessions_messages_and_chunks_are_imported_with_their_times(tmp_path):
    path = tmp_path / "h.db"
    summary = import_bundle(path, BUNDLE)
    assert (summary.sessions, summary.messages, summary.chunks, summary.skipped) == (1, 4, 3, [])
    assert rows(path, "SELECT id, created_at, message_count FROM sessions") == [("s1", ms("2026-02-25T18:00"), 4)]
    assert rows(path, "SELECT id, type, created_at FROM messages ORDER BY id") == [
        ("m1", "USER", 1772013600000),
        ("m2", "AI_RESPONSE", ms("2026-02-25T10:01", UTC)),
        ("m3", "TOOL_CALL", ms("2026-02-25T19:02")),
        ("m4", "AI_RESPONSE", ms("2026-02-25T19:03")),
    ]
    assert rows(path, "SELECT id, source_type, source_date, created_at, updated_at FROM memory_index ORDER BY id") == [
        ("c-day", "daily_log", "2026-02-24", ms("2026-02-24T00:00"), ms("2026-02-24T00:00")),
        ("c-keys", "long_term", None, ms("2026-02-01T09:00"), ms("2026-02-01T09:00")),
        ("c-now", "long_term", None, NOW_MS, NOW_MS),
    ]


def test_a_naive_iso_time_is_read_in_the_given_zone(tmp_path):
    import_bundle(tmp_path / "h.db", [SESSION])
    # 18:00 in Tokyo (UTC+9) is 09:00 UTC.
    assert rows(tmp_path / "h.db", "SELECT created_at FROM sessions") == [(1772010000000,)]


def test_tool_input_given_as_an_object_is_stored_as_compact_json_text(tmp_path):
    import_bundle(tmp_path / "h.db", BUNDLE)
    stored = rows(tmp_path / "h.db", "SELECT tool_name, tool_input FROM messages WHERE id = 'm3'")
    assert stored == [("set_reminder", '{"title":"Dinner at 寿司","at":19}')]


@pytest.mark.spec("P-12")
def test_importing_the_same_bundle_twice_changes_nothing(tmp_path):
    path = tmp_path / "h.db"
    import_bundle(path, BUNDLE)
    first = dump(path)
    summary = import_bundle(path, BUNDLE)
    assert summary.skipped == []
    assert dump(path) == first
    assert [len(table) for table in first.values()] == [1, 4, 3]


def test_bad_lines_are_reported_by_number_and_good_lines_still_imported(tmp_path):
    path = tmp_path / "h.db"
    summary = import_bundle(path, [
        SESSION,
        "this is not json",
        "[1, 2, 3]",
        {"kind": "note", "id": "n1"},
        {"kind": "session", "title": "No id", "created_at": 1},
        "   ",
        {"kind": "session", "id": "s2", "title": "When?", "created_at": "yesterday"},
        {"kind": "message", "id": "m1", "session_id": "s1", "role": "robot", "content": "beep", "created_at": 1},
        {"kind": "memory", "id": "c1", "text": "Kamakura", "source_date": "24/02/2026"},
        {"kind": "message", "id": "m2", "session_id": "ghost", "role": "user", "content": "boo", "created_at": 1},
        {"kind": "message", "id": "m3", "session_id": "s1", "role": "user", "content": "Find sushi", "created_at": 1},
        {"kind": "memory", "id": "c2", "text": "Went to Kamakura.", "source_date": "2026-02-24"},
    ])
    expected = [(2, "not valid JSON"), (3, "not a JSON object"), (4, "unknown kind 'note'"), (5, "'id'"),
                (7, "created_at must be epoch milliseconds or an ISO-8601 time"), (8, "role must be one of"),
                (9, "source_date must be YYYY-MM-DD"), (10, "unknown session 'ghost'")]
    assert [number for number, _ in summary.skipped] == [number for number, _ in expected]
    for (_, reason), (_, fragment) in zip(summary.skipped, expected, strict=True):
        assert fragment in reason
    assert (summary.sessions, summary.messages, summary.chunks) == (1, 1, 1)
    assert rows(path, "SELECT id FROM sessions") == [("s1",)]
    assert rows(path, "SELECT id FROM messages") == [("m3",)]
    assert rows(path, "SELECT id FROM memory_index") == [("c2",)]


def test_a_message_for_a_session_from_an_earlier_import_is_accepted(tmp_path):
    path = tmp_path / "h.db"
    import_bundle(path, [SESSION])
    summary = import_bundle(path, [BUNDLE[1]])
    assert (summary.messages, summary.skipped) == (1, [])
    assert rows(path, "SELECT session_id, content FROM messages") == [("s1", "Find sushi")]
    assert rows(path, "SELECT message_count FROM sessions") == [(1,)]


def test_blank_lines_are_ignored_but_still_numbered(tmp_path):
    bundle = tmp_path / "bundle.jsonl"
    bundle.write_text(f"\n{json.dumps(SESSION)}\n   \n\t\n{{broken\n", encoding="utf-8")
    database = open_writable(tmp_path / "h.db")
    try:
        with bundle.open(encoding="utf-8") as lines:
            summary = BundleImporter(HistoryWriter(database, None), TOKYO, NOW_MS).import_lines(lines)
    finally:
        database.close()
    assert summary.sessions == 1
    assert [number for number, _ in summary.skipped] == [5]


def test_a_hostile_line_is_skipped_by_number_and_the_rest_imported(tmp_path):
    path = tmp_path / "h.db"
    summary = import_bundle(path, [
        SESSION,
        b'{"kind": "memory", "id": "c0", "text": "caf\xe9 in Latin-1"}'.decode("utf-8", "surrogateescape"),
        "[" * 100_000 + "]" * 100_000,
        '{"kind": "memory", "id": "c2", "text": "a lone \\ud800 half"}',
        '{"kind": "memory", "id": "c3", "text": "a whole \\ud83d\\ude00 pair"}',
    ])
    assert [(number, reason.split(" (")[0]) for number, reason in summary.skipped] == [
        (2, "not valid UTF-8"), (3, "nested too deeply"), (4, "a lone UTF-16 surrogate escaped in a string")]
    assert rows(path, "SELECT id, chunk_text FROM memory_index") == [("c3", "a whole \U0001f600 pair")]


def test_a_line_longer_than_the_limit_is_skipped_unread_and_the_lines_after_it_imported(tmp_path, capsys):
    from oneclaw_search.data.importers.bundle_importer import MAX_LINE_CHARS
    from oneclaw_search.tools.cli import main

    bundle = tmp_path / "bundle.jsonl"
    huge = json.dumps({"kind": "memory", "id": "big", "text": "x" * (MAX_LINE_CHARS + 10)})
    small = json.dumps({"kind": "memory", "id": "c1", "text": "Went to Kamakura.", "source_date": "2026-02-24"})
    bundle.write_text(f"{small}\n{huge}\n{small.replace('c1', 'c2')}\n")
    assert main(["--db", str(tmp_path / "h.db"), "import", str(bundle)]) == 0
    assert "line 2: longer than 8,388,608 characters" in capsys.readouterr().out
    assert rows(tmp_path / "h.db", "SELECT id FROM memory_index ORDER BY id") == [("c1",), ("c2",)]


def test_a_memory_chunk_keeps_the_update_time_it_is_given(tmp_path):
    path = tmp_path / "h.db"
    import_bundle(path, [{"kind": "memory", "id": "c1", "text": "Uses Vim.", "created_at": "2025-12-01T09:00",
                          "updated_at": "2026-02-20T09:00"}])
    assert rows(path, "SELECT created_at, updated_at FROM memory_index") == [(ms("2025-12-01T09:00"), ms("2026-02-20T09:00"))]
