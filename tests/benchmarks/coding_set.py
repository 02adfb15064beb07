"""The coding-agent retrieval set: queries an agent would later ask of its own Claude Code history,
each labelled with the turns that answer it (recall_coding.json, ids only), over real transcripts of
randlee/claude-history (MIT) read from a clone or bare mirror by `git show`, never copied here.

The transcripts are imported as the package imports any Claude Code folder (ClaudeCodeImporter), all
of them into one history, as one user's projects folder would be; folds group whole transcripts.
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

LABELS = Path(__file__).with_name("recall_coding.json")
# Where the session's search tool leaves its mirror; --claude-history or CLAUDE_HISTORY name another.
MIRROR = Path(__file__).resolve().parents[3] / ".mirror" / "randlee+claude-history" / "repo"


def default_repo() -> Path | None:
    """The clone named by CLAUDE_HISTORY, else the mirror beside the checkout, when either is there."""
    named = os.environ.get("CLAUDE_HISTORY")
    for candidate in ([Path(named)] if named else []) + [MIRROR]:
        if candidate.exists():
            return candidate
    return None


SECOND = Path(__file__).with_name("recall_coding_b.json")  # another writer's queries over the same transcripts


def labels(path: Path = LABELS) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def coding_set(repo: Path, folder: Path, per_fold: int | None = None, labels_file: Path = LABELS, name: str = "coding") -> RecallSet:
    """The transcripts the labels in `labels_file` name, imported into one history in `folder`, and the
    labelled queries (the first `per_fold` of each fold), their gold turns mapped to the imported
    message ids; folds and the set are named after `name`."""
    labelled = labels(labels_file)
    source = folder / "claude-code"
    for path in labelled["transcripts"]:
        target = source / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_show(repo, labelled["commit"], path))

    def fill(writer: HistoryWrites) -> None:
        ClaudeCodeImporter(writer).import_path(source)

    path = folder / "coding.db"  # one history for every set of queries over these transcripts
    if not path.exists():
        sqlite_history(path, fill)
    with sqlite3.connect(path) as connection:
        newest = int(connection.execute("SELECT max(created_at) FROM messages").fetchone()[0])
        turns = connection.execute("SELECT id FROM messages WHERE type IN ('USER', 'AI_RESPONSE')").fetchall()
    ids = {row_id.rsplit(":", 1)[-1]: row_id for (row_id,) in turns}  # a transcript's row ids are uuids
    taken: dict[str, int] = {}
    queries = []
    for item in labelled["queries"]:
        taken[item["fold"]] = taken.get(item["fold"], 0) + 1
        if per_fold is None or taken[item["fold"]] <= per_fold:
            queries.append(Query(item["id"], f"{name}:{item['fold']}", "coding", item["keyword_query"], item["question"],
                                 [ids[turn.split("#", 1)[1]] for turn in item["gold"]]))
    return RecallSet(name, [History("coding", path, PinnedClock(newest + DAY_MS), fill)], queries)


def _show(repo: Path, commit: str, path: str) -> bytes:
    done = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], capture_output=True, check=False)
    if done.returncode != 0:
        raise FileNotFoundError(f"randlee/claude-history@{commit[:12]}:{path}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout
