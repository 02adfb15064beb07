"""The third coding-agent retrieval set, written blind and frozen (recall_blind.json, ids only): queries
over real Claude Code transcripts of three MIT-licensed projects other than randlee/claude-history,
read from clones or bare mirrors by `git show` at the commits the labels pin, never copied here. It
was touched by no choice of the ranking model and is scored once (docs/performance.md).

The transcripts are imported as one user's projects folder would be (ClaudeCodeImporter), each file
under `claude-code/<owner>+<name>/<path>`, into one history; folds group whole sessions.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

from recall_sets import DAY_MS, History, Query, RecallSet, sqlite_history

from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.data.importers.claude_code_importer import ClaudeCodeImporter
from oneclaw_search.domain.clock import PinnedClock

LABELS = Path(__file__).with_name("recall_blind.json")
# Where the session's search tool leaves its mirrors (<owner>+<name>/repo); BLIND_MIRRORS names another folder.
MIRRORS = Path(__file__).resolve().parents[3] / ".mirror"


def mirrors() -> Path:
    return Path(os.environ.get("BLIND_MIRRORS", MIRRORS))


def missing(folder: Path | None = None) -> list[str]:
    """The source repositories with no clone or mirror in `folder` (the default: mirrors())."""
    folder = folder or mirrors()
    return [source["repo"] for source in _labels()["sources"] if not _repo(folder, source["repo"]).exists()]


def blind_set(folder: Path, mirror_folder: Path | None = None) -> RecallSet:
    """The labelled transcripts imported into one history in `folder`, and the queries, their gold
    turns mapped to the imported message ids."""
    labelled, mirror_folder = _labels(), mirror_folder or mirrors()
    source_root = folder / "claude-code"
    for source in labelled["sources"]:
        for path in source["transcripts"]:
            target = source_root / source["repo"].replace("/", "+") / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_show(_repo(mirror_folder, source["repo"]), source["commit"], path))

    def fill(writer: HistoryWrites) -> None:
        ClaudeCodeImporter(writer).import_path(source_root)

    path = folder / "blind.db"
    sqlite_history(path, fill)
    with sqlite3.connect(path) as connection:
        newest = int(connection.execute("SELECT max(created_at) FROM messages").fetchone()[0])
        turns = connection.execute("SELECT id FROM messages WHERE type IN ('USER', 'AI_RESPONSE')").fetchall()
    ids = {row_id.rsplit(":", 1)[-1]: row_id for (row_id,) in turns}
    queries = [Query(item["id"], f"blind:{item['fold']}", "blind", item["keyword_query"], item["question"],
                     [ids[gold.split("#", 1)[1]] for gold in item["gold"]]) for item in labelled["queries"]]
    return RecallSet("blind", [History("blind", path, PinnedClock(newest + DAY_MS), fill)], queries)


def _labels() -> dict:
    return dict(json.loads(LABELS.read_text(encoding="utf-8")))


def _repo(folder: Path, name: str) -> Path:
    return folder / name.replace("/", "+") / "repo"


def _show(repo: Path, commit: str, path: str) -> bytes:
    done = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], capture_output=True, check=False)
    if done.returncode != 0:
        raise FileNotFoundError(f"{repo}@{commit[:12]}:{path}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout
