"""Calling search_history the way an agent host does: through the container's execution engine."""
from __future__ import annotations

import json

from oneclaw_search.tools import ToolExecutionEngine, ToolResult


def call(container, **parameters) -> ToolResult:
    return container.get(ToolExecutionEngine).execute_tool("search_history", parameters)


def found(container, **parameters) -> list[tuple[str, str]]:
    """(source, id) of every result, in rank order, read from the JSON format."""
    outcome = call(container, format="json", **parameters)
    assert outcome.is_success, outcome.error_message
    return [(item["source"], item["id"]) for item in json.loads(outcome.result)["results"]]


def ids(container, **parameters) -> list[str]:
    return [row_id for _, row_id in found(container, **parameters)]


def untimed(text: str | None) -> object:
    """A reply as two runs of one call must both give it: a JSON reply read, each source's time left
    out (its candidate count stays); any other text as it is."""
    try:
        document = json.loads(text) if text and text.startswith("{") else None
    except ValueError:
        return text
    if not isinstance(document, dict) or not isinstance(document.get("sources"), dict):
        return text
    return {**document, "sources": {name: {key: value for key, value in report.items() if key != "ms"}
                                    for name, report in document["sources"].items()}}
