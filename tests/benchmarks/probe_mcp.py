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
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the pipe client the tests use too

from mcp_pipe import McpPipe  # noqa: E402
from probe_mcp_lines import HOSTILE, RESULT, VALID, ProbeLine  # noqa: E402

WAIT_SECONDS = 35.0  # past the tool's 30-second budget: a slow search is still an answer


def exchange(pipe: McpPipe, probe: ProbeLine, wait: float) -> dict:
    """Send one line and wait for its answer: the one carrying its id (null for an unreadable line)."""
    started = time.monotonic()
    pipe.send(probe.line)
    reply = None
    while reply is None or not _answers(reply, probe.sent_id):
        reply = pipe.next((0.5 if probe.expects is None else wait) - (time.monotonic() - started))
        if reply is None:
            break
    answered = reply is not None
    return {"kind": probe.kind, "sent_id": probe.sent_id, "has_id": probe.has_id, "expects": probe.expects,
            "answered": answered, "as_expected": answered and _as_expected(reply, probe.expects),
            "reply": json.dumps(reply)[:300] if answered else "(nothing)", "seconds": time.monotonic() - started}


def _answers(reply: Any, sent_id: Any) -> bool:
    return any(item.get("id") == sent_id for item in (reply if isinstance(reply, list) else [reply]))


def _as_expected(reply: Any, expects: Any) -> bool:
    item = reply[0] if isinstance(reply, list) else reply
    return "result" in item if expects == RESULT else item.get("error", {}).get("code") == expects


def run(db: Path, seed: int) -> dict:
    lines: list[ProbeLine] = [*HOSTILE, *VALID]
    random.Random(seed).shuffle(lines)
    pipe, rows = McpPipe(db, wait=WAIT_SECONDS), []
    try:
        for line in lines:
            rows.append(exchange(pipe, line, WAIT_SECONDS))
        peak_kib = pipe.peak_kib()
    finally:
        exit_code = pipe.close()
        stderr = pipe.process.stderr.read().decode(errors="replace") if pipe.process.stderr else ""
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
