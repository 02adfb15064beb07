"""One Claude Code transcript (`<sessionId>.jsonl` or `agent-<id>.jsonl`) read into message rows, for
ClaudeCodeImporter.

Follows ../shared/reference/history-formats.md ("Claude Code on-disk format"): assistant replies come
one content block a line and are regrouped by `message.id`; rows are ordered by `timestamp`, not by
line. Row ids are local to the file (line uuid, reply id, block index); the importer prefixes them.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC
from typing import IO

from oneclaw_search.data.history.history_writer import NewMessage
from oneclaw_search.data.importers.bundle_importer import BadLine, JsonObject, bounded_lines, json_object
from oneclaw_search.domain.local_time import iso_time_ms
from oneclaw_search.domain.models import MessageType

NOT_CONVERSATION = "not conversation (progress, file snapshot, queue, system note)"
_NOISE = {"progress", "file-history-snapshot", "queue-operation", "system"}
_SPAWNING_TOOLS = {"Task", "Agent"}
_AGENT_ID_IN_TEXT = re.compile(r"agentId: ([\w-]+)")  # what an async spawn's tool result says
_INTERRUPTED = "[Request interrupted by user"
# What Claude Code writes as a "user" line without the user's words: slash commands, their output, agent news
_WRAPPERS = ("<command-name>", "<command-message>", "<local-command-", "<task-notification>")


@dataclass(frozen=True)
class Spawn:
    agent_type: str | None
    description: str | None


@dataclass
class Transcript:
    rows: list[NewMessage] = field(default_factory=list)  # ids local to the file, session_id ""
    session_id: str | None = None  # Claude Code's, from the lines
    cwd: str | None = None
    summaries: list[tuple[str, str]] = field(default_factory=list)  # (summary, leafUuid)
    uuids: set[str] = field(default_factory=set)
    first_prompt: str | None = None
    spawns: dict[str, Spawn] = field(default_factory=dict)  # agentId → what the Task call said
    skipped: Counter[str] = field(default_factory=Counter)


def read_transcript(handle: IO[str], on_line: Callable[[], None]) -> Transcript:
    transcript, lines = Transcript(), []
    for number, line in enumerate(bounded_lines(handle)):
        on_line()
        if not line.strip():
            continue
        try:
            item = json_object(line)
            if _usable(item, transcript):
                lines.append((_time(item), number, item))
        except BadLine as problem:
            transcript.skipped[str(problem).split(" (")[0]] += 1
    lines.sort(key=lambda entry: entry[:2])  # Claude Code does not write lines in time order
    _Rows(transcript, [(at, item) for at, _, item in lines]).build()
    return transcript


def _usable(item: JsonObject, transcript: Transcript) -> bool:
    """Whether the line is conversation; notes the file's facts and counts what is left out."""
    kind = item.get("type")
    if kind == "summary" and isinstance(item.get("summary"), str):
        transcript.summaries.append((item["summary"], str(item.get("leafUuid"))))
        return False
    if kind not in ("user", "assistant"):
        transcript.skipped[NOT_CONVERSATION if kind in _NOISE else "unknown line type"] += 1
        return False
    if transcript.session_id is None and isinstance(item.get("sessionId"), str):
        cwd = item.get("cwd")
        transcript.session_id, transcript.cwd = item["sessionId"], cwd if isinstance(cwd, str) else None
    if item.get("isMeta"):
        raise BadLine("isMeta line, injected by Claude Code")
    if item.get("isCompactSummary"):  # restates lines the file still holds above the compaction
        raise BadLine("compaction summary")
    if not isinstance(item.get("uuid"), str) or not isinstance(item.get("message"), dict):
        raise BadLine("user or assistant line without uuid or message")
    transcript.uuids.add(item["uuid"])
    return True


