"""The tool contract an agent host sees: Tool, ToolDefinition and ToolResult.

Mirrors tool/engine/Tool.kt and core/model/{ToolDefinition,ToolResult}.kt (FEAT-004); the
parameters are a plain JSON-schema object, ready for any model's function-calling format.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    name: str
    description: str
    parameters: dict[str, Any]
    required_permissions: tuple[str, ...] = ()
    timeout_seconds: int = 30

    @property
    def required_parameters(self) -> tuple[str, ...]:
        return tuple(self.parameters.get("required", ()))


@dataclass(frozen=True, slots=True)
class ToolResult:
    """Success carries the text for the model; an error carries a type and a message."""

    status: Literal["success", "error"]
    result: str | None = None
    error_type: str | None = None
    error_message: str | None = field(default=None)

    @classmethod
    def success(cls, result: str) -> ToolResult:
        return cls("success", result=result)

    @classmethod
    def error(cls, error_type: str, error_message: str) -> ToolResult:
        """An error in one line: a value echoed from the call keeps its line breaks as \\n."""
        one_line = error_message.replace("\r", "\\r").replace("\n", "\\n")
        return cls("error", error_type=error_type, error_message=one_line)

    @property
    def is_success(self) -> bool:
        return self.status == "success"


class Tool(Protocol):
    @property
    def definition(self) -> ToolDefinition: ...

    def execute(self, parameters: Mapping[str, object]) -> ToolResult:
        """Run with the model's arguments; report every failure as a ToolResult, never raise."""
