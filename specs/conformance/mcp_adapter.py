"""The mcp adapter: this package answering the protocol through `oneclaw-search mcp`, driven by the
official MCP SDK's stdio client as an agent host drives it.

Rows go in through the package's import; calls and the tool list go over MCP to one
server per history and present, started at the first call and kept while a case loads more rows.
`call_concurrently` starts a server per call, all at once, as separate hosts would.
"""
from __future__ import annotations

import sys
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager, asynccontextmanager
from typing import Any

import anyio
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from oneclaw_search.conformance.cli_adapter import CliAdapter
from oneclaw_search.conformance.history_file import import_fixture
from oneclaw_search.tools import MCP_PERMISSIONS, MCP_TIMEOUT

CAPABILITIES = ["checksum", "schema", "concurrent_calls"]


class McpAdapter(CliAdapter):
    name = "mcp"

    def __init__(self, command: list[str] | None = None) -> None:
        super().__init__(command)
        self._portal_context: AbstractContextManager[BlockingPortal] = start_blocking_portal()
        self._portal = self._portal_context.__enter__()
        self._session: AbstractContextManager[ClientSession] | None = None
        self._client: ClientSession | None = None
        self._closing: list[threading.Thread] = []

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        op = message.get("op")
        if op == "hello":
            return {**super().request(message), "implementation": "oneclaw-search-history (MCP)", "capabilities": CAPABILITIES}
        if op in ("reset", "set_clock"):
            self._stop()  # the next call starts a server on the new history or present
        if op == "call":
            return {"ok": True, "result": self._portal.call(_call, self._started(), message)}
        if op == "call_concurrently":
            return {"ok": True, "results": self._portal.call(_concurrently, self._argv(), message["calls"])}
        if op == "tools":
            listed = self._portal.call(self._started().list_tools)
            return {"ok": True, "tools": [_definition(tool) for tool in listed.tools]}
        return super().request(message)

    def close(self) -> None:
        self._stop()
        for closing in self._closing:
            closing.join()
        self._portal_context.__exit__(None, None, None)
        super().close()

    def _load(self, fixture: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        """Rows go in through the package's import, in this process: MCP offers no way to write them,
        and the cli adapter already drives the command that does."""
        try:
            import_fixture(self.database, fixture)
        except ValueError as skipped:
            return {"ok": False, "error": str(skipped)}
        return {"ok": True}

    def _argv(self) -> list[str]:
        return [*self._command, "--db", str(self.database), "--time-zone", self._zone, "mcp", "--now", str(self._now)]

    def _started(self) -> ClientSession:
        if self._client is None:
            if not self.database.exists():
                self._load({})  # a server needs a history to open, as a fresh install has
            self._session = self._portal.wrap_async_context_manager(_session(self._argv()))
            self._client = self._session.__enter__()
        return self._client

    def _stop(self) -> None:
        """The server is let go in the background: a closing interpreter takes a moment, the next case need not wait."""
        session, self._session, self._client = self._session, None, None
        if session is not None:
            closing = threading.Thread(target=session.__exit__, args=(None, None, None))
            closing.start()
            self._closing.append(closing)


@asynccontextmanager
async def _session(argv: list[str]) -> AsyncIterator[ClientSession]:
    server = StdioServerParameters(command=argv[0], args=argv[1:])
    async with stdio_client(server, errlog=sys.stderr) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


async def _call(client: ClientSession, message: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(message["tool"], message.get("arguments", {}))
    if not result.is_error:
        return {"success": True, "text": result.content[0].text if result.content else "",  # type: ignore[union-attr]
                "error_type": None, "error_message": None}
    found = (result.structured_content or {}).get("error", {})
    return {"success": False, "text": None, "error_type": found.get("type"), "error_message": found.get("message")}


async def _concurrently(argv: list[str], calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = [{} for _ in calls]

    async def one(index: int, call: dict[str, Any]) -> None:
        async with _session(argv) as client:
            answers[index] = await _call(client, call)

    async with anyio.create_task_group() as group:
        for index, call in enumerate(calls):
            group.start_soon(one, index, call)
    return answers


def _definition(tool: Any) -> dict[str, Any]:
    meta = tool.meta or {}
    return {"name": tool.name, "description": tool.description, "parameters": tool.input_schema,
            "required_permissions": meta.get(MCP_PERMISSIONS, []), "timeout_seconds": meta.get(MCP_TIMEOUT)}
