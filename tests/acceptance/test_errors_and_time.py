"""Errors, the time budget, and dates in the user's zone, through the production container.

The wall clock here is the real SystemClock frozen by freezegun, not a fake, to show that all
time flows through the injected clock.
"""
import json
import time
from zoneinfo import ZoneInfo

import pytest
from acceptance_helpers import call, found
from builders import new_message, new_session
from fakes import BlockingMessageDao
from freezegun import freeze_time
from injector import Module, provider, singleton

from oneclaw_search.di import create_injector
from oneclaw_search.domain.ports import MessageDao

NEW_YORK = ZoneInfo("America/New_York")


@pytest.mark.spec("ERR-4")
def test_a_database_that_vanishes_gives_a_search_error_naming_it(seeded_db, clock):
    container = create_injector(seeded_db, clock=clock, time_zone="Asia/Tokyo")
    seeded_db.unlink()
    outcome = call(container, query="restaurant")
    assert outcome.error_type == "search_error"
    assert outcome.error_message.startswith("Search failed: ") and str(seeded_db) in outcome.error_message
    assert not seeded_db.exists()


@pytest.mark.spec("ERR-5", "P-15")
def test_a_source_that_overruns_the_budget_leaves_partial_results_with_a_note(seeded_db, clock):
    blocked = BlockingMessageDao()

    class SlowMessages(Module):
        @singleton
        @provider
        def provide_message_dao(self) -> MessageDao:
            return blocked

    # A host's own DAO is searched by the spec's scan: the keyword index reads the history itself.
    container = create_injector(seeded_db, clock=clock, time_zone="Asia/Tokyo", search_budget_seconds=0.3,
                                index_path=None, modules=[SlowMessages()])
    started = time.monotonic()
    try:
        text = call(container, query="restaurant").result
        document = json.loads(call(container, query="restaurant", format="json").result)
    finally:
        blocked.release.set()
    assert time.monotonic() - started < 5
    assert "Note: partial results; searching messages did not finish within the 0.3 s budget." in text
    assert document["complete"] is False and document["unfinished_sources"] == ["messages"]
    assert {item["source"] for item in document["results"]} == {"daily_log", "session"}


@pytest.mark.spec("BR-06", "AC-04")
def test_only_date_from_runs_up_to_the_frozen_now_minus_the_triggering_message(history):
    sessions = [new_session("s", "Chat", "2026-02-20T09:00")]
    messages = [new_message("old", "s", "pasta ideas", "2026-02-20T09:00"),
                new_message("recent", "s", "pasta for tonight", "2026-02-27T09:00"),
                new_message("asking", "s", "what pasta did I like?", "2026-03-01T11:59:58")]
    path = history(sessions, messages)
    with freeze_time("2026-03-01 03:00:00"):  # 12:00 in Tokyo
        container = create_injector(path, time_zone="Asia/Tokyo")
        assert [i for s, i in found(container, query="pasta", date_from="2026-02-25") if s == "message"] == ["recent"]
        assert "asking" in [i for _, i in found(container, query="pasta", date_to="2026-03-01")]


@pytest.mark.spec("BR-07")
def test_only_date_to_reaches_back_to_the_beginning(history):
    messages = [new_message("ancient", "s", "pasta in 1999", "1999-05-01T09:00"), new_message("new", "s", "pasta now", "2026-02-27T09:00")]
    path = history([new_session("s", "Chat", "1999-05-01T09:00")], messages)
    with freeze_time("2026-03-01 03:00:00"):
        container = create_injector(path, time_zone="Asia/Tokyo")
        assert [i for s, i in found(container, query="pasta", date_to="2000-01-01") if s == "message"] == ["ancient"]


@pytest.mark.spec("P-16", "AC-13")
def test_the_hosts_tz_decides_which_local_day_a_message_belongs_to(history, monkeypatch):
    late_evening_in_new_york = new_message("m", "s", "pasta night", "2026-02-25T23:30", zone=NEW_YORK)  # 26th in Tokyo
    path = history([new_session("s", "Chat", "2026-02-25T09:00")], [late_evening_in_new_york])
    monkeypatch.setenv("TZ", "America/New_York")
    with freeze_time("2026-03-01 03:00:00"):
        in_new_york = json.loads(
            call(create_injector(path), query="pasta night", date_from="2026-02-25", date_to="2026-02-25", format="json").result
        )
        in_tokyo = json.loads(
            call(
                create_injector(path, time_zone="Asia/Tokyo"),
                query="pasta night",
                date_from="2026-02-25",
                date_to="2026-02-25",
                format="json",
            ).result
        )
    assert [(item["id"], item["date"]) for item in in_new_york["results"] if item["source"] == "message"] == [("m", "2026-02-25")]
    assert [item["id"] for item in in_tokyo["results"] if item["source"] == "message"] == []


@pytest.mark.spec("P-16")
def test_a_day_ends_at_local_midnight_even_when_the_clocks_spring_forward(history):
    messages = [
        new_message("late", "s", "pasta late", "2026-03-08T23:30", zone=NEW_YORK),
        new_message("next", "s", "pasta next day", "2026-03-09T00:30", zone=NEW_YORK),
    ]
    path = history([new_session("s", "Chat", "2026-03-08T09:00")], messages)
    with freeze_time("2026-03-10 12:00:00"):
        container = create_injector(path, time_zone="America/New_York")
        hits = [i for s, i in found(container, query="pasta", date_from="2026-03-08", date_to="2026-03-08") if s == "message"]
    assert hits == ["late"]
