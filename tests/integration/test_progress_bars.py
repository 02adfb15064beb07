"""Progress bars of `import` and `index` (tools/cli/progress.py): a count, its rate and the time left on
stderr, drawn through rich only when stderr is a terminal; the importers and the index tell their
totals and counts through optional hooks."""
import io
import json
import re
import sqlite3
from contextlib import closing

import pytest
from builders import new_message, new_session, write_history
from oneclaw_ddl import create_oneclaw_database
from rich.console import Console

from oneclaw_search.data.importers import (
    bundle_importer,
    claude_code_importer,
    memory_folder_importer,
    oneclaw_importer,
    squidbot_importer,
)
from oneclaw_search.data.importers.bundle_importer import bounded_lines, count_lines
from oneclaw_search.data.index import sync
from oneclaw_search.data.index.sync import KEYWORDS
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.tools.cli import main, progress

AT = 1_772_013_600_000
PLAIN = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # rich's cursor and colour codes


@pytest.fixture
def terminal(monkeypatch):
    """Bars forced on, drawn into a buffer as a terminal would receive them; importers report often."""
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=160)
    monkeypatch.setattr(progress, "terminal_console", lambda: console)
    for module in (bundle_importer, squidbot_importer, claude_code_importer):
        monkeypatch.setattr(module, "PROGRESS_LINES", 3)
    monkeypatch.setattr(memory_folder_importer, "PROGRESS_FILES", 2)
    monkeypatch.setattr(oneclaw_importer, "BATCH", 2)
    return lambda: PLAIN.sub("", screen.getvalue())


def sources(tmp_path):
    """One source per import kind, each of 11 lines, files or rows."""
    bundle = tmp_path / "b.jsonl"
    lines = [{"kind": "session", "id": "s1", "title": "Chat", "created_at": AT}]
    lines += [{"kind": "message", "id": f"m{n}", "session_id": "s1", "role": "user", "content": f"note {n}",
               "created_at": AT + n} for n in range(10)]
    bundle.write_text("".join(json.dumps(line) + "\n" for line in lines))
    squidbot = tmp_path / "history.jsonl"
    squidbot.write_text("".join(json.dumps({"role": "user", "content": f"hi {n}", "timestamp": "2026-02-25T19:00"}) + "\n"
                                for n in range(11)))
    memory = tmp_path / "memory"
    (memory / "daily").mkdir(parents=True)
    (memory / "MEMORY.md").write_text("Loves sushi.\n")
    for day in range(1, 11):
        (memory / "daily" / f"2026-02-{day:02d}.md").write_text(f"Day {day}: walked.\n")
    return {"bundle": bundle, "squidbot": squidbot, "memory": memory, "oneclaw": oneclaw_db(tmp_path / "oneclaw.db"),
            "claude-code": transcript(tmp_path / "projects" / "-home-ana")}


