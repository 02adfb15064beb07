"""The conformance check that takes many minutes: the mutation check, every seeded defect caught by some
case. Run with `pytest -m slow`. (The suite through the command line runs with the others, case by case,
in test_conformance_suite.py.)"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_every_seeded_defect_is_caught_by_some_case():
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "conformance" / "mutation_check.py"), "--json"],
                         capture_output=True, text=True, check=False)
    report = json.loads(run.stdout)
    assert report["baseline_failures"] == [] and report["baseline_error"] is None
    assert [row["defect"] for row in report["defects"] if not row["caught_by"]] == []
    assert run.returncode == 0
