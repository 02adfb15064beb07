"""BundleImporter: this project's JSONL bundle (docs/importing.md: sessions, messages and memory
chunks with their own ids and times) into a database (P-12). Bad lines are skipped and reported by
number; the good ones are written in one transaction, so importing a bundle again is harmless."""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import tzinfo
from pathlib import Path
from typing import IO, Any, TypeVar, cast

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.data.history.new_rows import ROLES, HistoryWrites
from oneclaw_search.domain.local_time import content_time_ms, iso_time_ms, parse_iso_day
from oneclaw_search.domain.models import DAILY_LOG_TYPE, LONG_TERM_TYPE, MemoryChunk

JsonObject = dict[str, Any]  # one parsed JSONL line: its values are whatever JSON holds
_Default = TypeVar("_Default", int, None)  # _time's default: a fallback time, or None for "absent"
# JSONDecoder.__init__ sets scan_once; typeshed does not declare it
_scan: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_JSON_SPACE = " \t\n\r"
PROGRESS_LINES = 10_000  # lines between progress reports


_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


MAX_LINE_CHARS = 8 << 20  # longer lines are skipped unread: memory stays bounded whatever a file holds
TOO_LONG = "\0a line too long\0"  # what bounded_lines gives for one (compared by identity)


def bounded_lines(handle: IO[str], limit: int = MAX_LINE_CHARS) -> Iterator[str]:
    """The lines of `handle`, each read at most `limit` characters at a time; a longer one is
    skipped to its end and given as TOO_LONG."""
    while line := handle.readline(limit + 1):
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        while (rest := handle.readline(limit)) and not rest.endswith("\n"):
            pass
        yield TOO_LONG


def count_lines(paths: Iterable[Path]) -> int:
    """How many lines bounded_lines gives for these files (a progress bar's end), counted as bytes
    without decoding; a lone CR, which text mode also ends a line at, is not counted."""
    lines = 0
    for path in paths:
        with path.open("rb") as handle:
            last = b"\n"
            while chunk := handle.read(1 << 20):
                lines, last = lines + chunk.count(b"\n"), chunk[-1:]
            lines += last != b"\n"  # a last line without its line break
    return lines


class BadLine(ValueError):
    """One bundle line cannot be used; the message says why."""


@dataclass
class ImportSummary:
    sessions: int = 0
    messages: int = 0
    chunks: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class _Parsed:
    sessions: list[NewSession] = field(default_factory=list)
    messages: list[tuple[int, NewMessage]] = field(default_factory=list)
    chunks: list[MemoryChunk] = field(default_factory=list)


