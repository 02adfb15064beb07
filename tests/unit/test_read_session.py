"""read_session's window and checks, with the history behind a fake SessionReader."""
from __future__ import annotations

import json
from datetime import UTC

import pytest

from oneclaw_search.domain.session_reading import ReadSessionUseCase, SessionInfo, Turn
from oneclaw_search.tools import ReadSessionTool

MINUTE = 60_000


class FakeReader:
    """One live session `s` of `count` turns t1 … tN, a minute apart, alternating user and assistant."""

    def __init__(self, count: int) -> None:
        self.turns_by_id = {f"t{n}": Turn(f"t{n}", "USER" if n % 2 else "AI_RESPONSE", f"turn {n}", n * MINUTE)
                            for n in range(1, count + 1)}
        self.read: list[str] = []

    def session(self, session_id):
        return SessionInfo("s", "Trip", MINUTE, len(self.turns_by_id) * MINUTE) if session_id == "s" else None

    def turn_ids(self, session_id):
        return list(self.turns_by_id)

    def turns(self, ids):
        self.read += ids
        return [self.turns_by_id[turn_id] for turn_id in ids]


def read(count=20, **parameters):
    reader = FakeReader(count)
    result = ReadSessionTool(ReadSessionUseCase(reader, UTC)).execute({"session_id": "s", "format": "json", **parameters})
    return (json.loads(result.result) if result.is_success else result), reader


def shown(document):
    return [message["id"] for message in document["messages"]]


@pytest.mark.parametrize("parameters, expected", [
    ({"around_message_id": "t10"}, [f"t{n}" for n in range(5, 16)]),  # five either side by default
    ({"around_message_id": "t2", "before": 5, "after": 1}, ["t1", "t2", "t3"]),  # clipped at the start
    ({"around_message_id": "t19", "before": "2", "after": 3}, ["t17", "t18", "t19", "t20"]),  # digits count, clipped at the end
    ({"around_message_id": "t7", "before": 0, "after": 0}, ["t7"]),
    ({}, [f"t{n}" for n in range(10, 21)]),  # no message asked about: where the conversation ended up
    ({"before": 1, "after": 0}, ["t19", "t20"]),
])
def test_the_window_holds_the_turns_asked_for_and_no_more_are_read(parameters, expected):
    document, reader = read(**parameters)
    assert shown(document) == expected and reader.read == expected
    assert document["first_turn"] == int(expected[0][1:]) and document["session"]["turns"] == 20


def test_turns_keep_their_roles_times_and_the_one_asked_about_is_marked_in_text():
    reader = FakeReader(3)
    text = ReadSessionTool(ReadSessionUseCase(reader, UTC)).execute(
        {"session_id": "s", "around_message_id": "t2", "before": 1, "after": 1}).result
    assert text.splitlines() == [
        '[Session "Trip" (id: s, 1970-01-01 00:01 to 1970-01-01 00:03; turns 1-3 of 3)]', "",
        "--- Turn 1 (1970-01-01 00:01; id: t1) ---", "User: turn 1", "",
        "--- Turn 2 (1970-01-01 00:02, asked about; id: t2) ---", "Assistant: turn 2", "",
        "--- Turn 3 (1970-01-01 00:03; id: t3) ---", "User: turn 3",
    ]
    document, _ = read(3)
    assert [(m["role"], m["time"]) for m in document["messages"]][:2] == [("user", "1970-01-01 00:01"), ("assistant", "1970-01-01 00:02")]


@pytest.mark.parametrize("parameters, error", [
    ({"session_id": "  "}, ("validation_error", "Parameter 'session_id' is required and cannot be empty")),
    ({"session_id": 7}, ("validation_error", "Parameter 'session_id' is required and cannot be empty")),
    ({"session_id": "s", "around_message_id": ""}, ("validation_error", "Parameter 'around_message_id' must be a message id")),
    ({"session_id": "s", "before": 51}, ("validation_error", "Parameter 'before' must be an integer from 0 to 50: 51")),
    ({"session_id": "s", "after": "many"}, ("validation_error", "Parameter 'after' must be an integer from 0 to 50: many")),
    ({"session_id": "s", "after": -1}, ("validation_error", "Parameter 'after' must be an integer from 0 to 50: -1")),
    ({"session_id": "s", "format": "xml"}, ("validation_error", "Invalid format 'xml'. Must be one of: text, json")),
    ({"session_id": "nope"}, ("not_found", "No session 'nope'")),
    ({"session_id": "s", "around_message_id": "x9"}, ("not_found", "No message 'x9' among the turns of session 's'")),
])
def test_bad_parameters_and_unknown_ids_are_errors_naming_the_problem(parameters, error):
    reader = FakeReader(3)
    result = ReadSessionTool(ReadSessionUseCase(reader, UTC)).execute(parameters)
    assert (result.error_type, result.error_message) == error and reader.read == []


def test_a_failing_history_is_a_read_error_not_an_exception(mocker):
    reader = FakeReader(3)
    mocker.patch.object(reader, "turn_ids", side_effect=OSError("disk gone"))
    result = ReadSessionTool(ReadSessionUseCase(reader, UTC)).execute({"session_id": "s"})
    assert (result.error_type, result.error_message) == ("read_error", "Reading the session failed: disk gone")
