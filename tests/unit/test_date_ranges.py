"""`date_range` words resolved to whole local days (P-16), counted from a fixed today."""
from datetime import date

import pytest

from oneclaw_search.domain.date_ranges import UnknownDateRange, resolve_date_range

TODAY = date(2026, 3, 4)  # a Wednesday


@pytest.mark.parametrize("words, first, last", [
    ("today", "2026-03-04", "2026-03-04"),
    ("Yesterday", "2026-03-03", "2026-03-03"),
    ("this week", "2026-03-02", "2026-03-04"),
    ("last  week", "2026-02-23", "2026-03-01"),
    ("this month", "2026-03-01", "2026-03-04"),
    ("last month", "2026-02-01", "2026-02-28"),
    ("this year", "2026-01-01", "2026-03-04"),
    ("last year", "2025-01-01", "2025-12-31"),
    ("last 7 days", "2026-02-26", "2026-03-04"),
    ("past 1 day", "2026-03-04", "2026-03-04"),
    ("last 2 weeks", "2026-02-19", "2026-03-04"),
    ("2026-02-14", "2026-02-14", "2026-02-14"),
    ("2024-02", "2024-02-01", "2024-02-29"),
    ("2026-02-01 to 2026-02-07", "2026-02-01", "2026-02-07"),
    ("2026-02-01..2026-02-07", "2026-02-01", "2026-02-07"),
])
def test_words_name_whole_days_counted_from_today(words, first, last):
    assert resolve_date_range(words, TODAY) == (date.fromisoformat(first), date.fromisoformat(last))


def test_last_month_in_january_is_last_years_december():
    assert resolve_date_range("last month", date(2026, 1, 15)) == (date(2025, 12, 1), date(2025, 12, 31))


@pytest.mark.parametrize("words", ["soon", "last 0 days", "2026-02-30", "2026-13", "2026-02-07 to 2026-02-01", ""])
def test_anything_else_is_refused_with_the_accepted_forms(words):
    with pytest.raises(UnknownDateRange, match=r"Invalid date_range .*Accepted: today, yesterday, this week"):
        resolve_date_range(words, TODAY)
