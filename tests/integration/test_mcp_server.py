"""`oneclaw-search mcp` end to end: the official MCP SDK's client spawns the server as a subprocess
over stdio, lists the tools and calls them as a real agent host would."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine, ToolRegistry
from oneclaw_search.tools.cli import main
from oneclaw_search.tools.tool import ToolDefinition, ToolResult

SCRIPT = Path(sys.executable).parent / "oneclaw-search"


def talk(db: Path, calls: list[tuple[str, dict]]):
    """The server's tool list and the results of `calls`, in one session with a real server process."""
    async def session():
        server = StdioServerParameters(command=str(SCRIPT), args=["--db", str(db), "--time-zone", "Asia/Tokyo", "mcp"])
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            listed = await client.list_tools()
            return listed.tools, [await client.call_tool(name, arguments) for name, arguments in calls]
    return anyio.run(session)


@pytest.mark.spec("TOOL-1")
def test_a_client_lists_every_registered_tool_with_its_schema_and_searches(seeded_db):
    tools, (text, document, turns) = talk(seeded_db, [
        ("search_history", {"query": "Roppongi"}),
        ("search_history", {"query": "restaurant", "scope": "sessions", "max_results": 2, "format": "json"}),
        ("read_session", {"session_id": "s-dinner", "around_message_id": "m-sakura"}),
    ])
    container = create_injector(seeded_db, time_zone="Asia/Tokyo")
    assert [tool.model_dump(by_alias=True, exclude_none=True) for tool in tools] == container.get(ToolRegistry).export("mcp")
    # Exactly what the tool returns in process (ids only for JSON: its scores move with the clock).
    engine = container.get(ToolExecutionEngine)
    assert not text.is_error and text.content[0].text == engine.execute_tool("search_history", {"query": "Roppongi"}).result
    assert "User: Looking for Italian restaurants in Roppongi." in text.content[0].text
    expected = json.loads(engine.execute_tool("search_history", {"query": "restaurant", "scope": "sessions",
                                                                 "max_results": 2, "format": "json"}).result)
    assert not document.is_error and document.structured_content == json.loads(document.content[0].text)
    ids = [item["id"] for item in document.structured_content["results"]]
    assert ids == [item["id"] for item in expected["results"]] and len(ids) == 2
    reading = engine.execute_tool("read_session", {"session_id": "s-dinner", "around_message_id": "m-sakura"})
    assert not turns.is_error and turns.content[0].text == reading.result and "asked about" in reading.result


@pytest.mark.spec("ERR-1")
def test_tool_errors_come_back_as_error_results_with_the_tools_message(seeded_db):
    _, (invalid, unknown, missing) = talk(seeded_db, [
        ("search_history", {"query": "x", "scope": "web"}),
        ("read_minds", {}),
        ("search_history", {}),
    ])
    assert invalid.is_error and invalid.content[0].text.startswith("validation_error: Invalid scope 'web'")
    assert invalid.structured_content["error"]["type"] == "validation_error"
    assert unknown.is_error and unknown.content[0].text == "tool_not_found: Tool 'read_minds' not found"
    assert missing.is_error and missing.content[0].text == "validation_error: Missing required parameter: 'query'"


def test_a_bad_database_fails_before_serving_with_one_line(tmp_path):
    done = subprocess.run([str(SCRIPT), "--db", str(tmp_path / "nope.db"), "mcp"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("oneclaw-search: database not found:") and "Traceback" not in done.stderr


class SlowTool:
    definition = ToolDefinition("slow", "Sleeps a little", {"type": "object", "properties": {}})

    def execute(self, parameters):
        time.sleep(0.3)
        return ToolResult.success("done")


def test_the_async_entry_point_leaves_the_event_loop_free_while_a_tool_runs():
    engine = ToolExecutionEngine(ToolRegistry([SlowTool()]))

    async def host():
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1
        beat = asyncio.create_task(ticker())
        result = await engine.execute_tool_async("slow", {})
        beat.cancel()
        return result, ticks
    result, ticks = asyncio.run(host())
    assert result.result == "done" and ticks >= 10  # a blocking call would have let none through


def test_without_the_sdk_the_command_says_what_to_install(seeded_db, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mcp.server.lowlevel", None)  # what a missing package looks like to import
    assert main(["--db", str(seeded_db), "mcp"]) == 1
    assert "the MCP server needs the MCP SDK: pip install '.[mcp]' in the checkout" in capsys.readouterr().err
