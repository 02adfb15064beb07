"""Opening a history database: read-only for searching, writable only for files we own.

A real oneclaw.db is opened as it is, with no migration and nothing written (BR-11); it is
recognised by room_master_table's identity hash or, failing that, by its columns.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import peewee as pw

from oneclaw_search.data.entities import SearchMetaEntity
from oneclaw_search.domain.clock import Deadline, SearchTimedOut
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.text import fold

ONECLAW_IDENTITY_HASH = "9a862db541b23c44221f9a687649d220"
OWN_ORIGIN = "oneclaw-search"  # DatabaseInfo.origin of a history this project created
REQUIRED_COLUMNS = {
    "messages": {"id", "session_id", "type", "content", "created_at"},
    "sessions": {"id", "title", "message_count", "last_message_preview", "deleted_at", "created_at", "updated_at"},
    "memory_index": {"id", "source_type", "source_date", "chunk_text", "embedding", "created_at", "updated_at"},
}
_SQLITE_MAGIC = b"SQLite format 3\x00"
_PROGRESS_STEPS = 10_000  # SQLite VM steps between deadline checks: cheap, yet ~1 ms apart


@dataclass(frozen=True, slots=True)
class DatabaseInfo:
    """What kind of history this is: OneClaw's app database, one we created, or another."""

    path: Path
    origin: str
    embedder: str | None = None


def _fold_or_none(value: object) -> str | None:
    return fold(value) if isinstance(value, str) else None


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
        """A connection for one unit of work; an expired deadline interrupts the running statement."""
        try:
            with self.peewee.connection_context():
                connection = self.peewee.connection()
                if deadline is not None:
                    connection.set_progress_handler(lambda: int(deadline.expired()), _PROGRESS_STEPS)
                yield self.peewee
        except pw.OperationalError as error:
            if deadline is not None and deadline.expired():
                raise SearchTimedOut() from error
            raise HistoryUnavailable(f"{self.info.path}: {error}") from error
        except pw.DatabaseError as error:
            raise HistoryUnavailable(f"{self.info.path}: {error}") from error

    def change_token(self) -> tuple:
        """Changes whenever a transaction commits: the header's change counter (rollback journal)
        and the sizes and times of the file and its -wal. Lets caches skip re-checking a history
        nobody wrote to."""
        try:
            with self.info.path.open("rb") as handle:
                counter = handle.read(28)[24:28]
            stats = [(s.st_mtime_ns, s.st_size) for s in _stats(self.info.path, Path(f"{self.info.path}-wal"))]
        except OSError:
            return (object(),)  # unreadable now: never equal, so callers look again
        return (counter, *stats)

    def close(self) -> None:
        self.peewee.close()


def _stats(*paths: Path) -> list:
    return [path.stat() for path in paths if path.exists()]


def read_only_sqlite(path: str | Path) -> tuple[pw.SqliteDatabase, Path]:
    """A peewee database over an existing SQLite file that can neither write nor leave files behind."""
    file, wal_mode = inspect_file(path)
    return _ReadOnlySqlite(file, wal_mode), file


class _ReadOnlySqlite(pw.SqliteDatabase):
    """Chooses how to open the file anew for every connection, since a writer may start or stop
    between two searches of a long-lived host."""

    def __init__(self, file: Path, wal_mode: bool) -> None:
        self._file, self._wal_mode = file, wal_mode
        super().__init__(self._uri(), uri=True, pragmas=[("query_only", 1)])

    def _uri(self) -> str:
        uri = f"file:{quote(str(self._file.resolve()))}?mode=ro"
        if self._wal_mode and not Path(f"{self._file}-wal").exists():
            # Opened read-only, a WAL database with no -wal file gets -wal/-shm files created next
            # to it; with none present no writer holds it, so the main file alone is exact. A
            # writer starting after this check is seen by the next connection.
            uri += "&immutable=1"
        return uri

    def _connect(self):
        self.database = self._uri()
        return super()._connect()


def inspect_file(path: str | Path) -> tuple[Path, bool]:
    """Check that `path` is a readable SQLite file; report whether it is in WAL mode."""
    file = Path(path).expanduser()
    if not file.exists():
        raise HistoryUnavailable(f"database not found: {file}")
    if not file.is_file():
        raise HistoryUnavailable(f"not a database file: {file}")
    try:
        with file.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise HistoryUnavailable(f"cannot read database {file}: {error.strerror}") from error
    if not header:
        raise HistoryUnavailable(f"not a history database (empty file): {file}")
    if not header.startswith(_SQLITE_MAGIC):
        raise HistoryUnavailable(f"not a SQLite database: {file}")
    return file, len(header) >= 20 and header[18] == 2 and header[19] == 2


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
    row = database.execute_sql("SELECT identity_hash FROM room_master_table WHERE id = 42").fetchone()
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
