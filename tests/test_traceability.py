"""Every spec id is proven by a test, every mark names a real id, and the table is current."""
import subprocess
import sys
from pathlib import Path

import pytest
from traceability import NOT_BY_TEST, TABLE, marked_tests, render, spec_ids

ROOT = Path(__file__).resolve().parent.parent


def test_the_spec_lists_each_id_once():
    ids = spec_ids()
    assert len(ids) == len(set(ids)) and len(ids) > 100


def test_every_spec_id_is_proven_by_at_least_one_test():
    traced = marked_tests()
    assert [spec_id for spec_id in spec_ids() if not traced.get(spec_id) and spec_id not in NOT_BY_TEST] == []


def test_every_spec_mark_names_an_id_that_exists():
    assert sorted(set(marked_tests()) - set(spec_ids())) == []


def test_the_committed_traceability_table_is_current():
    assert TABLE.read_text(encoding="utf-8") == render(), "run: python tests/traceability.py --write"


@pytest.mark.spec("AC-15")
def test_the_layer_1a_unit_suite_passes_on_its_own():
    run = subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/unit"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
