"""`oneclaw-search demo`: builds the sample history, then asks it the spec's questions.

Each scenario goes through the ToolRegistry and ToolExecutionEngine exactly as an agent host's
tool call would (spec "Typical Scenarios" 1, 2, 3 and 5); the last asks get_session_summary
(draagon-forge REQ-016.3) what the newest sessions were about: in the local model's words where the
`local-model` extra is installed (made first, as `oneclaw-search summarize` makes them).
"""
from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.demo_history import demo_history
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable, read_meta, write_meta
from oneclaw_search.data.summaries.local_model import available as local_model_available
from oneclaw_search.di import create_injector
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.clock import SystemClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.local_time import local_date, resolve_zone
from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase, SummaryRequest
from oneclaw_search.tools import ToolExecutionEngine


def build_demo_database(path: Path, time_zone: str | None) -> None:
    """Write the sample history to `path`, replacing an earlier demo but nothing else."""
    if path.exists():
        if read_meta(HistoryDatabase.open_read_only(path), "demo") != "1":
            raise HistoryUnavailable(f"refusing to overwrite {path}: it is not a demo database")
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
    zone = resolve_zone(time_zone)
    database = open_writable(path)
    HistoryWriter(database, default_embedder()).write(*demo_history(local_date(SystemClock().now_ms(), zone), zone))
    write_meta(database, "demo", "1")
    database.close()


def scenarios(time_zone: str | None) -> list[tuple[str, str, dict[str, object]]]:
    today = local_date(SystemClock().now_ms(), resolve_zone(time_zone))
    trip_day = (today - timedelta(days=5)).isoformat()
    return [
        ("What was that restaurant I mentioned last week?", "search_history",
         {"query": "restaurant", "date_from": (today - timedelta(days=7)).isoformat(), "date_to": today.isoformat()}),
        ("What did we discuss about the database migration?", "search_history", {"query": "database migration"}),
        ("What API keys have I configured?", "search_history", {"query": "API key", "scope": "memory"}),
        (f"Where did I go on {trip_day}?", "search_history",
         {"query": "trip", "scope": "daily_log", "date_from": trip_day, "date_to": trip_day}),
        ("The same restaurant search, as JSON for a program:", "search_history",
         {"query": "sushi", "max_results": 2, "format": "json"}),
        ("What were our last two sessions about?", "get_session_summary", {"limit": 2}),
    ]


def run_demo(path: Path, time_zone: str | None) -> int:
    build_demo_database(path, time_zone)
    local = local_model_available()
    container = create_injector(path, time_zone=time_zone, summarizer="local" if local else "extractive")
    lookup = container.get(IndexParts).lookup
    if lookup is not None:  # its side index too, so no build goes on after the demo
        lookup.sync.catch_up()
    print(f"Built a sample history in {path}\n")
    if local:
        print("The local model summarises the two newest sessions (seconds each)…\n")
        container.get(GetSessionSummaryUseCase).make_later_now(SummaryRequest(None, 2))
    engine = container.get(ToolExecutionEngine)
    for question, tool, arguments in scenarios(time_zone):
        print(f"User: {question}")
        print(f"Agent calls {tool}({json.dumps(arguments, ensure_ascii=False)})")
        outcome = engine.execute_tool(tool, arguments)
        print(outcome.result if outcome.is_success else f"{outcome.error_type}: {outcome.error_message}")
        print("\n" + "=" * 72 + "\n")
    print(f'Search it yourself: oneclaw-search --db {path} search "sushi" --scope all')
    return 0
