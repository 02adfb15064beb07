"""ToolExecutionEngine: looks a tool up, checks required parameters, runs it within its timeout.

Mirrors tool/engine/ToolExecutionEngine.kt: it never raises; every failure becomes a ToolResult
(tool_not_found, validation_error, timeout, execution_error). Type checks are left to each tool,
which may accept "15" for an integer as the spec's edge cases ask. `execute_tool_async` serves
async hosts (MCP and other agent frameworks): the call runs on a worker thread while their event
loop goes on.
"""
from __future__ import annotations

import asyncio
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from oneclaw_search.tools.tool import ToolResult
from oneclaw_search.tools.tool_registry import ToolRegistry

# A tool that honours its own budget (search_history returns partial results at 30 s) needs a
# moment to format them before the engine gives up on it.
GRACE_SECONDS = 1.0


class ToolExecutionEngine:
    def __init__(self, registry: ToolRegistry, grace_seconds: float = GRACE_SECONDS) -> None:
        self._registry = registry
        self._grace_seconds = grace_seconds
        self._executor = ThreadPoolExecutor(thread_name_prefix="tool_execution")

    def execute_tool(self, name: str, parameters: object) -> ToolResult:
        """`parameters` as the model sent them: None counts as {}, anything but an object is refused."""
        tool = self._registry.get_tool(name)
        if tool is None:
            return ToolResult.error("tool_not_found", f"Tool '{name}' not found")
        if parameters is None:
            parameters = {}
        if not isinstance(parameters, Mapping):
            return ToolResult.error("validation_error", "Tool parameters must be a JSON object")
        for required in tool.definition.required_parameters:
            if parameters.get(required) is None:
                return ToolResult.error("validation_error", f"Missing required parameter: '{required}'")
        timeout = tool.definition.timeout_seconds
        future = self._executor.submit(tool.execute, dict(parameters))
        try:
            return future.result(timeout=timeout + self._grace_seconds)
        except FutureTimeout:
            return ToolResult.error("timeout", f"Tool execution timed out after {timeout}s")
        except Exception as error:  # noqa: BLE001 - the engine's contract is to never raise
            return ToolResult.error("execution_error", f"Tool execution failed: {error}")

    async def execute_tool_async(self, name: str, parameters: object) -> ToolResult:
        """`execute_tool` for an asyncio host: awaits the result without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, self.execute_tool, name, parameters)
