"""Measures FEAT-032's performance targets (NFR-1..NFR-4) on a synthetic history; run by hand.

    python tests/benchmarks/bench_spec_targets.py            # 100K messages, 1K sessions, 5K chunks
    python tests/benchmarks/bench_spec_targets.py --smoke    # tiny sizes, to check the script runs

Reports p50/p95 per source and for a whole scope=all tool call, beside the spec's limits.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_history import synthetic_history  # noqa: E402

from oneclaw_search.data.embedding.vectors import HashingEmbedder  # noqa: E402
from oneclaw_search.data.history.history_writer import HistoryWriter  # noqa: E402
from oneclaw_search.data.history.schema import open_writable  # noqa: E402
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine  # noqa: E402
from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.domain.ports import MessageDao, SessionDao  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402

QUERIES = ["sushi restaurant", "database migration", "kamakura", "東京", "über", "json", "zyxwvut", "birthday gift", "the"]
TARGETS_MS = {"memory (NFR-1)": 500, "messages (NFR-2)": 1000, "sessions (NFR-3)": 100, "scope all (NFR-4)": 2000}


def build(path: Path, messages: int, sessions: int, chunks: int) -> float:
    started = time.perf_counter()
    database = open_writable(path)
    HistoryWriter(database, HashingEmbedder()).write(*synthetic_history(messages, sessions, chunks, int(time.time() * 1000)))
    database.close()
    return time.perf_counter() - started


def timings(call, rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        for query in QUERIES:
            started = time.perf_counter()
            call(query)
            samples.append((time.perf_counter() - started) * 1000)
    return samples


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(path: Path, rounds: int) -> dict[str, list[float]]:
    container = create_injector(path)
    engine, tools = container.get(HybridSearchEngine), container.get(ToolExecutionEngine)
    messages, sessions = container.get(MessageDao), container.get(SessionDao)
    return {
        "memory (NFR-1)": timings(lambda q: engine.search(q, 200), rounds),
        "messages (NFR-2)": timings(lambda q: messages.search_content(q, limit=200), rounds),
        "sessions (NFR-3)": timings(lambda q: sessions.search_by_title_or_preview(q, limit=200), rounds),
        "scope all (NFR-4)": timings(lambda q: tools.execute_tool("search_history", {"query": q}), rounds),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=1_000)
    parser.add_argument("--chunks", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="2K messages, 50 sessions, 100 chunks, 1 round")
    args = parser.parse_args(argv)
    if args.smoke:
        args.messages, args.sessions, args.chunks, args.rounds = 2_000, 50, 100, 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        seconds = build(path, args.messages, args.sessions, args.chunks)
        print(f"history: {args.messages} messages, {args.sessions} sessions, {args.chunks} memory chunks "
              f"(built in {seconds:.1f} s, {path.stat().st_size / 1e6:.1f} MB)")
        print(f"{'measure':<20}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}{'target ms':>11}  verdict")
        for name, samples in measure(path, args.rounds).items():
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            verdict = "ok" if p95 < TARGETS_MS[name] else "OVER"
            print(f"{name:<20}{p50:>10.1f}{p95:>10.1f}{max(samples):>10.1f}{TARGETS_MS[name]:>11}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
