"""`oneclaw-search conformance`: runs the language-neutral suite of specs/conformance/ through an adapter.

`in-process` drives this package through its container, `cli` through the `oneclaw-search`
command, `mcp` through `oneclaw-search mcp` with the MCP SDK's client, `process` any program
speaking PROTOCOL.md (our reference one unless `--command` names another). Exit 0 only when every
required case of the claimed groups passes.
"""
from __future__ import annotations

import argparse
import shlex
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from oneclaw_search.conformance.runner import Adapter

ADAPTERS = ("in-process", "cli", "mcp", "process", "postgres")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = commands.add_parser("conformance", help="run the FEAT-032 conformance suite against this package or another program")
    run.add_argument("--adapter", choices=ADAPTERS, default="in-process", help="how the implementation is driven (default in-process)")
    run.add_argument("--command", dest="adapter_command", help="with --adapter process: the program to run, e.g. 'java -jar adapter.jar'")
    run.add_argument("--db", dest="postgres_url", help="with --adapter postgres: the server's postgresql:// URL (a tenant per case)")
    run.add_argument("--cases", type=Path, help="folder of case files (default: the suite shipped with this package)")
    run.add_argument("--group", action="append", help="run only this group (repeatable): feat-032, extended, package")
    run.add_argument("--json", action="store_true", help="print the report as JSON")


def default_cases() -> Path:
    """The case files installed with the package, beside the runner (specs/conformance/)."""
    spec = find_spec("oneclaw_search.conformance")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError("the shipped conformance cases are missing; pass --cases DIR")
    return Path(next(iter(spec.submodule_search_locations)))


def run_conformance(args: argparse.Namespace) -> int:
    from oneclaw_search.conformance.cases import load_groups
    from oneclaw_search.conformance.report import as_json, as_text, verdicts
    from oneclaw_search.conformance.runner import Runner

    groups = load_groups(args.cases or default_cases())
    if args.group:
        unknown = sorted(set(args.group) - {group.name for group in groups})
        if unknown:
            raise ValueError(f"unknown group(s) {', '.join(unknown)}; the cases hold {', '.join(g.name for g in groups)}")
        groups = [group for group in groups if group.name in args.group]
    adapter = open_adapter(args.adapter, shlex.split(args.adapter_command) if args.adapter_command else None,
                           getattr(args, "postgres_url", None))
    try:
        runner = Runner(adapter)
        outcomes = runner.run(groups)
    finally:
        adapter.close()
    print((as_json if args.json else as_text)(runner.hello, groups, outcomes, args.adapter))
    return 0 if verdicts(groups, outcomes)["passed"] else 1


def open_adapter(name: str, command: list[str] | None = None, url: str | None = None) -> Adapter:
    if name == "postgres":
        if not url:
            raise ValueError("--adapter postgres needs --db postgresql://...")
        try:
            from oneclaw_search.conformance.postgres_adapter import PostgresAdapter
        except ImportError as missing:
            raise ValueError(f"--adapter postgres needs the postgres extra (psycopg): {missing}") from missing
        return PostgresAdapter(url)
    if name == "cli":
        from oneclaw_search.conformance.cli_adapter import CliAdapter
        return CliAdapter(command)
    if name == "mcp":
        try:
            from oneclaw_search.conformance.mcp_adapter import McpAdapter
        except ImportError as missing:
            raise ValueError(f"--adapter mcp needs the mcp extra (the MCP SDK): {missing}") from missing
        return McpAdapter(command)
    if name == "process":
        from oneclaw_search.conformance.process_adapter import ProcessAdapter
        return ProcessAdapter(command)
    if command:
        raise ValueError("--command goes with --adapter process, cli or mcp")
    from oneclaw_search.conformance.in_process import InProcessAdapter
    return InProcessAdapter()
