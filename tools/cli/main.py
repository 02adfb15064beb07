"""The `oneclaw-search` command: a thin agent host over the ToolRegistry.

`search` prints exactly what the search_history tool returns (exit 0, 2 on validation_error,
1 on any other error); `import` loads a bundle, a memory folder, a squidbot history or a OneClaw backup; `demo` builds and
searches a sample; `index` brings the side index up to date; `mcp` serves every tool to an MCP
client over stdio; `conformance` runs the language-neutral FEAT-032 suite. The history is `--db`,
else $ONECLAW_SEARCH_DB; `--version` names the installed version.
"""
from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from pathlib import Path

from oneclaw_search.domain.clock import PinnedClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.history_location import checked_tenant, is_postgres_url
from oneclaw_search.domain.local_time import iso_time_ms, resolve_zone
from oneclaw_search.tools.cli.conformance_command import add_parser as add_conformance_parser
from oneclaw_search.tools.cli.conformance_command import run_conformance
from oneclaw_search.tools.cli.history_location import History, PostgresLocation
from oneclaw_search.tools.cli.summary_command import SUMMARIZERS
from oneclaw_search.tools.cli.summary_command import add_parsers as add_summary_parsers
from oneclaw_search.tools.cli.tool_output import PROG, run_tool, show

DB_VARIABLE = "ONECLAW_SEARCH_DB"  # the history when --db is not given (demo keeps its own default)
TENANT_VARIABLE = "ONECLAW_SEARCH_TENANT"  # a PostgreSQL history's tenant when --tenant is not given
DISTRIBUTION = "oneclaw-search-history"
DEFAULT_DEMO_PATH = Path("oneclaw-demo.db")


