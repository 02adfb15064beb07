"""Real Claude Code transcripts (randlee/claude-history's MIT-licensed examples) read as summary Transcripts
for bench_session_summary.py: the files named in session_summary_claude_code.json, read by `git show` from a
clone or bare mirror of that repository, never copied here; the labels hold turn ids only.
"""
from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

from oneclaw_search.data.importers.claude_code_transcripts import read_transcript
from oneclaw_search.domain.models import MessageType
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Transcript

LABELS = Path(__file__).with_name("session_summary_claude_code.json")
REPO = "randlee/claude-history"
PINNED = "e115c9f54f16da1351d39ec2d4db89434d2031df"
CONVERSATION = (MessageType.USER.value, MessageType.AI_RESPONSE.value)  # tool calls and results left out
TITLE_CHARS = 80


def labels() -> list[dict[str, Any]]:
    """Per session: the transcript's path in the repository, and the ids of its decision and open turns."""
    return list(json.loads(LABELS.read_text())["sessions"])


def load(repo: Path, commit: str = PINNED) -> list[tuple[str, Transcript]]:
    """(path, transcript) for every labelled file, in the labels' order, read from `repo` at `commit`."""
    return [(label["path"], transcript(label["path"], _show(repo, commit, label["path"]))) for label in labels()]


def transcript(path: str, text: str) -> Transcript:
    """The user's words and the assistant's text replies of one .jsonl file, oldest first, as the
    project's importer reads it; turn ids `<path>#<row id>`, turn times their index."""
    rows = read_transcript(io.StringIO(text), lambda: None)
    kept = sorted((row for row in rows.rows if row.type in CONVERSATION), key=lambda row: row.created_at)
    turns = tuple(Turn(f"{path}#{row.id}", row.type, row.content, at) for at, row in enumerate(kept))
    title = " ".join((rows.first_prompt or path).split())[:TITLE_CHARS]
    return Transcript(SessionInfo(path, title, 0, len(turns)), turns)


def _show(repo: Path, commit: str, path: str) -> str:
    """The file at `commit`, by `git show`: the same command for a bare mirror and a checkout."""
    done = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], capture_output=True, check=False)
    if done.returncode != 0:
        raise FileNotFoundError(f"{REPO}@{commit[:12]}:{path}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.decode("utf-8")
