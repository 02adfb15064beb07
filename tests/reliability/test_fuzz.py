"""search_history and read_session fuzzed through the production container: every call
is a success, a validation_error or a search_error whose text is one clean line; the same call gives
the same answer; a shorter answer is the start of a longer one; a deleted session never shows.

CI runs FUZZ_EXAMPLES examples per property; tests/benchmarks/bench_reliability.py runs 10,000.
"""
import json
import os
import time
from itertools import pairwise

import pytest
from acceptance_helpers import untimed
from builders import ms, write_history
from conftest import seeded_rows
from fakes import FixedClock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
PARAMETERS = ("query", "scope", "date_from", "date_to", "date_range", "max_results", "format", "role", "session_id",
              "project", "agent_type", "context")
WORDS = ("sushi", "restaurant", "Sakura", "database migration", "寿司", "%", "_", "\\", "'", '"', "OR", "AND", "NOT",
         "*", "(", ")", ":", "~2", "^3", "-", "+", "[a-z]+", "'; DROP TABLE messages; --", "budget", "ramen", "the")
OUTCOMES = {("success", None), ("error", "validation_error"), ("error", "search_error")}
SLOWEST: list[float] = []

any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)
numbers = st.one_of(st.integers(-10**30, 10**30), st.floats(allow_nan=True, allow_infinity=True), st.booleans())
value = st.one_of(st.none(), any_text, numbers, st.sampled_from(WORDS), st.lists(st.one_of(any_text, numbers), max_size=3),
                  st.dictionaries(any_text, any_text, max_size=2), st.sampled_from(["all", "memory", "daily_log", "sessions",
                  "json", "text", "user", "tool", "2026-02-25", "9999-12-31", "last week", "9999-12", "0"]))
query = st.one_of(any_text, st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
                  st.sampled_from(["x" * 100_000, "sushi " * 20_000]))
calls = st.fixed_dictionaries({"query": query}, optional={name: value for name in PARAMETERS[1:]} | {"extra": value})


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = write_history(tmp_path_factory.mktemp("fuzz") / "seeded.db", *seeded_rows())
    return create_injector(path, clock=FixedClock(ms("2026-03-01T12:00")), time_zone="Asia/Tokyo").get(ToolExecutionEngine)


def checked(engine, tool: str, parameters: dict):
    started = time.perf_counter()
    result = engine.execute_tool(tool, parameters)
    SLOWEST.append(time.perf_counter() - started)
    text = result.result if result.status == "success" else result.error_message
    assert (result.status, result.error_type) in OUTCOMES | {("error", "not_found")}, (parameters, result)
    assert isinstance(text, str) and "Traceback" not in text and 'File "' not in text
    text.encode("utf-8")  # nothing a client could not decode
    if result.status == "error":
        assert "\n" not in text and len(text) < 600
    return result


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parameters=calls)
def test_any_call_is_answered_in_one_of_three_ways_and_the_same_way_twice(engine, parameters):
    first = checked(engine, "search_history", parameters)
    second = checked(engine, "search_history", parameters)
    assert (first.status, untimed(first.result), first.error_message) == (second.status, untimed(second.result), second.error_message)


@settings(max_examples=EXAMPLES, deadline=None)
@given(parameters=st.fixed_dictionaries({"session_id": st.one_of(any_text, value)},
                                         optional={"around_message_id": value, "before": value, "after": value,
                                                   "format": value}))
def test_read_session_answers_any_call_in_one_of_its_ways(engine, parameters):
    checked(engine, "read_session", parameters)


@settings(max_examples=max(EXAMPLES // 4, 20), deadline=None)
@given(words=st.lists(st.sampled_from(WORDS[:6] + ("budget", "ramen", "restaurant Shibuya", "dinner")), min_size=1, max_size=3),
       scope=st.sampled_from(["all", "sessions", "memory"]))
def test_a_shorter_answer_is_the_start_of_a_longer_one_and_deleted_sessions_never_show(engine, words, scope):
    answers = []
    for k in (1, 2, 3, 5, 10, 50):
        result = checked(engine, "search_history", {"query": " ".join(words), "scope": scope, "max_results": k, "format": "json"})
        items = json.loads(result.result)["results"]
        assert all(item.get("session_id") != "s-deleted" and item["id"] != "m-ramen" for item in items)
        answers.append([(item["source"], item["id"]) for item in items])
    assert all(shorter == longer[:len(shorter)] for shorter, longer in pairwise(answers))