def _time(item: JsonObject) -> int:
    value = item.get("timestamp")
    at = iso_time_ms(value, UTC) if isinstance(value, str) else None
    if at is None:
        raise BadLine("missing or bad timestamp")
    return at


def _blocks(content: object) -> list[JsonObject]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


def flat_text(content: object) -> str:
    """A tool result's content, its text blocks joined (images and the like dropped)."""
    return "\n".join(block.get("text") or "" for block in _blocks(content) if block.get("type") == "text")


class _Rows:
    """Turns the time-ordered lines into rows: replies regrouped, tool results named after their call."""

    def __init__(self, transcript: Transcript, lines: list[tuple[int, JsonObject]]) -> None:
        self._out, self._lines = transcript, lines
        self._calls = {block.get("id"): block for _, item in lines if item["type"] == "assistant"
                       for block in _blocks(item["message"].get("content")) if block.get("type") == "tool_use"}
        self._replies: dict[str, tuple[int, list[str]]] = {}  # reply id → (first text time, texts)

    def build(self) -> None:
        for at, item in self._lines:
            (self._assistant if item["type"] == "assistant" else self._user)(at, item)
        for reply, (at, texts) in self._replies.items():
            self._out.rows.append(NewMessage(reply, "", MessageType.AI_RESPONSE.value, "\n\n".join(texts), at))

    def _assistant(self, at: int, item: JsonObject) -> None:
        message = item["message"]
        reply = str(message.get("id") or item.get("requestId") or item["uuid"])
        for index, block in enumerate(_blocks(message.get("content"))):
            if block.get("type") == "text":
                if str(block.get("text") or "").strip():
                    self._replies.setdefault(reply, (at, []))[1].append(block["text"].strip())
            elif block.get("type") == "tool_use":
                arguments = json.dumps(block.get("input"), separators=(",", ":"), ensure_ascii=False)
                self._out.rows.append(NewMessage(f"{item['uuid']}:{index}", "", MessageType.TOOL_CALL.value, "", at,
                                                 str(block.get("name")), arguments))
            else:
                self._out.skipped[f"{block.get('type')} block"] += 1  # thinking: long, plus an opaque signature

    def _user(self, at: int, item: JsonObject) -> None:
        texts: list[str] = []
        results = 0
        for index, block in enumerate(_blocks(item["message"].get("content"))):
            if block.get("type") == "tool_result":
                results += self._result(at, item, index, block)
            elif block.get("type") == "text" and str(block.get("text") or "").strip():
                texts.append(block["text"].strip())
        if texts and texts[0].startswith(_INTERRUPTED):
            self._out.skipped["interruption marker"] += 1
        elif texts and texts[0].startswith(_WRAPPERS):
            self._out.skipped["slash command or notification"] += 1
        elif not texts and not results:
            self._out.skipped["user line without text"] += 1
        elif texts:
            prompt = "\n\n".join(texts)
            self._out.rows.append(NewMessage(item["uuid"], "", MessageType.USER.value, prompt, at))
            if self._out.first_prompt is None and not prompt.startswith("<"):  # <bash-input>… is no title
                self._out.first_prompt = prompt

    def _result(self, at: int, item: JsonObject, index: int, block: JsonObject) -> int:
        call = self._calls.get(block.get("tool_use_id")) or {}
        output = flat_text(block.get("content"))
        self._out.rows.append(NewMessage(f"{item['uuid']}:{index}", "", MessageType.TOOL_RESULT.value, "", at,
                                         call.get("name"), tool_output=output))
        if call.get("name") in _SPAWNING_TOOLS:
            result = item.get("toolUseResult")
            detail = result if isinstance(result, dict) else {}
            found = detail.get("agentId") or (match.group(1) if (match := _AGENT_ID_IN_TEXT.search(output)) else None)
            given = call.get("input")
            task = given if isinstance(given, dict) else {}
            if found:
                self._out.spawns[str(found)] = Spawn(task.get("subagent_type"), task.get("description"))
        return 1
