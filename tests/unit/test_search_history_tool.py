"""SearchHistoryTool on a mocked use case: its definition, checks, delegation and error types.

Layer-1A tests mirroring SearchHistoryToolTest.kt for TOOL-1, AC-01/02/10..14 and ERR-1..ERR-4.
"""
import json
from datetime import date

import pytest

from oneclaw_search.domain.models import SearchOutcome, SearchScope, SourceType, UnifiedSearchResult
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.tools import SearchHistoryTool

ALLOWED_TYPES = {"string", "integer", "number", "boolean", "object", "array"}


def result(id, source, score, text, date=None, title=None):
    return UnifiedSearchResult(id, source, text, date, "s1" if title else None, title, score, score, 0)


@pytest.fixture
def use_case(mocker):
    fake = mocker.Mock()
    fake.search.return_value = SearchOutcome(())
    return fake


@pytest.fixture
def tool(use_case):
    return SearchHistoryTool(use_case)


@pytest.mark.spec("TOOL-1", "AC-01")
def test_definition_matches_the_spec(tool):
    definition = tool.definition
    assert definition.name == "search_history"
    assert definition.description == (
        "Search past conversation history, memory, and daily logs for information the user mentioned before"
    )
    # format, date_range and the peers' narrowing parameters go beyond the spec (P-10 and the peers' tools)
    assert set(definition.parameters["properties"]) == {"query", "scope", "date_from", "date_to", "max_results", "format",
                                                        "date_range", "role", "session_id", "context", "project", "agent_type"}
    assert definition.parameters["required"] == ["query"]
    assert definition.parameters["properties"]["max_results"]["type"] == "integer"
    assert definition.required_permissions == () and definition.timeout_seconds == 30


def test_definition_is_a_well_formed_json_schema(tool):
    schema = tool.definition.parameters
    assert schema["type"] == "object" and set(schema["required"]) <= set(schema["properties"])
    assert all(spec["type"] in ALLOWED_TYPES and spec["description"] for spec in schema["properties"].values())
    assert "enum" not in schema["properties"]["scope"]  # an enum check upstream would pre-empt ERR-3's message
    json.dumps(schema)


@pytest.mark.spec("AC-02", "FT-01")
def test_a_simple_query_is_passed_to_the_use_case_with_defaults(tool, use_case):
    assert tool.execute({"query": "restaurant"}).is_success
    use_case.search.assert_called_once_with(SearchRequest("restaurant", SearchScope.ALL, None, None, 10))


@pytest.mark.parametrize("parameters, context, replies", [
    ({"format": "json"}, 0, True),  # JSON shows a question hit's reply unless context is given
    ({"format": "json", "context": 0}, 0, False),
    ({"format": "json", "context": 2}, 2, False),
    ({}, 0, False),  # the text reply keeps the spec's layout
])
def test_json_replies_show_a_question_hits_reply_unless_context_is_asked(tool, use_case, parameters, context, replies):
    tool.execute({"query": "restaurant", **parameters})
    request = use_case.search.call_args.args[0]
    assert (request.context, request.replies) == (context, replies)


def test_every_parameter_reaches_the_use_case_parsed(tool, use_case):
    tool.execute({"query": " sushi ", "scope": "DAILY_LOG", "date_from": "2026-02-22", "date_to": "2026-02-28", "max_results": "15"})
    use_case.search.assert_called_once_with(
        SearchRequest("sushi", SearchScope.DAILY_LOG, date(2026, 2, 22), date(2026, 2, 28), 15)
    )


