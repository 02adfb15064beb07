"""`oneclaw-search import [KIND] PATH`: loads a JSONL bundle (the default kind), a memory folder,
squidbot's JSONL history, a OneClaw backup or Claude Code's transcripts into a database this package
may write. On a terminal, imports show progress bars on stderr (tools/cli/progress.py); piped, they
stay quiet until the summary."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.data.importers.bundle_importer import BundleImporter, ImportSummary, bounded_lines, count_lines
from oneclaw_search.data.importers.claude_code_importer import DEFAULT_PROJECTS, ClaudeCodeImporter
from oneclaw_search.data.importers.memory_folder_importer import MemoryFolderImporter, MemoryImportSummary
from oneclaw_search.data.importers.oneclaw_importer import OneClawImporter
from oneclaw_search.data.importers.squidbot_importer import HISTORY_FILE, SESSIONS_FOLDER, SquidbotImporter, SquidbotSummary
from oneclaw_search.di.recorder import open_writer
from oneclaw_search.domain.clock import SystemClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.local_time import resolve_zone
from oneclaw_search.tools.cli.claude_code_import import claude_code_exit_code, describe_claude_code_summary
from oneclaw_search.tools.cli.history_location import History, PostgresLocation
from oneclaw_search.tools.cli.progress import CountBar, progress_bars

SHOWN_SKIPS = 10
KINDS = ("bundle", "memory", "squidbot", "oneclaw", "claude-code")


def _writer(db: History) -> AbstractContextManager[HistoryWrites]:
    """A writer over `db`, closed afterwards (di.open_writer: a file created for a failed import is removed)."""
    if isinstance(db, PostgresLocation):
        return open_writer(db.url, tenant=db.tenant)
    return open_writer(db)


def run_import_kind(db: History, what: list[str], time_zone: str | None) -> int:
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


def run_oneclaw_import(db: History, path: Path) -> int:
    with progress_bars() as bars, _writer(db) as writer:
        summary = OneClawImporter(writer, *_hooks(bars.count("copying rows", "rows"))).import_history(path)
    print(f"Imported {summary.messages} new messages, {summary.sessions} sessions and {summary.chunks} memory chunks"
          f" from {path} into {db} ({summary.already} messages already there)")
    return 0


def run_claude_code_import(db: History, path: Path | None) -> int:
    with progress_bars() as bars, _writer(db) as writer:
        summary = ClaudeCodeImporter(writer, *_hooks(bars.count("reading transcripts", "lines"))).import_path(path)
    print(describe_claude_code_summary(summary, path or DEFAULT_PROJECTS, db))
    return claude_code_exit_code(summary)


def run_squidbot_import(db: History, path: Path, time_zone: str | None) -> int:
    with progress_bars() as bars, _writer(db) as writer:
        bar = bars.count("reading squidbot lines", "lines", then="writing messages")
        summary = SquidbotImporter(writer, resolve_zone(time_zone), *_hooks(bar)).import_path(path)
    print(describe_squidbot_summary(summary, path, db))
    if not summary.files and not summary.skipped:
        return 0  # a new install: the empty history is there to search, and the next import fills it
    return 0 if summary.files and (summary.messages or summary.already or not summary.skipped) else 1


def describe_squidbot_summary(summary: SquidbotSummary, path: Path, db: History) -> str:
    if not summary.files and not summary.skipped:
        return (f"Nothing to import yet: {path} holds no squidbot history ({HISTORY_FILE} or {SESSIONS_FOLDER}/*.jsonl);"
                f" {db} is ready to search, and importing again takes in what squidbot writes")
    headline = (f"Imported {summary.messages} new messages in {summary.sessions} sessions from {summary.files} files of"
                f" {path} into {db} ({summary.already} already there)")
    return _with_skips(headline, "line(s)", [f"{count} × {reason}" for reason, count in summary.skipped.most_common()])


def _hooks(bar: CountBar | None) -> tuple[Callable[[int], None] | None, Callable[[int], None] | None]:
    """An importer's two progress hooks: the count so far, and the count it will reach."""
    return (bar, bar.expect) if bar is not None else (None, None)


def run_memory_import(db: History, folder: Path) -> int:
    with progress_bars() as bars, _writer(db) as writer:
        bar = bars.count("reading memory files", "files", then="embedding and writing chunks")
        summary = MemoryFolderImporter(writer, *_hooks(bar)).import_folder(folder)
    print(describe_memory_summary(summary, folder, db))
    return 0 if summary.files or not summary.skipped else 1


def describe_memory_summary(summary: MemoryImportSummary, folder: Path, db: History) -> str:
    headline = (f"Imported memory from {folder} into {db}: {summary.files} files, {summary.added} chunks added,"
                f" {summary.removed} removed, {summary.unchanged} unchanged")
    return _with_skips(headline, "file(s)", [f"{path}: {reason}" for path, reason in summary.skipped])


def run_import(db: History, bundle: Path, time_zone: str | None) -> int:
    if not bundle.is_file():
        raise HistoryUnavailable(f"bundle not found: {bundle}")
    zone = resolve_zone(time_zone)
    # surrogateescape: a line that is not UTF-8 reaches the importer, which skips it by number
    with progress_bars() as bars, bundle.open(encoding="utf-8", errors="surrogateescape") as handle, \
            _writer(db) as writer:
        bar = bars.count("reading the bundle", "lines", then="writing rows")
        if bar is not None:
            bar.expect(count_lines([bundle]))
        importer = BundleImporter(writer, zone, SystemClock().now_ms(), bar)
        summary = importer.import_lines(bounded_lines(handle))
    print(describe_summary(summary, db))
    imported = summary.sessions + summary.messages + summary.chunks
    return 0 if imported or not summary.skipped else 1


def describe_summary(summary: ImportSummary, db: History) -> str:
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
