"""The recall benchmark runs end to end on a slice of each retrieval set and prints its metrics, with
bare tantivy's floors beside the tool's.

Recall itself is not asserted (it is what the search work is trying to move); run
`python tests/benchmarks/bench_recall.py` by hand for the figures. Skipped where the licensed LoCoMo
dataset is not beside the repository; the coding set joins where a clone of its transcripts is found.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "benchmarks" / "bench_recall.py"
DATASET = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "locomo"
ROW = re.compile(r"^(ours: keyword_query, turns shown|bare: own words, stop words kept: keyword_query)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$",
                 re.MULTILINE)


def test_the_recall_benchmark_reports_recall_for_the_tool_and_its_bare_floor():
    if not (DATASET / "locomo10-dev.json").is_file():
        pytest.skip(f"LoCoMo dev split not found at {DATASET}")
    done = subprocess.run([sys.executable, str(SCRIPT), "--smoke"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "== locomo:" in done.stdout and "errors: 0" in done.stdout
    for name in ("R@5", "R@10", "MRR@10", "zero", "p50", "p95", "R@10 per fold", "mean", "worst", "the floor: keyword queries",
                 "ours - floor"):
        assert name in done.stdout
    rows = ROW.findall(done.stdout)
    assert {row[0] for row in rows} == {"ours: keyword_query, turns shown", "bare: own words, stop words kept: keyword_query"}
    assert all(0.0 <= float(row[2]) <= 1.0 for row in rows)


def test_the_cross_validation_benchmark_scores_each_held_out_fold_beside_its_bare_floors():
    if not (DATASET / "locomo10-dev.json").is_file():
        pytest.skip(f"LoCoMo dev split not found at {DATASET}")
    script = SCRIPT.with_name("bench_cross_validation.py")
    done = subprocess.run([sys.executable, str(script), "--smoke", "--workers", "1"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    folds = re.findall(r"^(conv-\d+)\s+(\S+) / (\S+)\s+(\S+) / (\S+)", done.stdout, re.MULTILINE)
    assert [fold[0] for fold in folds] == ["conv-26", "conv-30"] * 2  # every part allowed, then the model
    assert all(0.0 <= float(value) <= 1.0 for fold in folds for value in fold[1:])
    for line in ("cross-validated: mean", "floor: mean", "each part's effect", "parts taken out", "the parts kept",
                 "chosen on every fold (the shipped default): window"):
        assert line in done.stdout
