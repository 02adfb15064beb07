"""The session summary's sizes, each over a grid, by leave-one-conversation-out cross-validation on
LoCoMo dev (ROUGE-1 F against its session summaries, as bench_session_summary.py scores them), with
the time a 1,000-turn session takes at each value: the figures behind SUMMARY_WORDS
(domain/prose_summary.py) and MAX_WORDS (data/summaries/keyphrases.py).

    python tests/benchmarks/bench_summary_constants.py [NAME ...]   # needs rouge-score; a few minutes on 2 cores
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

import bench_session_summary as bench  # beside this script, whose folder is on sys.path

from oneclaw_search.data.summaries import keyphrases
from oneclaw_search.data.summaries.keyphrases import YakeTopics
from oneclaw_search.domain import prose_summary
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer

GRIDS: dict[str, tuple[ModuleType, tuple[int, ...]]] = {
    "SUMMARY_WORDS": (prose_summary, (60, 90, 120)),
    "MAX_WORDS": (keyphrases, (250, 500, 1_000, 10**9)),
}


@contextmanager
def held(module: ModuleType, name: str, value: int) -> Iterator[None]:
    before = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, before)


def scores(samples: list[dict], said: Callable[[ExtractiveSummarizer, bench.Transcript], str]) -> dict[str, list[float]]:
    """ROUGE-1 F of `said` per session, by conversation."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1"])
    found: dict[str, list[float]] = {}
    for sample in samples:
        transcripts = bench.sessions(sample)
        vocabulary = bench.HistoryVocabulary([t.content for s in transcripts.values() for t in s.turns])
        summarizer = ExtractiveSummarizer(vocabulary, vocabulary.rows, topics=YakeTopics())
        for n, transcript in transcripts.items():
            reference = sample["session_summary"].get(f"session_{n}_summary", "")
            if reference.strip():
                found.setdefault(sample["sample_id"], []).append(scorer.score(reference, said(summarizer, transcript))["rouge1"].fmeasure)
    return found


def folds(by_value: dict[int, dict[str, list[float]]]) -> dict[str, object]:
    """Each conversation scored at the value the other four choose; the mean and worst fold."""
    held_out = {}
    for conversation in next(iter(by_value.values())):
        chosen = max(by_value, key=lambda value: statistics.mean(
            score for name, rows in by_value[value].items() if name != conversation for score in rows))
        held_out[conversation] = (chosen, statistics.mean(by_value[chosen][conversation]))
    every = {value: statistics.mean(score for rows in by.values() for score in rows) for value, by in by_value.items()}
    return {"folds": held_out, "mean": statistics.mean(s for _, s in held_out.values()),
            "worst": min(s for _, s in held_out.values()), "pooled_by_value": every}


def ms_per_long_session() -> float:
    """Median ms to summarise a 1,000-turn session (bench_session_summary's synthetic one), five seeds."""
    times = []
    for seed in range(5):
        transcript = bench.long_session(100 + seed)
        vocabulary = bench.HistoryVocabulary([t.content for t in transcript.turns])
        summarizer = ExtractiveSummarizer(vocabulary, vocabulary.rows, topics=YakeTopics())
        start = time.perf_counter()
        summarizer.summarize(transcript)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    samples = json.loads(bench.DATASET.read_text())
    prose = lambda summarizer, transcript: summarizer.prose(transcript.turns)  # noqa: E731
    topics = lambda summarizer, transcript: " ".join(summarizer.summarize(transcript).key_topics)  # noqa: E731
    for name, (module, grid) in GRIDS.items():
        if sys.argv[1:] and name not in sys.argv[1:]:
            continue
        said = prose if module is prose_summary else topics
        by_value, timed = {}, {}
        for value in grid:
            with held(module, name, value):
                by_value[value] = scores(samples, said)
                timed[value] = ms_per_long_session()
        table = folds(by_value)
        print(f"\n{name} (shipped {getattr(module, name)}), ROUGE-1 of the {'summary' if said is prose else 'topics'}:")
        print("  folds: " + ", ".join(f"{c} {s:.3f} ({v})" for c, (v, s) in table["folds"].items())
              + f"; mean {table['mean']:.3f}, worst {table['worst']:.3f}")
        print("  every value on all five: " + ", ".join(f"{v}: {s:.3f}, {timed[v]:.0f} ms" for v, s in table["pooled_by_value"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
