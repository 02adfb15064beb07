"""`oneclaw-search import memory FOLDER` on real files and a real SQLite history.

OneClaw's layout (MEMORY.md, daily/) and OpenClaw's (MEMORY.md, memory/); the chunks become
searchable memory with embeddings; importing again adds nothing, edits replace only what changed,
and nothing outside the folder is read.
"""
import sqlite3
from contextlib import closing

import pytest

from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine
from oneclaw_search.tools.cli import main

MEMORY = (
    "# Long-term Memory\r\n\r\n## Preferences\r\n\r\n- Loves sushi\r\n- Dislikes natto\r\n\r\n## Projects\r\n- Moving to PostgreSQL\r\n"
)
DAY = "# Daily Log - 2026-02-25\n\nBooked Sakura Sushi near Shibuya for Friday.\n\n---\n\nTalked about the migration plan.\n"


def oneclaw_folder(tmp_path):
    folder = tmp_path / "memory"
    (folder / "daily").mkdir(parents=True)
    (folder / "MEMORY.md").write_bytes(MEMORY.encode())
    (folder / "daily" / "2026-02-25.md").write_text(DAY)
    return folder


def rows(db):
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute(
            "SELECT id, source_type, source_date, chunk_text, embedding IS NOT NULL, created_at FROM memory_index ORDER BY id"
        ).fetchall()


def run(db, folder, capsys):
    code = main(["--db", str(db), "import", "memory", str(folder)])
    return code, capsys.readouterr().out


def test_a_oneclaw_memory_folder_becomes_searchable_memory(tmp_path, capsys):
    db = tmp_path / "history.db"
    code, out = run(db, oneclaw_folder(tmp_path), capsys)
    assert code == 0 and "2 files, 4 chunks added, 0 removed, 0 unchanged" in out
    chunks = {(kind, day, text) for _, kind, day, text, embedded, _ in rows(db) if embedded}
    assert chunks == {
        ("long_term", None, "## Preferences\n- Loves sushi\n- Dislikes natto"),
        ("long_term", None, "## Projects\n- Moving to PostgreSQL"),
        ("daily_log", "2026-02-25", "Booked Sakura Sushi near Shibuya for Friday."),
        ("daily_log", "2026-02-25", "Talked about the migration plan."),
    }
    engine = create_injector(db, time_zone="Asia/Tokyo").get(ToolExecutionEngine)
    text = engine.execute_tool("search_history", {"query": "sushi", "scope": "memory"}).result
    assert "source: memory" in text and "source: daily_log, date: 2026-02-25" in text and "Loves sushi" in text


def test_importing_again_adds_nothing_and_an_edit_replaces_only_what_changed(tmp_path, capsys):
    db, folder = tmp_path / "history.db", oneclaw_folder(tmp_path)
    run(db, folder, capsys)
    before = rows(db)
    code, out = run(db, folder, capsys)
    assert code == 0 and "4 chunks added" not in out and "0 chunks added, 0 removed, 4 unchanged" in out
    assert rows(db) == before  # the same rows, ids, times and vectors
    (folder / "MEMORY.md").write_text(MEMORY.replace("Moving to PostgreSQL", "Moved to PostgreSQL"))
    (folder / "daily" / "2026-02-25.md").unlink()
    _, out = run(db, folder, capsys)
    assert "1 files, 1 chunks added, 3 removed, 1 unchanged" in out
    texts = [text for _, _, _, text, _, _ in rows(db)]
    assert sorted(texts) == ["## Preferences\n- Loves sushi\n- Dislikes natto", "## Projects\n- Moved to PostgreSQL"]


def test_openclaws_layout_and_badly_named_logs(tmp_path, capsys):
    folder = tmp_path / "workspace"
    (folder / "memory").mkdir(parents=True)
    (folder / "MEMORY.md").write_text("Prefers tea.")
    (folder / "memory" / "2026-02-24.md").write_text("Saw the Great Buddha in Kamakura.")
    (folder / "memory" / "notes.md").write_text("not a log")
    (folder / "memory" / "2026-02-30.md").write_text("no such day")
    code, out = run(tmp_path / "history.db", folder, capsys)
    assert code == 0 and "2 files, 2 chunks added" in out
    assert "memory/2026-02-30.md: not a daily log name (YYYY-MM-DD.md)" in out
    assert "memory/notes.md: not a daily log name (YYYY-MM-DD.md)" in out
    assert [(kind, day) for _, kind, day, _, _, _ in rows(tmp_path / "history.db")] in (
        [("daily_log", "2026-02-24"), ("long_term", None)],
        [("long_term", None), ("daily_log", "2026-02-24")],
    )


def test_links_out_of_the_folder_are_never_followed(tmp_path, capsys):
    folder = oneclaw_folder(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "2026-01-01.md").write_text("A secret outside the memory folder.")
    (folder / "daily" / "2026-01-01.md").symlink_to(outside / "2026-01-01.md")
    code, out = run(tmp_path / "history.db", folder, capsys)
    assert code == 0 and "daily/2026-01-01.md: a link leading out of the folder" in out
    assert all("secret" not in text for _, _, _, text, _, _ in rows(tmp_path / "history.db"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["import", "memory"], "import takes [KIND] PATH"),
        (
            ["import", "slack", "x"],
            "import takes [KIND] PATH, KIND one of: bundle, memory, squidbot, oneclaw, claude-code (default bundle)",
        ),
    ],
)
def test_a_wrong_kind_is_one_line_naming_the_kinds(tmp_path, capsys, args, message):
    assert main(["--db", str(tmp_path / "history.db"), *args]) == 1
    assert capsys.readouterr().err.startswith("oneclaw-search: " + message)


def test_a_missing_folder_is_one_line_and_writes_nothing(tmp_path, capsys):
    code = main(["--db", str(tmp_path / "history.db"), "import", "memory", str(tmp_path / "nope")])
    assert code == 1 and "memory folder not found" in capsys.readouterr().err
