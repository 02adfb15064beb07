"""Reading a tool reply back into results the checks can name: the spec's text format (OUT-1, OUT-2)
or the JSON format (P-10), each result tied to the fixture row it shows.

Text results are tied to rows by what they print (a message's content, a session's title, a chunk's
text), so an implementation with the spec's text format alone can be checked; fixtures keep those
texts distinct.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_BLOCK = re.compile(r'^--- Result (\d+) \(score: (-?[0-9.]+), source: (\w+)(?:, date: (\d{4}-\d\d-\d\d))?'
                    r'(?:, session: "(.*)")?\) ---$')
_SESSION_LINE = re.compile(r'^Session: "(.*)" \((\d+) messages?, last active: ([^)]*)\)$')
ROLE_PREFIX = re.compile(r"^(User|Assistant|Tool call|Tool result): ")
MESSAGE_TEXT = ("content", "tool_name", "tool_input", "tool_output")  # a tool row shows its tool's fields
MEMORY_SOURCES = ("memory", "daily_log")


@dataclass
class Result:
    rank: int
    score: float
    source: str
    date: str | None
    session: str | None
    text: str
    id: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # the JSON object, when the reply was JSON


@dataclass
class Reply:
    success: bool
    text: str | None
    error_type: str | None
    error_message: str | None
    exit_code: int | None = None
    elapsed_ms: float = 0.0
    results: list[Result] = field(default_factory=list)
    document: dict[str, Any] | None = None

    @property
    def lines(self) -> list[str]:
        return (self.text or "").split("\n")

    def ids(self) -> list[str | None]:
        return [result.id for result in self.results]

    def by_id(self, row_id: str) -> Result | None:
        return next((result for result in self.results if result.id == row_id), None)


def read_reply(raw: dict[str, Any], rows: dict[str, list[dict[str, Any]]], elapsed_ms: float) -> Reply:
    reply = Reply(bool(raw.get("success")), raw.get("text"), raw.get("error_type"), raw.get("error_message"),
                  raw.get("exit_code"), elapsed_ms)
    if not reply.success or reply.text is None:
        return reply
    stripped = reply.text.lstrip()
    if stripped.startswith("{"):
        try:
            reply.document = json.loads(stripped)
        except ValueError:
            reply.document = None
    reply.results = _json_results(reply.document) if reply.document is not None else _text_results(reply.text, rows)
    return reply


def _json_results(document: dict[str, Any]) -> list[Result]:
    return [Result(rank, float(item.get("score") or 0), str(item.get("source")), item.get("date"),
                   item.get("session_title"), str(item.get("text") or ""), item.get("id"), item)
            for rank, item in enumerate(document.get("results") or [], start=1)]


def _text_results(text: str, rows: dict[str, list[dict[str, Any]]]) -> list[Result]:
    results: list[Result] = []
    body: list[str] = []
    for line in [*text.split("\n"), "--- Result 0 (score: 0, source: end) ---"]:
        match = _BLOCK.match(line)
        if not match:
            body.append(line)
            continue
        if results:
            results[-1].text = "\n".join(body).strip("\n")
            results[-1].id = identify(results[-1], rows)
        body = []
        rank, score, source, day, session = match.groups()
        if source != "end":
            results.append(Result(int(rank), float(score), source, day, session, ""))
    return results


def identify(result: Result, rows: dict[str, list[dict[str, Any]]]) -> str | None:
    """The fixture row a text result shows, or None when it shows none of them."""
    first, *rest = result.text.split("\n") or [""]
    if result.source == "session":
        title = _SESSION_LINE.match(first)
        named = title.group(1) if title else first
        return next((row["id"] for row in rows["sessions"] if row["title"] == named), None)
    if result.source == "message":
        return _by_text(ROLE_PREFIX.sub("", first, count=1), rows["messages"], MESSAGE_TEXT, rest)
    if result.source in MEMORY_SOURCES:
        return _by_text(result.text, rows["memory_index"], ("chunk_text",), [])
    return None


def _by_text(shown: str, rows: list[dict[str, Any]], columns: tuple[str, ...], rest: list[str]) -> str | None:
    # A message's text may run over several lines, and context lines may follow it.
    whole = "\n".join([shown, *rest]).strip()
    for candidate in (whole, shown.strip()):
        exact = [str(row["id"]) for row in rows if (row.get(columns[0]) or "").strip() == candidate]
        if exact:
            return exact[-1]
    core = shown.strip().strip("…").strip()
    inside = {str(row["id"]) for row in rows if core and any(core in (row.get(column) or "") for column in columns)}
    return inside.pop() if len(inside) == 1 else None
