"""The conformance checks that take minutes: the whole suite through the command line, one process per
op, and the mutation check. Run with `pytest -m slow`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_every_case_passes_or_is_not_applicable_through_the_command_line():
    run = subprocess.run([sys.executable, "-m", "oneclaw_search.tools.cli", "conformance", "--adapter", "cli", "--json"],
                         capture_output=True, text=True, check=False)
    report = json.loads(run.stdout)
    failed = [f"{case['id']}: {case['detail']}" for case in report["cases"] if case["status"] == "fail"]
    assert failed == [] and run.returncode == 0
    statuses = {case["id"]: case["status"] for case in report["cases"]}
    assert list(statuses.values()).count("pass") > len(statuses) * 0.8, "most cases can be put to a command line"
    assert statuses["command-line-exit-codes"] == "pass"  # the one adapter with exit codes checks them


@pytest.mark.slow
def test_every_seeded_defect_is_caught_by_some_case():
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "conformance" / "mutation_check.py"), "--json"],
                         capture_output=True, text=True, check=False)
    report = json.loads(run.stdout)
    assert report["baseline_failures"] == [] and report["baseline_error"] is None
    assert [row["defect"] for row in report["defects"] if not row["caught_by"]] == []
    assert run.returncode == 0
