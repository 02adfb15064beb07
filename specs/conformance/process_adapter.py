"""The process adapter: any program speaking PROTOCOL.md's line-delimited JSON on stdin and stdout.

`ProcessAdapter` is the runner's side; `serve` is our reference program's side, answering with the
in-process adapter (`python -m oneclaw_search.conformance.process_adapter`), so the protocol
itself is exercised by the suite.
"""
from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
from typing import IO, Any

REFERENCE_COMMAND = [sys.executable, "-m", "oneclaw_search.conformance.process_adapter"]


class ProcessAdapter:
    name = "process"

    def __init__(self, command: list[str] | None = None) -> None:
        self._errors = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - open for the process's life, closed in close()
        self._process = subprocess.Popen(command or REFERENCE_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._errors, text=True, encoding="utf-8", bufsize=1)
        self._next_id = 0

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._next_id += 1
        try:
            self._process.stdin.write(json.dumps({"id": self._next_id, **message}, ensure_ascii=False) + "\n")
            self._process.stdin.flush()
            line = self._process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            return {"ok": False, "error": f"the adapter process ended (exit {self._process.poll()}): {self._stderr_tail()}"}
        try:
            answer = json.loads(line)
        except ValueError:
            return {"ok": False, "error": f"the adapter wrote a line that is not JSON: {line[:200]!r}"}
        if not isinstance(answer, dict):
            return {"ok": False, "error": f"the adapter answered with something not an object: {line[:200]!r}"}
        if answer.get("id") not in (None, self._next_id):
            return {"ok": False, "error": f"answer id {answer.get('id')} for request {self._next_id}"}
        return answer

    def close(self) -> None:
        if self._process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):  # it died with a request still buffered for it
                self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
        self._errors.close()

    def _stderr_tail(self) -> str:
        self._errors.seek(0)
        return self._errors.read()[-2000:].strip() or "(nothing on stderr)"


def serve(lines: IO[str], out: IO[str]) -> None:
    """Answer each request line with one response line until the input ends."""
    from oneclaw_search.conformance.in_process import InProcessAdapter

    adapter = InProcessAdapter()
    adapter.name = "process"
    try:
        for line in lines:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError as error:
                out.write(json.dumps({"ok": False, "error": f"not a JSON line: {error}"}) + "\n")
                out.flush()
                continue
            answer = adapter.request(message) if isinstance(message, dict) else {"ok": False, "error": "not an object"}
            out.write(json.dumps({"id": message.get("id") if isinstance(message, dict) else None, **answer},
                                 ensure_ascii=False) + "\n")
            out.flush()
    finally:
        adapter.close()


if __name__ == "__main__":
    protocol_out, sys.stdout = sys.stdout, sys.stderr  # a stray print must never corrupt the protocol
    serve(sys.stdin, protocol_out)
