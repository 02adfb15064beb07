"""The validated search_history request and every parameter rule, in the spec's order and words.

Mirrors the checks at the top of SearchHistoryTool.execute (BR-1..BR-7, ERR-1..ERR-3), with
OneClaw's defects fixed: max_results <= 0 falls back to 10, and a reversed range is an error.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import TypeVar

from oneclaw_search.domain.date_ranges import UnknownDateRange, resolve_date_range
from oneclaw_search.domain.input_text import InvalidText, as_integer, check_day
from oneclaw_search.domain.message_filter import InvalidFilter, MessageFilter, parse_message_filter
from oneclaw_search.domain.search_scope import SearchScope

DEFAULT_MAX_RESULTS = 10
MAX_MAX_RESULTS = 50
MAX_QUERY_LENGTH = 10_000

EMPTY_QUERY = "Parameter 'query' is required and cannot be empty"
QUERY_TOO_LONG = "Parameter 'query' is too long: {length} characters (at most {limit})"
INVALID_SCOPE = "Invalid scope '{value}'. Must be one of: all, memory, daily_log, sessions"
BAD_DATE_FORMAT = "Date must be in YYYY-MM-DD format: {value}"
NO_SUCH_DATE = "Invalid date: {value}"
REVERSED_RANGE = "Invalid date range: date_from {start} is after date_to {end}"
BAD_MAX_RESULTS = "Parameter 'max_results' must be an integer: {value}"
BOTH_RANGES = "Give either date_range or date_from/date_to, not both"
MAX_CONTEXT = 5
FILTER_NEEDS_MESSAGES = ("Parameters role, session_id, project and agent_type narrow messages and sessions,"
                         " which scope '{scope}' does not search: use scope all or sessions")
BAD_CONTEXT = "Parameter 'context' must be an integer from 0 to 5: {value}"

E = TypeVar("E", bound=StrEnum)
_DATE_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class InvalidSearchRequest(ValueError):
    """A parameter broke a rule; the message is the one the tool returns as validation_error."""


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A request that passed every rule: trimmed query, known scope, whole local days."""

    query: str
    scope: SearchScope = SearchScope.ALL
    date_from: date | None = None
    date_to: date | None = None
    max_results: int = DEFAULT_MAX_RESULTS
    date_range: str | None = None  # the words the days came from, so the reply can state them
    message_filter: MessageFilter | None = None  # role, session_id, project, agent_type; None: the spec's search
    context: int = 0  # turns shown before and after each message hit
    replies: bool = False  # with no context: a hit that asks a question shown with the turn after it


def parse_search_request(parameters: Mapping[str, object], today: date | None = None) -> SearchRequest:
    """Check query, scope, date_from, date_to (or date_range, counted from `today`), then
    max_results, stopping at the first problem."""
    query = _parse_query(parameters.get("query"))
    scope = _parse_scope(parameters.get("scope"))
    date_range = parameters.get("date_range")
    date_from: date | None
    date_to: date | None
    if date_range is not None:
        date_from, date_to = _parse_date_range(date_range, parameters, today)
    else:
        date_from, date_to = _parse_date(parameters.get("date_from")), _parse_date(parameters.get("date_to"))
    if date_from and date_to and date_from > date_to:
        raise InvalidSearchRequest(REVERSED_RANGE.format(start=date_from, end=date_to))
    max_results = _parse_max_results(parameters.get("max_results"))
    try:
        message_filter = parse_message_filter(parameters)
    except InvalidFilter as problem:
        raise InvalidSearchRequest(str(problem)) from None
    if message_filter is not None and scope not in (SearchScope.ALL, SearchScope.SESSIONS):
        raise InvalidSearchRequest(FILTER_NEEDS_MESSAGES.format(scope=scope))
    return SearchRequest(query, scope, date_from, date_to, max_results, None if date_range is None else str(date_range),
                         message_filter, _parse_context(parameters.get("context")))


def _parse_context(value: object) -> int:
    if value is None:
        return 0
    number = as_integer(value)
    if number is None or not 0 <= number <= MAX_CONTEXT:
        raise InvalidSearchRequest(BAD_CONTEXT.format(value=value))
    return number


def _parse_date_range(value: object, parameters: Mapping[str, object], today: date | None) -> tuple[date, date]:
    if parameters.get("date_from") is not None or parameters.get("date_to") is not None:
        raise InvalidSearchRequest(BOTH_RANGES)
    if today is None:
        raise InvalidSearchRequest("date_range needs today's date, which this host does not give")
    try:
        first, last = resolve_date_range(str(value), today)
    except UnknownDateRange as problem:
        raise InvalidSearchRequest(str(problem)) from None
    except (OverflowError, ValueError):  # a month or year past the calendar's end
        first, last = date.max, date.max
    return _within_calendar(first, value), _within_calendar(last, value)


def _parse_query(value: object) -> str:
    query = "" if value is None else str(value).strip()
    if not query:
        raise InvalidSearchRequest(EMPTY_QUERY)
    if len(query) > MAX_QUERY_LENGTH:
        raise InvalidSearchRequest(QUERY_TOO_LONG.format(length=len(query), limit=MAX_QUERY_LENGTH))
    return query


def _parse_scope(value: object) -> SearchScope:
    return parse_choice(value, SearchScope, SearchScope.ALL, INVALID_SCOPE)


def parse_choice(value: object, choices: type[E], default: E, message: str) -> E:
    """A named option: absent means `default`; otherwise trimmed and matched case-insensitively."""
    if value is None:
        return default
    text = str(value).strip()
    try:
        return choices(text.lower())
    except ValueError:
        raise InvalidSearchRequest(message.format(value=text)) from None


def _parse_date(value: object) -> date | None:
    if value is None:
        return None
    text = str(value).strip()
    if not _DATE_SHAPE.fullmatch(text):
        raise InvalidSearchRequest(BAD_DATE_FORMAT.format(value=text))
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise InvalidSearchRequest(NO_SUCH_DATE.format(value=text)) from None
    return _within_calendar(day, text)


def _within_calendar(day: date, value: object) -> date:
    try:
        return check_day(day, value)
    except InvalidText as problem:
        raise InvalidSearchRequest(str(problem)) from None


def _parse_max_results(value: object) -> int:
    """Default 10; at most 50; zero or negative means the default (the spec, not OneClaw's 1)."""
    if value is None:
        return DEFAULT_MAX_RESULTS
    number = as_integer(value)
    if number is None:
        raise InvalidSearchRequest(BAD_MAX_RESULTS.format(value=value))
    if number <= 0:
        return DEFAULT_MAX_RESULTS
    return min(number, MAX_MAX_RESULTS)
