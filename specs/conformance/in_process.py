"""The in-process adapter: this package answering the protocol's ops through its public faces, as a host
would: create_injector, the registry and engine it wires, and import_bundle for writing rows.

Fixtures go into a real SQLite history through import_bundle (what `oneclaw-search import` runs), the
clock is a settable one, faults go in through create_injector's source_wrapper, and the reference
process adapter (`process_adapter.py`) serves this same object over stdin and stdout.
"""
from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from oneclaw_search.conformance.faults import Faults
from oneclaw_search.conformance.history_file import TABLES, file_checksum, import_fixture, table_columns
from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine, ToolRegistry, ToolResult

CAPABILITIES = ["faults", "checksum", "schema", "keyword_index_off", "concurrent_calls"]
GROUPS = ["feat-032", "extended", "package"]


class SettableClock:
    """The clock a case sets: wall time pinned where the case puts it; budgets on the real monotonic clock."""

    def __init__(self, now: int) -> None:
        self.now = now

    def now_ms(self) -> int:
        return self.now

    def monotonic(self) -> float:
        return time.monotonic()


class InProcessAdapter:
    name = "in-process"

    def __init__(self) -> None:
        self._folder = Path(tempfile.mkdtemp(prefix="oneclaw-conformance-"))
        self._clock = SettableClock(0)
        self._faults = Faults()
        self._zone = "UTC"
        self._settings: dict[str, Any] = {}
        self._generation = 0
        self._container: Any = None

    @property
    def database(self) -> Path:
        return self._folder / f"history-{self._generation}.db"

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        handler = getattr(self, f"_op_{message.get('op')}", None)
        if handler is None:
            return {"ok": False, "unsupported": f"unknown op {message.get('op')!r}"}
        try:
            return {"ok": True, **(handler(message) or {})}
        except (ValueError, KeyError, TypeError, OSError) as problem:
            return {"ok": False, "error": f"{type(problem).__name__}: {problem}"}

    def close(self) -> None:
        self._faults.clear()
        shutil.rmtree(self._folder, ignore_errors=True)

    def _op_hello(self, _: dict[str, Any]) -> dict[str, Any]:
        from importlib.metadata import version
        return {"implementation": f"oneclaw-search-history {version('oneclaw-search-history')} ({self.name})",
                "protocol": 1, "capabilities": CAPABILITIES, "groups": GROUPS}

    def _op_reset(self, _: dict[str, Any]) -> None:
        self._faults.clear()
        self._settings, self._container = {}, None
        self._generation += 1  # a fresh file: the side index of the last one is never reused

    def _op_set_clock(self, message: dict[str, Any]) -> None:
        self._clock.now = int(message["now_ms"])
        if message.get("time_zone", self._zone) != self._zone:
            self._zone, self._container = message["time_zone"], None

    def _op_load(self, message: dict[str, Any]) -> None:
        import_fixture(self.database, message["fixture"])

    def _op_configure(self, message: dict[str, Any]) -> None:
        if "keyword_index" in message:
            self._settings["index_path"] = "auto" if message["keyword_index"] else None
        self._container = None

    def _op_fault(self, message: dict[str, Any]) -> None:
        budget = self._faults.set(message)
        self._settings.pop("search_budget_seconds", None)
        if budget is not None:
            self._settings["search_budget_seconds"] = budget
        self._container = None

    def _op_call(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"result": reply_of(self._engine().execute_tool(message["tool"], message.get("arguments", {})))}

    def _op_call_concurrently(self, message: dict[str, Any]) -> dict[str, Any]:
        """Each call through a container of its own, as separate processes would, all started at once."""
        engines = [self._new_container().get(ToolExecutionEngine) for _ in message["calls"]]
        answers: list[dict[str, Any]] = [{} for _ in engines]
        start = threading.Barrier(len(engines))

        def run(index: int, call: dict[str, Any]) -> None:
            start.wait()
            answers[index] = reply_of(engines[index].execute_tool(call["tool"], call.get("arguments", {})))

        threads = [threading.Thread(target=run, args=pair) for pair in enumerate(message["calls"])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return {"results": answers}

    def _op_tools(self, _: dict[str, Any]) -> dict[str, Any]:
        definitions = self._container_now().get(ToolRegistry).get_all_tool_definitions()
        return {"tools": [{"name": d.name, "description": d.description, "parameters": d.parameters,
                           "required_permissions": list(d.required_permissions), "timeout_seconds": d.timeout_seconds}
                          for d in definitions]}

    def _op_checksum(self, _: dict[str, Any]) -> dict[str, Any]:
        return {"checksum": file_checksum(self.database)}

    def _op_schema(self, _: dict[str, Any]) -> dict[str, Any]:
        self._ensure_database()
        return {"tables": {table: table_columns(self.database, table) for table in TABLES}}

    def _engine(self) -> ToolExecutionEngine:
        engine: ToolExecutionEngine = self._container_now().get(ToolExecutionEngine)
        return engine

    def _container_now(self) -> Any:
        if self._container is None:
            self._container = self._new_container()
        return self._container

    def _new_container(self) -> Any:
        self._ensure_database()
        return create_injector(self.database, clock=self._clock, time_zone=self._zone, source_wrapper=self._faults.wrap,
                               **self._settings)

    def _ensure_database(self) -> None:
        if not self.database.exists():
            import_fixture(self.database, {})


def reply_of(result: ToolResult) -> dict[str, Any]:
    return {"success": result.is_success, "text": result.result, "error_type": result.error_type,
            "error_message": result.error_message}
