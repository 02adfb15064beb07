"""The SessionDao port's promises (SessionDao.searchByTitleOrPreview; P-01, P-02), proven alike by
FakeSessionDao, PeeweeSessionDao's scan and PeeweeSessionDao answering from the keyword index.

A session's preview is what the history's writer keeps there (its latest user or assistant text);
outside the contract: the order of sessions last active in the same millisecond, and the deadline.
"""
from __future__ import annotations

from dataclasses import fields

import pytest

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import SessionHit

T = 1_772_013_600_000
DAY = 86_400_000


def found(daos, query, **options):
    return [hit.id for hit in daos.sessions.search_by_title_or_preview(query, **options)]


def session(id, title, active, *, last_words=None, deleted=False):
    """A session created a day before `active`, last active then (its message, when it has one)."""
    row = NewSession(id, title, active - DAY, active, active if deleted else None)
    return row, ([NewMessage(f"{id}-m", id, "USER", last_words, active)] if last_words else [])


def build(history_daos, *sessions):
    return history_daos([row for row, _ in sessions], [message for _, messages in sessions for message in messages])


@pytest.fixture
def titled(history_daos):
    return build(history_daos,
                 session("title", "Über Sushi Spots", T), session("preview", "Plans", T + 1, last_words="a SUSHI place near 100% Tokyo"),
                 session("neither", "Ramen", T + 2, last_words="noodles only"), session("wild", "a_b and 50% off", T + 3),
                 session("gone", "Sushi, deleted", T + 4, last_words="sushi again", deleted=True))


@pytest.mark.parametrize("query, expected", [
    ("sushi", ["preview", "title"]),
    ("ÜBER", ["title"]),
    ("100%", ["preview"]),
    ("%", ["wild", "preview"]),
    ("a_b", ["wild"]),
    ("axb", []),
    ("noodles", ["neither"]),
])
def test_a_query_matches_the_title_or_the_preview_as_literal_caseless_text_of_live_sessions(titled, query, expected):
    assert found(titled, query) == expected


def test_a_hit_is_the_session_with_its_bookkeeping(titled):
    hits = titled.sessions.search_by_title_or_preview("place near")
    assert len(hits) == 1  # a backend may add its own bookkeeping (a rowid): the port's fields are compared
    assert SessionHit(*(getattr(hits[0], field.name) for field in fields(SessionHit))) == \
        SessionHit("preview", "Plans", 1, "a SUSHI place near 100% Tokyo", T + 1 - DAY, T + 1)


def test_sessions_are_dated_by_their_last_activity_both_bounds_included(history_daos):
    daos = build(history_daos, *(session(name, f"Trip {name}", at) for name, at in
                                 {"before": T - 1, "first": T, "inside": T + 500, "last": T + 1_000, "after": T + 1_001}.items()))
    # Every one of them was created a day before the window: only the last activity counts.
    assert found(daos, "trip", updated_after=T, updated_before=T + 1_000) == ["last", "inside", "first"]
    assert found(daos, "trip", updated_after=T + 1_000, updated_before=T) == []


def test_the_most_recently_active_come_first_up_to_the_limit(history_daos):
    daos = build(history_daos, *(session(f"s{n}", f"Trip {n}", T + (n * 7 % 5) * 1_000) for n in range(5)))
    assert found(daos, "trip") == ["s2", "s4", "s1", "s3", "s0"]
    assert found(daos, "trip", limit=2) == ["s2", "s4"] and found(daos, "trip", limit=0) == []


@pytest.mark.parametrize("within", [Within(sessions=frozenset({"a", "c"})), Within(sessions=frozenset()), Within(),
                                    Within(frozenset({"AI_RESPONSE"}))])
def test_within_keeps_to_its_sessions(history_daos, within):
    daos = build(history_daos, *(session(name, f"Trip {name}", T + n) for n, name in enumerate("abcd")))
    expected = [name for name in "dcba" if within.sessions is None or name in within.sessions]
    assert found(daos, "trip", within=within) == expected
