"""`oneclaw-search summary`: get_session_summary from the command line, printed as the tool returns it;
`oneclaw-search summarize`: a model's summaries of recent sessions (the local model's, or an LLM's) made
now, with a progress bar, and kept for every later get_session_summary call (beyond FEAT-032)."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from oneclaw_search.tools.cli.history_location import History, open_container
from oneclaw_search.tools.cli.tool_output import PROG, run_tool

if TYPE_CHECKING:
    from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase

# The parsers are built for every command; what the two commands run is imported when they run, so
# a one-shot search's start never pays for it.

SUMMARIZERS = ("extractive", "local", "openai", "anthropic")
MODELS = SUMMARIZERS[1:]  # those that write in the background


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    summary = commands.add_parser("summary", parents=[common], help="summarise recent sessions, or one (get_session_summary)")
    summary.add_argument("--session-id", help="the session to summarise (default: the most recent ones)")
    summary.add_argument("--limit", help="how many recent sessions, default 5")
    summary.add_argument("--json", action="store_true", help="print the JSON format")
    summary.add_argument("--summarizer", choices=SUMMARIZERS, default="extractive",
                         help="extractive (default, offline); or a model's summary once `summarize` or a long-running "
                              "host made it, extractive until then: local (the local-model extra) or an LLM configured by "
                              "ONECLAW_SEARCH_LLM_* variables")
    summarize = commands.add_parser("summarize", parents=[common],
                                    help="have a model summarise recent sessions now (default: the local-model extra's)")
    summarize.add_argument("--summarizer", choices=MODELS, default="local",
                           help="local (default), or an LLM configured by ONECLAW_SEARCH_LLM_* variables")
    summarize.add_argument("--limit", type=int, default=20, help="how many recent sessions, default 20 (0 or less too), at most 50")
    summarize.add_argument("--session-id", help="one session instead")


def run_summary(db: History, time_zone: str | None, args: argparse.Namespace) -> int:
    from oneclaw_search.tools import ToolExecutionEngine

    where = {"index_path": args.index_path} if hasattr(args, "index_path") else {}
    engine = open_container(db, time_zone=time_zone, summarizer=args.summarizer, **where).get(ToolExecutionEngine)
    arguments: dict[str, object] = {"session_id": args.session_id, "limit": args.limit,
                                    "format": "json" if args.json else None}
    return run_tool(engine, "get_session_summary", arguments, args.json)


def run_summarize(db: History, time_zone: str | None, args: argparse.Namespace) -> int:
    from oneclaw_search.domain.session_reading import SessionNotFound
    from oneclaw_search.domain.session_summary_use_case import MAX_LIMIT, GetSessionSummaryUseCase, SummaryRequest
    from oneclaw_search.tools.cli.progress import progress_bars

    where = {"index_path": args.index_path} if hasattr(args, "index_path") else {}
    use_case: GetSessionSummaryUseCase = open_container(db, time_zone=time_zone, summarizer=args.summarizer, **where).get(
        GetSessionSummaryUseCase)
    request = SummaryRequest(args.session_id, 20 if args.limit <= 0 else min(args.limit, MAX_LIMIT))
    with progress_bars() as bars:
        bar = bars.count(f"Summarising with the {_named(args.summarizer)}", "sessions")

        def done(count: int, total: int) -> None:
            if bar is not None:
                bar.expect(total)
                bar(count)
        try:
            failed = use_case.make_later_now(request, done)
        except SessionNotFound as problem:
            print(f"{PROG}: {problem}", file=sys.stderr)
            return 1
    if failed:
        print(f"{PROG}: the {_named(args.summarizer)} failed on {failed} of the sessions (the log says why)", file=sys.stderr)
        return 1
    print(f"the {_named(args.summarizer)}'s summaries of those sessions are kept for every later call", file=sys.stderr)
    return 0


def _named(summarizer: str) -> str:
    return "local model" if summarizer == "local" else f"model at the {summarizer} endpoint"
