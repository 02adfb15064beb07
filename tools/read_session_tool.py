"""ReadSessionTool: `read_session`, the conversation around a search hit (beyond FEAT-032; OneClaw
has no such tool).

The agent passes a session id from a search result and, to centre the window, a message id; the
tool answers in search_history's styles: a text block of `--- Turn n ---` sections, or JSON.
Unknown sessions and messages are `not_found` errors, bad parameters `validation_error`s.
"""
from __future__ import annotations

import json
from typing import Protocol

from oneclaw_search.domain.models import MessageType
from oneclaw_search.domain.session_reading import (
    DEFAULT_SPAN,
    MAX_SPAN,
    InvalidReadRequest,
    ReadSessionRequest,
    SessionWindow,
    parse_read_session_request,
)
from oneclaw_search.tools.result_formatter import OutputFormat
from oneclaw_search.tools.session_tool_call import run_session_tool
from oneclaw_search.tools.tool import ToolDefinition, ToolResult

_SPAN = f"an integer from 0 to {MAX_SPAN}, default {DEFAULT_SPAN}"
READ_SESSION_DEFINITION = ToolDefinition(
    name="read_session",
    description="Read the conversation around a message found by search_history: a window of turns "
                "of one session, with its title and dates",
    parameters={
        "type": "object",
        "properties": {
            "session_id": {"type": "string", "description": "The session to read (a search result's session_id)"},
            "around_message_id": {
                "type": "string",
                "description": "Centre the window on this message (a search result's id); without it, the session's last turns",
            },
            "before": {"type": "integer", "description": f"Turns to show before it: {_SPAN}"},
            "after": {"type": "integer", "description": f"Turns to show after it: {_SPAN}"},
            "format": {"type": "string", "description": 'Output format: "text" (default) or "json"'},
        },
        "required": ["session_id"],
    },
)
_ROLES = {MessageType.USER.value: ("user", "User"), MessageType.AI_RESPONSE.value: ("assistant", "Assistant")}


class SessionReading(Protocol):
    def read(self, request: ReadSessionRequest) -> SessionWindow: ...


class ReadSessionTool:
    def __init__(self, use_case: SessionReading) -> None:
        self._use_case = use_case

    @property
    def definition(self) -> ToolDefinition:
        return READ_SESSION_DEFINITION

    def execute(self, parameters: object) -> ToolResult:
        return run_session_tool(parameters, parse_read_session_request, InvalidReadRequest, self._render,
                                ("read_error", "Reading the session failed"))

    def _render(self, request: ReadSessionRequest, output_format: OutputFormat) -> str:
        window = self._use_case.read(request)
        return format_json(window) if output_format is OutputFormat.JSON else format_text(window)

def format_text(window: SessionWindow) -> str:
    session, last = window.session, window.first + len(window.turns) - 1
    span = f"{window.local_time(session.created_at)} to {window.local_time(session.updated_at)}"
    shown = f"turns {window.first}-{last} of {window.total}" if window.turns else f"no turns of {window.total}"
    lines = [f'[Session "{session.title}" (id: {session.id}, {span}; {shown})]']
    for number, turn in enumerate(window.turns, start=window.first):
        marks = [window.local_time(turn.created_at)] + (["asked about"] if turn.id == window.around_message_id else [])
        lines += ["", f"--- Turn {number} ({', '.join(marks)}; id: {turn.id}) ---", f"{_ROLES[turn.role][1]}: {turn.content}"]
    return "\n".join(lines)


def format_json(window: SessionWindow) -> str:
    session = window.session
    document = {
        "session": {"id": session.id, "title": session.title, "created_at": session.created_at,
                    "updated_at": session.updated_at, "turns": window.total},
        "first_turn": window.first,
        "around_message_id": window.around_message_id,
        "messages": [
            {"id": turn.id, "turn": number, "role": _ROLES[turn.role][0], "text": turn.content,
             "created_at": turn.created_at, "time": window.local_time(turn.created_at)}
            for number, turn in enumerate(window.turns, start=window.first)
        ],
    }
    return json.dumps(document, ensure_ascii=False)
