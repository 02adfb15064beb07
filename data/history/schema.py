"""Creating or reopening a history database this package may write to (import, demo), with the
tables of OneClaw's Room schema 1.json (P-13).

Tables are created with OneClaw's exact columns and indexes, and no room_master_table, so the
OneClaw app would adopt the file and add its other tables. OneClaw's own database is never
written to.
"""
from __future__ import annotations

from pathlib import Path

import peewee as pw

from oneclaw_search.data.history.database import OWN_ORIGIN, HistoryDatabase, describe
from oneclaw_search.data.history.entities import ALL_MODELS, SearchMetaEntity
from oneclaw_search.data.history.sqlite_files import read_only_sqlite
from oneclaw_search.domain.errors import HistoryUnavailable

CREATED_BY = "oneclaw-search-history"


def open_writable(path: str | Path) -> HistoryDatabase:
    """Open `path` for writing, creating the file and OneClaw's tables if they do not exist."""
    file = Path(path).expanduser()
    if file.exists() and file.stat().st_size > 0:
        _check_writable(file)
    elif not file.exists() and not file.parent.is_dir():
        raise HistoryUnavailable(f"folder does not exist: {file.parent}")
    database = pw.SqliteDatabase(
        str(file), pragmas=[("journal_mode", "wal"), ("foreign_keys", 1), ("busy_timeout", 5000)]
    )
    try:
        with database.connection_context():
            _create_tables(database)
    except pw.DatabaseError as error:
        raise HistoryUnavailable(f"cannot write database {file}: {error}") from error
    return HistoryDatabase(database, describe(database, file))


def _check_writable(file: Path) -> None:
    """Look before writing, read-only: even switching the journal mode would change the file."""
    database, file = read_only_sqlite(file)
    with database.connection_context():
        tables = set(database.get_tables())
    if "room_master_table" in tables:
        raise HistoryUnavailable(
            f"refusing to write into OneClaw's own database: {file} (import into a separate file)"
        )
    if tables:
        describe(database, file)  # raises unless the tables there are OneClaw's history tables


def _create_tables(database: pw.SqliteDatabase) -> None:
    """Each model's schema made on `database` alone: binding the models (bind_ctx) is process-wide, so
    two threads creating two histories at once would write each other's tables."""
    with database.atomic("IMMEDIATE"):  # wait for a writer, never fail on one
        for model in ALL_MODELS:  # no foreign keys between them: any order creates them
            pw.SchemaManager(model, database).create_all(safe=True)
        SearchMetaEntity.insert(key="created_by", value=CREATED_BY).on_conflict_ignore().execute(database)


def write_meta(database: HistoryDatabase, key: str, value: str) -> None:
    with database.connected() as connection:
        # INSERT OR REPLACE: Model.replace, spelt in the calls peewee's stubs annotate
        SearchMetaEntity.insert(key=key, value=value).on_conflict_replace().execute(connection)


def read_meta(database: HistoryDatabase, key: str) -> str | None:
    """A note this package left in a database it created; None for anyone else's database."""
    if database.info.origin != OWN_ORIGIN:
        return None
    with database.connected() as connection:
        row = SearchMetaEntity.select(SearchMetaEntity.value).where(SearchMetaEntity.key == key).bind(connection).first()
    return row.value if row else None
