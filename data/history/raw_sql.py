"""Raw SQL on a peewee database, typed as sqlite3's own cursor, connection and rows (no Kotlin
counterpart: Room's generated DAOs carry their types).

peewee's bundled stubs leave execute_sql and connection unannotated and type a model select's rows
as models even after tuples(); these few functions say what every database here (a SqliteDatabase)
actually hands back, so the modules that read rows stay typed.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, cast

import peewee as pw

Row = tuple[Any, ...]  # one result row, its values as SQLite stored them


def execute_sql(database: pw.Database, sql: str, params: Sequence[object] | None = None) -> sqlite3.Cursor:
    """`database.execute_sql`: the cursor of the statement run."""
    cursor = database.execute_sql(sql, params)  # type: ignore[no-untyped-call]  # unannotated in peewee's stubs
    return cast(sqlite3.Cursor, cursor)


def sqlite_connection(database: pw.Database) -> sqlite3.Connection:
    """`database.connection()`: this thread's open sqlite3 connection."""
    connection = database.connection()  # type: ignore[no-untyped-call]  # unannotated in peewee's stubs
    return cast(sqlite3.Connection, connection)


def tuples(query: pw.BaseQuery) -> Iterable[Row]:
    """A bound select's rows as tuples (`query.tuples()`)."""
    return cast(Iterable[Row], query.tuples())


def fetch_all(database: pw.Database, sql: str, params: Sequence[object] | None = None) -> list[Row]:
    """`execute_sql(...).fetchall()` with its text decoded by sqlite3 itself, in C, while it is UTF-8;
    rows that are not are read again through the connection's own decoder (lenient_text). The hot
    reads of a search take this path: a Python call per text value adds up over their rows."""
    connection = sqlite_connection(database)
    own = connection.text_factory
    connection.text_factory = str
    try:
        return execute_sql(database, sql, params).fetchall()
    except sqlite3.OperationalError as error:
        if "decode" not in str(error):
            raise
    finally:
        connection.text_factory = own
    return execute_sql(database, sql, params).fetchall()
