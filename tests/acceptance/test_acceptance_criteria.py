"""FEAT-032's acceptance criteria through the production container on a seeded SQLite file.

Each test calls search_history as an agent host would (ToolExecutionEngine from the injector)
against a real database holding the spec's scenarios; see tests/conftest.py for the rows.
"""
import pytest
from acceptance_helpers import call, found, ids

from oneclaw_search.tools import SearchHistoryTool, ToolRegistry


@pytest.mark.spec("AC-01", "TOOL-1")
def test_search_history_is_registered_in_the_container_registry(container):
    registry = container.get(ToolRegistry)
    assert isinstance(registry.get_tool("search_history"), SearchHistoryTool)
    # beyond the spec: read_session follows a hit into its conversation, get_session_summary orients
    assert [d.name for d in registry.get_all_tool_definitions()] == ["search_history", "read_session", "get_session_summary"]
    assert registry.get_tool("search_history").definition.timeout_seconds == 30


@pytest.mark.spec("AC-02", "FT-01", "EDGE-01")
def test_a_query_returns_the_matching_rows_of_all_three_sources(container):
    # Every live row holding the word, from each source; how they rank is the ranking's (test_relevance_model.py).
    assert sorted(found(container, query="restaurant")) == [
        ("daily_log", "c-sakura"), ("message", "m-italian"), ("message", "m-sakura"), ("message", "m-sushi"),
        ("session", "s-dinner"), ("session", "s-restaurants"),
    ]


@pytest.mark.spec("AC-03", "SCOPE-2", "FT-02")
def test_scope_memory_returns_only_memory_index_rows(container):
    assert {source for source, _ in found(container, query="restaurant", scope="memory")} == {"daily_log"}
    assert found(container, query="API key", scope="memory") == [("memory", "c-keys")]


@pytest.mark.spec("AC-03", "SCOPE-3", "FT-03")
def test_scope_daily_log_leaves_out_memory_md(container):
    assert found(container, query="key", scope="daily_log") == []
    assert found(container, query="Kamakura", scope="daily_log") == [("daily_log", "c-kamakura")]


@pytest.mark.spec("AC-03", "SCOPE-4", "FT-04")
def test_scope_sessions_returns_messages_and_sessions_only(container):
    assert {source for source, _ in found(container, query="restaurant", scope="sessions")} == {"message", "session"}


@pytest.mark.spec("AC-03", "SCOPE-1", "FT-05", "BR-02")
def test_scope_defaults_to_all(container):
    assert found(container, query="restaurant") == found(container, query="restaurant", scope="all")


@pytest.mark.spec("AC-04", "AC-13", "FT-08")
def test_a_date_range_keeps_only_rows_dated_inside_it(container):
    assert sorted(ids(container, query="restaurant", date_from="2026-02-22", date_to="2026-02-28")) == [
        "c-sakura",
        "m-sakura",
        "m-sushi",
        "s-dinner",
    ]


@pytest.mark.spec("AC-05", "FT-09")
def test_max_results_limits_what_is_returned(container):
    assert len(ids(container, query="restaurant", max_results=2)) == 2
    assert ids(container, query="restaurant", max_results=2) == ids(container, query="restaurant")[:2]


@pytest.mark.spec("AC-06", "BR-08")
def test_memory_search_goes_through_the_hybrid_search_engine(container, mocker):
    from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine

    spy = mocker.spy(container.get(HybridSearchEngine), "search")
    assert ids(container, query="Kamakura", scope="memory") == ["c-kamakura"]
    assert spy.call_count == 1 and spy.call_args.args[0] == "Kamakura"


@pytest.mark.spec("AC-07", "AC-08")
def test_message_and_session_search_go_through_their_daos(container, mocker):
    from oneclaw_search.domain.ports import MessageDao, SessionDao

    content = mocker.spy(container.get(MessageDao), "search_content")
    titles = mocker.spy(container.get(SessionDao), "search_by_title_or_preview")
    ids(container, query="Roppongi", scope="sessions")
    assert content.call_args.args[0] == titles.call_args.args[0] == "Roppongi"


@pytest.mark.spec("AC-09", "MRG-3", "FT-11", "FT-10")
def test_scores_are_weighted_by_source_and_sorted(container):
    import json

    results = json.loads(call(container, query="restaurant", format="json").result)["results"]
    scores = [item["score"] for item in results]
    assert scores == sorted(scores, reverse=True)
    best = {}
    for item in results:
        best.setdefault(item["source"], item["score"])
    # Each source's best hit is worth its weight times its age decay (4-9 days old here).
    assert 0.90 < best["daily_log"] <= 1.0 and 0.5 < best["message"] <= 0.6 and 0.4 < best["session"] <= 0.5


@pytest.mark.spec("AC-10", "OUT-1", "OUT-2")
def test_text_output_attributes_every_result_to_its_source(container):
    text = call(container, query="Roppongi").result
    assert text == "\n".join(
        [
            '[Search Results for "Roppongi" (scope: all, 2 results)]',
            "",
            '--- Result 1 (score: 0.55, source: message, date: 2026-02-20, session: "Restaurant Recommendations") ---',
            "User: Looking for Italian restaurants in Roppongi.",
            "",
            "--- Result 2 (score: 0.46, source: session, date: 2026-02-20) ---",
            'Session: "Restaurant Recommendations" (1 messages, last active: 2026-02-20)',
            "Preview: Looking for Italian restaurants in Roppongi.",
        ]
    )


@pytest.mark.spec("AC-11", "ERR-1")
def test_an_empty_query_is_a_validation_error(container):
    outcome = call(container, query="  ")
    assert (outcome.error_type, outcome.error_message) == ("validation_error", "Parameter 'query' is required and cannot be empty")


@pytest.mark.spec("AC-12", "OUT-3")
def test_no_results_gives_the_helpful_message(container):
    text = call(container, query="quantum physics").result
    assert text.startswith(
        '[Search Results for "quantum physics" (scope: all, 0 results)]\n\n'
        "No matching results found. Try broader keywords or a different scope.\n\nSearched with: "
    )


@pytest.mark.spec("AC-14", "ERR-2")
def test_an_invalid_date_is_a_validation_error(container):
    outcome = call(container, query="x", date_to="28/02/2026")
    assert (outcome.error_type, outcome.error_message) == ("validation_error", "Date must be in YYYY-MM-DD format: 28/02/2026")
