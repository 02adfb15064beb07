"""Details of the text and JSON renderings: score rounding, optional header parts, partial notes."""
import json

import pytest

from oneclaw_search.domain.models import SearchOutcome, SearchSource, SourceType, UnifiedSearchResult
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.tools.result_formatter import format_json, format_score, format_text


def one(source, *, date=None, title=None, score=0.5):
    return UnifiedSearchResult("r1", source, "text", date, None, title, score, score, 0)


@pytest.mark.parametrize("score, shown", [(0.625, "0.63"), (0.125, "0.13"), (0.994999, "0.99"), (1.0, "1.00"), (0.0, "0.00")])
def test_scores_show_two_decimals_rounded_half_up(score, shown):
    assert format_score(score) == shown


@pytest.mark.spec("OUT-2", "P-06")
def test_only_message_results_name_their_session_in_the_header():
    request = SearchRequest("q")
    message = format_text(request, SearchOutcome((one(SourceType.MESSAGE, date="2026-01-02", title="Chat"),)))
    session = format_text(request, SearchOutcome((one(SourceType.SESSION, date="2026-01-02", title="Chat"),)))
    assert '(score: 0.50, source: message, date: 2026-01-02, session: "Chat")' in message
    assert "(score: 0.50, source: session, date: 2026-01-02) ---" in session


@pytest.mark.spec("OUT-2")
def test_undated_memory_has_no_date_part():
    text = format_text(SearchRequest("q"), SearchOutcome((one(SourceType.MEMORY),)))
    assert "--- Result 1 (score: 0.50, source: memory) ---" in text


@pytest.mark.spec("OUT-1")
def test_the_header_counts_results_and_names_the_scope():
    text = format_text(SearchRequest("sushi bar"), SearchOutcome((one(SourceType.MEMORY),)))
    assert text.splitlines()[0] == '[Search Results for "sushi bar" (scope: all, 1 results)]'


@pytest.mark.spec("ERR-5")
def test_partial_results_carry_a_note_naming_the_unfinished_sources():
    outcome = SearchOutcome((one(SourceType.MEMORY),), (SearchSource.MESSAGES, SearchSource.SESSIONS), 30.0)
    lines = format_text(SearchRequest("q"), outcome).splitlines()
    assert lines[2] == "Note: partial results; searching messages and sessions did not finish within the 30 s budget."
    assert lines[4].startswith("--- Result 1")
    document = json.loads(format_json(SearchRequest("q"), outcome))
    assert document["complete"] is False and document["unfinished_sources"] == ["messages", "sessions"]


def test_complete_output_has_no_note():
    assert "Note:" not in format_text(SearchRequest("q"), SearchOutcome((one(SourceType.MEMORY),)))


def test_json_keeps_non_ascii_text_readable():
    result = UnifiedSearchResult("r", SourceType.MEMORY, "Café Über", None, None, None, 1.0, 1.0, 0)
    assert '"Café Über"' in format_json(SearchRequest("café"), SearchOutcome((result,)))