class _Version(argparse.Action):
    """--version, looked up only when asked: reading the installed metadata would slow every search."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **_options: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            installed = version(DISTRIBUTION)
        except PackageNotFoundError:  # run from a source tree that was never installed
            installed = "unknown"
        print(f"{PROG} {installed}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help="the history: a SQLite file, or a postgresql:// URL")
    common.add_argument("--tenant", default=argparse.SUPPRESS,
                        help=f"with a postgresql:// history: whose rows to read and write (default ${TENANT_VARIABLE}, else 'default')")
    common.add_argument("--time-zone", default=argparse.SUPPRESS, help="zone for dates (default: TZ or the host's)")
    common.add_argument(
        "--index-path",
        default=argparse.SUPPRESS,
        help="where the side index lives (default: beside our own databases, else the user cache)",
    )
    parser = argparse.ArgumentParser(prog=PROG, parents=[common], description="Search an agent's past conversations and memory.")
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", required=True)
    search = commands.add_parser("search", parents=[common], help="run search_history and print its output")
    search.add_argument("query")
    search.add_argument("--scope", help="all (default), memory, daily_log or sessions")
    search.add_argument("--date-from", help="first day, YYYY-MM-DD")
    search.add_argument("--date-to", help="last day, YYYY-MM-DD")
    search.add_argument("--max-results", help="1-50, default 10")
    search.add_argument("--json", action="store_true", help="print the JSON format")
    search.add_argument("--date-range", help='days in words: "last week", "last 7 days", "2026-02-01 to 2026-02-07", ...')
    search.add_argument("--role", help="user, assistant, tool, or several separated by commas (default user,assistant)")
    search.add_argument("--session-id", help="search one session only")
    search.add_argument("--context", help="0-5 turns shown around each message hit")
    search.add_argument("--project", help="imported Claude Code sessions of this project (path, parent folder or folder name)")
    search.add_argument("--agent-type", help="imported Claude Code sub-agents of this type, e.g. Explore")
    search.add_argument("--now", help="search as if the present were this instant (ISO 8601 or epoch ms): reproducible runs")
    load = commands.add_parser(
        "import", parents=[common], help="load a JSONL bundle (default), a memory folder, a squidbot history or a OneClaw backup into --db"
    )
    load.add_argument(
        "what",
        nargs="+",
        metavar="[KIND] PATH",
        help="KIND: bundle (default), memory, squidbot, oneclaw or claude-code (PATH optional: ~/.claude/projects)",
    )
    commands.add_parser("demo", parents=[common], help=f"build a sample history (default {DEFAULT_DEMO_PATH}) and search it")
    commands.add_parser("index", parents=[common], help="build or catch up the side index now")
    mcp = commands.add_parser("mcp", parents=[common], help="serve the tools over stdio to an MCP client (needs the [mcp] extra)")
    mcp.add_argument("--summarizer", choices=SUMMARIZERS, default="extractive",
                     help="get_session_summary's: extractive (default), or a model that summarises sessions as they go quiet")
    mcp.add_argument("--now", help="serve as if the present were this instant (ISO 8601 or epoch ms): reproducible runs")
    tenants = commands.add_parser("tenants", parents=[common],
                                  help="a PostgreSQL history's tenants: add one (creating the schema) or list them")
    tenants.add_argument("action", choices=("add", "list"))
    tenants.add_argument("name", nargs="?", help="the tenant to add")
    add_summary_parsers(commands, common)
    add_conformance_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    time_zone = getattr(args, "time_zone", None)
    if args.command == "search" and (refused := _refused(_search_arguments(args), args.json)) is not None:
        return refused  # a bad call is told so whatever the history, before any history is opened
    try:
        db = _located(_history(parser, args), args)
        # Only as a program: a host calling main() keeps its process as it was (its postgres drivers);
        # the conformance command's postgres adapter needs them too.
        if argv is None and not isinstance(db, PostgresLocation) and args.command != "conformance":
            _without_postgres_drivers()
        if args.command == "tenants":
            from oneclaw_search.tools.cli.tenants_command import run_tenants

            return run_tenants(db, args.action, args.name)
        if args.command == "demo":
            from oneclaw_search.tools.cli.demo import run_demo

            return run_demo(DEFAULT_DEMO_PATH if isinstance(db, PostgresLocation) else db, time_zone)
        # Each command imports what only it needs: a one-shot search skips the importers and MCP.
        if args.command == "import":
            from oneclaw_search.tools.cli.history_import import run_import_kind

            return run_import_kind(db, args.what, time_zone)
        if args.command == "index":
            from oneclaw_search.tools.cli.index_command import run_index

            return run_index(db, time_zone, getattr(args, "index_path", None))
        if args.command == "conformance":
            return run_conformance(args)
        if args.command in ("summary", "summarize"):
            from oneclaw_search.tools.cli.summary_command import run_summarize, run_summary

            return (run_summary if args.command == "summary" else run_summarize)(db, time_zone, args)
        if args.command == "mcp":
            from oneclaw_search.tools.cli.mcp_server import run_mcp

            return run_mcp(db, time_zone, getattr(args, "index_path", None), args.summarizer,
                           None if args.now is None else PinnedClock(_instant_ms(args.now, time_zone)))
        return run_search(db, time_zone, args)
    except (HistoryUnavailable, ValueError, OSError) as problem:
        return _fail(str(problem))
    except Exception as problem:  # noqa: BLE001 - a command line shows one line, not a traceback
        if os.environ.get("ONECLAW_SEARCH_DEBUG"):
            raise
        return _fail(f"unexpected error: {type(problem).__name__}: {problem}")


def _search_arguments(args: argparse.Namespace) -> dict[str, object]:
    return {
        "query": args.query,
        "scope": args.scope,
        "date_from": args.date_from,
        "date_to": args.date_to,
        "max_results": args.max_results,
        "format": "json" if args.json else None,
        "date_range": args.date_range,
        "role": args.role,
        "session_id": args.session_id,
        "context": args.context,
        "project": args.project,
        "agent_type": args.agent_type,
    }


def _refused(arguments: dict[str, object], as_json: bool) -> int | None:
    """The validation_error a search call gets (printed, its exit code), or None when the call is sound."""
    from oneclaw_search.domain.input_text import InvalidText
    from oneclaw_search.domain.search_request import InvalidSearchRequest
    from oneclaw_search.tools.search_history_tool import parse_call
    from oneclaw_search.tools.tool import ToolResult

    try:
        parse_call({key: value for key, value in arguments.items() if value is not None}, date.today)
    except (InvalidSearchRequest, InvalidText) as problem:
        return show(ToolResult.error("validation_error", str(problem)), as_json)
    return None


def run_search(db: History, time_zone: str | None, args: argparse.Namespace) -> int:
    arguments = _search_arguments(args)
    where = {"index_path": args.index_path} if hasattr(args, "index_path") else {}
    if args.now is not None:
        where["clock"] = PinnedClock(_instant_ms(args.now, time_zone))
    from oneclaw_search.tools import ToolExecutionEngine
    from oneclaw_search.tools.cli.history_location import open_container

    engine = open_container(db, time_zone=time_zone, **where).get(ToolExecutionEngine)
    return run_tool(engine, "search_history", arguments, args.json)


def _history(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Path | str:
    """--db, else $ONECLAW_SEARCH_DB: a file, or a postgresql:// URL kept as text; the demo's own
    file for `demo` (conformance reads none)."""
    given: str | None = getattr(args, "db", None)
    if args.command in ("demo", "conformance"):
        if args.command == "demo" and is_postgres_url(given):
            parser.error("demo builds a SQLite file: give it a file path, or none")
        return Path(given).expanduser() if given else DEFAULT_DEMO_PATH
    value = given or os.environ.get(DB_VARIABLE, "").strip()
    if not value:
        parser.error(f"{args.command} needs --db PATH or {DB_VARIABLE}")
    return value.strip() if is_postgres_url(value) else Path(value).expanduser()


def _located(location: Path | str, args: argparse.Namespace) -> History:
    """A file as it is; a URL with its tenant: --tenant, else $ONECLAW_SEARCH_TENANT, else the default."""
    tenant = getattr(args, "tenant", None) or os.environ.get(TENANT_VARIABLE, "").strip() or None
    if isinstance(location, Path):
        if getattr(args, "tenant", None):
            raise ValueError("--tenant goes with a postgresql:// history")
        return location
    return PostgresLocation(location, checked_tenant(tenant))


def _instant_ms(value: str, time_zone: str | None) -> int:
    if value.strip().lstrip("-").isdigit():
        return int(value)
    at = iso_time_ms(value, resolve_zone(time_zone))
    if at is None:
        raise ValueError(f"--now must be an ISO 8601 time or epoch milliseconds: {value!r}")
    return at


def _without_postgres_drivers() -> None:
    """A command on a SQLite history never talks to a server: keep peewee from importing psycopg,
    which it does whenever it is installed and which costs a one-shot command a fifth of a second."""
    for driver in ("psycopg", "psycopg2"):
        sys.modules.setdefault(driver, None)  # type: ignore[arg-type]


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 1
