"""One read-only descriptor per history file for as long as the process lives, through which every
byte this project reads of a history outside SQLite is read (the header, the change counter, a
settled copy's source).

A process's POSIX locks on a file are dropped when it closes any descriptor of that file, not
only the one that took them. Opening and closing a history beside a live SQLite connection would
free that connection's shared lock: a writer closing next then takes the file for its own,
checkpoints and deletes the -wal and -shm that readers still use (reads fail as malformed, writes
with a disk I/O error). So descriptors are held, never closed, until the file is gone from disk.
Windows has no such locks, and a held descriptor there would keep the file from being replaced,
so there each read opens and closes the file.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_HOLD = os.name != "nt"
_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)  # O_BINARY: Windows only
_lock = threading.RLock()  # reads hold it too, so a descriptor is never closed under one
_held: dict[tuple[int, int], int] = {}  # (device, inode) -> descriptor


def read_head(path: Path, size: int) -> tuple[bytes, os.stat_result]:
    """The file's first `size` bytes and its status now (OSError if it is missing or unreadable)."""
    with _opened(path) as descriptor:
        return _read(descriptor, 0, size), os.fstat(descriptor)


def copy_to(path: Path, target: Path, chunk: int = 1 << 20) -> None:
    """The file at `path` copied to `target`."""
    with _opened(path) as descriptor, target.open("wb") as out:
        offset = 0
        while block := _read(descriptor, offset, chunk):
            out.write(block)
            offset += len(block)


@contextmanager
def _opened(path: Path) -> Iterator[int]:
    if not _HOLD:
        descriptor = os.open(path, _FLAGS)
        try:
            yield descriptor
        finally:
            os.close(descriptor)
        return
    known = os.stat(path)
    with _lock:
        held = _held.get((known.st_dev, known.st_ino))
        yield held if held is not None else _hold(path)


def _hold(path: Path) -> int:
    _release_removed()
    descriptor = os.open(path, _FLAGS)
    opened = os.fstat(descriptor)
    key = (opened.st_dev, opened.st_ino)
    if key in _held:  # replaced between the stat and the open by a file already held: this one stays
        return _held[key]  # open unused, as closing it would free our locks on that file
    _held[key] = descriptor
    return descriptor


def _read(descriptor: int, offset: int, size: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(descriptor, size, offset)
    os.lseek(descriptor, offset, os.SEEK_SET)  # no pread on Windows: each read has a descriptor of its own
    return os.read(descriptor, size)


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
