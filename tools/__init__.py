"""What an agent host sees: the Tool contract, the registry, the execution engine, search_history, read_session.

Mirrors OneClaw's tool/engine/ package and tool/builtin/SearchHistoryTool.kt (TOOL-1, AC-01).
Stable public names: Tool, ToolDefinition, ToolResult, ToolRegistry, ToolExecutionEngine. Each is
imported on first use (PEP 562), so the command line in tools/cli loads none of them for `--version`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oneclaw_search.tools.read_session_tool import READ_SESSION_DEFINITION, ReadSessionTool
    from oneclaw_search.tools.search_history_tool import SEARCH_HISTORY_DEFINITION, SearchHistoryTool
    from oneclaw_search.tools.tool import Tool, ToolDefinition, ToolResult
    from oneclaw_search.tools.tool_execution_engine import ToolExecutionEngine
    from oneclaw_search.tools.tool_registry import ToolRegistry
    from oneclaw_search.tools.tool_schemas import MCP_PERMISSIONS, MCP_TIMEOUT

_HOMES = {
    "MCP_PERMISSIONS": "tool_schemas",
    "MCP_TIMEOUT": "tool_schemas",
    "READ_SESSION_DEFINITION": "read_session_tool",
    "ReadSessionTool": "read_session_tool",
    "SEARCH_HISTORY_DEFINITION": "search_history_tool",
    "SearchHistoryTool": "search_history_tool",
    "Tool": "tool",
    "ToolDefinition": "tool",
    "ToolExecutionEngine": "tool_execution_engine",
    "ToolRegistry": "tool_registry",
    "ToolResult": "tool",
}
__all__ = [
    "MCP_PERMISSIONS",
    "MCP_TIMEOUT",
    "READ_SESSION_DEFINITION",
    "ReadSessionTool",
    "SEARCH_HISTORY_DEFINITION",
    "SearchHistoryTool",
    "Tool",
    "ToolDefinition",
    "ToolExecutionEngine",
    "ToolRegistry",
    "ToolResult",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return vars(import_module(f"{__name__}.{_HOMES[name]}"))[name]
