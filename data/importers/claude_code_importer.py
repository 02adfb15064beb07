"""ClaudeCodeImporter: Claude Code's transcripts (`~/.claude/projects`) into OneClaw's tables
(`import claude-code`, beyond FEAT-032). One session per transcript, one per real sub-agent linked to
the session that spawned it; Claude Code's own helper agents are left out. Ids derive from the files' uuids, so
importing twice adds nothing and a grown file adds only its new lines.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from oneclaw_search.data.history.history_writer import NewSession, SessionOrigin
from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.data.importers.bundle_importer import count_lines
from oneclaw_search.data.importers.claude_code_transcripts import Spawn, Transcript, read_transcript
from oneclaw_search.domain.errors import HistoryUnavailable

DEFAULT_PROJECTS = Path("~/.claude/projects")
SOURCE, INDEX_FILE = "claude-code", "sessions-index.json"
HELPER_FILES = ("agent-aprompt_suggestion-", "agent-acompact-")  # prompt guesses, the compaction summariser
HELPER_PROMPT = "[SUGGESTION MODE"
TITLE_LENGTH = 80
PROGRESS_LINES = 10_000  # lines between progress reports
HELPER_SKIP, LINK_SKIP = "Claude Code helper agent file", "a link leading out of the folder"
_Written = tuple[str, str] | None  # (Claude Code's sessionId, our session id) of a session written
_IndexEntries = dict[str, dict[str, str]]  # sessionId → the text fields of its sessions-index entry


@dataclass
class ClaudeCodeSummary:
    files: int = 0  # transcripts read
    sessions: int = 0
    subagents: int = 0  # of those sessions, sub-agents
    messages: int = 0  # newly written
    already: int = 0  # read again, already imported
    skipped: Counter[str] = field(default_factory=Counter)  # reason → lines or files


class ClaudeCodeImporter:
    def __init__(self, writer: HistoryWrites, progress: Callable[[int], None] | None = None,
                 expect: Callable[[int], None] | None = None) -> None:
        self._writer, self._progress = writer, progress
        self._expect = expect  # hears how many lines the transcripts hold, before they are read
        self._lines = 0
        self._spawns: dict[tuple[str, str], tuple[str, Spawn]] = {}  # (sessionId, agentId) → (spawner, Task call)

    def import_path(self, path: Path | None = None) -> ClaudeCodeSummary:
        """PATH is the projects folder, one project's folder or one transcript file."""
        summary = ClaudeCodeSummary()
        root, files, index = _scan((path or DEFAULT_PROJECTS).expanduser(), summary)
        agents = sorted((file for file in files if file.name.startswith("agent-")), key=lambda file: len(file.parts))
        mains = [file for file in files if not file.name.startswith("agent-")]
        if self._expect is not None:
            self._expect(count_lines(file for file in files if not file.name.startswith(HELPER_FILES)))
        for file in mains + agents:  # spawners before the agents they spawned, for the links
            if file.name.startswith(HELPER_FILES):
                summary.skipped[HELPER_SKIP] += 1
                continue
            with file.open(encoding="utf-8", errors="surrogateescape") as handle:
                transcript = read_transcript(handle, self._count_line)
            summary.files += 1
            summary.skipped.update(transcript.skipped)
            source = str(file.relative_to(root))
            read = self._import_agent if file.name.startswith("agent-") else self._import_main
            if written := read(file, source, transcript, index, summary):
                self._spawns.update({(written[0], agent): (written[1], spawn) for agent, spawn in transcript.spawns.items()})
        if self._progress and self._lines:
            self._progress(self._lines)  # the full count
        return summary

    def _import_main(self, file: Path, source: str, transcript: Transcript, index: _IndexEntries, summary: ClaudeCodeSummary) -> _Written:
        claude_id, entry = file.stem, index.get(file.stem, {})
        session = f"{SOURCE}:{claude_id}"
        title = (_clip(entry.get("summary")) or _clip(entry.get("firstPrompt")) or _summary_line(transcript)
                 or _clip(transcript.first_prompt) or file.parent.name)
        origin = SessionOrigin(SOURCE, entry.get("projectPath") or transcript.cwd, None, None, source)
        written = self._write(NewSession(session, title, 0, agent_id=SOURCE, origin=origin), transcript, summary)
        return (claude_id, session) if written else None

    def _import_agent(self, file: Path, source: str, transcript: Transcript, index: _IndexEntries, summary: ClaudeCodeSummary) -> _Written:
        agent, claude_id = file.stem.removeprefix("agent-"), transcript.session_id or _layout_session(file)
        if (transcript.first_prompt or "").startswith(HELPER_PROMPT) or claude_id is None:
            summary.skipped[HELPER_SKIP if claude_id else "sub-agent file naming no session"] += 1
            return None
        session = f"{SOURCE}:{claude_id}:agent-{agent}"
        spawner, spawn = self._spawns.get((claude_id, agent), (None, Spawn(None, None)))
        parent = spawner or f"{SOURCE}:{claude_id}" + (f":{file.parent.parent.name}" if _nested(file) else "")
        title = spawn.description or _clip(transcript.first_prompt) or f"agent {agent}"
        project = index.get(claude_id, {}).get("projectPath") or transcript.cwd
        origin = SessionOrigin(SOURCE, project, spawn.agent_type, parent, source)
        if not self._write(NewSession(session, title, 0, agent_id=SOURCE, origin=origin), transcript, summary):
            return None
        summary.subagents += 1
        return claude_id, session

    def _write(self, session: NewSession, transcript: Transcript, summary: ClaudeCodeSummary) -> bool:
        """Upserts the session over its messages' span and writes the messages not there yet."""
        rows = {f"{session.id}:{row.id}": replace(row, id=f"{session.id}:{row.id}", session_id=session.id)
                for row in transcript.rows}
        if not rows:
            summary.skipped["transcript without messages"] += 1
            return False
        times = [row.created_at for row in rows.values()]
        already = self._writer.write([replace(session, created_at=min(times), updated_at=max(times))],
                                     list(rows.values()), [], keep_existing=True)
        summary.sessions += 1
        summary.messages, summary.already = summary.messages + len(rows) - already, summary.already + already
        return True

    def _count_line(self) -> None:
        self._lines += 1
        if self._progress and self._lines % PROGRESS_LINES == 0:
            self._progress(self._lines)


