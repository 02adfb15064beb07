"""Hostile JSON-RPC lines mixed with valid calls, sent to a real `oneclaw-search mcp` process: every
request that carries an id must be answered, and an unreadable line must get a parse error.

    python tests/benchmarks/probe_mcp.py --db oneclaw-demo.db [--json]

Prints each line's kind, the answer's id and code, and how long it took; then the totals, the
server's peak memory (VmHWM) and its exit code when stdin closes. Exits 1 when any request with an
id went unanswered or a reply held a traceback.
"""
from __future__ import annotations

import argparse
import json
import random
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from probe_mcp_lines import HOSTILE, RESULT, VALID, ProbeLine

WAIT_SECONDS = 35.0  # past the tool's 30-second budget: a slow search is still an answer
SCRIPT = Path(sys.executable).parent / "oneclaw-search"


class ProbedServer:
    """`oneclaw-search mcp` on pipes, initialised, each line sent and its answer awaited."""

    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen([str(SCRIPT), "--db", str(db), "mcp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._send(json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}).encode())
        self._next(WAIT_SECONDS)
        self._send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def exchange(self, probe: ProbeLine, wait: float) -> dict:
        started = time.monotonic()
        self._send(probe.line)
        reply = None
        while reply is None or not _answers(reply, probe.sent_id):
            left = (0.5 if probe.expects is None else wait) - (time.monotonic() - started)
            reply = self._next(left) if left > 0 else None
            if reply is None:
                break
        answered = reply is not None
        return {"kind": probe.kind, "sent_id": probe.sent_id, "has_id": probe.has_id, "expects": probe.expects,
                "answered": answered, "as_expected": answered and _as_expected(reply, probe.expects),
                "reply": json.dumps(reply)[:300] if answered else "(nothing)", "seconds": time.monotonic() - started}

    def peak_kib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))

    def close(self) -> tuple[int, str]:
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        code = self.process.wait(60)
        return code, self.process.stderr.read().decode(errors="replace")

    def _send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def _next(self, wait: float) -> Any:
        assert self.process.stdout is not None
        if not select.select([self.process.stdout], [], [], wait)[0]:
            return None
        return json.loads(self.process.stdout.readline())


def _answers(reply: Any, sent_id: Any) -> bool:
    return any(item.get("id") == sent_id for item in (reply if isinstance(reply, list) else [reply]))


def _as_expected(reply: Any, expects: Any) -> bool:
    item = reply[0] if isinstance(reply, list) else reply
    return "result" in item if expects == RESULT else item.get("error", {}).get("code") == expects


def run(db: Path, seed: int) -> dict:
    lines: list[ProbeLine] = [*HOSTILE, *VALID]
    random.Random(seed).shuffle(lines)
    server, rows = ProbedServer(db), []
    try:
        for line in lines:
            rows.append(server.exchange(line, WAIT_SECONDS))
        peak_kib = server.peak_kib()
    finally:
        exit_code, stderr = server.close()
    unanswered = [row for row in rows if row["expects"] is not None and not row["answered"]]
    seconds = [row["seconds"] for row in rows if row["answered"]]
    return {"hostile": len(HOSTILE), "valid": len(VALID), "with_id": sum(row["has_id"] for row in rows),
            "unanswered": unanswered, "wrong": [row for row in rows if row["answered"] and not row["as_expected"]],
            "p50_ms": round(statistics.median(seconds) * 1000, 1), "max_ms": round(max(seconds) * 1000, 1),
            "peak_mib": round(peak_kib / 1024, 1), "exit_code": exit_code,
            "traceback": "Traceback" in stderr or any("Traceback" in row["reply"] for row in rows), "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a history file (e.g. the demo's oneclaw-demo.db)")
    parser.add_argument("--seed", type=int, default=46, help="the order the lines are mixed in")
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    args = parser.parse_args()
    report = run(args.db, args.seed)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for row in report["rows"]:
            print(f"{row['kind']:<34} id={json.dumps(row['sent_id']):<10} -> {row['reply'][:90]!s:<92} {row['seconds'] * 1000:7.1f} ms")
        print(f"\n{report['hostile']} hostile lines, {report['valid']} valid calls; {report['with_id']} carried an id")
        print(f"unanswered: {len(report['unanswered'])}; answered otherwise than expected: {len(report['wrong'])}")
        print(f"answer time p50 {report['p50_ms']} ms, max {report['max_ms']} ms; server peak memory {report['peak_mib']} MiB; "
              f"exit code {report['exit_code']}; traceback seen: {report['traceback']}")
    return 1 if report["unanswered"] or report["wrong"] or report["traceback"] or report["exit_code"] != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