@pytest.mark.spec("AC-11", "ERR-1", "ERR-2", "ERR-3", "AC-14", "FT-12", "FT-13", "FT-14")
@pytest.mark.parametrize("parameters, message", [
    ({"query": ""}, "Parameter 'query' is required and cannot be empty"),
    ({}, "Parameter 'query' is required and cannot be empty"),
    ({"query": "x", "scope": "web"}, "Invalid scope 'web'. Must be one of: all, memory, daily_log, sessions"),
    ({"query": "x", "date_from": "20-02-2026"}, "Date must be in YYYY-MM-DD format: 20-02-2026"),
    ({"query": "x", "date_to": "not-a-date"}, "Date must be in YYYY-MM-DD format: not-a-date"),
    ({"query": "x", "max_results": "abc"}, "Parameter 'max_results' must be an integer: abc"),
    ({"query": "x", "format": "xml"}, "Invalid format 'xml'. Must be one of: text, json"),
])
def test_bad_parameters_are_validation_errors_and_never_reach_the_use_case(tool, use_case, parameters, message):
    outcome = tool.execute(parameters)
    assert (outcome.status, outcome.error_type, outcome.error_message) == ("error", "validation_error", message)
    use_case.search.assert_not_called()


def test_parameters_that_are_not_an_object_are_a_validation_error(tool):
    assert tool.execute(["query"]).error_type == "validation_error"


@pytest.mark.spec("ERR-4")
def test_a_failing_search_is_a_search_error_with_its_message(tool, use_case):
    use_case.search.side_effect = RuntimeError("DB error")
    outcome = tool.execute({"query": "x"})
    assert (outcome.error_type, outcome.error_message) == ("search_error", "Search failed: DB error")


@pytest.mark.spec("AC-12", "FT-15", "OUT-3")
def test_no_results_gives_the_helpful_message(tool):
    assert tool.execute({"query": "quantum physics"}).result == (
        '[Search Results for "quantum physics" (scope: all, 0 results)]\n\n'
        "No matching results found. Try broader keywords or a different scope."
    )


@pytest.mark.spec("AC-10", "OUT-1", "OUT-2")
def test_results_are_printed_block_by_block_with_source_attribution(tool, use_case):
    use_case.search.return_value = SearchOutcome(
        (
            result("c1", SourceType.DAILY_LOG, 0.87, "Dinner plans at Sakura Sushi.", "2026-02-25"),
            result("m1", SourceType.MESSAGE, 0.6449, "User: a sushi restaurant?", "2026-02-25", "Dinner Planning"),
            result(
                "s1",
                SourceType.SESSION,
                0.515,
                'Session: "Restaurants" (12 messages, last active: 2026-02-20)\nPreview: Italian',
                "2026-02-20",
                "Restaurants",
            ),
            result("c2", SourceType.MEMORY, 0.125, "Likes sushi."),
        )
    )
    assert tool.execute({"query": "restaurant"}).result == "\n".join(
        [
            '[Search Results for "restaurant" (scope: all, 4 results)]',
            "",
            "--- Result 1 (score: 0.87, source: daily_log, date: 2026-02-25) ---",
            "Dinner plans at Sakura Sushi.",
            "",
            '--- Result 2 (score: 0.64, source: message, date: 2026-02-25, session: "Dinner Planning") ---',
            "User: a sushi restaurant?",
            "",
            "--- Result 3 (score: 0.52, source: session, date: 2026-02-20) ---",
            'Session: "Restaurants" (12 messages, last active: 2026-02-20)',
            "Preview: Italian",
            "",
            "--- Result 4 (score: 0.13, source: memory) ---",
            "Likes sushi.",
        ]
    )


@pytest.mark.spec("P-10")
def test_json_format_gives_stable_keys_and_row_ids(tool, use_case):
    use_case.search.return_value = SearchOutcome((result("m1", SourceType.MESSAGE, 0.61234, "User: hi", "2026-02-25", "Chat"),))
    document = json.loads(tool.execute({"query": "hi", "format": " JSON "}).result)
    assert document["query"] == "hi" and document["scope"] == "all" and document["complete"] is True
    assert document["results"] == [
        {
            "id": "m1",
            "source": "message",
            "score": 0.61234,
            "date": "2026-02-25",
            "session_id": "s1",
            "session_title": "Chat",
            "text": "User: hi",
            "matches": [],
            "why": {"terms": [], "phrase": False, "fuzzy": False, "vector": None},
            "score_parts": None,
        }
    ]
