"""search_history's date_range through the production container: words become the same
days date_from/date_to would give, in the container's zone and clock, and the reply states them."""
import json

from acceptance_helpers import call, found


def test_last_week_is_the_days_from_monday_to_sunday_before_this_one_and_the_reply_says_so(container):
    # The pinned clock reads Sunday 2026-03-01 12:00 in Tokyo: last week is 16 to 22 February.
    worded = call(container, query="restaurant", date_range="last week")
    assert worded.result.splitlines()[1] == "Dates: 2026-02-16 to 2026-02-22 (last week)"
    worded_hits = found(container, query="restaurant", date_range="last week")
    assert worded_hits == found(container, query="restaurant", date_from="2026-02-16", date_to="2026-02-22")
    assert ("message", "m-italian") in worded_hits and ("message", "m-sakura") not in worded_hits  # 20 Feb in, 25 Feb out
    document = json.loads(call(container, query="restaurant", date_range="last week", format="json").result)
    assert (document["date_from"], document["date_to"], document["date_range"]) == ("2026-02-16", "2026-02-22", "last week")


def test_date_range_with_dates_or_in_unknown_words_is_a_validation_error(container):
    both = call(container, query="x", date_range="today", date_from="2026-02-01")
    unknown = call(container, query="x", date_range="the other day")
    assert (both.error_type, both.error_message) == ("validation_error", "Give either date_range or date_from/date_to, not both")
    assert unknown.error_type == "validation_error"
    assert unknown.error_message.startswith("Invalid date_range 'the other day'. Accepted: today, yesterday")


def test_without_date_range_the_reply_has_no_dates_line(container):
    assert not any(line.startswith("Dates:") for line in call(container, query="restaurant").result.splitlines())
    assert "date_range" not in json.loads(call(container, query="restaurant", format="json").result)
