"""The conformance runner itself: it fails a case that does not hold, reports what it cannot run as not
applicable, refuses a broken case file, and reads times and replies as PROTOCOL.md says."""
from __future__ import annotations

import json
import sys

import pytest

from oneclaw_search.conformance.cases import CaseFileError, load_groups
from oneclaw_search.conformance.fixtures import Moment, resolve_fixture
from oneclaw_search.conformance.in_process import InProcessAdapter
from oneclaw_search.conformance.process_adapter import ProcessAdapter
from oneclaw_search.conformance.replies import read_reply
from oneclaw_search.conformance.report import verdicts
from oneclaw_search.conformance.runner import FAIL, NOT_APPLICABLE, PASS, Runner

FIXTURE = {"sessions": [{"id": "s1", "title": "Trip"}],
           "messages": [{"id": "m1", "session_id": "s1", "content": "Book the train to Kyoto", "created_at": "now-2d@09:00"},
                        {"id": "m2", "session_id": "s1", "content": "Kyoto hotel is booked", "created_at": "now-1d@09:00",
                         "type": "AI_RESPONSE"}]}


def group_file(tmp_path, cases, name="feat-032"):
    folder = tmp_path / "cases"
    folder.mkdir(exist_ok=True)
    document = {"group": name, "defaults": {"now": "2026-03-01T12:00", "time_zone": "Asia/Tokyo"}, "cases": cases}
    (folder / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
    return load_groups(folder)


@pytest.fixture(scope="module")
def runner():
    adapter = InProcessAdapter()
    yield Runner(adapter)
    adapter.close()


def test_a_case_that_does_not_hold_fails_saying_what_was_seen(tmp_path, runner):
    right, wrong = group_file(tmp_path, [
        {"id": "right", "proves": ["AC-02"], "fixture": FIXTURE, "call": {"query": "kyoto", "scope": "sessions"},
         "expect": [{"first": ["m2", "s1", "m1"]}]},
        {"id": "wrong", "proves": ["AC-02"], "fixture": FIXTURE, "call": {"query": "kyoto", "scope": "sessions"},
         "expect": [{"first": ["m1", "m2"]}]},
    ])[0].cases
    assert runner.run_case(right).status == PASS
    outcome = runner.run_case(wrong)
    assert outcome.status == FAIL
    assert "first: expected ['m1', 'm2'] first, got m2(message 0.59), s1(session 0.49), m1(message" in outcome.detail


def test_an_id_fails_when_any_case_proving_it_fails(tmp_path, runner):
    groups = group_file(tmp_path, [
        {"id": "ok", "proves": ["ERR-1"], "fixture": FIXTURE, "call": {"query": " "}, "expect": [{"error": {"type": "validation_error"}}]},
        {"id": "bad", "proves": ["ERR-1", "AC-11"], "fixture": FIXTURE, "call": {"query": " "}, "expect": [{"success": True}]},
    ])
    summary = verdicts(groups, runner.run(groups))
    assert summary["ids"] == {"AC-11": FAIL, "ERR-1": FAIL} and summary["passed"] is False


class Refusing:
    """An implementation with no faults and no `tools` op."""

    def __init__(self):
        self.inner = InProcessAdapter()

    def request(self, message):
        if message["op"] == "hello":
            return {**self.inner.request(message), "capabilities": [], "groups": ["feat-032"]}
        if message["op"] == "tools":
            return {"ok": False, "unsupported": "no tool listing here"}
        return self.inner.request(message)

    def close(self):
        self.inner.close()


def test_what_an_implementation_cannot_take_part_in_is_not_applicable_and_does_not_fail_the_run(tmp_path):
    groups = group_file(tmp_path, [
        {"id": "faulty", "proves": ["ERR-4"], "requires": ["faults"], "fixture": FIXTURE,
         "steps": [{"fault": {"fault": "source_fails", "source": "messages"}}, {"call": {"query": "kyoto"}}]},
        {"id": "listing", "proves": ["TOOL-1"], "steps": [{"tools": {"name": "search_history"}}]},
    ])
    adapter = Refusing()
    try:
        outcomes = Runner(adapter).run(groups)
    finally:
        adapter.close()
    assert [(o.status, o.detail) for o in outcomes] == [(NOT_APPLICABLE, "needs faults"),
                                                        (NOT_APPLICABLE, "tools: no tool listing here")]
    assert verdicts(groups, outcomes)["passed"] is True


def test_an_adapter_process_that_dies_fails_the_case_showing_its_stderr(tmp_path):
    script = tmp_path / "dies.py"
    script.write_text("import sys\nprint(sys.stdin.readline() and '{\"ok\": true, \"groups\": [\"feat-032\"]}', flush=True)\n"
                      "sys.stderr.write('adapter exploded: no database driver')\n", encoding="utf-8")
    case = group_file(tmp_path, [{"id": "c", "proves": ["AC-02"], "fixture": FIXTURE, "call": {"query": "kyoto"}}])[0].cases[0]
    adapter = ProcessAdapter([sys.executable, str(script)])
    try:
        outcome = Runner(adapter).run_case(case)
    finally:
        adapter.close()
    assert outcome.status == FAIL and "adapter exploded: no database driver" in outcome.detail


@pytest.mark.parametrize(("cases", "named"), [
    ([{"id": "x", "proves": ["AC-02"], "call": {"query": "a"}, "expect": [{"looks_nice": True}]}], "case 'x'"),
    ([{"id": "x", "proves": [], "call": {"query": "a"}}], "\"proves\" must list"),
    ([{"id": "x", "proves": ["AC-02"], "fixture": "nowhere", "call": {"query": "a"}}], "no fixture named 'nowhere'"),
    ([{"id": "x", "proves": ["AC-02"], "steps": [{"call": {"query": "a"}, "load": {}}]}], "exactly one of"),
    ([{"id": "x", "proves": ["AC-02"], "call": {"query": "a"}}, {"id": "x", "proves": ["AC-02"], "call": {"query": "b"}}],
     "also used"),
])
def test_a_broken_case_file_is_refused_naming_the_file_and_the_case(tmp_path, cases, named):
    with pytest.raises(CaseFileError, match="feat-032.json") as refused:
        group_file(tmp_path, cases)
    assert named in str(refused.value)


def test_relative_times_count_calendar_days_at_the_same_wall_time_across_dst():
    moment = Moment("2026-03-08T12:00", "America/New_York")  # clocks sprang forward at 02:00 this day
    rows = resolve_fixture({"messages": [{"id": "a", "session_id": "s", "created_at": "now-1d"},
                                         {"id": "b", "session_id": "s", "created_at": "now-2d@23:30"},
                                         {"id": "c", "session_id": "s", "created_at": "now-90m"}],
                            "memory_index": [{"id": "k", "source_date": "today-3d", "chunk_text": "x"}]}, moment)
    at = {row["id"]: row["created_at"] for row in rows["messages"]}
    assert at["a"] == moment.at("2026-03-07T12:00") == moment.now_ms - 23 * 3_600_000
    assert at["b"] == moment.at("2026-03-06T23:30") and at["c"] == moment.now_ms - 5_400_000
    assert rows["memory_index"][0]["source_date"] == "2026-03-05"


def test_a_text_reply_is_tied_back_to_the_rows_it_shows():
    rows = {"sessions": [{"id": "s1", "title": "Trip"}], "memory_index": [{"id": "k1", "chunk_text": "Kyoto in May"}],
            "messages": [{"id": "m1", "content": "Book the train to Kyoto"}]}
    text = (
        '[Search Results for "kyoto" (scope: all, 3 results)]\n\n'
        "--- Result 1 (score: 1.00, source: memory) ---\nKyoto in May\n\n"
        '--- Result 2 (score: 0.60, source: message, date: 2026-02-27, session: "Trip") ---\nUser: Book the train to Kyoto\n\n'
        '--- Result 3 (score: 0.50, source: session, date: 2026-02-28) ---\n'
        'Session: "Trip" (2 messages, last active: 2026-02-28)\nPreview: x'
    )
    reply = read_reply({"success": True, "text": text}, rows, 1.0)
    assert [(r.id, r.score, r.source, r.date, r.session) for r in reply.results] == [
        ("k1", 1.0, "memory", None, None),
        ("m1", 0.6, "message", "2026-02-27", "Trip"),
        ("s1", 0.5, "session", "2026-02-28", None),
    ]


def test_the_worked_example_of_protocol_md_is_what_the_reference_adapter_answers():
    from pathlib import Path

    document = (Path(__file__).resolve().parents[2] / "specs" / "conformance" / "PROTOCOL.md").read_text(encoding="utf-8")
    example = document.split("## A worked example", 1)[1].split("```", 2)[1]
    asked = [json.loads(line[2:]) for line in example.splitlines() if line.startswith("> ")]
    told = [json.loads(line[2:]) for line in example.splitlines() if line.startswith("< ")]
    adapter = ProcessAdapter()
    try:
        answers = [adapter.request({key: value for key, value in message.items() if key != "id"}) for message in asked]
    finally:
        adapter.close()
    assert len(asked) == len(told) >= 6
    for answer, expected in zip(answers, told, strict=True):
        answer.pop("implementation", None), expected.pop("implementation", None)
        assert answer == expected
