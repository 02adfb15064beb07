"""`oneclaw-search summary`: get_session_summary from the command line, printed as the tool returns it."""
from __future__ import annotations

import argparse

from oneclaw_search.tools import ToolExecutionEngine
from oneclaw_search.tools.cli.history_location import History, open_container
from oneclaw_search.tools.cli.tool_output import run_tool


def run_summary(db: History, time_zone: str | None, args: argparse.Namespace) -> int:
    where = {"index_path": args.index_path} if hasattr(args, "index_path") else {}
    engine = open_container(db, time_zone=time_zone, summarizer=args.summarizer, **where).get(ToolExecutionEngine)
    arguments: dict[str, object] = {"session_id": args.session_id, "limit": args.limit,
                                    "format": "json" if args.json else None}
    return run_tool(engine, "get_session_summary", arguments, args.json)
