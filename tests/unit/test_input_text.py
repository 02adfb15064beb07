"""Text parameters as JSON delivers them (lone surrogates, NUL and other control characters), days
past the calendar's end, and internal failures kept to one short line: a validation_error naming the
parameter, or a search, never an exception or a raw row in the reply."""
from datetime import date

import pytest

from oneclaw_search.domain.input_text import InvalidText, clean_parameters, clean_text, failure_text
from oneclaw_search.domain.models import SearchOutcome
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.tools import SearchHistoryTool
from oneclaw_search.tools.read_session_tool import ReadSessionTool


def test_control_characters_separate_words_and_printable_text_is_kept():
    assert clean_text("a\x00b\x07c\td\ne\u200bf", "query") == "a b c\td\ne\u200bf"


def test_a_lone_surrogate_is_refused_naming_the_parameter_and_position():
    with pytest.raises(InvalidText, match=r"Parameter 'session_id' holds an invalid character .* at position 2"):
        clean_text("ab\ud800c", "session_id")


def test_list_items_are_cleaned_and_other_values_left_alone():
    assert clean_parameters({"role": ["user\x00", 3], "max_results": 5}) == {"role": ["user ", 3], "max_results": 5}
    with pytest.raises(InvalidText, match="'role'"):
        clean_parameters({"role": ["\udfff"]})


def test_a_failure_is_one_short_line_without_surrogates():
    text = failure_text(ValueError("row text \ud800 " + "x" * 500 + "\nsecond line"))
    assert "\n" not in text and len(text) == 200 and "\ud800" not in text and text.endswith("…")
    assert failure_text(KeyError()) == "KeyError"


@pytest.fixture
def tool(mocker):
    use_case = mocker.Mock()
    use_case.search.return_value = SearchOutcome(())
    return SearchHistoryTool(use_case, today=lambda: date(2026, 3, 1)), use_case


@pytest.mark.parametrize("parameters, message", [
    ({"query": "sushi\ud83d"}, "Parameter 'query' holds an invalid character (a lone UTF-16 surrogate at position 5)"),
    ({"query": "x", "scope": "\udc00"}, "Parameter 'scope' holds an invalid character"),
    ({"query": "x", "date_range": "9999-12"}, "Date out of the supported range (1900-01-01 to 9998-12-31): 9999-12"),
    ({"query": "x", "date_range": "0001-01-01 to 0001-01-05"}, "Date out of the supported range"),
    ({"query": "x", "date_to": "9999-12-31"}, "Date out of the supported range (1900-01-01 to 9998-12-31): 9999-12-31"),
    ({"query": "x", "date_from": "0001-01-01"}, "Date out of the supported range"),
])
def test_unusable_text_and_days_are_validation_errors(tool, parameters, message):
    search_tool, use_case = tool
    outcome = search_tool.execute(parameters)
    assert outcome.error_type == "validation_error" and message in outcome.error_message
    use_case.search.assert_not_called()


def test_a_nul_inside_the_query_searches_the_words_around_it(tool):
    search_tool, use_case = tool
    assert search_tool.execute({"query": "sushi\x00place"}).is_success
    use_case.search.assert_called_once_with(SearchRequest("sushi place"))


def test_read_session_refuses_a_lone_surrogate_as_a_validation_error(mocker):
    reader = ReadSessionTool(mocker.Mock())
    outcome = reader.execute({"session_id": "s\ud800"})
    assert outcome.error_type == "validation_error" and "'session_id'" in outcome.error_message


def test_an_error_echoing_a_value_with_line_breaks_stays_one_line(mocker):
    from oneclaw_search.domain.session_reading import SessionNotFound

    use_case = mocker.Mock()
    use_case.read.side_effect = SessionNotFound("No session '0\n0'")
    outcome = ReadSessionTool(use_case).execute({"session_id": "0\n0"})
    assert (outcome.error_type, outcome.error_message) == ("not_found", "No session '0\\n0'")
