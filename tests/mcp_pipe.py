"""A real `oneclaw-search mcp` process on pipes, initialised, then spoken to line by line as a client
with a buggy encoder would: for the hostile-input tests and tests/benchmarks/probe_mcp.py."""
from __future__ import annotations

import json
import selectors
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPT = Path(sys.executable).parent / "oneclaw-search"


def request(request_id: Any, method: str, params: Any = None, **extra: Any) -> bytes:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method, **extra}
    return json.dumps(message if params is None else {**message, "params": params}).encode()


def tool(request_id: Any, name: str, arguments: Any) -> bytes:
    return request(request_id, "tools/call", {"name": name, "arguments": arguments})


class McpPipe:
    def __init__(self, db: Path, *options: str, wait: float = 20.0) -> None:
        self.process = subprocess.Popen([str(SCRIPT), "--db", str(db), *options, "mcp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.send(request("hello", "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                  "clientInfo": {"name": "pipe", "version": "1"}}))
        assert self.reply(wait)["id"] == "hello"
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def next(self, wait: float) -> Any:
        """The next line read as JSON, or None when none comes within `wait` seconds."""
        assert self.process.stdout is not None
        if wait <= 0 or not _readable(self.process.stdout, wait):
            return None
        return json.loads(self.process.stdout.readline())

    def reply(self, wait: float = 20.0) -> Any:
        answer = self.next(wait)
        assert answer is not None, f"no reply within {wait} s"
        return answer

    def quiet(self, wait: float = 1.0) -> bool:
        return not _readable(self.process.stdout, wait)

    def peak_kib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))

    def close(self, wait: float = 60.0) -> int:
        """Close stdin, as a client that is done; the server's exit code."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(wait)


def _readable(stream: Any, wait: float) -> bool:
    """Whether `stream` has something to read within `wait` seconds (poll-based: a test process holding
    a thousand files open is past what select() can watch)."""
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        return bool(selector.select(wait))
