"""One read-only descriptor per history file for as long as the process lives, through which every
byte this project reads of a history outside SQLite is read (the header, the change counter, a
settled copy's source).

A process's POSIX locks on a file are dropped when it closes any descriptor of that file, not
only the one that took them. Opening and closing a history beside a live SQLite connection would
free that connection's shared lock: a writer closing next then takes the file for its own,
checkpoints and deletes the -wal and -shm that readers still use (reads fail as malformed, writes
with a disk I/O error). So descriptors are held, never closed, until the file is gone from disk.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

_lock = threading.Lock()
_held: dict[tuple[int, int], int] = {}  # (device, inode) -> descriptor


def held_descriptor(path: Path) -> int:
    """A descriptor open on the file now at `path` (OSError if there is none or it is unreadable).
    Callers read it with pread and never close it."""
    known = os.stat(path)
    with _lock:
        descriptor = _held.get((known.st_dev, known.st_ino))
        if descriptor is not None:
            return descriptor
        _release_removed()
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))  # O_BINARY: Windows only
        opened = os.fstat(descriptor)
        key = (opened.st_dev, opened.st_ino)
        if key in _held:  # replaced between the stat and the open by a file already held
            os.close(descriptor)  # safe: this process holds that file open through _held[key]
            return _held[key]
        _held[key] = descriptor
        return descriptor


def read_from(descriptor: int, offset: int, size: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(descriptor, size, offset)
    with _lock:  # Windows has no pread (nor POSIX locks to keep): a shared position, so one at a time
        os.lseek(descriptor, offset, os.SEEK_SET)
        return os.read(descriptor, size)


def copy_to(path: Path, target: Path, chunk: int = 1 << 20) -> None:
    """The file at `path` copied to `target`, read through its held descriptor."""
    source = held_descriptor(path)
    with target.open("wb") as out:
        offset = 0
        while block := read_from(source, offset, chunk):
            out.write(block)
            offset += len(block)


def _release_removed() -> None:
    """Close descriptors of files no longer linked anywhere on disk: nothing can open them again,
    so no lock of ours on them guards another process's work."""
    for key, descriptor in list(_held.items()):
        try:
            gone = os.fstat(descriptor).st_nlink == 0
        except OSError:
            gone = True
        if gone:
            os.close(descriptor)
            del _held[key]