def _scan(given: Path, summary: ClaudeCodeSummary) -> tuple[Path, list[Path], _IndexEntries]:
    """(the folder source files are named from, the transcripts, sessions-index entries by sessionId).
    Links are not followed out of the folder given."""
    if given.is_file():
        return given.parent, [given], _index_entries([given.parent / INDEX_FILE], summary)
    if not given.is_dir():
        raise HistoryUnavailable(f"Claude Code history not found: {given}")
    root, files, indexes = given.resolve(), [], []
    for folder, folders, names in os.walk(root):  # does not descend into linked folders
        for name in folders + names:
            entry = Path(folder, name)
            if entry.is_symlink() and not entry.resolve().is_relative_to(root):
                summary.skipped[LINK_SKIP] += 1
            elif name in names and name.endswith(".jsonl") and entry.is_file():
                files.append(entry)
            elif name == INDEX_FILE:
                indexes.append(entry)
    return root, sorted(files), _index_entries(indexes, summary)


def _index_entries(indexes: list[Path], summary: ClaudeCodeSummary) -> _IndexEntries:
    entries: _IndexEntries = {}
    for index in indexes:
        if not index.is_file():
            continue
        try:
            listed = json.loads(index.read_text(encoding="utf-8")).get("entries")
        except (ValueError, AttributeError, OSError):
            summary.skipped[f"unreadable {INDEX_FILE}"] += 1
            continue
        for item in listed if isinstance(listed, list) else []:  # only its text fields, each checked once here
            texts = {key: value for key, value in item.items() if isinstance(value, str)} if isinstance(item, dict) else {}
            if "sessionId" in texts:
                entries[texts["sessionId"]] = texts
    return entries


def _nested(file: Path) -> bool:
    """`<sessionId>/subagents/agent-<parent>/subagents/agent-<child>.jsonl`: spawned by a sub-agent."""
    return file.parent.name == "subagents" and file.parent.parent.name.startswith("agent-")


def _layout_session(file: Path) -> str | None:
    """The sessionId folder above `subagents/`, for lines that name none; None in the older layout."""
    if file.parent.name != "subagents":
        return None
    return next(folder.name for folder in file.parents if folder.name != "subagents" and not folder.name.startswith("agent-"))


def _summary_line(transcript: Transcript) -> str | None:
    """A `summary` line's text, preferring one about this file: Claude Code may add other sessions' too."""
    own = [text for text, leaf in transcript.summaries if leaf in transcript.uuids]
    return next(iter(own + [text for text, _ in transcript.summaries]), None) or None


def _clip(text: object) -> str | None:
    flat = " ".join(text.split()) if isinstance(text, str) else ""
    return (flat[:TITLE_LENGTH - 1] + "…" if len(flat) > TITLE_LENGTH else flat) or None
