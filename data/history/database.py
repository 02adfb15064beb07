"""Opening a history database: read-only for searching, writable only for files we own.

A real oneclaw.db is opened as it is, with no migration and nothing written (BR-11); it is
recognised by room_master_table's identity hash or, failing that, by its columns.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import peewee as pw

from oneclaw_search.data.history.entities import SearchMetaEntity
from oneclaw_search.data.history.raw_sql import execute_sql, sqlite_connection
from oneclaw_search.data.history.sqlite_files import ReadOnlySqlite, change_token, lenient_text, read_only_sqlite
from oneclaw_search.domain.clock import Deadline, SearchTimedOut
from oneclaw_search.domain.errors import HistoryChanged, HistoryUnavailable
from oneclaw_search.domain.text import fold

ONECLAW_IDENTITY_HASH = "9a862db541b23c44221f9a687649d220"
OWN_ORIGIN = "oneclaw-search"  # DatabaseInfo.origin of a history this project created
REQUIRED_COLUMNS = {
    "messages": {"id", "session_id", "type", "content", "created_at"},
    "sessions": {"id", "title", "message_count", "last_message_preview", "deleted_at", "created_at", "updated_at"},
    "memory_index": {"id", "source_type", "source_date", "chunk_text", "embedding", "created_at", "updated_at"},
}
_PROGRESS_STEPS = 10_000  # SQLite VM steps between deadline checks: cheap, yet close enough to stop on time
# A writer seen committing mid-read (a recorder, an import) usually goes on: reads take locks meanwhile.
WRITER_ABOUT_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class DatabaseInfo:
    """What kind of history this is: OneClaw's app database, one we created, or another."""

    path: Path
    origin: str
    embedder: str | None = None


def _fold_or_none(value: object) -> str | None:
    """oc_fold(CAST(column AS BLOB)): given bytes, so text that is not UTF-8 folds too (sqlite3
    would refuse to hand it over as an argument)."""
    if isinstance(value, bytes):
        value = lenient_text(value)
    return fold(value) if isinstance(value, str) else None


def folded(column: str) -> str:
    """SQL for the column's text folded as domain.text.fold folds it: SQLite's own lower() where the
    text is ASCII (as many characters as bytes, so lower() folds all of it, in C), else oc_fold."""
    return (f"CASE WHEN length({column}) = length(CAST({column} AS BLOB)) THEN lower({column}) "
            f"ELSE oc_fold(CAST({column} AS BLOB)) END")


class HistoryDatabase:
    """One SQLite file, a peewee database per thread, and the caseless `oc_fold` SQL function."""

    def __init__(self, database: pw.SqliteDatabase, info: DatabaseInfo) -> None:
        self.peewee = database
        self.info = info
        database.register_function(_fold_or_none, "oc_fold", 1, deterministic=True)

    @classmethod
    def open_read_only(cls, path: str | Path) -> HistoryDatabase:
        """Open for searching; nothing is ever written to the file or created beside it."""
        database, file = read_only_sqlite(path)
        return cls(database, describe(database, file))

    @contextmanager
    def connected(self, deadline: Deadline | None = None) -> Iterator[pw.SqliteDatabase]:
        """A connection for one unit of work; an expired deadline interrupts the running statement.

        A connection that takes no locks (a read-only file read as immutable) is kept for this
        thread's next unit of work while the file stays unchanged: opening one per unit of work
        adds up over a search's many units. SQLite
        trusts an immutable file not to change, so a unit of work that saw it change (a writer
        came) raises HistoryChanged, whatever it read: the caller reads again, now with locks.
        """
        kept = self.peewee if isinstance(self.peewee, ReadOnlySqlite) else None
        immutable = False
        try:
            if not self.peewee.is_closed() and not (kept is not None and kept.still_current()):
                self.peewee.close()
            if self.peewee.is_closed():
                self.peewee.connect()
            immutable = kept is not None and kept.keeps_connection()
            connection = sqlite_connection(self.peewee)
            if deadline is not None:
                connection.set_progress_handler(lambda: int(deadline.expired()), _PROGRESS_STEPS)
            try:
                yield self.peewee
            finally:
                if deadline is not None:
                    connection.set_progress_handler(None, 0)
                if not immutable:
                    self.peewee.close()
            self._check_unchanged(immutable)
        except (pw.OperationalError, sqlite3.OperationalError) as error:  # rows read lazily raise sqlite3's own
            self._check_unchanged(immutable)
            if deadline is not None and deadline.expired():
                raise SearchTimedOut() from error
            raise HistoryUnavailable(f"{self.info.path}: {error}") from error
        except (pw.DatabaseError, sqlite3.DatabaseError) as error:  # a page read as a writer changed it: malformed
            self._check_unchanged(immutable)
            raise HistoryUnavailable(f"{self.info.path}: {error}") from error

    def _check_unchanged(self, immutable: bool) -> None:
        # only a ReadOnlySqlite keeps an immutable connection
        if immutable and isinstance(self.peewee, ReadOnlySqlite) and not self.peewee.still_current():
            self.peewee.close()
            if self.info.origin == OWN_ORIGIN:  # our own folder: locks may leave their -shm beside it
                self.peewee.writer_about(WRITER_ABOUT_SECONDS)
            raise HistoryChanged(f"{self.info.path} was written to while it was read")

    def change_token(self) -> tuple[object, ...]:
        """Changes whenever a transaction commits (sqlite_files.change_token): lets caches skip
        re-checking a history nobody wrote to."""
        return change_token(self.info.path)

    def close(self) -> None:
        self.peewee.close()


def describe(database: pw.SqliteDatabase, file: Path) -> DatabaseInfo:
    """Recognise the schema, or raise HistoryUnavailable naming what is missing."""
    try:
        with database.connection_context():
            tables = set(database.get_tables())
            if "room_master_table" in tables and _identity_hash(database) == ONECLAW_IDENTITY_HASH:
                return DatabaseInfo(file, "oneclaw")
            _check_columns(database, tables, file)
            if "room_master_table" in tables:
                return DatabaseInfo(file, "oneclaw")
            if SearchMetaEntity._meta.table_name in tables:
                return DatabaseInfo(file, OWN_ORIGIN, _meta_value(database, "embedder"))
            return DatabaseInfo(file, "other")
    except pw.DatabaseError as error:
        raise HistoryUnavailable(f"cannot read database {file}: {error}") from error


def _identity_hash(database: pw.SqliteDatabase) -> str | None:
    row = execute_sql(database, "SELECT identity_hash FROM room_master_table WHERE id = 42").fetchone()
    return row[0] if row else None


def _check_columns(database: pw.SqliteDatabase, tables: set[str], file: Path) -> None:
    for table, needed in REQUIRED_COLUMNS.items():
        if table not in tables:
            raise HistoryUnavailable(f"not a OneClaw history database: {file} (no '{table}' table)")
        missing = needed - {column.name for column in database.get_columns(table)}
        if missing:
            raise HistoryUnavailable(
                f"not a OneClaw history database: {file} ('{table}' lacks {', '.join(sorted(missing))})"
            )


def _meta_value(database: pw.SqliteDatabase, key: str) -> str | None:
    row = SearchMetaEntity.select(SearchMetaEntity.value).where(SearchMetaEntity.key == key).bind(database).first()
    return row.value if row else None
