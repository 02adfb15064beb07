"""The first search of a large memory: modelled in that search, against its newest chunks scored while
the whole model is built on a thread (data/memory/snapshot_keeper.py).

    python tests/benchmarks/bench_memory_first_search.py [--chunks 200000] [--runs 3] [--vectors]
    python tests/benchmarks/bench_memory_first_search.py --threshold-curve   # what a search pays per size

Each run gives the engine a side index of its own, so nothing is read back from an earlier run.
Prints, as medians over --runs: the first `scope=memory` search with the whole model built in it (as
every search did before), the same search answering from the newest IN_THREAD_ROWS chunks (the store's in_thread_rows), the
time until the whole model is built and kept, and a new engine's first search reading it back (in
this same process, imports loaded and the file cached: a new process pays its start-up on top).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import write_history  # noqa: E402
from synthetic_corpus import CORPUS_VERSION, synthetic_corpus  # noqa: E402

from oneclaw_search.data.index.background import IN_THREAD_ROWS  # noqa: E402
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine  # noqa: E402
from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402

NOW_MS = 1_790_000_000_000
SEED = 7
QUERY = "meeting notes kamakura"


def history(folder: Path, chunks: int, vectors: bool) -> Path:
    path = folder / f"memory-v{CORPUS_VERSION}-{chunks}c{'-vectors' if vectors else ''}-seed{SEED}.db"
    if not path.exists():
        sessions, messages, rows = synthetic_corpus(200, 10, chunks, NOW_MS, SEED)
        embedder = None
        if vectors:
            from oneclaw_search.data.embedding.static_embedder import StaticEmbedder
            embedder = StaticEmbedder()
        partial = path.with_suffix(".partial")  # an interrupted write is never taken for a history
        partial.unlink(missing_ok=True)
        write_history(partial, sessions, messages, rows, embedder)
        partial.replace(path)
    return path


def first_search(path: Path, side: Path, first_build_chunks: int, vectors: bool) -> tuple[float, float, bool]:
    """(seconds to the first reply, seconds until the whole model is kept, whether the reply was complete)."""
    container = create_injector(path, index_path=side, embedder="default" if vectors else None, time_zone="UTC")
    container.get(HybridSearchEngine)._keeper.first_build_chunks = first_build_chunks
    engine = container.get(ToolExecutionEngine)
    started = time.perf_counter()
    reply = engine.execute_tool("search_history", {"query": QUERY, "scope": "memory", "format": "json"})
    answered = time.perf_counter() - started
    container.get(HybridSearchEngine).flush()
    return answered, time.perf_counter() - started, json.loads(reply.result)["complete"]


def run(path: Path, runs: int, vectors: bool) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"built in the search": [], "newest first": [], "whole model kept": [],
                                       "a new engine reads it back": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            figures["built in the search"].append(first_search(path, Path(folder) / "a", 10**9, vectors)[0])
        with tempfile.TemporaryDirectory() as folder:
            answered, kept, complete = first_search(path, Path(folder) / "b", IN_THREAD_ROWS, vectors)
            assert not complete, "a memory larger than a search models answered as complete"
            figures["newest first"].append(answered)
            figures["whole model kept"].append(kept)
            again, _, complete = first_search(path, Path(folder) / "b", IN_THREAD_ROWS, vectors)
            assert complete
            figures["a new engine reads it back"].append(again)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--vectors", action="store_true", help="chunks carry the default embedder's vectors")
    parser.add_argument("--threshold-curve", action="store_true", help="a first search modelling 5K to 40K chunks")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "oneclaw-bench-memory")
    args = parser.parse_args()
    args.cache.mkdir(exist_ok=True)
    if args.threshold_curve:
        for size in (5_000, 10_000, 20_000, 40_000):
            path = history(args.cache, size, args.vectors)
            times = []
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory() as folder:
                    times.append(first_search(path, Path(folder) / "a", 10**9, args.vectors)[0])
            print(f"{size:>7,} chunks modelled in the first search: median {statistics.median(times):.3f} s "
                  f"({min(times):.3f} to {max(times):.3f})")
        return
    path = history(args.cache, args.chunks, args.vectors)
    print(f"{args.chunks:,} chunks{' with vectors' if args.vectors else ''}, {args.runs} runs, "
          f"IN_THREAD_ROWS {IN_THREAD_ROWS:,}")
    for name, times in run(path, args.runs, args.vectors).items():
        print(f"  {name:<28} median {statistics.median(times):7.3f} s   ({min(times):.3f} to {max(times):.3f})")


if __name__ == "__main__":
    main()
