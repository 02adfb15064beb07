"""Reading a history's SQLite file without writing to it or beside it, and telling when it changed
(P-03, Q-13).

Holds the checks on a file given as a history, the read-only peewee database HistoryDatabase
searches through (data/history/database.py, BR-11), and the change token that lets caches skip a history
nobody wrote to.
"""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path
from urllib.parse import quote

import peewee as pw

from oneclaw_search.data.history.held_files import read_head
from oneclaw_search.data.history.stranded_wal import is_stranded, settled_copy
from oneclaw_search.domain.errors import HistoryUnavailable

_SQLITE_MAGIC = b"SQLite format 3\x00"


def lenient_text(value: bytes) -> str:
    """A TEXT value as Python text, bytes that are not UTF-8 shown as U+FFFD."""
    return value.decode("utf-8", "replace")


def change_token(path: Path) -> tuple[object, ...]:
    """Changes whenever a transaction commits: the header's change counter (rollback journal) and
    the sizes and times of the file and its -wal. Read through the file's held descriptor: cheap
    for a search that asks several times, and closing none frees no lock SQLite holds."""
    try:
        head, main = read_head(path, 28)
        return (head[24:28], _stamp(main), _wal_stamp(path))
    except OSError:
        return (object(),)  # unreadable now: never equal, so callers look again


def _stamp(stats: os.stat_result) -> tuple[int, int, int]:
    return stats.st_mtime_ns, stats.st_size, stats.st_ino


def _wal_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        return _stamp(os.stat(f"{path}-wal"))
    except FileNotFoundError:
        return None


def inspect_file(path: str | Path) -> tuple[Path, bool]:
    """Check that `path` is a readable SQLite file; report whether it is in WAL mode."""
    file = Path(path).expanduser()
    if not file.exists():
        raise HistoryUnavailable(f"database not found: {file}")
    if not file.is_file():
        raise HistoryUnavailable(f"not a database file: {file}")
    try:
        header = read_head(file, 100)[0]
    except OSError as error:
        raise HistoryUnavailable(f"cannot read database {file}: {error.strerror}") from error
    if not header:
        raise HistoryUnavailable(f"not a history database (empty file): {file}")
    if not header.startswith(_SQLITE_MAGIC):
        raise HistoryUnavailable(f"not a SQLite database: {file}")
    return file, len(header) >= 20 and header[18] == 2 and header[19] == 2


def read_only_sqlite(path: str | Path) -> tuple[pw.SqliteDatabase, Path]:
    """A peewee database over an existing SQLite file that can neither write nor leave files behind."""
    file, wal_mode = inspect_file(path)
    return ReadOnlySqlite(file, wal_mode), file


class ReadOnlySqlite(pw.SqliteDatabase):
    """Chooses how to open the file anew for every connection, since a writer may start or stop
    between two searches of a long-lived host."""

    def __init__(self, file: Path, wal_mode: bool) -> None:
        self._file, self._wal_mode = file, wal_mode
        self._base = f"file:{quote(str(file.resolve()))}?mode=ro"
        self._opened = threading.local()  # per thread: the change token its connection was opened at
        self._locks_until = 0.0  # while a writer is about (monotonic seconds): read with locks
        super().__init__(self._uri(), uri=True, pragmas=[("query_only", 1)])

    def writer_about(self, seconds: float) -> None:
        """A writer committed while this file was read as immutable: for `seconds`, read it with
        locks (a snapshot per read) rather than as immutable, which a busy writer keeps failing."""
        self._locks_until = time.monotonic() + seconds

    def _uri(self) -> str:
        if time.monotonic() < self._locks_until:
            return self._base
        if self._wal_mode and is_stranded(self._file):
            try:
                return f"file:{quote(str(settled_copy(self._file)))}?mode=ro&immutable=1"
            except (OSError, sqlite3.Error):  # no room in the cache: read it in place after all
                return self._base
        if self._wal_mode and not Path(f"{self._file}-wal").exists():
            # Opened read-only, a WAL database with no -wal file gets -wal/-shm files created next
            # to it; with none present no writer holds it, so the main file alone is exact. A
            # writer starting after this check is seen by the next connection.
            return self._base + "&immutable=1"
        return self._base

    def _connect(self) -> sqlite3.Connection:
        self.database = self._uri()
        # Only an immutable connection may be kept: it takes no locks, so it never holds a writer off.
        self._opened.token = change_token(self._file) if self.database.endswith("immutable=1") else None
        # peewee opens every connection through this private hook, which its stubs leave out
        connection: sqlite3.Connection = super()._connect()  # type: ignore[misc]
        connection.text_factory = lenient_text  # one row of broken UTF-8 must not fail every search
        return connection

    def keeps_connection(self) -> bool:
        """Whether this thread's connection may stay open after a unit of work: it reads the file as
        immutable, so it holds no lock a writer could wait on."""
        return getattr(self._opened, "token", None) is not None

    def still_current(self) -> bool:
        """Whether this thread's kept connection may serve the next unit of work: nothing was
        written to the file, nor a -wal started, nor the file replaced, since it was opened."""
        return self.keeps_connection() and self._opened.token == change_token(self._file)
