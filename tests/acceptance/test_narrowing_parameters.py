"""search_history's peers' parameters through the production container on real SQLite files:
role, session_id, project, agent_type and context."""
import json

import pytest
from acceptance_helpers import call, found, ids
from builders import ms, new_message, write_history

from oneclaw_search.data.history.history_writer import NewSession, SessionOrigin
from oneclaw_search.di import create_injector


def test_role_tool_finds_tool_calls_the_spec_search_never_returns(container):
    assert "m-tool" not in ids(container, query="Sakura")
    result = call(container, query="Sakura", role="tool")
    assert [row_id for source, row_id in found(container, query="Sakura", role="tool") if source == "message"] == ["m-tool"]
    assert 'Tool call: set_reminder({"title":"Dinner at Sakura Sushi"})' in result.result
    assert "Filter: role: tool" in result.result


def test_role_user_keeps_assistant_turns_out_but_still_searches_memory_and_sessions(container):
    hits = found(container, query="sushi", role="user")
    messages = [row_id for source, row_id in hits if source == "message"]
    assert messages == ["m-sushi"]
    assert ("memory", "c-sakura") in hits or ("daily_log", "c-sakura") in hits
    assert ("session", "s-dinner") in hits


def test_session_id_keeps_the_search_inside_one_session_and_leaves_memory_out(container):
    hits = found(container, query="restaurant", session_id="s-restaurants")
    assert set(hits) == {("message", "m-italian"), ("session", "s-restaurants")}
    assert found(container, query="restaurant", session_id="s-deleted") == []  # a deleted session is gone


def test_context_shows_the_turns_around_a_message_hit_from_its_own_session(container):
    text = call(container, query="Hachiko", context=1, scope="sessions").result
    assert "Context (2 turns of this session; >> marks the match):" in text
    assert "   User: Can you help me find a good sushi restaurant near Shibuya station?" in text
    assert ">> Assistant: Sakura Sushi is a restaurant two minutes from the Hachiko exit." in text
    document = json.loads(call(container, query="Hachiko", context=2, format="json").result)
    [hit] = [item for item in document["results"] if item["id"] == "m-sakura"]
    assert [(turn["id"], turn["matched"]) for turn in hit["context"]] == [("m-sushi", False), ("m-sakura", True)]


@pytest.mark.parametrize("parameters, message", [
    ({"context": 6}, "Parameter 'context' must be an integer from 0 to 5: 6"),
    ({"role": "bot"}, "Invalid role 'bot'. Must be one or more of: user, assistant, tool"),
    ({"role": "user", "scope": "memory"}, "which scope 'memory' does not search"),
    ({"project": "api"}, "Parameter 'project' needs the origin facts an import keeps"),
    ({"session_id": "  "}, "Parameter 'session_id' must be a non-empty string"),
])
def test_bad_narrowing_parameters_are_validation_errors_naming_the_problem(container, parameters, message):
    result = call(container, query="sushi", **parameters)
    assert result.error_type == "validation_error" and message in result.error_message


@pytest.fixture
def projects(tmp_path, clock):
    at = ms("2026-02-20T10:00")
    sessions = [
        NewSession("api", "API work", at, origin=SessionOrigin("claude-code", "/home/u/code/api")),
        NewSession("web", "Web work", at, origin=SessionOrigin("claude-code", "/home/u/code/web")),
        NewSession("scout", "Find the parser", at, origin=SessionOrigin("claude-code", "/home/u/code/api", "Explore", "api")),
        NewSession("plain", "Not imported", at),
    ]
    messages = [new_message(f"m-{s.id}", s.id, f"The tokenizer lives in {s.id}/parser.py", "2026-02-20T10:00")
                for s in sessions]
    path = write_history(tmp_path / "projects.db", sessions, messages)
    return create_injector(path, clock=clock, time_zone="Asia/Tokyo")


@pytest.mark.parametrize("parameters, expected", [
    ({"project": "api"}, {"m-api", "m-scout"}),  # the repository's folder name
    ({"project": "/home/u/code/web/"}, {"m-web"}),  # the path itself
    ({"project": "/home/u/code"}, {"m-api", "m-web", "m-scout"}),  # a folder above it
    ({"project": "/home/u/co"}, set()),  # a path prefix is a folder, not any string
    ({"agent_type": "explore"}, {"m-scout"}),
    ({"project": "web", "agent_type": "Explore"}, set()),
])
def test_project_and_agent_type_use_the_origins_an_import_kept(projects, parameters, expected):
    hits = found(projects, query="tokenizer", **parameters)
    assert {row_id for source, row_id in hits if source == "message"} == expected
    assert all(source in ("message", "session") for source, _ in hits)


@pytest.fixture
def crowded(tmp_path, clock):
    """300 sessions whose newer, shorter messages match better than the one in session "quiet"."""
    sessions = [NewSession(f"s{n}", f"Chat {n}", ms("2026-02-20T10:00")) for n in range(300)]
    sessions.append(NewSession("quiet", "Chat quiet", ms("2026-02-01T10:00")))
    messages = [new_message(f"m{n}", f"s{n}", "deploy the parser", "2026-02-20T10:00") for n in range(300)]
    messages.append(new_message("m-quiet", "quiet", "A long note: we could deploy the old parser some day, maybe,"
                                " after the review of the other tickets.", "2026-02-01T10:00", "AI_RESPONSE"))
    return write_history(tmp_path / "crowded.db", sessions, messages)


@pytest.mark.parametrize("parameters", [{"session_id": "quiet"}, {"role": "assistant"}])
def test_a_filter_is_part_of_the_index_query_not_a_sieve_over_its_best_rows(crowded, clock, parameters):
    container = create_injector(crowded, clock=clock, time_zone="Asia/Tokyo", embedder=None)
    for query in ("parser deploy", "deploy the old parser"):  # keywords, and the whole query as written
        result = json.loads(call(container, query=query, max_results=3, format="json", **parameters).result)
        assert [item["id"] for item in result["results"] if item["source"] == "message"] == ["m-quiet"]
        assert "keyword (filtered scan)" not in result["retrievers"]


def test_context_turns_stay_inside_the_asked_dates(tmp_path, clock):
    sessions = [NewSession("s", "Trip", ms("2026-02-10T10:00"))]
    messages = [new_message("old", "s", "Where should we stay in Kyoto?", "2026-02-10T10:00"),
                new_message("new", "s", "The ryokan near Gion is booked.", "2026-02-27T10:00", "AI_RESPONSE")]
    container = create_injector(write_history(tmp_path / "trip.db", sessions, messages), clock=clock, time_zone="Asia/Tokyo")
    dated = json.loads(call(container, query="ryokan", context=1, date_from="2026-02-23", format="json").result)
    [hit] = [item for item in dated["results"] if item["id"] == "new"]
    assert [turn["id"] for turn in hit["context"]] == ["new"]  # the 10 February question is outside the dates
    undated = json.loads(call(container, query="ryokan", context=1, format="json").result)
    [hit] = [item for item in undated["results"] if item["id"] == "new"]
    assert [turn["id"] for turn in hit["context"]] == ["old", "new"]
