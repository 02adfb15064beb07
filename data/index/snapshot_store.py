"""SideSnapshotStore: the latest memory snapshot, kept in the side index file for the next process
(Q-14); the memory engine's SnapshotStore port.

Rebuilding memory's BM25 model and vector matrix is the slow part of a one-shot CLI search on a
large memory index; a new process reads them back far faster instead. The snapshot is a cache:
any trouble reading or writing it just means building it again, and an index rebuilt for another
format drops it.
"""
from __future__ import annotations

import logging
import sqlite3

import peewee as pw

from oneclaw_search.data.history.raw_sql import sqlite_connection
from oneclaw_search.data.index.background import IN_THREAD_ROWS
from oneclaw_search.data.index.side_index import SideIndex

_log = logging.getLogger(__name__)
_TABLE = "memory_snapshot"
_KEY = "key"
_WAIT_MS = 100  # a process busy building the index must not hold up a search for long


class SideSnapshotStore:
    # A memory is modelled in a search up to as many chunks as the index builds rows in one
    # (docs/performance.md gives what a first search pays per size).
    in_thread_rows = IN_THREAD_ROWS

    def __init__(self, index: SideIndex) -> None:
        self._index = index

    def load(self, key: str) -> dict[str, bytes] | None:
        """The stored parts when they were saved under `key`, else None."""
        if not self._index.path.exists():
            return None
        try:
            stored = self._index.execute(f"SELECT data FROM {_TABLE} WHERE part = ?", (_KEY,))
            if not stored or bytes(stored[0][0]) != key.encode():
                return None
            parts = {part: bytes(data) for part, data in self._index.execute(f"SELECT part, data FROM {_TABLE}")}
        except pw.DatabaseError:  # no snapshot saved yet, or an unreadable file
            return None
        return parts if parts.get(_KEY) == key.encode() else None  # another process may have replaced it meanwhile

    def save(self, key: str, parts: dict[str, bytes]) -> None:
        connection: sqlite3.Connection | None = None
        waited = 0
        try:
            self._index.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite_connection(self._index.peewee)
            waited = connection.execute("PRAGMA busy_timeout").fetchone()[0]
            connection.execute(f"PRAGMA busy_timeout = {_WAIT_MS}")
            with self._index.peewee.atomic("IMMEDIATE"):
                self._index.execute(f"CREATE TABLE IF NOT EXISTS {_TABLE} (part TEXT PRIMARY KEY, data BLOB NOT NULL)")
                self._index.execute(f"DELETE FROM {_TABLE}")
                connection.executemany(f"INSERT INTO {_TABLE} (part, data) VALUES (?, ?)", [*parts.items(), (_KEY, key.encode())])
        except (OSError, pw.DatabaseError, sqlite3.Error) as error:  # a full disk, a read-only cache
            _log.debug("memory snapshot not saved in %s: %s", self._index.path, error)
        finally:
            if connection is not None:
                connection.execute(f"PRAGMA busy_timeout = {int(waited)}")
