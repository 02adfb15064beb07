"""Tool definitions in the shapes agent hosts read: OpenAI function calling, Anthropic tool use, MCP.

Where OneClaw's ToolSchemaSerializer.kt writes the shape its own model clients read, hosts beyond
OneClaw each want the same three facts (name, description, a JSON Schema object for the arguments)
under their own keys. The schema itself is passed through as it is.
"""
from __future__ import annotations

import re
from typing import Any, Literal

from oneclaw_search.tools.tool import ToolDefinition

HostShape = Literal["openai", "anthropic", "mcp"]
SHAPES: tuple[HostShape, ...] = ("openai", "anthropic", "mcp")
# OpenAI's and Anthropic's rule for a tool's name; MCP accepts these too.
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
# MCP has no field for a tool's time budget or permissions; its `_meta` carries them under our own prefix
MCP_TIMEOUT, MCP_PERMISSIONS = "oneclaw/timeout_seconds", "oneclaw/required_permissions"


def host_schema(definition: ToolDefinition, shape: HostShape) -> dict[str, Any]:
    """One tool as `shape` expects it; ValueError when the host would refuse it."""
    if not _NAME.fullmatch(definition.name):
        raise ValueError(f"tool name {definition.name!r} must be 1-64 letters, digits, '_' or '-'")
    if definition.parameters.get("type") != "object":
        raise ValueError(f"tool {definition.name!r}: its parameters must be a JSON Schema of type 'object'")
    if shape == "openai":
        return {"type": "function",
                "function": {"name": definition.name, "description": definition.description, "parameters": definition.parameters}}
    if shape == "anthropic":
        return {"name": definition.name, "description": definition.description, "input_schema": definition.parameters}
    if shape == "mcp":
        return {"name": definition.name, "description": definition.description, "inputSchema": definition.parameters,
                "_meta": {MCP_TIMEOUT: definition.timeout_seconds, MCP_PERMISSIONS: list(definition.required_permissions)}}
    raise ValueError(f"unknown tool shape {shape!r}; expected one of {', '.join(SHAPES)}")
