"""OneClaw backup zips as histories: `--db oneclaw-backup-….zip` is searched as it is.

OneClaw's in-app export (BackupManager.kt) checkpoints the database and zips it as one entry,
`oneclaw.db`. The entry is extracted once into the user cache, one copy per zip (a changed zip
replaces its copy), made read-only, and searched there; the zip itself is only ever read. An entry
that would grow past MAX_BYTES, or past RATIO_FROM and more than MAX_RATIO times its compressed
size, or that does not start as a SQLite file, is refused, and a copy that then cannot be opened as
a history is removed: nothing of a refused backup is left behind.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, TypeVar

from oneclaw_search.data.history.cache_folder import user_cache
from oneclaw_search.data.history.held_files import read_head
from oneclaw_search.domain.errors import HistoryUnavailable

ENTRY = "oneclaw.db"
MAX_BYTES = 8 << 30  # a phone's history database is far smaller
MAX_RATIO = 100  # SQLite pages of chat text compress a few times; zip bombs a thousand times
RATIO_FROM = 32 << 20  # a small database of empty pages may compress further, and harms nothing
_ZIP_MAGIC = b"PK\x03\x04"
_SQLITE_MAGIC = b"SQLite format 3\0"
Opened = TypeVar("Opened")
_CHUNK = 1 << 20


class BackupRefused(HistoryUnavailable):
    """A backup whose history would expand beyond what a history can be."""


def is_backup_zip(path: Path) -> bool:
    try:  # through the held descriptor: the path is most often the history itself, perhaps open beside
        return read_head(path, 4)[0] == _ZIP_MAGIC
    except OSError:
        return False


def history_in(path: str | Path, cache: Path | None = None) -> Path:
    """`path` itself, or for a backup zip the extracted copy of the history it holds."""
    file = Path(path).expanduser()
    if not file.is_file() or not is_backup_zip(file):
        return file
    stat = file.stat()
    folder = (cache or user_cache() / "backups") / hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:16]
    target = folder / f"{stat.st_size}-{stat.st_mtime_ns}" / ENTRY
    if not target.exists():
        _extract(file, target)
        for older in folder.iterdir():  # the copies of this zip before it changed
            if older != target.parent:
                shutil.rmtree(older, ignore_errors=True)
    return target


def open_history(path: str | Path, opener: Callable[[Path], Opened]) -> Opened:
    """`opener` on the history at `path`; for a backup zip, on its extracted copy, which is removed
    again when it cannot be opened (HistoryUnavailable), so each bad zip does not leave a copy."""
    file = history_in(path)
    try:
        return opener(file)
    except HistoryUnavailable:
        if file != Path(path).expanduser():
            shutil.rmtree(file.parent, ignore_errors=True)
            if not any(file.parent.parent.iterdir()):
                file.parent.parent.rmdir()
        raise


def _extract(archive: Path, target: Path) -> None:
    partial = target.with_name(f"{ENTRY}.partial-{os.getpid()}")
    try:
        with zipfile.ZipFile(archive) as opened:
            names = [info for info in opened.infolist() if info.filename.rsplit("/", 1)[-1] == ENTRY]
            if not names:
                raise HistoryUnavailable(f"no {ENTRY} in backup zip {archive}")
            entry = min(names, key=lambda info: len(info.filename))
            _check_size(archive, entry.file_size, entry.compress_size)
            target.parent.mkdir(parents=True, exist_ok=True)
            with opened.open(entry) as source, partial.open("wb") as copy:
                _copy_bounded(archive, source, copy, entry.compress_size)
        partial.chmod(0o444)  # a copy to read: nothing of ours writes to it
        partial.replace(target)  # whole or not at all, even with two processes extracting at once
    except zipfile.BadZipFile as error:
        raise HistoryUnavailable(f"not a readable zip: {archive} ({error})") from error
    except OSError as error:
        raise HistoryUnavailable(f"cannot extract {ENTRY} from {archive}: {error.strerror or error}") from error
    finally:
        partial.unlink(missing_ok=True)
        if target.parent.exists() and not any(target.parent.iterdir()):
            target.parent.rmdir()


def _check_size(archive: Path, size: int, packed: int) -> None:
    """Refuse an entry whose size, stated or reached, passes either limit."""
    if size > MAX_BYTES or (size > RATIO_FROM and size > MAX_RATIO * max(packed, 1)):
        raise BackupRefused(f"refusing {ENTRY} in {archive}: it expands to more than {MAX_BYTES >> 30} GiB or"
                            f" {MAX_RATIO} times its compressed size (a zip bomb?)")


def _copy_bounded(archive: Path, source: IO[bytes], copy: IO[bytes], packed: int) -> None:
    """Copy, counting: a zip may state a smaller size than its entry inflates to. An entry that does
    not start as a SQLite file is refused before the rest of it is read."""
    written = 0
    while chunk := source.read(_CHUNK):
        if not written and not chunk.startswith(_SQLITE_MAGIC):
            raise HistoryUnavailable(f"{ENTRY} in backup zip {archive} is not a SQLite database")
        written += len(chunk)
        _check_size(archive, written, packed)
        copy.write(chunk)
