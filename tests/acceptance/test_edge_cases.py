"""The spec's edge cases (EDGE-01..EDGE-12) through the container, on real SQLite files."""
import hashlib
import json

import pytest
from acceptance_helpers import call, found, ids
from builders import chunk, ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.di import create_injector

CLOCK = FixedClock(ms("2026-03-01T12:00"))


def open_history(history, sessions=(), messages=(), chunks=()):
    return create_injector(history(sessions, messages, chunks), clock=CLOCK, time_zone="Asia/Tokyo")


def message_ids(container, **parameters):
    return [row_id for source, row_id in found(container, **parameters) if source == "message"]


def many_notes(count):
    session = new_session("s", "Notes", "2026-02-01T09:00")
    notes = [new_message(f"m{i:02}", "s", f"note {i} about topic {i * 7}", f"2026-02-{1 + i % 27:02}T10:{i % 60:02}") for i in range(count)]
    return [session], notes


@pytest.mark.spec("EDGE-02")
def test_a_query_found_only_in_daily_logs_returns_only_daily_logs(container):
    assert found(container, query="Kamakura") == [("daily_log", "c-kamakura")]


@pytest.mark.spec("EDGE-03", "P-01")
@pytest.mark.parametrize("query", ["'; DROP TABLE messages; --", '" OR 1=1 --', "\\", "%", "Robert'); DELETE FROM sessions;"])
def test_quotes_backslashes_and_sql_text_are_searched_literally_and_change_nothing(seeded_db, container, query):
    before = hashlib.sha256(seeded_db.read_bytes()).hexdigest()
    outcome = call(container, query=query)
    assert outcome.is_success and "0 results" in outcome.result.splitlines()[0]
    assert hashlib.sha256(seeded_db.read_bytes()).hexdigest() == before
    assert len(ids(container, query="restaurant")) == 6


@pytest.mark.spec("EDGE-03", "P-01")
def test_special_characters_match_only_themselves(history):
    sessions = [new_session("s", "Paths", "2026-02-01T09:00")]
    messages = [new_message("win", "s", r"The log is in C:\temp\new.txt", "2026-02-01T09:00"),
                new_message("pct", "s", "We got 100% of the refund", "2026-02-01T09:01"),
                new_message("big", "s", "Order 1000 items", "2026-02-01T09:02"),
                new_message("quote", "s", 'She said "Sakura" twice', "2026-02-01T09:03")]
    container = open_history(history, sessions, messages)
    assert message_ids(container, query=r"C:\temp") == ["win"]
    assert message_ids(container, query="100%") == ["pct"]
    assert message_ids(container, query='"Sakura"') == ["quote"]
    assert message_ids(container, query="_") == []


@pytest.mark.spec("EDGE-04")
def test_a_query_longer_than_a_thousand_characters_works(history):
    long_text = " ".join(f"word{i}" for i in range(400))
    container = open_history(
        history, [new_session("s", "Long", "2026-02-01T09:00")], [new_message("m", "s", long_text, "2026-02-01T09:00")]
    )
    query = long_text[100:1_300]
    assert len(query) > 1_000 and message_ids(container, query=query) == ["m"]
    assert call(container, query="x" * 5_000).is_success


@pytest.mark.spec("EDGE-05", "BR-03")
@pytest.mark.parametrize("max_results", [0, -1, -100, None])
def test_max_results_zero_negative_or_missing_gives_ten(history, max_results):
    container = open_history(history, *many_notes(15))
    parameters = {"query": "note"} if max_results is None else {"query": "note", "max_results": max_results}
    assert len(ids(container, **parameters)) == 10


@pytest.mark.spec("EDGE-06", "BR-04")
@pytest.mark.parametrize("max_results", [51, 500, "51"])
def test_max_results_above_fifty_gives_fifty(history, max_results):
    container = open_history(history, *many_notes(60))
    assert len(ids(container, query="note", max_results=max_results)) == 50


@pytest.mark.spec("EDGE-07", "P-08")
def test_date_from_after_date_to_is_a_validation_error(container):
    outcome = call(container, query="restaurant", date_from="2026-02-28", date_to="2026-02-22")
    assert outcome.error_type == "validation_error" and "date_from 2026-02-28 is after date_to 2026-02-22" in outcome.error_message


@pytest.mark.spec("EDGE-08")
def test_a_range_in_the_future_finds_nothing(container):
    assert ids(container, query="restaurant", date_from="2026-03-02", date_to="2026-12-31") == []
    assert ids(container, query="restaurant", date_from="2027-01-01") == []


@pytest.mark.spec("EDGE-09")
def test_an_empty_memory_index_still_searches_messages(history):
    container = open_history(
        history, [new_session("s", "Chat", "2026-02-01T09:00")], [new_message("m", "s", "sushi tonight", "2026-02-01T09:00")]
    )
    assert "No matching results found" in call(container, query="sushi", scope="memory").result
    assert found(container, query="sushi") == [("message", "m"), ("session", "s")]


@pytest.mark.spec("EDGE-10")
def test_a_fresh_install_with_no_rows_answers_with_no_results(history):
    outcome = call(open_history(history), query="anything")
    assert outcome.is_success and outcome.result.startswith(
        '[Search Results for "anything" (scope: all, 0 results)]\n\nNo matching results found. Try broader keywords or a different scope.'
    )


@pytest.mark.spec("EDGE-11", "P-05")
def test_tool_call_json_inside_a_message_is_searchable_but_tool_rows_are_not(container):
    assert ids(container, query='"strict": true', scope="sessions") == ["m-json", "s-json"]
    assert ids(container, query="set_reminder") == []
    assert "m-tool" not in ids(container, query="Dinner at Sakura", max_results=50)


@pytest.mark.spec("EDGE-12", "MRG-5")
def test_the_same_text_in_memory_and_in_a_message_is_returned_once(history):
    text = "Remember that the spare key is under the blue flowerpot"
    container = open_history(
        history,
        [new_session("s", "House", "2026-02-27T09:00")],
        [new_message("m", "s", text, "2026-02-27T09:00")],
        [chunk("c", text, "2026-02-27")],
    )
    result = json.loads(call(container, query="spare key", format="json").result)["results"]
    assert [(item["source"], item["id"]) for item in result if item["source"] != "session"] == [("daily_log", "c")]