class BundleImporter:
    def __init__(self, writer: HistoryWrites, zone: tzinfo, now_ms: int,
                 progress: Callable[[int], None] | None = None) -> None:
        self._writer, self._zone, self._now_ms, self._progress = writer, zone, now_ms, progress

    def import_lines(self, lines: Iterable[str]) -> ImportSummary:
        """Reads every line, then writes the good ones; `progress` hears the lines read so far."""
        parsed, summary, number = _Parsed(), ImportSummary(), 0
        for number, line in enumerate(lines, start=1):
            if self._progress is not None and number % PROGRESS_LINES == 0:
                self._progress(number)
            if not line or line.isspace():
                continue
            try:
                self._add(parsed, number, json_object(line))
            except BadLine as problem:
                summary.skipped.append((number, str(problem)))
        if self._progress is not None and number:
            self._progress(number)  # a terminal's line ends at the full count
        messages = self._with_known_sessions(parsed, summary)
        self._writer.write(parsed.sessions, messages, parsed.chunks)
        summary.sessions, summary.messages, summary.chunks = len(parsed.sessions), len(messages), len(parsed.chunks)
        summary.skipped.sort()
        return summary

    def _add(self, parsed: _Parsed, number: int, item: JsonObject) -> None:
        kind = item.get("kind")
        if kind == "message":
            parsed.messages.append((number, self._message(item)))
        elif kind == "session":
            parsed.sessions.append(NewSession(
                _text(item, "id"), _text(item, "title"),
                self._required_time(item, "created_at"), self._time(item, "updated_at", None),
                self._time(item, "deleted_at", None), str(item.get("agent_id") or "imported"),
            ))
        elif kind == "memory":
            parsed.chunks.append(self._chunk(item))
        else:
            raise BadLine(f"unknown kind {kind!r} (expected session, message or memory)")

    def _message(self, item: JsonObject) -> NewMessage:
        return NewMessage(
            _text(item, "id"), _text(item, "session_id"), _role(item), _text(item, "content", allow_empty=True),
            self._required_time(item, "created_at"),
            item.get("tool_name"), _optional_json_text(item.get("tool_input")), item.get("tool_output"),
        )

    def _chunk(self, item: JsonObject) -> MemoryChunk:
        source_date = item.get("source_date")
        if source_date is not None and parse_iso_day(str(source_date)) is None:
            raise BadLine(f"source_date must be YYYY-MM-DD: {source_date!r}")
        source_type = item.get("source_type") or (DAILY_LOG_TYPE if source_date else LONG_TERM_TYPE)
        written = self._time(item, "created_at", content_time_ms(source_date, self._now_ms, self._zone))
        updated = self._time(item, "updated_at", written)
        return MemoryChunk(_text(item, "id"), str(source_type), source_date, _text(item, "text"), None, written, updated)

    def _with_known_sessions(self, parsed: _Parsed, summary: ImportSummary) -> list[NewMessage]:
        """Messages whose session is in the bundle or already in the database; the rest are skipped."""
        known = {session.id for session in parsed.sessions}
        known |= self._writer.existing_session_ids({message.session_id for _, message in parsed.messages} - known)
        summary.skipped += [(number, f"unknown session {message.session_id!r}")
                            for number, message in parsed.messages if message.session_id not in known]
        return [message for _, message in parsed.messages if message.session_id in known]

    def _required_time(self, item: JsonObject, key: str) -> int:
        at = self._time(item, key, None)
        if at is None:
            raise BadLine(f"missing {key!r}")
        return at

    def _time(self, item: JsonObject, key: str, default: _Default) -> int | _Default:
        value = item.get(key)
        if value is None:
            return default
        if isinstance(value, str):
            if (at := iso_time_ms(value, self._zone)) is not None:
                return at
        elif isinstance(value, int) and not isinstance(value, bool):
            return value
        raise BadLine(f"{key} must be epoch milliseconds or an ISO-8601 time: {value!r}")


def json_object(line: str) -> JsonObject:
    """One JSONL line as a dict, or BadLine saying why not. Files are read with surrogateescape,
    so bytes that are not UTF-8 arrive as lone surrogates and fail the line, not the import."""
    if line is TOO_LONG:
        raise BadLine(f"longer than {MAX_LINE_CHARS:,} characters")
    if _SURROGATE.search(line):
        raise BadLine("not valid UTF-8")
    try:
        item = _parsed(line)
    except RecursionError:
        raise BadLine("nested too deeply") from None
    if _ESCAPED_SURROGATE.search(line) and not _encodable(item):
        raise BadLine("a lone UTF-16 surrogate escaped in a string")
    return item


def _encodable(item: JsonObject) -> bool:
    try:
        json.dumps(item, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _parsed(line: str) -> JsonObject:
    if line[:1] == "{":  # the usual line: json.loads's own scanner, without its wrappers and two regex passes
        try:
            item, end = _scan(line, 0)
        except (StopIteration, ValueError):
            pass  # json.loads says why
        else:
            if not line[end:].strip(_JSON_SPACE):
                return cast(JsonObject, item)  # a scan from "{" gives an object or raises
    try:
        item = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadLine(f"not valid JSON ({error.msg})") from None
    if not isinstance(item, dict):
        raise BadLine("not a JSON object")
    return item


def _text(item: JsonObject, key: str, *, allow_empty: bool = False) -> str:
    value = item.get(key)
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        raise BadLine(f"missing or empty {key!r}")
    return value


def _role(item: JsonObject) -> str:
    value = item.get("role", item.get("type"))
    role = ROLES.get(str(value).strip().lower()) if value is not None else None
    if role is None:
        raise BadLine(f"role must be one of user, assistant, tool_call, tool_result, error, system: {value!r}")
    return role


def _optional_json_text(value: object) -> str | None:
    """tool_input may be given as an object; OneClaw stores it as compact JSON text."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
