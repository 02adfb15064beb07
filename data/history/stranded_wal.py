"""A WAL history whose last commits sit in a -wal file that no process holds (no -shm: its writer
is gone) is read from a settled copy in the user cache, so the history stays untouched (P-03).

SQLite cannot read such a file without creating a -shm beside it (or, in a read-only folder, at
all), and the history's folder is never written to. The copy is made once per state of the file
and its -wal; a newer state replaces the older copy.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from oneclaw_search.data.history.cache_folder import user_cache
from oneclaw_search.data.history.held_files import copy_to

SETTLED = "history.db"


def is_stranded(file: Path) -> bool:
    return Path(f"{file}-wal").exists() and not Path(f"{file}-shm").exists()


def settled_copy(file: Path) -> Path:
    """The history with its -wal folded in, as a file in the cache that nothing writes to."""
    wal = Path(f"{file}-wal")
    state = [(path.stat().st_size, path.stat().st_mtime_ns) for path in (file, wal)]
    folder = user_cache() / "settled" / hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:16]
    target = folder / hashlib.sha1(repr(state).encode()).hexdigest()[:16] / SETTLED
    if not target.exists():
        work = target.with_name(f"work-{os.getpid()}-{SETTLED}")  # two processes may settle it at once
        work.parent.mkdir(parents=True, exist_ok=True)
        copy_to(file, work)  # through the held descriptor: closing one would free our connections' locks
        shutil.copyfile(wal, Path(f"{work}-wal"))
        with closing(sqlite3.connect(work)) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            connection.execute("PRAGMA journal_mode = DELETE")  # one file: read as immutable
        work.replace(target)
        for older in folder.iterdir():
            if older != target.parent:
                shutil.rmtree(older, ignore_errors=True)
    return target
