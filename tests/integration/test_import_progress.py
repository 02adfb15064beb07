"""Import progress: every import kind tells its callback a growing count; `import` draws it as rich
bars on a terminal (tests/integration/test_progress_bars.py) and stays quiet when stderr is piped."""
import json
import sqlite3
from contextlib import closing

import pytest
from oneclaw_ddl import create_oneclaw_database

from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.importers import bundle_importer, memory_folder_importer, oneclaw_importer, squidbot_importer
from oneclaw_search.data.importers.bundle_importer import BundleImporter
from oneclaw_search.data.importers.memory_folder_importer import MemoryFolderImporter
from oneclaw_search.data.importers.oneclaw_importer import OneClawImporter
from oneclaw_search.domain.local_time import resolve_zone
from oneclaw_search.tools.cli import main

AT = 1_772_013_600_000


@pytest.fixture
def often(monkeypatch):
    """Reports after every few lines, files or rows instead of every 10,000."""
    monkeypatch.setattr(bundle_importer, "PROGRESS_LINES", 3)
    monkeypatch.setattr(squidbot_importer, "PROGRESS_LINES", 3)
    monkeypatch.setattr(memory_folder_importer, "PROGRESS_FILES", 2)
    monkeypatch.setattr(oneclaw_importer, "BATCH", 2)


def bundle(path, messages=10):
    lines = [{"kind": "session", "id": "s1", "title": "Chat", "created_at": AT}]
    lines += [{"kind": "message", "id": f"m{n}", "session_id": "s1", "role": "user", "content": f"note {n}",
               "created_at": AT + n} for n in range(messages)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def memory_folder(path, days=5):
    (path / "daily").mkdir(parents=True)
    (path / "MEMORY.md").write_text("# Memory\n\nLoves sushi.\n")
    for day in range(1, days + 1):
        (path / "daily" / f"2026-02-{day:02d}.md").write_text(f"Day {day}: walked.\n")
    return path


def oneclaw_db(path, messages=5):
    create_oneclaw_database(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("INSERT INTO sessions (id, title, current_agent_id, message_count, is_active, created_at,"
                   f" updated_at) VALUES ('s1', 'Chat', 'agent', {messages}, 0, {AT}, {AT})")
        db.executemany("INSERT INTO messages (id, session_id, type, content, created_at)"
                       " VALUES (?, 's1', 'USER', ?, ?)", [(f"m{n}", f"note {n}", AT + n) for n in range(messages)])
    return path


def imported(db, run):
    database = open_writable(db)
    try:
        return run(HistoryWriter(database, None))
    finally:
        database.close()


def test_a_bundle_reports_the_lines_read_as_they_grow(tmp_path, often):
    counts = []
    with bundle(tmp_path / "b.jsonl").open() as lines:
        summary = imported(tmp_path / "h.db", lambda writer: BundleImporter(writer, resolve_zone("UTC"), AT,
                                                                           counts.append).import_lines(lines))
    assert counts == [3, 6, 9, 11] and summary.messages == 10


def test_a_memory_folder_reports_the_files_read(tmp_path, often):
    counts = []
    folder = memory_folder(tmp_path / "memory")
    summary = imported(tmp_path / "h.db",
                       lambda writer: MemoryFolderImporter(writer, counts.append).import_folder(folder))
    assert counts == [2, 4, 6] and summary.files == 6


def test_a_oneclaw_history_reports_the_rows_copied_a_page_at_a_time(tmp_path, often):
    counts = []
    source = oneclaw_db(tmp_path / "oneclaw.db")
    summary = imported(tmp_path / "h.db", lambda writer: OneClawImporter(writer, counts.append).import_history(source))
    assert counts == [1, 3, 5, 6] and (summary.sessions, summary.messages) == (1, 5)


def sources(tmp_path):
    history = tmp_path / "squidbot.jsonl"
    line = {"role": "user", "content": "hi", "timestamp": "2026-02-25T19:00"}
    history.write_text("".join(json.dumps({**line, "content": f"hi {n}"}) + "\n" for n in range(7)))
    return {"bundle": bundle(tmp_path / "b.jsonl"), "memory": memory_folder(tmp_path / "memory"),
            "oneclaw": oneclaw_db(tmp_path / "oneclaw.db"), "squidbot": history}


@pytest.mark.parametrize("kind", ["bundle", "memory", "oneclaw", "squidbot"])
def test_piped_imports_print_no_progress(tmp_path, often, capsys, kind):
    assert main(["--db", str(tmp_path / "h.db"), "import", kind, str(sources(tmp_path)[kind])]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Imported") and "/s" not in captured.err and "\r" not in captured.err
