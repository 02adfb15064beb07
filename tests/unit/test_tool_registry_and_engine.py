"""ToolRegistry and ToolExecutionEngine: lookup, required parameters, timeout, never raising."""
import threading
import time

import pytest

from oneclaw_search.tools import Tool, ToolDefinition, ToolExecutionEngine, ToolRegistry, ToolResult


class EchoTool:
    def __init__(self, name="echo", timeout=30, delay=0.0, fail=False):
        self.definition = ToolDefinition(
            name,
            "echoes",
            {"type": "object", "properties": {"text": {"type": "string", "description": "t"}}, "required": ["text"]},
            (),
            timeout,
        )
        self.delay, self.fail, self.done = delay, fail, threading.Event()

    def execute(self, parameters):
        time.sleep(self.delay)
        self.done.set()
        if self.fail:
            raise RuntimeError("boom")
        return ToolResult.success(str(parameters["text"]))


def test_registry_finds_tools_by_name_and_lists_their_definitions():
    registry = ToolRegistry([EchoTool("a"), EchoTool("b")])
    assert registry.get_tool("a").definition.name == "a" and registry.get_tool("zzz") is None
    assert [d.name for d in registry.get_all_tool_definitions()] == ["a", "b"]
    assert registry.has_tool("b") and registry.get_all_tool_names() == ["a", "b"]


def test_registry_refuses_a_second_tool_with_the_same_name():
    registry = ToolRegistry([EchoTool("a")])
    with pytest.raises(ValueError, match="already registered"):
        registry.register(EchoTool("a"))


def test_a_tool_satisfies_the_tool_protocol_shape():
    tool: Tool = EchoTool()
    assert isinstance(tool.definition, ToolDefinition) and tool.execute({"text": "hi"}) == ToolResult.success("hi")


def engine_with(*tools, grace=0.05):
    return ToolExecutionEngine(ToolRegistry(tools), grace_seconds=grace)


def test_engine_runs_a_tool_and_returns_its_result():
    assert engine_with(EchoTool()).execute_tool("echo", {"text": "hi"}) == ToolResult("success", "hi")


@pytest.mark.parametrize(
    "name, parameters, error",
    [
        ("nope", {"text": "x"}, ("tool_not_found", "Tool 'nope' not found")),
        ("echo", {}, ("validation_error", "Missing required parameter: 'text'")),
        ("echo", {"text": None}, ("validation_error", "Missing required parameter: 'text'")),
        ("echo", "text", ("validation_error", "Tool parameters must be a JSON object")),
    ],
)
def test_engine_reports_lookup_and_parameter_problems(name, parameters, error):
    outcome = engine_with(EchoTool()).execute_tool(name, parameters)
    assert (outcome.status, outcome.error_type, outcome.error_message) == ("error", *error)


def test_engine_turns_a_crash_into_an_execution_error():
    outcome = engine_with(EchoTool(fail=True)).execute_tool("echo", {"text": "x"})
    assert (outcome.error_type, outcome.error_message) == ("execution_error", "Tool execution failed: boom")


def test_engine_stops_waiting_at_the_tools_timeout():
    slow = EchoTool(timeout=0, delay=1.0)
    started = time.monotonic()
    outcome = engine_with(slow, grace=0.1).execute_tool("echo", {"text": "x"})
    assert time.monotonic() - started < 0.9
    assert (outcome.error_type, outcome.error_message) == ("timeout", "Tool execution timed out after 0s")
