"""`oneclaw-search import squidbot PATH` on files in squidbot's JSONL format.

The lines follow squidbot's `_serialize_message` (../shared/reference/history-formats.md): naive
local timestamps, optional channel and sender, tool calls on assistant lines, tool results as
role "tool". Fixtures are ours, ugly parts included: a bad line, an unknown role, an aware time.
"""
import json
import sqlite3
from contextlib import closing
from datetime import datetime
from zoneinfo import ZoneInfo

from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine
from oneclaw_search.tools.cli import main

TOKYO = ZoneInfo("Asia/Tokyo")
LINES = [
    {"role": "user", "content": "Any good ramen near Shinjuku?", "timestamp": "2026-02-24T10:00:00.123456",
     "channel": "matrix", "sender_id": "@alice:matrix.org"},
    {"role": "assistant", "content": "", "timestamp": "2026-02-24T10:00:05", "channel": "matrix", "sender_id": "@alice:matrix.org",
     "tool_calls": [{"id": "c1", "name": "web_search", "arguments": {"q": "ramen Shinjuku"}}]},
    {"role": "tool", "content": "Fuunji: tsukemen, 2 min from the south exit", "tool_call_id": "c1",
     "timestamp": "2026-02-24T10:00:07", "channel": "matrix", "sender_id": "@alice:matrix.org"},
    {"role": "assistant", "content": "Try Fuunji for tsukemen.", "timestamp": "2026-02-24T10:00:09",
     "channel": "matrix", "sender_id": "@alice:matrix.org"},
    {"role": "user", "content": "Book the dentist for Friday", "timestamp": "2026-02-25T09:00:00Z", "channel": "cli"},
]


def write_lines(path, items, extra=()):
    path.write_text("".join(json.dumps(item) + "\n" for item in items) + "".join(extra))
    return path


def rows(db):
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute("SELECT session_id, type, content, tool_name, tool_input, tool_output, created_at"
                                  " FROM messages ORDER BY created_at, id").fetchall()


def run(db, path, capsys):
    code = main(["--db", str(db), "--time-zone", "Asia/Tokyo", "import", "squidbot", str(path)])
    return code, capsys.readouterr().out


def test_a_global_history_becomes_one_session_per_channel_and_sender(tmp_path, capsys):
    db = tmp_path / "history.db"
    history = write_lines(
        tmp_path / "history.jsonl", LINES, ["{not json\n", '{"role": "robot", "content": "x", "timestamp": "2026-02-24T11:00:00"}\n']
    )
    code, out = run(db, history, capsys)
    assert code == 0 and "Imported 5 new messages in 2 sessions from 1 files" in out
    assert "1 × not valid JSON" in out and "1 × unknown role 'robot'" in out
    naive = int(datetime(2026, 2, 24, 10, 0, 0, 123456, tzinfo=TOKYO).timestamp() * 1000)
    assert rows(db) == [
        ("squidbot:matrix:@alice:matrix.org", "USER", "Any good ramen near Shinjuku?", None, None, None, naive),
        ("squidbot:matrix:@alice:matrix.org", "TOOL_CALL", "", "web_search", '{"q":"ramen Shinjuku"}', None, naive + 4_877),
        ("squidbot:matrix:@alice:matrix.org", "TOOL_RESULT", "", None, None, "Fuunji: tsukemen, 2 min from the south exit", naive + 6_877),
        ("squidbot:matrix:@alice:matrix.org", "AI_RESPONSE", "Try Fuunji for tsukemen.", None, None, None, naive + 8_877),
        (
            "squidbot:cli:local",
            "USER",
            "Book the dentist for Friday",
            None,
            None,
            None,
            int(datetime(2026, 2, 25, 9, tzinfo=ZoneInfo("UTC")).timestamp() * 1000),
        ),
    ]
    engine = create_injector(db, time_zone="Asia/Tokyo").get(ToolExecutionEngine)
    found = engine.execute_tool("search_history", {"query": "tsukemen", "scope": "sessions"}).result
    assert 'session: "squidbot matrix / @alice:matrix.org"' in found and "Assistant: Try Fuunji for tsukemen." in found


def test_importing_again_adds_nothing_and_a_grown_file_adds_only_its_new_lines(tmp_path, capsys):
    db, history = tmp_path / "history.db", write_lines(tmp_path / "history.jsonl", LINES[:4])
    run(db, history, capsys)
    before = rows(db)
    code, out = run(db, history, capsys)
    assert code == 0 and "Imported 0 new messages" in out and "(4 already there)" in out and rows(db) == before
    write_lines(history, LINES)
    _, out = run(db, history, capsys)
    assert "Imported 1 new messages" in out and rows(db)[:4] == before and len(rows(db)) == 5


