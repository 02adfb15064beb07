"""ToolRegistry: the tools an agent host offers, by name.

Mirrors tool/engine/ToolRegistry.kt; a second tool under a taken name is refused loudly instead
of being logged and skipped.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from oneclaw_search.tools.tool import Tool, ToolDefinition
from oneclaw_search.tools.tool_schemas import HostShape, host_schema


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        name = tool.definition.name
        if name in self._tools:
            raise ValueError(f"A tool named '{name}' is already registered")
        self._tools[name] = tool

    def get_tool(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def has_tool(self, name: str) -> bool:
        return name in self._tools

    def get_all_tool_definitions(self) -> list[ToolDefinition]:
        return [tool.definition for tool in self._tools.values()]

    def get_all_tool_names(self) -> list[str]:
        return list(self._tools)

    def export(self, shape: HostShape) -> list[dict[str, Any]]:
        """Every tool's definition in a host's shape: "openai", "anthropic" or "mcp" (tools/tool_schemas.py)."""
        return [host_schema(definition, shape) for definition in self.get_all_tool_definitions()]
