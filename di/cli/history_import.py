"""`oneclaw-search import [KIND] PATH`: loads a JSONL bundle (the default kind), a memory folder,
squidbot's JSONL history, a OneClaw backup or Claude Code's transcripts into a database this package
may write (issue 4).
On a terminal, long imports show their progress on stderr; piped, they stay quiet until the summary."""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from oneclaw_search.data.importers.bundle_importer import BundleImporter, ImportSummary, bounded_lines
from oneclaw_search.data.importers.claude_code_importer import DEFAULT_PROJECTS, ClaudeCodeImporter
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.importers.memory_folder_importer import MemoryFolderImporter, MemoryImportSummary
from oneclaw_search.data.importers.oneclaw_importer import OneClawImporter
from oneclaw_search.data.importers.squidbot_importer import SquidbotImporter, SquidbotSummary
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.di.cli.claude_code_import import claude_code_exit_code, describe_claude_code_summary
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.domain.clock import SystemClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.local_time import resolve_zone

SHOWN_SKIPS = 10
KINDS = ("bundle", "memory", "squidbot", "oneclaw", "claude-code")


@contextmanager
def _writer(db: Path) -> Iterator[HistoryWriter]:
    """A writer over `db` (created if missing, never OneClaw's own file), closed afterwards; a
    file it created for an import that then failed is removed, so no empty history is left."""
    created = not db.exists()
    database = open_writable(db)
    try:
        yield HistoryWriter(database, default_embedder())
    except BaseException:
        database.close()
        if created:
            for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
                leftover.unlink(missing_ok=True)
        raise
    database.close()


def run_import_kind(db: Path, what: list[str], time_zone: str | None) -> int:
    """`import PATH` (a bundle) or `import KIND PATH`."""
    if len(what) == 1 and not (what[0] in KINDS and not Path(what[0]).exists()):  # a kind alone lacks its PATH
        return run_import(db, Path(what[0]), time_zone)
    if what[0] == "claude-code" and len(what) <= 2:  # PATH defaults to ~/.claude/projects
        return run_claude_code_import(db, Path(what[1]) if len(what) == 2 else None)
    if len(what) != 2 or what[0] not in KINDS:
        raise ValueError(f"import takes [KIND] PATH, KIND one of: {', '.join(KINDS)} (default bundle)")
    kind, path = what[0], Path(what[1])
    if kind == "squidbot":
        return run_squidbot_import(db, path, time_zone)
    if kind == "oneclaw":
        return run_oneclaw_import(db, path)
    return run_import(db, path, time_zone) if kind == "bundle" else run_memory_import(db, path)


def run_oneclaw_import(db: Path, path: Path) -> int:
    with _progress_line("rows", "copied") as progress, _writer(db) as writer:
        summary = OneClawImporter(writer, progress).import_history(path)
    print(f"Imported {summary.messages} new messages, {summary.sessions} sessions and {summary.chunks} memory chunks"
          f" from {path} into {db} ({summary.already} messages already there)")
    return 0


def run_claude_code_import(db: Path, path: Path | None) -> int:
    with _progress_line() as progress, _writer(db) as writer:
        summary = ClaudeCodeImporter(writer, progress).import_path(path)
    print(describe_claude_code_summary(summary, path or DEFAULT_PROJECTS, db))
    return claude_code_exit_code(summary)


def run_squidbot_import(db: Path, path: Path, time_zone: str | None) -> int:
    with _progress_line() as progress, _writer(db) as writer:
        summary = SquidbotImporter(writer, resolve_zone(time_zone), progress).import_path(path)
    print(describe_squidbot_summary(summary, path, db))
    return 0 if summary.files and (summary.messages or summary.already or not summary.skipped) else 1


def describe_squidbot_summary(summary: SquidbotSummary, path: Path, db: Path) -> str:
    headline = (f"Imported {summary.messages} new messages in {summary.sessions} sessions from {summary.files} files of"
                f" {path} into {db} ({summary.already} already there)")
    return _with_skips(headline, "line(s)", [f"{count} × {reason}" for reason, count in summary.skipped.most_common()])


class _ProgressLine:
    """A count and its rate, redrawn in place on stderr: "12,000 lines read, 31,000 lines/s"."""

    def __init__(self, noun: str, verb: str) -> None:
        self._noun, self._verb, self._started, self.shown = noun, verb, time.monotonic(), False

    def __call__(self, count: int) -> None:
        rate = count / max(time.monotonic() - self._started, 1e-6)
        print(f"\r{count:,} {self._noun} {self._verb}, {rate:,.0f} {self._noun}/s", end="", file=sys.stderr, flush=True)
        self.shown = True


def _progress(noun: str = "lines", verb: str = "read") -> _ProgressLine | None:
    """A progress line for a terminal, or nothing when piped."""
    return _ProgressLine(noun, verb) if sys.stderr.isatty() else None


@contextmanager
def _progress_line(noun: str = "lines", verb: str = "read") -> Iterator[_ProgressLine | None]:
    """_progress, its line ended on the way out, so the summary (or an error) starts a line of its own."""
    progress = _progress(noun, verb)
    try:
        yield progress
    finally:
        if progress is not None and progress.shown:
            print(file=sys.stderr)


def run_memory_import(db: Path, folder: Path) -> int:
    with _progress_line("files") as progress, _writer(db) as writer:
        summary = MemoryFolderImporter(writer, progress).import_folder(folder)
    print(describe_memory_summary(summary, folder, db))
    return 0 if summary.files or not summary.skipped else 1


def describe_memory_summary(summary: MemoryImportSummary, folder: Path, db: Path) -> str:
    headline = (f"Imported memory from {folder} into {db}: {summary.files} files, {summary.added} chunks added,"
                f" {summary.removed} removed, {summary.unchanged} unchanged")
    return _with_skips(headline, "file(s)", [f"{path}: {reason}" for path, reason in summary.skipped])


def run_import(db: Path, bundle: Path, time_zone: str | None) -> int:
    if not bundle.is_file():
        raise HistoryUnavailable(f"bundle not found: {bundle}")
    zone = resolve_zone(time_zone)
    # surrogateescape: a line that is not UTF-8 reaches the importer, which skips it by number
    with _progress_line() as progress, bundle.open(encoding="utf-8", errors="surrogateescape") as handle, \
            _writer(db) as writer:
        importer = BundleImporter(writer, zone, SystemClock().now_ms(), progress)
        summary = importer.import_lines(bounded_lines(handle))
    print(describe_summary(summary, db))
    imported = summary.sessions + summary.messages + summary.chunks
    return 0 if imported or not summary.skipped else 1


def describe_summary(summary: ImportSummary, db: Path) -> str:
    headline = f"Imported {summary.sessions} sessions, {summary.messages} messages, {summary.chunks} memory chunks into {db}"
    return _with_skips(headline, "line(s)", [f"line {number}: {reason}" for number, reason in summary.skipped])


def _with_skips(headline: str, unit: str, skipped: list[str]) -> str:
    """The summary line, then the first SHOWN_SKIPS of what was skipped and why."""
    lines = [headline]
    if skipped:
        lines.append(f"Skipped {len(skipped)} {unit}:")
        lines += [f"  {line}" for line in skipped[:SHOWN_SKIPS]]
        if len(skipped) > SHOWN_SKIPS:
            lines.append(f"  … and {len(skipped) - SHOWN_SKIPS} more")
    return "\n".join(lines)
