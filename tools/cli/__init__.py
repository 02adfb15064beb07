"""The `oneclaw-search` command and the MCP server: what people and MCP clients run on top of the container."""
from oneclaw_search.tools.cli.main import main

__all__ = ["main"]
