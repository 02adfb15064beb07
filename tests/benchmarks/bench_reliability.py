"""Runs the reliability suite (tests/reliability) at full size and prints its figures as one table; run by hand.

    python tests/benchmarks/bench_reliability.py              # 10,000 fuzzed calls per property, 10,000 turns, 3 searchers
    python tests/benchmarks/bench_reliability.py --examples 500 --turns 1000 --searchers 2

CI runs the same tests smaller (their defaults). Each row is a test file: its cases (parametrized
cases and Hypothesis properties count once each), failures and wall time.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GROUPS = {
    "test_fuzz": "fuzz: search_history and read_session calls, determinism, prefix order, deleted sessions",
    "test_faults": "faults: damaged/deleted index or side file, no writable cache, edited messages, index command",
    "test_secrets": "security: secrets masked in every reply",
    "test_concurrency": "concurrency: a recorder writing while processes search",
    "test_hostile_files": "security: hostile backups and import files",
    "test_weak_hits": "ranking: weak hits without the query's words stay out of the way",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000, help="Hypothesis examples per fuzz property")
    parser.add_argument("--turns", type=int, default=10_000, help="turns the recorder writes during the searches")
    parser.add_argument("--searchers", type=int, default=3, help="processes searching while it writes")
    args = parser.parse_args(argv)
    environment = {**os.environ, "FUZZ_EXAMPLES": str(args.examples), "CONCURRENT_TURNS": str(args.turns),
                   "CONCURRENT_SEARCHERS": str(args.searchers)}
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "junit.xml"
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/reliability",
                               f"--junitxml={report}"], cwd=ROOT, env=environment, capture_output=True, text=True)
        rows = _rows(report) if report.exists() else {}
    print(f"reliability suite: {args.examples:,} examples per fuzz property, {args.turns:,} turns with "
          f"{args.searchers} searching processes")
    print("| group | cases | failed | seconds |\n| --- | --- | --- | --- |")
    for name, (cases, failed, seconds) in sorted(rows.items()):
        print(f"| {GROUPS.get(name, name)} | {cases} | {failed} | {seconds:.1f} |")
    if done.returncode != 0:
        print(done.stdout[-3000:], file=sys.stderr)
    return done.returncode


def _rows(report: Path) -> dict[str, tuple[int, int, float]]:
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for case in ElementTree.parse(report).iter("testcase"):
        name = case.get("classname", "").rsplit(".", 1)[-1]
        row = totals[name]
        row[0] += 1
        row[1] += 1 if case.find("failure") is not None or case.find("error") is not None else 0
        row[2] += float(case.get("time", 0))
    return {name: (int(cases), int(failed), seconds) for name, (cases, failed, seconds) in totals.items()}


if __name__ == "__main__":
    sys.exit(main())
