"""OneClaw backup zips as histories: `--db oneclaw-backup-….zip` is searched as it is (issue 4).

OneClaw's in-app export (BackupManager.kt) checkpoints the database and zips it as one entry,
`oneclaw.db`. The entry is extracted once into the user cache, keyed by the zip's path, size and
time, made read-only, and searched there; the zip itself is only ever read.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import zipfile
from pathlib import Path

from oneclaw_search.data.index.side_index import user_cache
from oneclaw_search.domain.errors import HistoryUnavailable

ENTRY = "oneclaw.db"
_ZIP_MAGIC = b"PK\x03\x04"


def is_backup_zip(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == _ZIP_MAGIC
    except OSError:
        return False


def history_in(path: str | Path, cache: Path | None = None) -> Path:
    """`path` itself, or for a backup zip the extracted copy of the history it holds."""
    file = Path(path).expanduser()
    if not file.is_file() or not is_backup_zip(file):
        return file
    stat = file.stat()
    key = hashlib.sha1(f"{file.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    target = (cache or user_cache() / "backups") / key / ENTRY
    if not target.exists():
        _extract(file, target)
    return target


def _extract(archive: Path, target: Path) -> None:
    try:
        with zipfile.ZipFile(archive) as opened:
            names = [name for name in opened.namelist() if name.rsplit("/", 1)[-1] == ENTRY]
            if not names:
                raise HistoryUnavailable(f"no {ENTRY} in backup zip {archive}")
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f"{ENTRY}.partial-{os.getpid()}")
            with opened.open(min(names, key=len)) as source, partial.open("wb") as copy:
                shutil.copyfileobj(source, copy, 1 << 20)
    except zipfile.BadZipFile as error:
        raise HistoryUnavailable(f"not a readable zip: {archive} ({error})") from error
    except OSError as error:
        raise HistoryUnavailable(f"cannot extract {ENTRY} from {archive}: {error.strerror or error}") from error
    partial.chmod(0o444)  # a copy to read: nothing of ours writes to it
    partial.replace(target)  # whole or not at all, even with two processes extracting at once
