"""The history file behind the in-process and cli adapters: fixtures written the way
`oneclaw-search import` writes, its checksum, and the columns of OneClaw's tables in it (P-13).
"""
from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from oneclaw_search.data.history.history_writer import HistoryWriter, NewMessage, NewSession
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.domain.models import MemoryChunk

TABLES = ("sessions", "messages", "memory_index")


Fixture = dict[str, list[dict[str, Any]]]


def write_fixture(path: Path, fixture: Fixture) -> None:
    """Add the rows to the history at `path` (made when missing) the way `oneclaw-search import` writes."""
    database = open_writable(path)
    try:
        HistoryWriter(database, default_embedder()).write(*fixture_rows(fixture))
    finally:
        database.close()


def fixture_rows(fixture: Fixture) -> tuple[list[NewSession], list[NewMessage], list[MemoryChunk]]:
    """A fixture's sessions, messages and memory chunks as the writers take them."""
    sessions = [NewSession(s["id"], s["title"], s["created_at"], s.get("updated_at"), s.get("deleted_at"))
                for s in fixture.get("sessions", [])]
    messages = [NewMessage(m["id"], m["session_id"], m["type"], m["content"], m["created_at"], m.get("tool_name"),
                           m.get("tool_input"), m.get("tool_output")) for m in fixture.get("messages", [])]
    chunks = [MemoryChunk(c["id"], c["source_type"], c.get("source_date"), c["chunk_text"], None, c["created_at"],
                          c["updated_at"] if "updated_at" in c else c["created_at"]) for c in fixture.get("memory_index", [])]
    return sessions, messages, chunks


def file_checksum(database: Path) -> str:
    """A digest of the history file and its write-ahead log: equal exactly when nothing was written."""
    digest = hashlib.sha256()
    for path in (database, database.with_name(database.name + "-wal")):
        if path.exists():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def table_columns(database: Path, table: str) -> list[dict[str, Any]]:
    with closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as connection:
        return [{"name": row[1], "type": row[2], "notnull": row[3], "pk": row[5]}
                for row in connection.execute(f"PRAGMA table_info(`{table}`)")]
