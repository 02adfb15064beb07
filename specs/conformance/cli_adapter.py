"""The cli adapter: this package answering the protocol through its `oneclaw-search` command, one
process per op, as a shell script or another language's test would drive it.

`load` writes the fixture as a JSONL bundle and runs `import`; `call` runs `search` with `--now`
(the case's frozen present) and `--json` when the call asks for JSON, and reports the exit code.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from oneclaw_search.conformance.history_file import TABLES, file_checksum, table_columns, write_bundle

CAPABILITIES = ["checksum", "schema", "exit_codes", "concurrent_calls"]
GROUPS = ["feat-032", "extended", "package"]
FLAGS = {"scope": "--scope", "date_from": "--date-from", "date_to": "--date-to", "max_results": "--max-results",
         "date_range": "--date-range", "role": "--role", "session_id": "--session-id", "context": "--context",
         "project": "--project", "agent_type": "--agent-type"}
_STDERR_ERROR = re.compile(r"^oneclaw-search: (\w+): (.*)$", re.DOTALL)


class CliAdapter:
    name = "cli"

    def __init__(self, command: list[str] | None = None) -> None:
        self._command = command or [sys.executable, "-m", "oneclaw_search.tools.cli"]
        self._folder = Path(tempfile.mkdtemp(prefix="oneclaw-conformance-cli-"))
        self._generation, self._now, self._zone = 0, 0, "UTC"

    @property
    def database(self) -> Path:
        return self._folder / f"history-{self._generation}.db"

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        op = message.get("op")
        if op == "hello":
            return {"ok": True, "implementation": "oneclaw-search-history (command line)", "protocol": 1,
                    "capabilities": CAPABILITIES, "groups": GROUPS}
        if op == "reset":
            self._generation += 1
        elif op == "set_clock":
            self._now, self._zone = int(message["now_ms"]), message.get("time_zone", self._zone)
        elif op == "load":
            return self._load(message["fixture"])
        elif op == "call":
            run = self._start(message)
            return run if isinstance(run, dict) else self._finish(run)
        elif op == "call_concurrently":  # separate processes over one history, started together
            runs = [self._start(call) for call in message["calls"]]
            started = [run for run in runs if not isinstance(run, dict)]
            refused = next((run for run in runs if isinstance(run, dict)), None)
            return refused or {"ok": True, "results": [self._finish(run)["result"] for run in started]}
        elif op == "checksum":
            return {"ok": True, "checksum": file_checksum(self.database)}
        elif op == "schema":
            self._load({})
            return {"ok": True, "tables": {table: table_columns(self.database, table) for table in TABLES}}
        else:
            return {"ok": False, "unsupported": f"the command line has no {op!r}"}
        return {"ok": True}

    def close(self) -> None:
        shutil.rmtree(self._folder, ignore_errors=True)

    def _load(self, fixture: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        bundle = write_bundle(self._folder / "fixture.jsonl", fixture)
        done = subprocess.run([*self._command, "--db", str(self.database), "import", "bundle", str(bundle)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0 or "skipped" in done.stdout.lower():
            return {"ok": False, "error": f"import failed ({done.returncode}): {done.stderr or done.stdout}".strip()}
        return {"ok": True}

    def _start(self, message: dict[str, Any]) -> subprocess.Popen[str] | dict[str, Any]:
        if message.get("tool") != "search_history":
            return {"ok": False, "unsupported": f"the command line runs search_history only, not {message.get('tool')!r}"}
        argv = [*self._command, "--db", str(self.database), "--time-zone", self._zone, "search", "--now", str(self._now)]
        query = None
        for key, value in message.get("arguments", {}).items():
            if key == "query" and isinstance(value, str):
                query = value
            elif key == "format" and value in ("json", "text"):
                argv += ["--json"] if value == "json" else []
            elif key in FLAGS and isinstance(value, (str, int)) and not isinstance(value, bool):
                argv += [FLAGS[key], str(value)]
            else:
                return {"ok": False, "unsupported": f"the command line cannot pass {key}={value!r}"}
        if query is None:
            return {"ok": False, "unsupported": "the command line needs a query string"}
        return subprocess.Popen([*argv, "--", query], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def _finish(self, run: subprocess.Popen[str]) -> dict[str, Any]:
        stdout, stderr = run.communicate()
        code, text = run.returncode, stdout[:-1] if stdout.endswith("\n") else stdout
        if code == 0:
            return {"ok": True, "result": {"success": True, "text": text, "exit_code": code}}
        error = _STDERR_ERROR.match(stderr.strip())
        if text.startswith('{"error"'):
            found = json.loads(text)["error"]
            kind, message = found["type"], found["message"]
        else:
            kind, message = (error.group(1), error.group(2)) if error else ("command_error", stderr.strip())
        return {"ok": True, "result": {"success": False, "error_type": kind, "error_message": message, "exit_code": code}}
