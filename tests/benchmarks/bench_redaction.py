"""Times secret masking per reply on the synthetic history's own texts; run by hand.

    python tests/benchmarks/bench_redaction.py [--db PATH] [--replies 2000]

A reply is taken as 10 message hits with two turns of context each (30 texts, the most a
default search shows); the script prints the median and 95th percentile of masking one reply,
and how many of the sampled texts held something masked.
"""
from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from oneclaw_search.domain.redaction import redact

DEFAULT_DB = Path(tempfile.gettempdir()) / "oneclaw-bench" / "history-v1-1000000m-10000s-20000c-seed7.db"
TEXTS_PER_REPLY = 30


def sample_texts(db: Path, count: int, seed: int = 7) -> list[str]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        top = connection.execute("SELECT max(rowid) FROM messages").fetchone()[0]
        rowids = random.Random(seed).sample(range(1, top + 1), min(count, top))
        return [row[0] for row in connection.execute(
            "SELECT content FROM messages WHERE rowid IN (SELECT value FROM json_each(?))", (str(rowids),))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help="a history (default: bench_scale.py's cached 1M one)")
    parser.add_argument("--replies", type=int, default=2_000)
    args = parser.parse_args(argv)
    if not args.db.exists():
        print(f"no history at {args.db}: run tests/benchmarks/bench_scale.py first, or pass --db", file=sys.stderr)
        return 1
    texts = sample_texts(args.db, args.replies * TEXTS_PER_REPLY)
    replies = [texts[start:start + TEXTS_PER_REPLY] for start in range(0, len(texts), TEXTS_PER_REPLY)]
    timings, masked = [], 0
    for reply in replies:
        started = time.perf_counter()
        cleaned = [redact(text) for text in reply]
        timings.append((time.perf_counter() - started) * 1e6)
        masked += sum(1 for before, after in zip(reply, cleaned, strict=True) if before != after)
    timings.sort()
    print(f"{len(replies)} replies of {TEXTS_PER_REPLY} texts from {args.db.name}: masking p50 "
          f"{statistics.median(timings):.0f} µs, p95 {timings[int(0.95 * (len(timings) - 1))]:.0f} µs per reply; "
          f"{masked} of {len(texts)} texts held something masked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