def test_a_squidbot_folder_reads_the_old_per_conversation_files_too(tmp_path, capsys):
    home = tmp_path / ".squidbot"
    (home / "sessions").mkdir(parents=True)
    write_lines(home / "history.jsonl", LINES[4:])
    write_lines(
        home / "sessions" / "email__bob@example.org.jsonl",
        [{"role": "user", "content": "Send me the invoice", "timestamp": "2026-01-10T08:00:00"}],
    )
    outside = write_lines(tmp_path / "elsewhere.jsonl", [{"role": "user", "content": "secret", "timestamp": "2026-01-01T00:00:00"}])
    (home / "sessions" / "leak__x.jsonl").symlink_to(outside)
    code, out = run(tmp_path / "history.db", home, capsys)
    assert code == 0 and "from 2 files" in out and "1 × a link leading out of the folder" in out
    assert {session for session, *_ in rows(tmp_path / "history.db")} == {"squidbot:cli:local", "squidbot:email:bob@example.org"}


def test_a_file_gives_the_same_messages_alone_as_in_its_folder(tmp_path, capsys):
    home = tmp_path / ".squidbot"
    (home / "sessions").mkdir(parents=True)
    alone = write_lines(home / "sessions" / "email__bob@example.org.jsonl", LINES[:2])
    run(tmp_path / "history.db", home, capsys)
    code, out = run(tmp_path / "history.db", alone, capsys)
    assert code == 0 and "Imported 0 new messages" in out and "(2 already there)" in out


def test_a_missing_history_is_one_line(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "history.db"), "import", "squidbot", str(tmp_path / "nope")]) == 1
    assert "squidbot history not found" in capsys.readouterr().err


def test_a_new_install_without_history_yet_gives_an_empty_history_that_answers_as_squidbot_does(tmp_path, capsys):
    home, db = tmp_path / ".squidbot", tmp_path / "h.db"
    home.mkdir()
    code, out = run(db, home, capsys)
    assert code == 0 and out.startswith("Nothing to import yet") and "history.jsonl" in out and db.exists()
    engine = create_injector(db, time_zone="Asia/Tokyo").get(ToolExecutionEngine)
    blank = engine.execute_tool("search_history", {"query": "  "})
    assert blank.error_type == "validation_error" and "query" in blank.error_message
    nothing = engine.execute_tool("search_history", {"query": "find me please"})
    assert nothing.is_success and "No matching results found" in nothing.result
    write_lines(home / "history.jsonl", LINES)  # squidbot's first messages: the next import takes them in
    code, out = run(db, home, capsys)
    assert code == 0 and "Imported 5 new messages" in out


def test_replies_written_as_sender_assistant_join_the_conversation_they_answer(tmp_path, capsys):
    # As squidbot itself writes them: the user's sender id on questions, "assistant" on replies.
    lines = [
        {
            "role": "user",
            "content": "Any good ramen near Shinjuku?",
            "timestamp": "2026-02-24T10:00:00",
            "channel": "matrix",
            "sender_id": "@alice:matrix.org",
        },
        {
            "role": "assistant",
            "content": "Try Fuunji for tsukemen.",
            "timestamp": "2026-02-24T10:00:09",
            "channel": "matrix",
            "sender_id": "assistant",
        },
        {"role": "user", "content": "Book the dentist", "timestamp": "2026-02-24T11:00:00", "channel": "telegram", "sender_id": "42"},
        {
            "role": "assistant",
            "content": "Booked for Friday.",
            "timestamp": "2026-02-24T11:00:03",
            "channel": "telegram",
            "sender_id": "assistant",
        },
    ]
    db = tmp_path / "history.db"
    code, _ = run(db, write_lines(tmp_path / "history.jsonl", lines), capsys)
    assert code == 0
    assert [(session, content) for session, _, content, *_ in rows(db)] == [
        ("squidbot:matrix:@alice:matrix.org", "Any good ramen near Shinjuku?"),
        ("squidbot:matrix:@alice:matrix.org", "Try Fuunji for tsukemen."),
        ("squidbot:telegram:42", "Book the dentist"),
        ("squidbot:telegram:42", "Booked for Friday."),
    ]
