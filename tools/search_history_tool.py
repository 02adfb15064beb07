"""SearchHistoryTool: the `search_history` tool of FEAT-032, as an agent host calls it.

Mirrors tool/builtin/SearchHistoryTool.kt: the definition, the parameter checks in the spec's
order, delegation to SearchHistoryUseCase, and validation_error / search_error results.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import date
from typing import Protocol

from oneclaw_search.domain.date_ranges import ACCEPTED as DATE_RANGE_FORMS
from oneclaw_search.domain.focused_search import FilterUnavailable
from oneclaw_search.domain.input_text import InvalidText, clean_parameters, failure_text
from oneclaw_search.domain.models import SearchOutcome
from oneclaw_search.domain.search_request import InvalidSearchRequest, SearchRequest, parse_search_request
from oneclaw_search.domain.search_terms import Stem, unchanged
from oneclaw_search.tools.result_formatter import OutputFormat, parse_output_format, render
from oneclaw_search.tools.tool import ToolDefinition, ToolResult

# A hit that asks a question is read with its reply: unless `context` is given, JSON results carry the
# turn after such a hit, and no other neighbour, whose room would mostly go to turns holding nothing of
# the query. The text reply keeps the spec's exact layout (OUT-2), so it shows turns around a hit only
# when `context` asks.

SEARCH_HISTORY_DEFINITION = ToolDefinition(
    name="search_history",
    description="Search past conversation history, memory, and daily logs for information the user mentioned before",
    parameters={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Search keywords or phrase"},
            "scope": {
                "type": "string",
                "description": 'Data sources to search: "all" (default), "memory", "daily_log", "sessions"',
            },
            "date_from": {"type": "string", "description": "Start date filter in YYYY-MM-DD format"},
            "date_to": {"type": "string", "description": "End date filter in YYYY-MM-DD format"},
            "max_results": {
                "type": "integer",
                "description": "Maximum number of results to return. Default: 10, Max: 50",
            },
            "format": {
                "type": "string",
                "description": 'Output format: "text" (default) or "json" (stable ids and keys for programs)',
            },
            "date_range": {
                "type": "string",
                "description": "Days in words instead of date_from/date_to, resolved in the user's time zone: "
                               + DATE_RANGE_FORMS,
            },
            "role": {
                "type": "string",
                "description": 'Message roles to search: "user", "assistant", "tool", or several separated by commas'
                               ' (default: user,assistant)',
            },
            "session_id": {"type": "string", "description": "Search only this session (memory is then left out)"},
            "context": {
                "type": "integer",
                "description": "Turns to show before and after each message hit, from its own session, 0 to 5"
                               " (default in JSON: a hit that asks a question is shown with the turn after it, its"
                               " reply; in text: none, the layout being the spec's)",
            },
            "project": {
                "type": "string",
                "description": "Imported Claude Code histories: only sessions of this project (its path, a folder"
                               " above it, or the repository's folder name)",
            },
            "agent_type": {
                "type": "string",
                "description": 'Imported Claude Code histories: only sub-agent sessions of this type, e.g. "Explore"',
            },
        },
        "required": ["query"],
    },
    required_permissions=(),
    timeout_seconds=30,
)


class HistorySearch(Protocol):
    def search(self, request: SearchRequest) -> SearchOutcome: ...


class SearchHistoryTool:
    def __init__(self, use_case: HistorySearch, today: Callable[[], date] | None = None, stem: Stem = unchanged) -> None:
        self._use_case = use_case
        self._today = today  # the user's local date, which date_range counts from
        self._stem = stem  # the search's stemmer, so JSON names the terms each result holds

    @property
    def definition(self) -> ToolDefinition:
        return SEARCH_HISTORY_DEFINITION

    def execute(self, parameters: object) -> ToolResult:
        try:
            request, output_format = parse_call(parameters, self._today)
        except (InvalidSearchRequest, InvalidText) as problem:
            return ToolResult.error("validation_error", str(problem))
        try:
            outcome = self._use_case.search(request)
        except FilterUnavailable as problem:
            return ToolResult.error("validation_error", str(problem))
        except Exception as failure:  # noqa: BLE001 - any failure is reported to the model, never raised
            return ToolResult.error("search_error", f"Search failed: {failure_text(failure)}")
        return ToolResult.success(render(request, outcome, output_format, self._stem))


def parse_call(parameters: object, today: Callable[[], date] | None) -> tuple[SearchRequest, OutputFormat]:
    """A call's request and reply format, checked in the spec's order before any history is read, so a
    bad call gets the same validation_error whatever the history. Any JSON value may arrive from a
    model: one that is not an object is refused. Raises InvalidSearchRequest or InvalidText."""
    if not isinstance(parameters, Mapping):
        raise InvalidSearchRequest("Tool parameters must be a JSON object")
    parameters = clean_parameters(parameters)
    ranged = today is not None and parameters.get("date_range") is not None
    request = parse_search_request(parameters, today() if ranged and today is not None else None)
    output_format = parse_output_format(parameters.get("format"))
    if output_format is OutputFormat.JSON and parameters.get("context") is None:
        request = replace(request, replies=True)
    return request, output_format
