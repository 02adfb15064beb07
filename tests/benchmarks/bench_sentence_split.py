"""The session summary's sentence splitter (domain/summary_cues.py, a regex: the domain imports only
the standard library) against pysbd, a rule-based segmenter library: how often the two cut a turn
alike, their speed, and the labelled decisions' and open items' precision and recall with each.

    python tests/benchmarks/bench_sentence_split.py      (needs pysbd and rouge-score installed)
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from importlib.util import find_spec
from unittest import mock

import bench_session_summary as bench

from oneclaw_search.domain import summary_cues


def main() -> int:
    if find_spec("pysbd") is None or not bench.DATASET.exists():
        print("needs pysbd (pip install pysbd) and the LoCoMo dev split", file=sys.stderr)
        return 2
    import pysbd

    segmenter = pysbd.Segmenter(language="en", clean=False)

    def library(text: str) -> tuple[str, ...]:
        lines = text.replace("\u2019", "'").splitlines()
        return tuple(s.strip() for line in lines for s in segmenter.segment(line) if s.strip())

    samples = json.loads(bench.DATASET.read_text())
    texts = [turn["text"] for sample in samples for key, turns in sample["conversation"].items()
             if key.startswith("session_") and isinstance(turns, list) for turn in turns]
    same = sum(summary_cues.sentences(text) == library(text) for text in texts)
    timings = {}
    uncached = summary_cues.sentences.__wrapped__  # the regex itself, not its cache of recent turns
    for name, split in (("regex", uncached), ("pysbd", library)):
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            for text in texts:
                split(text)
            runs.append((time.perf_counter() - start) / len(texts) * 1e6)
        timings[name] = statistics.median(runs)
    ours = bench.labelled(samples)
    with mock.patch.object(summary_cues, "sentences", library):
        theirs = bench.labelled(samples)
    print(f"{len(texts)} LoCoMo dev turns; cut alike: {same / len(texts):.3f}")
    print("µs per turn, median of 5: " + ", ".join(f"{name} {us:.1f}" for name, us in timings.items()))
    for name, found in (("regex", ours), ("pysbd", theirs)):
        print(name + ": " + "; ".join(f"{kind} P {row['precision']:.2f} R {row['recall']:.2f}" for kind, row in found.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
