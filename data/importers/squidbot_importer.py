"""SquidbotImporter: squidbot's JSONL histories into OneClaw's tables (`import squidbot`,
beyond FEAT-032).

Reads the global `history.jsonl` and the older per-conversation `sessions/<channel>__<sender>.jsonl`
(formats: ../shared/reference/history-formats.md). Each channel and sender becomes a session;
naive timestamps are read in the host's zone. Message ids come from the file and the line's
content, and only messages not already there are written: importing twice adds nothing, and a
grown file adds only its new lines. Lines that cannot be used are counted by reason, never fatal.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import tzinfo
from pathlib import Path

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.data.importers.bundle_importer import BadLine, JsonObject, bounded_lines, count_lines, json_object
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.local_time import iso_time_ms
from oneclaw_search.domain.models import MessageType

HISTORY_FILE, SESSIONS_FOLDER = "history.jsonl", "sessions"
_TYPES = {"user": MessageType.USER, "assistant": MessageType.AI_RESPONSE, "tool": MessageType.TOOL_RESULT,
          "system": MessageType.SYSTEM}
PROGRESS_LINES = 10_000  # lines between progress reports


@dataclass
class SquidbotSummary:
    files: int = 0
    sessions: int = 0
    messages: int = 0  # newly written
    already: int = 0  # read again, already imported
    skipped: Counter[str] = field(default_factory=Counter)  # reason → lines


@dataclass
class _Read:
    messages: dict[str, NewMessage] = field(default_factory=dict)
    spans: dict[str, list[int]] = field(default_factory=dict)  # session → [first, last] time
    asking: dict[str, str] = field(default_factory=dict)  # channel → session of its latest user line


class SquidbotImporter:
    def __init__(self, writer: HistoryWrites, zone: tzinfo, progress: Callable[[int], None] | None = None,
                 expect: Callable[[int], None] | None = None) -> None:
        self._writer, self._zone, self._progress = writer, zone, progress
        self._expect = expect  # hears how many lines there are, before they are read

    def import_path(self, path: Path) -> SquidbotSummary:
        summary, read = SquidbotSummary(), _Read()
        lines, files = 0, _files(path.expanduser(), summary)
        if self._expect is not None:
            self._expect(count_lines(file for file, _, _ in files))
        for file, key, default_session in files:
            summary.files += 1
            with file.open(encoding="utf-8", errors="surrogateescape") as handle:
                seen: Counter[str] = Counter()
                for line in bounded_lines(handle):
                    lines += 1
                    if self._progress and lines % PROGRESS_LINES == 0:
                        self._progress(lines)
                    if line.strip():
                        self._read_line(line, key, default_session, seen, read, summary)
        if self._progress and lines:
            self._progress(lines)  # the full count: what follows is writing
        sessions = [NewSession(session, _title(session), first, last, None, "squidbot") for session, (first, last) in read.spans.items()]
        summary.already = self._writer.write(sessions, list(read.messages.values()), [], keep_existing=True)
        summary.sessions, summary.messages = len(sessions), len(read.messages) - summary.already
        return summary

    def _read_line(self, line: str, key: str, default_session: str, seen: Counter[str], read: _Read, summary: SquidbotSummary) -> None:
        try:
            item = json_object(line)
            kind = _TYPES.get(str(item.get("role", "")).lower())
            if kind is None:
                raise BadLine(f"unknown role {item.get('role')!r}")
            at = self._time(item.get("timestamp"))
            if kind in (MessageType.USER, MessageType.SYSTEM) and not str(item.get("content") or "").strip():
                raise BadLine("empty content")
        except BadLine as problem:
            summary.skipped[str(problem).split(" (")[0]] += 1
            return
        raw = line.strip()
        seen[raw] += 1  # the same line twice in one file is two messages
        base = "squidbot:" + hashlib.sha1(f"{key}\0{raw}\0{seen[raw]}".encode()).hexdigest()[:24]
        session = _session_of(item, default_session)
        channel = str(item.get("channel") or "cli")
        if kind is MessageType.USER:
            read.asking[channel] = session
        else:  # squidbot writes replies as sender "assistant": they belong with the question they answer
            session = read.asking.get(channel, session)
        span = read.spans.setdefault(session, [at, at])
        span[0], span[1] = min(span[0], at), max(span[1], at)
        for message in _messages(base, session, kind, item, at):
            read.messages[message.id] = message

    def _time(self, value: object) -> int:
        if not isinstance(value, str):
            raise BadLine("missing timestamp")
        at = iso_time_ms(value, self._zone)
        if at is None:
            raise BadLine("bad timestamp")
        return at


def _messages(base: str, session: str, kind: MessageType, item: JsonObject, at: int) -> list[NewMessage]:
    """The line's rows: its text, then one TOOL_CALL row per call an assistant line makes."""
    given = item.get("content")
    content = given if isinstance(given, str) else ""
    rows: list[NewMessage] = []
    if kind is MessageType.TOOL_RESULT:  # OneClaw keeps a tool's output beside an empty content
        rows.append(NewMessage(base, session, kind.value, "", at, tool_output=content))
    elif content.strip() or kind is not MessageType.AI_RESPONSE:
        rows.append(NewMessage(base, session, kind.value, content, at))
    for number, call in enumerate(item.get("tool_calls") or [], start=1):
        if isinstance(call, dict):
            arguments = json.dumps(call.get("arguments"), separators=(",", ":"), ensure_ascii=False)
            rows.append(NewMessage(f"{base}:{number}", session, MessageType.TOOL_CALL.value, "", at, str(call.get("name")), arguments))
    return rows


def _session_of(item: JsonObject, default: str) -> str:
    channel, sender = item.get("channel"), item.get("sender_id")
    return f"squidbot:{channel or 'cli'}:{sender or 'local'}" if channel or sender else default


def _title(session: str) -> str:
    _, channel, sender = session.split(":", 2)
    return f"squidbot {channel} / {sender}"


def _files(path: Path, summary: SquidbotSummary) -> list[tuple[Path, str, str]]:
    """(file, its key in ids, the session of lines naming none) for a file, or a squidbot folder.
    The key is the file's name, so a file gives the same ids whether given alone or in its folder."""
    if path.is_file():
        return [(path, path.name, _file_session(path))]
    if not path.is_dir():
        raise HistoryUnavailable(f"squidbot history not found: {path}")
    root = path.resolve()
    candidates = [root / HISTORY_FILE] + sorted((root / SESSIONS_FOLDER).glob("*.jsonl"))
    found = []
    for file in candidates:
        if not file.is_file():
            continue
        if not file.resolve().is_relative_to(root):
            summary.skipped["a link leading out of the folder"] += 1
            continue
        found.append((file, file.name, _file_session(file)))
    return found  # none in a new install: squidbot writes its history with the first message


def _file_session(file: Path) -> str:
    """sessions/matrix__@alice:matrix.org.jsonl holds one conversation; history.jsonl lines name theirs."""
    channel, _, sender = file.stem.partition("__")
    return f"squidbot:{channel}:{sender}" if sender else "squidbot:cli:local"
