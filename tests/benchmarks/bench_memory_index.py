"""Memory with and without its vector graph (data/memory/vector_index.py): exactness and speed; run by hand.

    python tests/benchmarks/bench_memory_index.py                    # exactness on real text, then speed
    python tests/benchmarks/bench_memory_index.py --speed-only --chunks 200000

Exactness: real text as memory (LoCoMo dev's turns, observations and summaries, and the coding sets'
Claude Code turns when their mirror is here), embedded by the default embedder; the queries are every
set's keyword queries and questions. The share of queries whose top 50 (ids and order) through the
graph equal the top 50 read from every row, by kind of query; the rule is 99 %. Speed: the memory
source alone on larger memories whose chunks each join two real texts drawn at random, medians of
--runs passes over each kind of query, read whole and through the graph, and the graph's build time.
--gather times what the graph path's rule of one row in GRAPH_SHARE rests on.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import locomo_data  # noqa: E402
from claude_code_sessions import load as load_transcripts  # noqa: E402
from coding_set import SECOND, default_repo, labels  # noqa: E402

from oneclaw_search.data.embedding.vectors import encode_embedding, no_blas_products  # noqa: E402
from oneclaw_search.data.memory import vector_index  # noqa: E402
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine  # noqa: E402
from oneclaw_search.data.memory.memory_snapshot import MemorySnapshot  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402
from oneclaw_search.domain.clock import PinnedClock  # noqa: E402
from oneclaw_search.domain.models import MemoryChunk  # noqa: E402

UTC = ZoneInfo("UTC")
TOP = 50
KINDS = ("keyword_query", "question")
NOW_MS = 1_790_000_000_000


def real_text() -> tuple[list[str], dict[str, list[str]]]:
    """(chunk texts, queries by kind) of every real set here."""
    samples, queries = locomo_data.load()
    texts: list[str] = []
    asked = {key: [q[key] for q in queries if q.get(key)] for key in KINDS}
    for sample in samples:
        _, messages, chunks = locomo_data.history_rows(sample)
        texts += [m.content for m in messages] + [c.chunk_text for c in chunks]
    repo = default_repo()
    if repo is not None:
        texts += [turn.content for _, transcript in load_transcripts(repo) for turn in transcript.turns if turn.content.strip()]
        for key in KINDS:
            asked[key] += [q[key] for path in (None, SECOND) for q in (labels(path) if path else labels())["queries"]]
    letters = np.random.default_rng(7).integers(ord("a"), ord("z") + 1, (100, 9))
    asked["no word held"] = ["".join(map(chr, word)) for word in letters]  # misspellings no chunk holds
    return texts, asked


def snapshot_of(texts: list[str]) -> MemorySnapshot:
    embedder = default_embedder()
    vectors = embedder.embed(texts)
    chunks = [MemoryChunk(f"c{n}", "long_term", None, text, encode_embedding(vector), NOW_MS - n * 60_000, NOW_MS - n * 60_000)
              for n, (text, vector) in enumerate(zip(texts, vectors, strict=True))]
    return MemorySnapshot.build("bench", chunks, embedder.dimension, UTC)


def engine_over(snapshot: MemorySnapshot) -> HybridSearchEngine:
    engine = HybridSearchEngine(None, PinnedClock(NOW_MS), UTC, default_embedder(), default_embedder().name)  # type: ignore[arg-type]
    engine._keeper.current = lambda deadline: snapshot  # type: ignore[method-assign]
    return engine


def top_ids(engine: HybridSearchEngine, query: str) -> list[str]:
    return [found.chunk.id for found in engine.search(query, TOP)]


def indexed(snapshot: MemorySnapshot) -> tuple[MemorySnapshot, float]:
    started = time.perf_counter()
    graph = snapshot.with_neighbours()
    return graph, time.perf_counter() - started


def exactness(whole: MemorySnapshot, queries: dict[str, list[str]]) -> None:
    graph, _ = indexed(whole)
    exact, through = engine_over(whole), engine_over(graph)
    for kind, asked in queries.items():
        misses = [query for query in asked if top_ids(through, query) != top_ids(exact, query)]
        print(f"  {len(whole.chunks):,} chunks, {len(asked):,} {kind}s: top {TOP} equal on {1 - len(misses) / len(asked):.2%}"
              + (f"; first differing: {misses[:2]}" if misses else ""))


def timed(engine: HybridSearchEngine, queries: list[str], runs: int) -> list[float]:
    for query in queries:
        engine.search(query, TOP)
    passes = []
    for _ in range(runs):
        for query in queries:
            started = time.perf_counter()
            engine.search(query, TOP)
            passes.append((time.perf_counter() - started) * 1000)
    return passes


def speed(whole: MemorySnapshot, queries: dict[str, list[str]], runs: int) -> None:
    graph, seconds = indexed(whole)
    print(f"  {len(whole.chunks):,} chunks: graph built in {seconds:.1f} s, {len(graph.parts()['neighbours']) / 1e6:.0f} MB")
    vectors = [whole.query_vector(default_embedder(), query) for asked in queries.values() for query in asked]
    for label, read in (("one read of every vector", lambda v: no_blas_products(whole.vectors, v)),
                        ("one ask of the graph", lambda v: graph.neighbours.closest(v))):
        took = []
        for vector in vectors:
            started = time.perf_counter()
            read(vector)
            took.append((time.perf_counter() - started) * 1000)
        print(f"    {label:24} p50 {statistics.median(took):6.2f} ms")
    for kind, asked in queries.items():
        for label, snapshot in (("read whole", whole), ("graph", graph)):
            passes = timed(engine_over(snapshot), asked, runs)
            print(f"    {kind:13.13} {label:10} p50 {statistics.median(passes):6.2f} ms, p95 {np.percentile(passes, 95):6.2f} ms")


def gather(rows: int = 200_000, runs: int = 20) -> None:
    """What scoring one row in `share` by row number costs against reading every row in order."""
    rng = np.random.default_rng(7)
    vectors, query = rng.random((rows, 384), dtype=np.float32), rng.random(384, dtype=np.float32)

    def ms(action: Callable[[], object]) -> float:
        started = time.perf_counter()
        for _ in range(runs):
            action()
        return (time.perf_counter() - started) / runs * 1000
    whole = ms(lambda: no_blas_products(vectors, query))
    print(f"reading {rows:,} rows in order: {whole:.2f} ms")
    for share in (4, 8, 16, 32):
        picked = np.sort(rng.choice(rows, rows // share, replace=False))
        took = ms(lambda picked=picked: no_blas_products(np.take(vectors, picked, axis=0), query))
        print(f"  one row in {share:2}, by row number: {took:6.2f} ms ({took / whole:.2f} of reading all)")


def memory_of(texts: list[str], size: int) -> list[str]:
    """`size` chunks of real words, each two real texts drawn at random: a row rarely repeats one."""
    rng = np.random.default_rng(7)
    return [texts[i] + " " + texts[j] for i, j in rng.integers(0, len(texts), (size, 2))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--gather", action="store_true", help="only time scoring rows by number against reading all")
    parser.add_argument("--chunks", type=int, nargs="*", default=[20_000, 200_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--breadth", type=int, nargs="*", default=[vector_index.SEARCH_BREADTH],
                        help="the graph's search breadths to compare (the shipped one by default)")
    args = parser.parse_args()
    vector_index.GRAPH_FLOOR = 0  # every memory here gets its graph: what it costs and saves is measured
    if args.gather:
        gather()
        return
    texts, queries = real_text()
    real = snapshot_of(texts)
    for breadth in args.breadth:
        vector_index.SEARCH_BREADTH = breadth
        print(f"search breadth {breadth}:")
        if not args.speed_only:
            exactness(real, queries)
        for size in args.chunks:
            snapshot = snapshot_of(memory_of(texts, size))
            speed(snapshot, {kind: asked[:100] for kind, asked in queries.items()}, args.runs)
            if not args.speed_only:
                exactness(snapshot, {kind: asked[:200] for kind, asked in queries.items()})


if __name__ == "__main__":
    main()
