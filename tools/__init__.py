"""What an agent host sees: the Tool contract, the registry, the execution engine, search_history, read_session.

Mirrors OneClaw's tool/engine/ package and tool/builtin/SearchHistoryTool.kt (TOOL-1, AC-01).
Stable public names: Tool, ToolDefinition, ToolResult, ToolRegistry, ToolExecutionEngine.
"""
from oneclaw_search.tools.read_session_tool import READ_SESSION_DEFINITION, ReadSessionTool
from oneclaw_search.tools.search_history_tool import SEARCH_HISTORY_DEFINITION, SearchHistoryTool
from oneclaw_search.tools.tool import Tool, ToolDefinition, ToolResult
from oneclaw_search.tools.tool_execution_engine import ToolExecutionEngine
from oneclaw_search.tools.tool_registry import ToolRegistry

__all__ = [
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
