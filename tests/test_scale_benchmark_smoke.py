"""The scale benchmark script runs end to end and reports every summary row; run it by hand for figures.

Timings are not asserted (a shared CI machine is no stopwatch): see `python tests/benchmarks/bench_scale.py`.
"""
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "benchmarks" / "bench_scale.py"
SUMMARY_ROWS = (
    "scope all p50", "scope all p95", "slowest query's p50", "mix's mean / bare tantivy's",
    "first search, unindexed (call)", "index build rate", "1K catch-up", "side index size", "peak RssAnon, build",
)


def test_the_scale_benchmark_reports_every_summary_row(tmp_path):
    command = [sys.executable, str(SCRIPT), "--smoke", "--cache-dir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    summary = done.stdout.split("\nsummary\n", 1)[-1].splitlines()
    for label in SUMMARY_ROWS:
        row = next((line for line in summary if line.strip().startswith(label)), None)
        assert row is not None, f"no summary row {label!r} in:\n{done.stdout}"
        assert row.rstrip().endswith(("ok", "OVER")), row

