"""Memory's BM25 against rank-bm25's own: building the model of a memory index, and scoring a query
(data/memory/memory_bm25.py counts postings in one numpy pass and scores only the chunks holding a
term; rank-bm25's BM25Okapi builds a dictionary per chunk and scores by walking every one).

    python tests/benchmarks/bench_memory_bm25.py [--chunks 20000] [--runs 5]

The chunks are the synthetic corpus's memory chunks, split by the keyword index's analyzer as memory
search splits them. Prints the median (and range) of each over --runs, and checks that both give the
same scores (rank-bm25's class given OneClaw's non-negative IDF, as ours has).
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from rank_bm25 import BM25Okapi

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic_corpus import synthetic_corpus  # noqa: E402

from oneclaw_search.data.memory.memory_bm25 import MemoryBM25  # noqa: E402
from oneclaw_search.data.text.analyzer import memory_terms  # noqa: E402

QUERIES = ("sushi", "database migration", "meeting notes kamakura", "quokka")  # made terms as memory search makes them


class OneClawOkapi(BM25Okapi):
    """rank-bm25's Okapi with BM25Scorer.kt's IDF, ln(1 + (N - df + 0.5) / (df + 0.5))."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


def timed(make, runs: int) -> tuple[list[float], object]:
    seconds, made = [], None
    for _ in range(runs):
        started = time.perf_counter()
        made = make()
        seconds.append(time.perf_counter() - started)
    return seconds, made


def show(label: str, seconds: list[float], unit: float = 1000.0, name: str = "ms") -> None:
    values = [value * unit for value in seconds]
    print(f"  {label:<58}{statistics.median(values):>10.2f} {name}  ({min(values):.2f} to {max(values):.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    _, _, chunks = synthetic_corpus(0, 0, args.chunks, now_ms=1_780_000_000_000)
    corpus = [memory_terms(chunk.chunk_text) for chunk in chunks]
    print(f"{len(corpus):,} chunks, {sum(map(len, corpus)):,} terms; median of {args.runs} runs")
    ours_build, ours = timed(lambda: MemoryBM25(corpus), args.runs)
    theirs_build, theirs = timed(lambda: OneClawOkapi(corpus, k1=1.2, b=0.75), args.runs)
    show("build: ours (postings, numpy)", ours_build)
    show("build: rank-bm25 BM25Okapi", theirs_build)
    for query in QUERIES:
        terms = memory_terms(query)
        ours_score, scored = timed(lambda t=terms: ours.get_scores(t), args.runs)
        theirs_score, expected = timed(lambda t=terms: theirs.get_scores(t), args.runs)
        same = np.allclose(scored, expected, rtol=1e-12, atol=1e-12) and bool(np.any(expected))
        show(f"score {query!r}: ours", ours_score)
        show(f"score {query!r}: rank-bm25 (same scores: {same})", theirs_score)
        if not same:
            print("  the scores differ: ours is wrong")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
