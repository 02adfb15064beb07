"""The registry's tools in the shapes OpenAI, Anthropic and MCP hosts read.

Each shape is checked with the host's own SDK types, so a key the host does not know, or one it
requires and we left out, fails here rather than in a user's agent.
"""
import pytest
from pydantic import TypeAdapter

from oneclaw_search.tools.search_history_tool import SEARCH_HISTORY_DEFINITION
from oneclaw_search.tools.tool import ToolDefinition, ToolResult
from oneclaw_search.tools.tool_registry import ToolRegistry
from oneclaw_search.tools.tool_schemas import host_schema


class Named:
    def __init__(self, definition: ToolDefinition) -> None:
        self.definition = definition

    def execute(self, parameters):
        return ToolResult.success("ok")


REGISTRY = ToolRegistry([Named(SEARCH_HISTORY_DEFINITION)])


def test_openai_function_calling_shape():
    from openai.types.chat import ChatCompletionToolParam
    from openai.types.shared_params import FunctionDefinition

    [tool] = REGISTRY.export("openai")
    TypeAdapter(ChatCompletionToolParam).validate_python(tool)
    assert set(tool) <= set(ChatCompletionToolParam.__annotations__)  # TypedDicts let unknown keys through
    assert set(tool["function"]) <= set(FunctionDefinition.__annotations__)
    assert tool["type"] == "function" and tool["function"]["name"] == "search_history"
    assert tool["function"]["parameters"] == SEARCH_HISTORY_DEFINITION.parameters


def test_anthropic_tool_use_shape():
    from anthropic.types import ToolParam

    [tool] = REGISTRY.export("anthropic")
    TypeAdapter(ToolParam).validate_python(tool)
    assert set(tool) <= set(ToolParam.__annotations__)
    assert tool["input_schema"]["required"] == ["query"]


def test_mcp_tool_shape():
    from mcp.types import Tool

    [tool] = REGISTRY.export("mcp")
    parsed = Tool.model_validate(tool)
    assert parsed.model_dump(by_alias=True, exclude_none=True) == tool  # exactly MCP's wire form
    assert tool["_meta"] == {"oneclaw/timeout_seconds": SEARCH_HISTORY_DEFINITION.timeout_seconds,
                             "oneclaw/required_permissions": []}


@pytest.mark.parametrize("shape", ["openai", "anthropic", "mcp"])
def test_a_name_a_host_would_refuse_is_refused_here_with_the_rule(shape):
    bad = ToolDefinition("search history!", "spaces and marks", {"type": "object", "properties": {}})
    with pytest.raises(ValueError, match="1-64 letters, digits"):
        host_schema(bad, shape)


def test_arguments_that_are_not_an_object_schema_are_refused():
    with pytest.raises(ValueError, match="type 'object'"):
        host_schema(ToolDefinition("t", "d", {"type": "string"}), "anthropic")


def test_an_unknown_shape_names_the_known_ones():
    with pytest.raises(ValueError, match="openai, anthropic, mcp"):
        REGISTRY.export("gemini")
