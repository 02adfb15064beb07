"""The summary `oneclaw-search import claude-code [PATH]` prints: what was read, what was new, and
every skipped line or file by reason, so one look tells a good import from a wrong folder."""
from __future__ import annotations

from pathlib import Path

from oneclaw_search.data.importers.claude_code_importer import ClaudeCodeSummary
from oneclaw_search.tools.cli.history_location import History


def describe_claude_code_summary(summary: ClaudeCodeSummary, path: Path, db: History) -> str:
    lines = [(f"Imported {summary.messages} new messages in {summary.sessions} sessions ({summary.subagents} of them"
              f" sub-agents) from {summary.files} transcript files of {path} into {db} ({summary.already} already there)")]
    if summary.skipped:
        lines.append(f"Skipped {sum(summary.skipped.values())} lines or files:")
        lines += [f"  {count} × {reason}" for reason, count in summary.skipped.most_common()]
    return "\n".join(lines)


def claude_code_exit_code(summary: ClaudeCodeSummary) -> int:
    """0 once a session was found (new or already there), 1 when nothing usable was."""
    return 0 if summary.sessions else 1
