"""The spec's six typical scenarios, asked of the seeded history through the container.

"Now" is Sunday 2026-03-01 12:00 in Tokyo, so last week is 2026-02-22..28 and last Tuesday 02-24.
"""
import json

import pytest
from acceptance_helpers import call, found


def texts(container, **parameters):
    return [item["text"] for item in json.loads(call(container, format="json", **parameters).result)["results"]]


@pytest.mark.spec("SCN-1")
def test_the_restaurant_mentioned_last_week_is_named_first(container):
    best = texts(container, query="restaurant", date_from="2026-02-22", date_to="2026-02-28")[0]
    assert "Sakura Sushi" in best


@pytest.mark.spec("SCN-2")
def test_the_database_migration_discussion_is_found_in_memory_and_messages(container):
    sources = {source for source, _ in found(container, query="database migration")}
    assert {"daily_log", "message"} <= sources


@pytest.mark.spec("SCN-3")
def test_where_the_user_went_last_tuesday_comes_from_that_days_log(container):
    assert found(container, query="went", scope="daily_log", date_from="2026-02-24", date_to="2026-02-24") == [
        ("daily_log", "c-kamakura")
    ]


@pytest.mark.spec("SCN-4")
def test_the_json_parsing_snippet_is_found_in_message_content(container):
    assert found(container, query="parse JSON", scope="sessions") == [("message", "m-json"), ("session", "s-json")]


@pytest.mark.spec("SCN-5")
def test_configured_api_keys_come_from_memory_md(container):
    assert found(container, query="API key", scope="memory") == [("memory", "c-keys")]


@pytest.mark.spec("SCN-6")
def test_yesterdays_interactions_come_from_every_source_and_only_from_yesterday(container):
    result = json.loads(call(container, query="budget", date_from="2026-02-28", date_to="2026-02-28", format="json").result)
    assert {item["source"] for item in result["results"]} == {"daily_log", "message", "session"}
    assert {item["date"] for item in result["results"]} == {"2026-02-28"}
