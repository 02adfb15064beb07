"""OneClaw backups (BackupManager.kt's zips): a backup zip searched as it is through `--db`, and merged into a
history of ours by `import oneclaw`; the zip and the database it holds are only ever read."""
import hashlib
import json
import sqlite3
import zipfile
from contextlib import closing

import pytest
from oneclaw_ddl import create_oneclaw_database

from oneclaw_search.data.importers.backup_archive import history_in
from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine
from oneclaw_search.tools.cli import main

DINNER = 1_772_013_600_000  # 2026-02-25 19:00 Tokyo


def oneclaw_db(path):
    create_oneclaw_database(path, wal=True)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("INSERT INTO sessions (id, title, current_agent_id, message_count, last_message_preview, is_active,"
                   f" deleted_at, created_at, updated_at) VALUES ('s1', 'Dinner Planning', 'agent', 1, 'x', 0, NULL, {DINNER}, {DINNER})")
        db.execute("INSERT INTO messages (id, session_id, type, content, created_at)"
                   f" VALUES ('m1', 's1', 'USER', 'Where is a good sushi place near Shibuya?', {DINNER})")
        db.execute("INSERT INTO memory_index (id, source_type, source_date, chunk_text, embedding, created_at, updated_at)"
                   f" VALUES ('c1', 'daily_log', '2026-02-25', 'Planned sushi with a friend.', NULL, {DINNER}, {DINNER})")
    return path


def backup_zip(tmp_path):
    """As OneClaw's BackupManager writes it: one entry, oneclaw.db, checkpointed."""
    database = oneclaw_db(tmp_path / "device" / "oneclaw.db") if (tmp_path / "device").mkdir() is None else None
    archive = tmp_path / "oneclaw-backup-1772013600000.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(database, "oneclaw.db")
    return archive


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_backup_zip_is_searched_as_it_is_and_left_unchanged(tmp_path):
    archive = backup_zip(tmp_path)
    before = digest(archive)
    engine = create_injector(archive, time_zone="Asia/Tokyo").get(ToolExecutionEngine)
    result = json.loads(engine.execute_tool("search_history", {"query": "sushi", "format": "json"}).result)
    assert {(item["source"], item["id"]) for item in result["results"]} == {("message", "m1"), ("daily_log", "c1")}
    assert digest(archive) == before and sorted(p.name for p in tmp_path.iterdir()) == ["device", archive.name]
    extracted = history_in(archive)
    assert extracted.is_file() and not extracted.stat().st_mode & 0o222  # a read-only copy in the cache
    first = extracted.stat()
    assert history_in(archive) == extracted and extracted.stat().st_ino == first.st_ino  # extracted once, not again


def test_a_zip_without_a_history_is_one_line(tmp_path, capsys):
    archive = tmp_path / "photos.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("cat.jpg", b"meow")
    assert main(["--db", str(archive), "search", "x"]) == 1
    assert capsys.readouterr().err.strip() == f"oneclaw-search: no oneclaw.db in backup zip {archive}"


@pytest.mark.parametrize("source", ["zip", "db"])
def test_import_oneclaw_merges_a_backup_into_our_history_and_adds_nothing_the_second_time(tmp_path, capsys, source):
    path = backup_zip(tmp_path) if source == "zip" else oneclaw_db(tmp_path / "oneclaw.db")
    before = digest(path)
    db = tmp_path / "merged.db"
    assert main(["--db", str(db), "import", "squidbot", str(squidbot_file(tmp_path))]) == 0
    assert main(["--db", str(db), "import", "oneclaw", str(path)]) == 0
    assert "Imported 1 new messages, 1 sessions and 1 memory chunks" in capsys.readouterr().out
    assert main(["--db", str(db), "import", "oneclaw", str(path)]) == 0
    again = capsys.readouterr().out
    assert "Imported 0 new messages" in again and "(1 messages already there)" in again
    with closing(sqlite3.connect(db)) as merged:
        assert sorted(row[0] for row in merged.execute("SELECT id FROM sessions")) == ["s1", "squidbot:cli:local"]
        assert merged.execute("SELECT count(*) FROM memory_index WHERE embedding IS NOT NULL").fetchone()[0] == 1
    assert digest(path) == before


def squidbot_file(tmp_path):
    path = tmp_path / "history.jsonl"
    path.write_text(json.dumps({"role": "user", "content": "ramen tonight?", "timestamp": "2026-02-26T19:00:00"}) + "\n")
    return path
