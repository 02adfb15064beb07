"""HistoryRecorder on a real SQLite history: turns recorded as they happen are searchable
at once, sessions keep their bookkeeping, and threads and processes record while others search."""
import json
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing

import pytest
from builders import ms
from fakes import FixedClock
from freezegun import freeze_time
from oneclaw_ddl import create_oneclaw_database
from threads import run_at_once

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_recorder import HistoryRecorder
from oneclaw_search.di import create_injector
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.tools import ToolExecutionEngine


def session_row(db, session_id):
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute("SELECT title, message_count, last_message_preview, created_at, updated_at FROM sessions"
                                  " WHERE id = ?", (session_id,)).fetchone()


def message_ids(db):
    with closing(sqlite3.connect(db)) as connection:
        return [row[0] for row in connection.execute("SELECT id FROM messages ORDER BY created_at, rowid")]


def search(db, query):
    engine = create_injector(db, time_zone="Asia/Tokyo", embedder=None).get(ToolExecutionEngine)
    return [item["id"] for item in json.loads(engine.execute_tool(
        "search_history", {"query": query, "scope": "sessions", "format": "json"}).result)["results"]]


def test_a_session_is_made_on_its_first_turn_and_its_bookkeeping_follows_each_turn(tmp_path):
    clock = FixedClock(ms("2026-02-25T19:00"))
    recorder = HistoryRecorder.open(tmp_path / "history.db", clock)
    recorder.record("s1", "user", "Where can I find good sushi near Shibuya?")
    clock.now += 60_000
    recorder.record("s1", "assistant", "Sakura Sushi, two minutes from the Hachiko exit.", title="ignored: the session exists")
    recorder.close()
    assert session_row(tmp_path / "history.db", "s1") == (
        "Where can I find good sushi near Shibuya?", 2, "Sakura Sushi, two minutes from the Hachiko exit.",
        ms("2026-02-25T19:00"), ms("2026-02-25T19:01"))


def test_a_recorded_turn_is_searchable_at_once_and_its_time_comes_from_a_frozen_clock(tmp_path):
    db = tmp_path / "history.db"
    with freeze_time("2026-02-25 10:00:00") as frozen:
        recorder = HistoryRecorder.open(db)
        recorder.record("s1", "user", "Remember the walrus costume", message_id="m1", title="Costumes")
        frozen.tick(10)  # past the spec's 5 s buffer, which keeps the turn being answered out of its own search
        assert "m1" in search(db, "walrus")
        recorder.record("s1", "user", "and the zebra mask", message_id="m2")
        frozen.tick(10)
        assert "m2" in search(db, "zebra")
    assert session_row(db, "s1")[3] == 1_772_013_600_000  # 2026-02-25 10:00 UTC, the frozen time


def test_a_background_recorder_returns_while_another_writer_holds_the_lock_and_flush_writes_every_turn(tmp_path):
    db = tmp_path / "history.db"
    recorder = HistoryRecorder.open(db, background=True)
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # until it lets go, no write can happen
        ids = [recorder.record("s1", "user" if n % 2 == 0 else "assistant", f"turn {n}") for n in range(50)]
        assert message_ids(db) == []  # every call came back, with nothing written yet
        other.execute("ROLLBACK")
    recorder.flush()
    assert message_ids(db) == ids and session_row(db, "s1")[1] == 50


def test_flush_raises_what_a_background_write_raised(tmp_path):
    db = tmp_path / "history.db"
    HistoryRecorder.open(db).close()
    recorder = HistoryRecorder(HistoryDatabase.open_read_only(db), FixedClock(ms("2026-02-25T19:00")), background=True)
    recorder.record("s1", "user", "lost?")
    with pytest.raises(HistoryUnavailable, match="readonly"):
        recorder.flush()
    assert message_ids(db) == []


def test_bad_turns_and_oneclaws_own_database_are_refused(tmp_path):
    recorder = HistoryRecorder.open(tmp_path / "history.db")
    with pytest.raises(ValueError, match="role must be one of user, assistant"):
        recorder.record("s1", "robot", "beep")
    app = create_oneclaw_database(tmp_path / "oneclaw.db")
    before = app.read_bytes()
    with pytest.raises(HistoryUnavailable):
        HistoryRecorder.open(app)
    assert app.read_bytes() == before


def test_threads_record_while_another_searches_and_no_turn_is_lost(tmp_path):
    db = tmp_path / "history.db"
    recorder = HistoryRecorder.open(db)
    recorder.record("warm", "user", "first words")
    failures, done = [], threading.Event()

    def write(worker):
        for n in range(25):
            recorder.record(f"s{worker}", "user", f"worker {worker} note {n} about kiwis")

    def read():
        while not done.is_set():
            try:
                search(db, "kiwis")
            except Exception as failure:  # noqa: BLE001
                failures.append(failure)
    reader = threading.Thread(target=read)
    reader.start()
    failures += run_at_once(write, [(worker,) for worker in range(4)])
    done.set()
    reader.join()
    assert failures == [] and len(message_ids(db)) == 101
    assert [session_row(db, f"s{worker}")[1] for worker in range(4)] == [25] * 4


RECORD = """
import sys
from oneclaw_search.data.history.history_recorder import HistoryRecorder
recorder = HistoryRecorder.open(sys.argv[1])
for n in range(30):
    recorder.record("p" + sys.argv[2], "user", f"process {sys.argv[2]} turn {n}")
recorder.close()
"""


def test_processes_record_into_one_history_at_once(tmp_path):
    db = tmp_path / "history.db"
    HistoryRecorder.open(db).close()
    workers = [subprocess.Popen([sys.executable, "-c", RECORD, str(db), str(worker)]) for worker in range(3)]
    assert [process.wait(timeout=120) for process in workers] == [0, 0, 0]
    assert len(message_ids(db)) == 90 and [session_row(db, f"p{worker}")[1] for worker in range(3)] == [30] * 3
