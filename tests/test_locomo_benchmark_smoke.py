"""The LoCoMo recall benchmark runs end to end on a slice of the dev split and prints its metrics.

Recall itself is not asserted (it is what the search work is trying to move); run
`python tests/benchmarks/bench_locomo.py` by hand for the figures. Skipped where the
licensed dataset is not beside the repository.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "benchmarks" / "bench_locomo.py"
DATASET = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "locomo"
KEYWORD_ROW = re.compile(r"^ours: keyword_query, turns shown\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", re.MULTILINE)


def test_the_locomo_benchmark_reports_recall_for_keyword_queries():
    if not (DATASET / "locomo10-dev.json").is_file():
        pytest.skip(f"LoCoMo dev split not found at {DATASET}")
    done = subprocess.run([sys.executable, str(SCRIPT), "--smoke"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for name in ("R@5", "R@10", "MRR@10", "zero", "p50", "p95", "errors:"):
        assert name in done.stdout
    row = KEYWORD_ROW.search(done.stdout)
    assert row, done.stdout
    recall_at_10 = float(row.group(2))
    assert 0.0 <= recall_at_10 <= 1.0
