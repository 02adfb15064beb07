"""Every parameter rule of search_history, in the spec's order and with its exact message.

Covers BR-01..BR-07, ERR-1..ERR-3 and the max_results and date edge cases (EDGE-05..EDGE-07).
"""
from datetime import date

import pytest

from oneclaw_search.domain.models import SearchScope
from oneclaw_search.domain.search_request import (
    InvalidSearchRequest,
    SearchRequest,
    parse_search_request,
)


def problem(parameters):
    with pytest.raises(InvalidSearchRequest) as caught:
        parse_search_request(parameters)
    return str(caught.value)


@pytest.mark.spec("AC-11", "BR-01", "ERR-1", "FT-12")
@pytest.mark.parametrize("query", [None, "", "   ", "\t\n"])
def test_empty_or_blank_query_is_rejected_with_the_spec_message(query):
    assert problem({"query": query}) == "Parameter 'query' is required and cannot be empty"


@pytest.mark.spec("AC-02")
def test_query_is_trimmed():
    assert parse_search_request({"query": "  sushi  "}).query == "sushi"


@pytest.mark.spec("BR-02", "SCOPE-1")
def test_defaults_are_scope_all_no_dates_and_ten_results():
    assert parse_search_request({"query": "x"}) == SearchRequest("x", SearchScope.ALL, None, None, 10)


@pytest.mark.spec("P-09", "AC-03")
@pytest.mark.parametrize("raw, scope", [("ALL", SearchScope.ALL), (" Memory ", SearchScope.MEMORY),
                                        ("DAILY_LOG", SearchScope.DAILY_LOG), ("sessions\n", SearchScope.SESSIONS)])
def test_scope_is_trimmed_and_case_insensitive(raw, scope):
    assert parse_search_request({"query": "x", "scope": raw}).scope is scope


@pytest.mark.spec("ERR-3", "FT-14")
@pytest.mark.parametrize("raw, shown", [("everything", "everything"), ("", ""), (" Messages ", "Messages")])
def test_unknown_scope_is_rejected_naming_the_value(raw, shown):
    assert problem({"query": "x", "scope": raw}) == (
        f"Invalid scope '{shown}'. Must be one of: all, memory, daily_log, sessions"
    )


@pytest.mark.spec("AC-14", "BR-05", "ERR-2", "FT-13")
@pytest.mark.parametrize("field", ["date_from", "date_to"])
@pytest.mark.parametrize("value", ["20-02-2026", "2026/02/20", "2026-2-20", "yesterday", "", "2026-02-20T10:00", "２０２６-02-20"])
def test_badly_shaped_dates_are_rejected_with_the_spec_message(field, value):
    assert problem({"query": "x", field: value}) == f"Date must be in YYYY-MM-DD format: {value.strip()}"


@pytest.mark.spec("BR-05")
@pytest.mark.parametrize("value", ["2026-13-45", "2026-02-30", "2025-02-29"])
def test_well_shaped_dates_that_do_not_exist_are_rejected(value):
    assert problem({"query": "x", "date_from": value}) == f"Invalid date: {value}"


@pytest.mark.spec("AC-13")
def test_valid_dates_are_parsed_and_trimmed():
    request = parse_search_request({"query": "x", "date_from": " 2026-02-22 ", "date_to": "2026-02-28"})
    assert (request.date_from, request.date_to) == (date(2026, 2, 22), date(2026, 2, 28))


@pytest.mark.spec("EDGE-07", "P-08")
def test_date_from_after_date_to_is_a_validation_error():
    assert problem({"query": "x", "date_from": "2026-03-02", "date_to": "2026-03-01"}) == (
        "Invalid date range: date_from 2026-03-02 is after date_to 2026-03-01"
    )


@pytest.mark.spec("FT-08")
def test_a_single_day_range_is_valid():
    request = parse_search_request({"query": "x", "date_from": "2026-03-01", "date_to": "2026-03-01"})
    assert request.date_from == request.date_to == date(2026, 3, 1)


def test_checks_run_in_the_spec_order_query_scope_dates_then_max_results():
    everything_wrong = {"query": " ", "scope": "bad", "date_from": "x", "max_results": "abc"}
    assert problem(everything_wrong).startswith("Parameter 'query'")
    assert problem({**everything_wrong, "query": "q"}).startswith("Invalid scope")
    assert problem({**everything_wrong, "query": "q", "scope": "all"}).startswith("Date must be")
    assert problem({"query": "q", "date_to": "x", "max_results": "abc"}).startswith("Date must be")
    assert problem({"query": "q", "max_results": "abc"}).startswith("Parameter 'max_results'")


@pytest.mark.spec("AC-05", "BR-03")
@pytest.mark.parametrize("raw, expected", [(None, 10), (1, 1), (25, 25), (50, 50), ("15", 15), (" 7 ", 7), (20.0, 20)])
def test_max_results_defaults_to_ten_and_accepts_integers_in_any_honest_form(raw, expected):
    assert parse_search_request({"query": "x", "max_results": raw}).max_results == expected


@pytest.mark.spec("BR-04", "EDGE-06")
@pytest.mark.parametrize("raw", [51, 200, "51", 10**12])
def test_max_results_above_fifty_is_clamped_to_fifty(raw):
    assert parse_search_request({"query": "x", "max_results": raw}).max_results == 50


@pytest.mark.spec("EDGE-05")
@pytest.mark.parametrize("raw", [0, -1, -50, "0", "-3"])
def test_max_results_zero_or_negative_falls_back_to_ten(raw):
    assert parse_search_request({"query": "x", "max_results": raw}).max_results == 10


@pytest.mark.parametrize("raw", ["abc", "1.5", 2.5, True, [], {}])
def test_max_results_that_is_not_an_integer_is_a_validation_error(raw):
    assert problem({"query": "x", "max_results": raw}) == f"Parameter 'max_results' must be an integer: {raw}"


@pytest.mark.spec("EDGE-04")
def test_a_query_over_a_thousand_characters_is_accepted():
    long_query = "restaurant " * 200
    assert parse_search_request({"query": long_query}).query == long_query.strip()


def test_an_absurdly_long_query_is_rejected_with_its_length():
    assert problem({"query": "x" * 10_001}) == "Parameter 'query' is too long: 10001 characters (at most 10000)"
