"""`oneclaw-search import FILE.jsonl`: loads a bundle into a database this package may write."""
from __future__ import annotations

from pathlib import Path

from oneclaw_search.data.bundle_importer import BundleImporter, ImportSummary
from oneclaw_search.data.history_writer import HistoryWriter
from oneclaw_search.data.schema import open_writable
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.domain.clock import SystemClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.local_time import resolve_zone

SHOWN_SKIPS = 10


def run_import(db: Path, bundle: Path, time_zone: str | None) -> int:
    if not bundle.is_file():
        raise HistoryUnavailable(f"bundle not found: {bundle}")
    zone = resolve_zone(time_zone)
    with bundle.open(encoding="utf-8") as lines:
        database = open_writable(db)
        try:
            importer = BundleImporter(HistoryWriter(database, default_embedder()), zone, SystemClock().now_ms())
            summary = importer.import_lines(lines)
        finally:
            database.close()
    print(describe_summary(summary, db))
    imported = summary.sessions + summary.messages + summary.chunks
    return 0 if imported or not summary.skipped else 1


def describe_summary(summary: ImportSummary, db: Path) -> str:
    lines = [f"Imported {summary.sessions} sessions, {summary.messages} messages, {summary.chunks} memory chunks into {db}"]
    if summary.skipped:
        lines.append(f"Skipped {len(summary.skipped)} line(s):")
        lines += [f"  line {number}: {reason}" for number, reason in summary.skipped[:SHOWN_SKIPS]]
        if len(summary.skipped) > SHOWN_SKIPS:
            lines.append(f"  … and {len(summary.skipped) - SHOWN_SKIPS} more")
    return "\n".join(lines)
