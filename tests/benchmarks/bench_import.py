"""Measures JSONL import speed against its target (100K messages at 20K messages/s or more); run by hand.

    python tests/benchmarks/bench_import.py                  # 100,000 lines, as a bundle and as squidbot's
    python tests/benchmarks/bench_import.py --kind bundle    # one kind only
    python tests/benchmarks/bench_import.py --lines 2000     # a quick look

Writes deterministic chat turns (a few channels, some tool calls) as a JSONL bundle and as a
squidbot history.jsonl, imports each into a fresh database with the real importer, then imports
it again. A fixed Python loop is timed too: the machines lent to sessions differ in speed.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_corpus import _Writer  # noqa: E402

from oneclaw_search.data.history.history_writer import HistoryWriter  # noqa: E402
from oneclaw_search.data.history.schema import open_writable  # noqa: E402
from oneclaw_search.data.importers.bundle_importer import BundleImporter  # noqa: E402
from oneclaw_search.data.importers.squidbot_importer import SquidbotImporter  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402
from oneclaw_search.domain.local_time import resolve_zone  # noqa: E402

SENDERS = [("matrix", "@alice:matrix.org"), ("matrix", "@bob:matrix.org"), ("email", "carol@example.org"), ("cli", None)]
UTC = resolve_zone("UTC")


def turns(count: int, seed: int = 11) -> Iterator[dict]:
    """Squidbot history lines: alternating user and assistant turns, every 25th answer calling a tool."""
    rng, writer = random.Random(seed), _Writer(seed)
    moment = datetime(2025, 6, 1, 8, 0)
    for number in range(count):
        channel, sender = SENDERS[number // 40 % len(SENDERS)]
        role = "user" if number % 2 == 0 else "assistant"
        moment += timedelta(seconds=rng.randint(5, 600))
        line = {"role": role, "content": writer.prose(writer.length(role == "user")), "timestamp": moment.isoformat(),
                "channel": channel, **({"sender_id": sender} if sender else {})}
        if role == "assistant" and number % 25 == 1:
            line["tool_calls"] = [{"id": f"c{number}", "name": "web_search", "arguments": {"q": "x"}}]
        yield line


def write_history(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for line in turns(count):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


def write_bundle(path: Path, count: int) -> None:
    """The same turns as bundle lines: a session per channel and sender, then a message per turn and per tool call."""
    with path.open("w", encoding="utf-8") as out:
        for channel, sender in SENDERS:
            session = {"kind": "session", "id": f"{channel}:{sender}", "title": channel}
            out.write(json.dumps({**session, "created_at": "2025-06-01T08:00"}) + "\n")
        for number, line in enumerate(turns(count)):
            common = {"kind": "message", "session_id": f"{line['channel']}:{line.get('sender_id')}",
                      "created_at": line["timestamp"]}
            out.write(json.dumps({**common, "id": f"m{number}", "role": line["role"], "content": line["content"]},
                                 ensure_ascii=False) + "\n")
            for call in line.get("tool_calls", []):
                out.write(json.dumps({**common, "id": f"m{number}:{call['id']}", "role": "tool_call", "content": "",
                                      "tool_name": call["name"], "tool_input": call["arguments"]}) + "\n")


def import_bundle(writer: HistoryWriter, path: Path):
    with path.open(encoding="utf-8") as lines:
        return BundleImporter(writer, UTC, 0).import_lines(lines)


def import_squidbot(writer: HistoryWriter, path: Path):
    return SquidbotImporter(writer, UTC).import_path(path)


def timed_import(db: Path, source: Path, run: Callable[[HistoryWriter, Path], object]) -> tuple[float, object]:
    database = open_writable(db)
    try:
        started = time.perf_counter()
        summary = run(HistoryWriter(database, default_embedder()), source)
        return time.perf_counter() - started, summary
    finally:
        database.close()


# kind: (file name, how it is written, how it is imported, what one source line is called)
KINDS = {"bundle": ("bundle.jsonl", write_bundle, import_bundle, "turns"),
         "squidbot": ("history.jsonl", write_history, import_squidbot, "lines")}


def bench(kind: str, folder: Path, lines: int) -> None:
    """Imports the kind's file into a new database, then the same file again."""
    name, write, run, unit = KINDS[kind]
    source, db = folder / name, folder / f"{kind}.db"
    write(source, lines)
    first, summary = timed_import(db, source, run)
    again, repeat = timed_import(db, source, run)
    print(f"{kind} JSONL: {lines:,} {unit} -> {summary.messages:,} messages in {summary.sessions} sessions")
    print(f"  first import: {first:.2f} s = {summary.messages / first:,.0f} messages/s (target >= 20,000)")
    kept = (f"{repeat.messages:,} new messages ({repeat.already:,} already there)" if hasattr(repeat, "already")
            else "every row rewritten in place")  # a bundle carries its own ids and times: it replaces rows
    print(f"  import again: {again:.2f} s, {kept}")


def loop_seconds() -> float:
    """A fixed pure-Python loop, to compare runs on machines of different speed."""
    started, total = time.perf_counter(), 0
    for number in range(10_000_000):
        total += number
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--kind", choices=("bundle", "squidbot", "both"), default="both")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for kind in KINDS if args.kind == "both" else (args.kind,):
            bench(kind, Path(folder), args.lines)
    print(f"calibration: a 10M-step Python loop took {loop_seconds():.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
