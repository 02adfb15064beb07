"""What a tool call prints from the command line, and the exit code it leaves: one place for `search`,
`summary` and the refusals the command makes before a call."""
from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from oneclaw_search.tools import ToolExecutionEngine
    from oneclaw_search.tools.tool import ToolResult

PROG = "oneclaw-search"


def run_tool(engine: ToolExecutionEngine, name: str, arguments: dict[str, object], as_json: bool) -> int:
    """Print what the tool returns; exit 0, 2 on a validation_error, 1 on any other error."""
    return show(engine.execute_tool(name, {key: value for key, value in arguments.items() if value is not None}), as_json)


def show(result: ToolResult, as_json: bool) -> int:
    """Print a tool's result; its exit code: 0, 2 on a validation_error, 1 on any other error."""
    code = 0 if result.is_success else 2 if result.error_type == "validation_error" else 1
    if result.is_success:
        print(result.result, flush=True)  # a pipe reads the answer now, while side data is still being written
    elif as_json:  # a host reading JSON gets the error as JSON too, and the same exit code
        print(json.dumps({"error": {"type": result.error_type, "message": result.error_message}}, ensure_ascii=False), flush=True)
    else:
        print(f"{PROG}: {result.error_type}: {result.error_message}", file=sys.stderr)
    return code
