"""GetSessionSummaryTool: `get_session_summary`, summaries of past sessions for quick orientation.

Beyond FEAT-032, from draagon-forge's REQ-016.3: its JSON is that requirement's response shape, with
each session's `title` and the `method` that made it; the text format reads like search_history's.
"""
from __future__ import annotations

import json
from datetime import datetime, tzinfo

from oneclaw_search.domain.session_summary import SessionSummary
from oneclaw_search.domain.session_summary_use_case import (
    GetSessionSummaryUseCase,
    InvalidSummaryRequest,
    SummaryRequest,
    parse_summary_request,
)
from oneclaw_search.tools.result_formatter import OutputFormat
from oneclaw_search.tools.session_tool_call import run_session_tool
from oneclaw_search.tools.tool import ToolDefinition, ToolResult

GET_SESSION_SUMMARY_DEFINITION = ToolDefinition(
    name="get_session_summary",
    description=("Summarise past conversation sessions for quick orientation: key topics, decisions made and "
                 "open questions of one session, or of the most recent ones"),
    parameters={
        "type": "object",
        "properties": {
            "session_id": {"type": "string", "description": "The session to summarise (default: the most recent sessions)"},
            "limit": {"type": "integer", "description": "How many recent sessions (default 5, at most 50)"},
            "format": {"type": "string", "enum": ["text", "json"], "description": "text (default) or json"},
        },
        "required": [],
    },
)


class GetSessionSummaryTool:
    def __init__(self, use_case: GetSessionSummaryUseCase, zone: tzinfo) -> None:
        self._use_case, self._zone = use_case, zone

    @property
    def definition(self) -> ToolDefinition:
        return GET_SESSION_SUMMARY_DEFINITION

    def execute(self, parameters: object) -> ToolResult:
        return run_session_tool(parameters, parse_summary_request, InvalidSummaryRequest, self._render,
                                ("summary_error", "Summarising failed"))

    def _render(self, request: SummaryRequest, output_format: OutputFormat) -> str:
        summaries = self._use_case.summarize(request)
        if output_format is OutputFormat.JSON:
            return json.dumps({"sessions": [self._object(s) for s in summaries]}, ensure_ascii=False)
        return self._text(summaries)

    def _iso(self, epoch_ms: int) -> str:
        return datetime.fromtimestamp(epoch_ms / 1000, self._zone).isoformat(timespec="seconds")

    def _object(self, summary: SessionSummary) -> dict[str, object]:
        digest = summary.digest
        return {"session_id": summary.session_id, "title": summary.title, "started_at": self._iso(summary.started_at),
                "ended_at": self._iso(summary.ended_at), "turn_count": summary.turn_count,
                "key_topics": list(digest.key_topics), "key_decisions": list(digest.key_decisions),
                "unresolved": list(digest.unresolved), "summary": digest.summary, "method": digest.method}

    def _text(self, summaries: list[SessionSummary]) -> str:
        lines = [f"[Session summaries ({len(summaries)} sessions)]"]
        if not summaries:
            lines += ["", "No sessions to summarise."]
        for number, summary in enumerate(summaries, start=1):
            digest = summary.digest
            span = f"{self._iso(summary.started_at)} to {self._iso(summary.ended_at)}"
            lines += ["", f'--- Session {number}: "{summary.title}" (id: {summary.session_id}, {span}, '
                          f"{summary.turn_count} turns, method: {digest.method}) ---",
                      f"Summary: {digest.summary or 'nothing to summarise'}",
                      f"Key topics: {'; '.join(digest.key_topics) or 'none found'}"]
            for heading, items in (("Key decisions", digest.key_decisions), ("Unresolved", digest.unresolved)):
                lines += [f"{heading}:" if items else f"{heading}: none found", *(f"- {item}" for item in items)]
        return "\n".join(lines)
