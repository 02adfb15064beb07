"""`oneclaw-search mcp`: every tool in the ToolRegistry, served over stdio with the official MCP SDK.

Tools are listed in MCP's shape (tools/tool_schemas.py) and run through the ToolExecutionEngine on
a worker thread; a tool's error comes back as an error result (`isError`) carrying its type and
message. The wire itself is tools/cli/mcp_stdio.py; the SDK is the optional `mcp` extra.
"""
from __future__ import annotations

import json
from importlib import metadata
from typing import Any

from oneclaw_search.domain.clock import Clock
from oneclaw_search.tools import ToolExecutionEngine, ToolRegistry
from oneclaw_search.tools.cli.history_location import History, open_container
from oneclaw_search.tools.tool import ToolResult

SERVER_NAME = "oneclaw-search"
STALE_MARGIN_SECONDS = 10  # past a tool's budget, a request still unanswered is given up at the wire
INSTALL_HINT = "the MCP server needs the MCP SDK: pip install '.[mcp]' in the checkout (or 'PATH/TO/CHECKOUT[mcp]')"


def run_mcp(db: History, time_zone: str | None, index_path: str | None, summarizer: str = "extractive",
            clock: Clock | None = None) -> int:
    """Open the history first (a bad --db fails here, before any protocol starts), then serve until
    the client closes stdin; with a model summarizer, sessions are summarised as they go quiet."""
    try:
        import anyio  # noqa: F401 - the SDK's own dependency: checked with it, before the history opens
        from mcp.server.lowlevel import Server  # noqa: F401
    except ImportError as missing:
        raise OSError(f"{INSTALL_HINT} ({missing})") from missing
    settings: dict[str, Any] = {"time_zone": time_zone, "summarizer": summarizer}
    settings |= ({} if index_path is None else {"index_path": index_path}) | ({} if clock is None else {"clock": clock})
    container = open_container(db, **settings)
    if summarizer != "extractive":
        from oneclaw_search.data.summaries.quiet_watch import QuietSessionWatch

        container.get(QuietSessionWatch).start()
    anyio.run(serve_stdio, container.get(ToolRegistry), container.get(ToolExecutionEngine))
    return 0


async def serve_stdio(registry: ToolRegistry, engine: ToolExecutionEngine) -> None:
    from oneclaw_search.tools.cli.mcp_stdio import claimed_stdio, serve_lines

    longest = max((definition.timeout_seconds for definition in registry.get_all_tool_definitions()), default=0)
    with claimed_stdio() as (wire_in, wire_out):
        await serve_lines(mcp_server(registry, engine), wire_in, wire_out, stale_seconds=longest + STALE_MARGIN_SECONDS)


def mcp_server(registry: ToolRegistry, engine: ToolExecutionEngine) -> Any:
    """An MCP Server (low-level API of the SDK) answering tools/list and tools/call from `registry`."""
    import mcp.types as types
    from mcp.server.lowlevel import Server

    async def list_tools(_context: object, _params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(tool) for tool in registry.export("mcp")])

    async def call_tool(_context: object, params: types.CallToolRequestParams) -> types.CallToolResult:
        result = await engine.execute_tool_async(params.name, params.arguments or {})
        return types.CallToolResult(content=[types.TextContent(text=_text(result))], is_error=not result.is_success,
                                    structured_content=_structured(result))

    return Server(SERVER_NAME, version=_version(), on_list_tools=list_tools, on_call_tool=call_tool)


def _text(result: ToolResult) -> str:
    return result.result or "" if result.is_success else f"{result.error_type}: {result.error_message}"


def _structured(result: ToolResult) -> dict[str, Any] | None:
    """A JSON-format search also travels as structured content; an error as its type and message."""
    if not result.is_success:
        return {"error": {"type": result.error_type, "message": result.error_message}}
    try:
        parsed = json.loads(result.result or "")
    except ValueError:
        return None  # the text format: the content says it all
    return parsed if isinstance(parsed, dict) else None


def _version() -> str:
    try:
        return metadata.version("oneclaw-search-history")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "0"
