"""PeeweeSessionDao.search_by_title_or_preview against real SQLite files: it matches a live session's
title or last-message preview literally and caselessly, dates sessions by their last activity
(updated_at), and returns the most recently active first, cut to the limit.
"""
from __future__ import annotations

import pytest
from builders import ms, new_message, new_session

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.session_dao import PeeweeSessionDao


def search(path, query, **options):
    return PeeweeSessionDao(HistoryDatabase.open_read_only(path)).search_by_title_or_preview(query, **options)


def ids(hits):
    return [hit.id for hit in hits]


def titled(history, *titles):
    """One live session per title, created a day apart (the last one most recently active)."""
    return history([new_session(f"s{i}", title, f"2026-02-{i + 1:02d}T10:00") for i, title in enumerate(titles)])


@pytest.mark.spec("AC-08", "BR-09")
def test_search_by_title_or_preview_matches_the_title_or_the_last_message_preview(history):
    sessions = [
        new_session("by-title", "Trip to Kyoto", "2026-02-01T10:00"),
        new_session("by-preview", "Weekend plans", "2026-02-02T10:00"),
        new_session("neither", "Groceries", "2026-02-03T10:00"),
    ]
    messages = [
        new_message("m1", "by-preview", "We could take the train to Kyoto", "2026-02-02T10:00"),
        new_message("m2", "neither", "Milk and eggs", "2026-02-03T10:00"),
    ]
    hits = search(history(sessions, messages), "kyoto")
    assert ids(hits) == ["by-preview", "by-title"]
    assert hits[0].last_message_preview == "We could take the train to Kyoto"
    assert (hits[0].title, hits[0].message_count) == ("Weekend plans", 1)


@pytest.mark.spec("P-04")
def test_search_by_title_or_preview_leaves_out_soft_deleted_sessions(history):
    sessions = [
        new_session("live", "Ramen places", "2026-02-01T10:00"),
        new_session("gone", "Ramen ideas", "2026-02-02T10:00", deleted="2026-02-03T10:00"),
    ]
    assert ids(search(history(sessions), "ramen")) == ["live"]


@pytest.mark.spec("P-06")
def test_search_by_title_or_preview_filters_on_last_activity_not_creation(history):
    sessions = [
        new_session("old-but-active", "Budget talk", "2025-11-01T10:00", updated="2026-02-10T10:00"),
        new_session("new-but-later", "Budget review", "2026-02-05T10:00", updated="2026-02-20T10:00"),
        new_session("before", "Budget draft", "2026-01-20T10:00"),
    ]
    path = history(sessions)
    window = {"updated_after": ms("2026-02-01T00:00"), "updated_before": ms("2026-02-15T00:00")}
    assert ids(search(path, "budget", **window)) == ["old-but-active"]


@pytest.mark.spec("P-06")
def test_search_by_title_or_preview_treats_the_updated_bounds_as_inclusive(history):
    path = titled(history, "Chess opening", "Chess endgame", "Chess puzzle")
    first, last = ms("2026-02-01T10:00"), ms("2026-02-03T10:00")
    assert ids(search(path, "chess", updated_after=first, updated_before=last)) == ["s2", "s1", "s0"]
    assert ids(search(path, "chess", updated_after=first + 1, updated_before=last - 1)) == ["s1"]


@pytest.mark.spec("P-06")
def test_search_by_title_or_preview_counts_a_new_message_as_activity(history):
    sessions = [
        new_session("revived", "Garden notes", "2026-01-01T10:00"),
        new_session("recent", "Garden plan", "2026-02-01T10:00"),
    ]
    messages = [new_message("m1", "revived", "Plant the tomatoes", "2026-02-10T10:00")]
    hits = search(history(sessions, messages), "garden")
    assert ids(hits) == ["revived", "recent"]
    assert hits[0].updated_at == ms("2026-02-10T10:00")
    assert hits[0].created_at == ms("2026-01-01T10:00")


def test_search_by_title_or_preview_orders_by_last_activity_and_applies_the_limit(history):
    sessions = [
        new_session("middle", "Movie night", "2026-02-01T10:00", updated="2026-02-05T10:00"),
        new_session("newest", "Movie list", "2026-01-01T10:00", updated="2026-02-09T10:00"),
        new_session("oldest", "Movie quotes", "2026-02-02T10:00"),
    ]
    path = history(sessions)
    assert ids(search(path, "movie")) == ["newest", "middle", "oldest"]
    assert ids(search(path, "movie", limit=2)) == ["newest", "middle"]


@pytest.mark.spec("P-02", "BR-09")
@pytest.mark.parametrize(("query", "title"), [
    ("ÜBER", "Über den Wolken"),
    ("école", "ÉCOLE DE MUSIQUE"),
    ("strasse", "Hauptstraße"),
    ("ÉCOLE", "e\u0301cole notes"),
])
def test_search_by_title_or_preview_ignores_case_across_unicode(history, query, title):
    path = titled(history, title, "Unrelated")
    assert [hit.title for hit in search(path, query)] == [title]


@pytest.mark.spec("P-02", "BR-09")
def test_search_by_title_or_preview_folds_the_preview_as_well(history):
    sessions = [new_session("s1", "Address", "2026-02-01T10:00")]
    messages = [new_message("m1", "s1", "Wir wohnen in der Hauptstraße", "2026-02-01T10:00")]
    assert ids(search(history(sessions, messages), "HAUPTSTRASSE")) == ["s1"]


@pytest.mark.spec("P-01")
@pytest.mark.parametrize(("query", "lookalike", "literal"), [
    ("100%", "1000 tasks", "100% done"),
    ("a_b", "axb notes", "a_b notes"),
    ("dir\\name", "dirname", "dir\\name"),
])
def test_search_by_title_or_preview_treats_wildcards_as_literal_characters(history, query, lookalike, literal):
    path = titled(history, lookalike, literal)
    assert [hit.title for hit in search(path, query)] == [literal]


def test_search_by_title_or_preview_on_an_empty_database_returns_nothing(history):
    assert search(history(), "anything") == []
