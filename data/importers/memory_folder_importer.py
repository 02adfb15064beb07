"""MemoryFolderImporter: a folder of memory files synced into memory_index
(`import memory`, beyond FEAT-032), chunked by domain/memory_markdown.py.

Reads OneClaw's layout (MEMORY.md beside daily/YYYY-MM-DD.md) and OpenClaw's (MEMORY.md beside
memory/YYYY-MM-DD.md), or a folder of daily logs alone. Chunk ids are the folder, the file and the
chunk's text, so importing again adds nothing, a changed paragraph replaces just itself, and the
chunks of a file gone from the folder go too. Links leading out of the folder are never followed.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.memory_markdown import markdown_chunks
from oneclaw_search.domain.models import DAILY_LOG_TYPE, LONG_TERM_TYPE, MemoryChunk

LONG_TERM_NAME = "MEMORY.md"
DAILY_FOLDERS = ("daily", "memory")  # OneClaw's, OpenClaw's
_DAILY_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})\.md")
PROGRESS_FILES = 200  # files between progress reports


@dataclass
class MemoryImportSummary:
    files: int = 0
    added: int = 0
    removed: int = 0
    unchanged: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path in the folder, why)


class MemoryFolderImporter:
    def __init__(self, writer: HistoryWrites, progress: Callable[[int], None] | None = None,
                 expect: Callable[[int], None] | None = None) -> None:
        self._writer, self._progress = writer, progress  # progress hears the files read so far
        self._expect = expect  # hears how many files there are, before they are read

    def import_folder(self, folder: Path) -> MemoryImportSummary:
        root = folder.expanduser()
        if not root.is_dir():
            raise HistoryUnavailable(f"memory folder not found: {root}")
        root = root.resolve()
        prefix = f"md:{hashlib.sha1(str(root).encode()).hexdigest()[:8]}:"  # one folder's chunks
        summary = MemoryImportSummary()
        chunks: list[MemoryChunk] = []
        files = self._files(root, summary)
        if self._expect is not None:
            self._expect(len(files))
        for read, (path, day) in enumerate(files, start=1):
            found = _chunks(path, root, day, prefix, summary)
            if found is not None:
                summary.files += 1
                chunks += found
            if self._progress is not None and (read % PROGRESS_FILES == 0 or read == len(files)):
                self._progress(read)
        summary.added, summary.removed = self._writer.sync_chunks(prefix, chunks)
        summary.unchanged = len(chunks) - summary.added
        return summary

    def _files(self, root: Path, summary: MemoryImportSummary) -> list[tuple[Path, date | None]]:
        """(file, its day) for MEMORY.md (no day) and every daily log, in a stable order."""
        files: list[tuple[Path, date | None]] = []
        long_term = root / LONG_TERM_NAME
        if long_term.exists() and _inside(long_term, root, summary):
            files.append((long_term, None))
        for folder in [root / name for name in DAILY_FOLDERS if (root / name).is_dir()] + [root]:
            if not _inside(folder, root, summary):
                continue
            for path in sorted(folder.glob("*.md")):
                if path.name == LONG_TERM_NAME and folder == root:
                    continue
                day = _day(path.name)
                if day is None:
                    if folder != root:  # loose notes beside MEMORY.md are not daily logs, and not ours to judge
                        summary.skipped.append((_shown(path, root), "not a daily log name (YYYY-MM-DD.md)"))
                elif _inside(path, root, summary):
                    files.append((path, day))
        return files


def _chunks(path: Path, root: Path, day: date | None, prefix: str, summary: MemoryImportSummary) -> list[MemoryChunk] | None:
    try:
        text, stamp = path.read_text(encoding="utf-8"), int(path.stat().st_mtime * 1000)
    except UnicodeDecodeError:
        summary.skipped.append((_shown(path, root), "not UTF-8 text"))
        return None
    except OSError as error:
        summary.skipped.append((_shown(path, root), error.strerror or str(error)))
        return None
    kind, source_date = (LONG_TERM_TYPE, None) if day is None else (DAILY_LOG_TYPE, day.isoformat())
    seen: dict[str, int] = {}
    chunks = []
    for chunk in markdown_chunks(text):
        digest = hashlib.sha1(chunk.encode()).hexdigest()[:16]
        seen[digest] = seen.get(digest, 0) + 1  # the same paragraph twice in one file: two chunks
        chunk_id = f"{prefix}{_shown(path, root)}:{digest}" + (f":{seen[digest]}" if seen[digest] > 1 else "")
        chunks.append(MemoryChunk(chunk_id, kind, source_date, chunk, None, stamp, stamp))
    return chunks


def _inside(path: Path, root: Path, summary: MemoryImportSummary) -> bool:
    """Whether `path`, links resolved, stays in the folder; a link leading out is skipped and said."""
    if path.resolve().is_relative_to(root):
        return True
    summary.skipped.append((_shown(path, root), "a link leading out of the folder"))
    return False


def _shown(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def _day(name: str) -> date | None:
    match = _DAILY_NAME.fullmatch(name)
    if match is None:
        return None
    try:
        return date(*map(int, match.groups()))
    except ValueError:
        return None
