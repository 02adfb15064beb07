"""The history behind the in-process, cli and postgres adapters: fixtures as JSONL bundle lines, loaded
by the package's public import_bundle (what `oneclaw-search import bundle` runs) or written to a file
for the command; the file's checksum, and the columns of OneClaw's tables in it (P-13).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

TABLES = ("sessions", "messages", "memory_index")
BUNDLE_KINDS = (("session", "sessions"), ("message", "messages"), ("memory", "memory_index"))

Fixture = dict[str, list[dict[str, Any]]]


def write_bundle(path: Path, fixture: Fixture) -> Path:
    """The fixture's rows as `oneclaw-search import bundle` reads them."""
    with path.open("w", encoding="utf-8") as out:
        for kind, table in BUNDLE_KINDS:
            for row in fixture.get(table, []):
                out.write(json.dumps(bundle_line(kind, row), ensure_ascii=False) + "\n")
    return path


def bundle_line(kind: str, row: dict[str, Any]) -> dict[str, Any]:
    line = {"kind": kind, **{key: value for key, value in row.items() if value is not None}}
    if kind == "memory":
        line["text"] = line.pop("chunk_text")
    if kind == "session":
        for derived in ("message_count", "last_message_preview"):
            line.pop(derived, None)  # the importer derives them, as OneClaw does
    return line


def import_fixture(location: str | Path, fixture: Fixture, tenant: str | None = None) -> None:
    """Load the fixture into the history at `location` (a file, or a URL's `tenant`) through the
    package's public import_bundle, as `oneclaw-search import bundle` loads it; ValueError naming any
    row it skipped."""
    from oneclaw_search.di import import_bundle

    lines = [json.dumps(bundle_line(kind, row), ensure_ascii=False) for kind, table in BUNDLE_KINDS
             for row in fixture.get(table, [])]
    summary = import_bundle(location, lines, tenant=tenant)
    if summary.skipped:
        raise ValueError(f"the fixture's import skipped rows: {summary.skipped}")


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
