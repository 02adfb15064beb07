"""bench_postgres.py runs end to end on a small history against the test server and prints its
table; its figures come from running it by hand (docs/performance.md), never from CI."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_postgres.py"
ROWS = ("import: write", "import: write + index", "1 client: p50 / p95 per search", "2 clients: throughput",
        "failed searches (1 client, clients)")


def test_the_postgresql_benchmark_reports_every_row(postgres_url, tmp_path):
    command = [sys.executable, str(SCRIPT), "--messages", "1000", "--pg-url", postgres_url, "--rounds", "1",
               "--clients", "2", "--client-rounds", "1", "--work-dir", str(tmp_path),
               "--json", str(tmp_path / "figures.json")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    for label in ROWS:
        row = next((line for line in done.stdout.splitlines() if line.startswith(label)), None)
        assert row is not None, f"no row {label!r} in:\n{done.stdout}"
    assert "failed searches (1 client, clients)" in done.stdout and "| 0, 0" in done.stdout
    assert (tmp_path / "figures.json").is_file()
