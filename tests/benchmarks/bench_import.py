"""Measures JSONL import speed (issue 4: 100K messages at >= 20K messages/s); run by hand.

    python tests/benchmarks/bench_import.py              # 100,000 squidbot lines
    python tests/benchmarks/bench_import.py --lines 2000 # a quick look

Writes a deterministic squidbot history.jsonl (chat turns in a few channels, some tool calls),
imports it into a fresh database with the real importer, then imports it again (nothing new).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_corpus import _Writer  # noqa: E402

from oneclaw_search.data.history_writer import HistoryWriter  # noqa: E402
from oneclaw_search.data.schema import open_writable  # noqa: E402
from oneclaw_search.data.squidbot_importer import SquidbotImporter  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402
from oneclaw_search.domain.local_time import resolve_zone  # noqa: E402

SENDERS = [("matrix", "@alice:matrix.org"), ("matrix", "@bob:matrix.org"), ("email", "carol@example.org"), ("cli", None)]


def write_history(path: Path, count: int, seed: int = 11) -> None:
    rng, writer = random.Random(seed), _Writer(seed)
    moment = datetime(2025, 6, 1, 8, 0)
    with path.open("w", encoding="utf-8") as out:
        for number in range(count):
            channel, sender = SENDERS[number // 40 % len(SENDERS)]
            role = "user" if number % 2 == 0 else "assistant"
            moment += timedelta(seconds=rng.randint(5, 600))
            line = {"role": role, "content": writer.prose(writer.length(role == "user")), "timestamp": moment.isoformat(),
                    "channel": channel, **({"sender_id": sender} if sender else {})}
            if role == "assistant" and number % 25 == 1:
                line["tool_calls"] = [{"id": f"c{number}", "name": "web_search", "arguments": {"q": "x"}}]
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


def timed_import(db: Path, history: Path) -> tuple[float, object]:
    database = open_writable(db)
    try:
        started = time.perf_counter()
        summary = SquidbotImporter(HistoryWriter(database, default_embedder()), resolve_zone("UTC")).import_path(history)
        return time.perf_counter() - started, summary
    finally:
        database.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        history, db = Path(folder) / "history.jsonl", Path(folder) / "history.db"
        write_history(history, args.lines)
        first, summary = timed_import(db, history)
        again, repeat = timed_import(db, history)
    print(f"squidbot JSONL: {args.lines:,} lines -> {summary.messages:,} messages in {summary.sessions} sessions")
    print(f"  first import: {first:.2f} s = {summary.messages / first:,.0f} messages/s (target >= 20,000)")
    print(f"  import again: {again:.2f} s, {repeat.messages} new messages ({repeat.already:,} already there)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
