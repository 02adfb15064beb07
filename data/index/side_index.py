"""SideIndex: the small SQLite file kept beside the keyword index: bookkeeping and the memory snapshot
(Q-11, Q-14). The history database itself is only ever read (Q-13).

The file is made for one history; another history, or another format, starts it over, keyword index
included.
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import peewee as pw

from oneclaw_search.data.history.cache_folder import user_cache
from oneclaw_search.data.history.database import OWN_ORIGIN, HistoryDatabase
from oneclaw_search.data.history.raw_sql import Row, execute_sql, sqlite_connection

SUFFIX = ".search-index.sqlite"
AUTO = "auto"  # the side index's place chosen by the history (side_index_location)
# SQLITE_CORRUPT and SQLITE_NOTADB, by code and by message (an error raised while peewee opens its
# connection carries no code): the file itself, not a lock, a full disk or a read-only folder.
_DAMAGED = {11: "database disk image is malformed", 26: "file is not a database"}
FORMAT_VERSION = "14"  # bump whenever its tables change: older files are started over


def default_index_path(database_path: Path) -> Path:
    return database_path.with_name(database_path.name + SUFFIX)


def side_index_location(configured: str | Path | None, database: HistoryDatabase) -> Path | None:
    """Where the side index goes: None for none (the spec's scans); a configured path; for AUTO, beside
    a history this project created, otherwise (the OneClaw app's own folder, or one we may not write)
    in the user's cache folder, named after the history's path."""
    if configured is None:
        return None
    if configured != AUTO:
        return Path(configured).expanduser()
    beside = default_index_path(database.info.path)
    if database.info.origin == OWN_ORIGIN and os.access(beside.parent, os.W_OK):
        return beside
    digest = hashlib.sha256(str(database.info.path.resolve()).encode()).hexdigest()[:16]
    return user_cache() / f"{database.info.path.stem}-{digest}{SUFFIX}"


def keyword_folder(index_path: Path) -> Path:
    """Where the tantivy indexes live: beside the side file, named after it."""
    return index_path.with_name(index_path.name.removesuffix(".sqlite") + ".tantivy")


class SideIndex:
    """The file; each thread gets its own connection, writers take SQLite's write lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.keyword_folder = keyword_folder(path)
        self.peewee = self._database()

    def _database(self) -> pw.SqliteDatabase:
        return pw.SqliteDatabase(
            str(self.path), pragmas={"journal_mode": "wal", "synchronous": "normal", "busy_timeout": 30_000},
        )

    def start_over(self) -> None:
        """Delete a damaged file and its journals: the next use makes it anew. Other threads'
        connections to the deleted file go with the database object they belong to."""
        self.peewee.close()
        for name in ("", "-wal", "-shm", "-journal"):
            self.path.with_name(self.path.name + name).unlink(missing_ok=True)
        self.peewee = self._database()

    def execute(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return execute_sql(self.peewee, sql, params).fetchall()

    def ensure_schema(self, source: str) -> bool:
        """Create the tables; True when the file was started over (another history or format)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.peewee.atomic("IMMEDIATE"):
            self.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            identity = {"format": FORMAT_VERSION, "source": source}
            if all(self.meta(key) == value for key, value in identity.items()):
                return False
            listed = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            for name, in self.execute(listed + " AND sql LIKE 'CREATE VIRTUAL%'") + self.execute(listed):
                self.execute(f'DROP TABLE IF EXISTS "{name}"')  # virtual tables first: they take their shadows along
            self.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self.set_meta(**identity)
            return True

    def meta(self, key: str, default: str | None = None) -> str | None:
        rows = self.execute("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else default

    def meta_int(self, key: str) -> int:
        return int(self.meta(key, "0") or 0)

    def set_meta(self, **values: object) -> None:
        sqlite_connection(self.peewee).executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [(key.replace("__", "."), str(value)) for key, value in values.items()],
        )


def damaged(error: BaseException) -> bool:
    """Whether SQLite found the file damaged (malformed, or no database at all): what starting the
    file over mends, unlike a busy lock, a full disk or a read-only folder."""
    cause: BaseException = error
    while isinstance(cause, pw.PeeweeException) and hasattr(cause, "orig"):  # peewee may wrap it twice
        cause = cause.orig
    if not isinstance(cause, sqlite3.DatabaseError) or isinstance(cause, sqlite3.OperationalError):
        return False
    return (getattr(cause, "sqlite_errorcode", 0) & 0xFF) in _DAMAGED or str(cause) in _DAMAGED.values()


def damaged_index(error: BaseException) -> bool:
    """Whether `error` says a part of the side index is damaged: tantivy's word for a folder it cannot
    read (not one it was refused: those name an 'os error'), or SQLite's for a damaged side file."""
    return (isinstance(error, ValueError) and "os error" not in str(error)) or damaged(error)