def oneclaw_db(path):
    create_oneclaw_database(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("INSERT INTO sessions (id, title, current_agent_id, message_count, is_active, created_at,"
                   f" updated_at) VALUES ('s1', 'Chat', 'agent', 10, 0, {AT}, {AT})")
        db.executemany("INSERT INTO messages (id, session_id, type, content, created_at) VALUES (?, 's1', 'USER', ?, ?)",
                       [(f"m{n}", f"note {n}", AT + n) for n in range(10)])
    return path


def transcript(folder):
    folder.mkdir(parents=True)
    session = "5f0c2a1e-1111-4000-8000-000000000001"
    lines = [{"type": "user", "uuid": f"u{n}", "parentUuid": None, "timestamp": f"2026-03-02T10:00:{n:02d}.000Z",
              "sessionId": session, "cwd": "/home/ana", "message": {"role": "user", "content": f"question {n}"}}
             for n in range(11)]
    (folder / f"{session}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return folder.parent


@pytest.mark.parametrize("kind, unit", [("bundle", "lines"), ("squidbot", "lines"), ("memory", "files"),
                                        ("oneclaw", "rows"), ("claude-code", "lines")])
def test_on_a_terminal_every_import_draws_its_count_rate_and_time_on_stderr_only(tmp_path, terminal, capsys, kind, unit):
    assert main(["--db", str(tmp_path / "h.db"), "import", kind, str(sources(tmp_path)[kind])]) == 0
    drawn, out = terminal(), capsys.readouterr()
    assert f"11/11 {unit}" in drawn and re.search(rf"\d[\d,]* {unit}/s", drawn)
    assert re.search(r"\d:\d\d:\d\d", drawn)  # the time taken, once done
    assert out.out.startswith("Imported") and "━" not in out.out and out.err == ""


def test_a_stage_without_a_count_gets_its_own_line_once_reading_ends(tmp_path, terminal):
    assert main(["--db", str(tmp_path / "h.db"), "import", str(sources(tmp_path)["bundle"])]) == 0
    last_frame = terminal().split("reading the bundle")[-1]
    assert "11/11 lines" in last_frame and "writing rows" in last_frame


def indexed_history(tmp_path, count=9):
    rows = [new_message(f"m{n}", "s1", f"kettle note {n}", f"2026-02-25T19:{n:02d}") for n in range(count)]
    return write_history(tmp_path / "h.db", [new_session("s1", "Tea", "2026-02-25T19:00")], rows)


def test_the_index_command_draws_a_bar_then_the_comparison(tmp_path, terminal, monkeypatch, capsys):
    monkeypatch.setattr(sync, "BATCH_ROWS", 2)
    assert main(["--db", str(indexed_history(tmp_path)), "index"]) == 0
    drawn = terminal()
    assert "indexing messages" in drawn and "9/9 rows" in drawn
    assert re.search(r"\d[\d,]* rows/s", drawn) and "comparing every message with the history" in drawn
    out = capsys.readouterr()
    assert out.out.startswith("side index ") and out.out.count("\n") == 1 and out.err == ""


def test_piped_runs_draw_nothing(tmp_path, capsys):
    assert progress.terminal_console() is None  # pytest's captured stderr is no terminal
    db = tmp_path / "h.db"
    assert main(["--db", str(db), "import", str(sources(tmp_path)["bundle"])]) == 0
    assert main(["--db", str(db), "index"]) == 0
    assert capsys.readouterr().err == ""


def test_a_catch_up_reports_batch_by_batch(tmp_path, monkeypatch):
    monkeypatch.setattr(sync, "BATCH_ROWS", 4)
    reports = []
    parts = create_injector(indexed_history(tmp_path)).get(IndexParts)
    assert parts.lookup.sync.catch_up(progress=lambda *report: reports.append(report))
    assert reports == [(KEYWORDS, 4, 9), (KEYWORDS, 8, 9), (KEYWORDS, 9, 9)]


@pytest.mark.parametrize("text", ["", "a\n", "a\nb", "a\r\nb\r\n\n", "{}\n" * 5 + "x" * 50])
def test_counted_lines_are_the_lines_the_importers_read(tmp_path, text):
    path = tmp_path / "f.jsonl"
    path.write_bytes(text.encode())
    with path.open(encoding="utf-8") as handle:
        assert count_lines([path, path]) == 2 * len(list(bounded_lines(handle, limit=8)))


@pytest.mark.parametrize("kind, total", [("squidbot", 11), ("memory", 11), ("oneclaw", 11), ("claude-code", 11)])
def test_importers_tell_their_total_before_they_count(tmp_path, kind, total):
    from oneclaw_search.data.history.history_writer import HistoryWriter
    from oneclaw_search.data.history.schema import open_writable
    from oneclaw_search.domain.local_time import resolve_zone

    heard = []
    hooks = {"progress": lambda count: heard.append(("count", count)), "expect": lambda n: heard.append(("total", n))}
    source, database = sources(tmp_path)[kind], open_writable(tmp_path / "h.db")
    writer = HistoryWriter(database, None)
    importer = {"squidbot": lambda: squidbot_importer.SquidbotImporter(writer, resolve_zone("UTC"), **hooks).import_path,
                "memory": lambda: memory_folder_importer.MemoryFolderImporter(writer, **hooks).import_folder,
                "oneclaw": lambda: oneclaw_importer.OneClawImporter(writer, **hooks).import_history,
                "claude-code": lambda: claude_code_importer.ClaudeCodeImporter(writer, **hooks).import_path}[kind]()
    try:
        importer(source)
    finally:
        database.close()
    assert heard[0] == ("total", total) and heard[-1] == ("count", total)
