"""The language-neutral conformance suite through the postgres adapter: every case in a tenant of
its own on the real server; every case passes or needs a capability only SQLite's side index has."""
from __future__ import annotations

from pathlib import Path

import pytest

from oneclaw_search.conformance.cases import load_groups
from oneclaw_search.conformance.postgres_adapter import PostgresAdapter
from oneclaw_search.conformance.runner import NOT_APPLICABLE, PASS, Runner

CASES = load_groups(Path(__file__).resolve().parents[2] / "specs" / "conformance")
ALL_CASES = [case for group in CASES for case in group.cases]
NOT_OFFERED = {"exit_codes", "keyword_index_off", "schema"}  # a command line's, and SQLite's side index and layout
READS_DIFFERENTLY: dict[str, str] = {}  # case id -> why this backend reads it otherwise (docs/postgresql.md)


@pytest.fixture(scope="module")
def runner(postgres_url):
    adapter = PostgresAdapter(postgres_url)
    yield Runner(adapter)
    adapter.close()


@pytest.mark.parametrize("case", ALL_CASES, ids=[case.id for case in ALL_CASES])
def test_each_case_passes_on_postgresql(runner, case):
    outcome = runner.run_case(case)
    if case.id in READS_DIFFERENTLY:
        assert outcome.status != PASS, f"{case.id} now passes: take it out of READS_DIFFERENTLY"
        return
    if outcome.status == NOT_APPLICABLE:
        missing = set(case.requires) - runner.capabilities
        assert missing and missing <= NOT_OFFERED, f"{case.id} was not applicable: {outcome.detail}"
        return
    assert outcome.status == PASS, f"{case.id}: {outcome.detail}"
