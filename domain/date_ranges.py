"""`date_range`: the day spans agents say in words ("last week"), resolved in code; a parameter
beyond FEAT-032 that ends in the same whole local days as date_from and date_to (P-16).

claude-history leaves relative dates to the model; here "last week" means the same days whoever
asks. Days are whole local days of the host's zone, inclusive, as date_from and date_to are.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

ACCEPTED = ('today, yesterday, this week, last week, this month, last month, this year, last year, '
            'last N days, last N weeks, YYYY-MM-DD, YYYY-MM, "YYYY-MM-DD to YYYY-MM-DD"')
UNKNOWN = "Invalid date_range '{value}'. Accepted: " + ACCEPTED
_LAST_N = re.compile(r"(?:last|past) (\d{1,4}) (day|week)s?")
_SPAN = re.compile(r"(\d{4}-\d{2}-\d{2}) *(?:to|\.\.|until|–) *(\d{4}-\d{2}-\d{2})")


class UnknownDateRange(ValueError):
    """The words name no span this module knows; the message lists the accepted forms."""


def resolve_date_range(text: str, today: date) -> tuple[date, date]:
    """The first and last day `text` names, counted from `today`."""
    words = " ".join(str(text).lower().split())
    span = _named(words, today) or _counted(words, today) or _written(words)
    if span is None or span[0] > span[1]:
        raise UnknownDateRange(UNKNOWN.format(value=text))
    return span


def _named(words: str, today: date) -> tuple[date, date] | None:
    monday = today - timedelta(days=today.weekday())
    first_of_month = today.replace(day=1)
    previous_month_end = first_of_month - timedelta(days=1)
    return {
        "today": (today, today),
        "yesterday": (today - timedelta(days=1), today - timedelta(days=1)),
        "this week": (monday, today),
        "last week": (monday - timedelta(days=7), monday - timedelta(days=1)),
        "this month": (first_of_month, today),
        "last month": (previous_month_end.replace(day=1), previous_month_end),
        "this year": (today.replace(month=1, day=1), today),
        "last year": (date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)),
    }.get(words)


def _counted(words: str, today: date) -> tuple[date, date] | None:
    """"last 7 days" is today and the six days before it; "last 2 weeks", fourteen days."""
    match = _LAST_N.fullmatch(words)
    if match is None or int(match.group(1)) < 1:
        return None
    days = int(match.group(1)) * (7 if match.group(2) == "week" else 1)
    return today - timedelta(days=days - 1), today


def _written(words: str) -> tuple[date, date] | None:
    try:
        if match := _SPAN.fullmatch(words):
            return date.fromisoformat(match.group(1)), date.fromisoformat(match.group(2))
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", words):
            day = date.fromisoformat(words)
            return day, day
        if re.fullmatch(r"\d{4}-\d{2}", words):
            first = date.fromisoformat(words + "-01")
            following = (first + timedelta(days=32)).replace(day=1)
            return first, following - timedelta(days=1)
    except ValueError:
        return None
    return None
