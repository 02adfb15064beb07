"""The MessageDao port's promises (MessageDao.searchContent; P-01, P-02, BR-09), proven alike by
FakeMessageDao, PeeweeMessageDao's scan and PeeweeMessageDao answering from the keyword index.

Outside the contract: the order of messages written in the same millisecond, and the deadline
(the fake never runs long enough to need one).
"""
from __future__ import annotations

from dataclasses import fields

import pytest

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit, MessageType

T = 1_772_013_600_000  # any instant: the window tests count milliseconds from it


def chat(*contents, session="s1", start=T):
    """USER messages m0, m1, ... a minute apart in `session`."""
    return [NewMessage(f"m{n}", session, "USER", text, start + n * 60_000) for n, text in enumerate(contents)]


def found(daos, query, **options):
    return [hit.id for hit in daos.messages.search_content(query, **options)]


@pytest.mark.parametrize("query, match, lookalike", [
    ("SUSHI", "Sushi at noon", "sashimi at noon"),
    ("über", "Über den Wolken", "uber eats"),
    ("STRASSE", "Hauptstraße 5", "Hauptstrase 5"),
    ("école", "une e\u0301cole primaire", "une ecole primaire"),
    ("東京", "東京で寿司", "京都で寿司"),
    ("100%", "a 100% sure thing", "1000 items"),
    ("a_b", "see a_b here", "see axb here"),
    ("x\\%y", "path x\\%y", "path x%y"),
])
def test_a_query_matches_as_literal_caseless_text_in_any_script(history_daos, query, match, lookalike):
    daos = history_daos([NewSession("s1", "Chat", T)], chat(lookalike, match))
    assert [hit.content for hit in daos.messages.search_content(query)] == [match]


def test_only_user_and_assistant_messages_of_live_sessions_are_found(history_daos):
    sessions = [NewSession("s1", "Chat", T), NewSession("gone", "Deleted chat", T, deleted_at=T + 1)]
    messages = [NewMessage(f"m-{kind.lower()}", "s1", kind.value, f"walrus ({kind})", T + n) for n, kind in enumerate(MessageType)]
    messages.append(NewMessage("m-gone", "gone", "USER", "walrus in a deleted chat", T + 100))
    daos = history_daos(sessions, messages)
    assert sorted(found(daos, "walrus")) == ["m-ai_response", "m-user"]


def test_hits_come_newest_first_with_their_session_title(history_daos):
    messages = [NewMessage("middle", "s1", "USER", "sushi two", T + 2_000), NewMessage("old", "s1", "USER", "sushi one", T),
                NewMessage("new", "s1", "AI_RESPONSE", "sushi three", T + 5_000)]
    hits = history_daos([NewSession("s1", "Dinner", T)], messages).messages.search_content("sushi")
    assert [hit.id for hit in hits] == ["new", "middle", "old"]
    # a backend may hand back more than the spec's fields (this package's DAO adds each hit's rowid)
    assert MessageHit(*(getattr(hits[0], field.name) for field in fields(MessageHit))) == MessageHit(
        "new", "s1", "Dinner", "AI_RESPONSE", "sushi three", T + 5_000)


def test_the_time_window_includes_both_bounds_and_nothing_past_them(history_daos):
    times = {"before": T - 1, "first": T, "inside": T + 500, "last": T + 1_000, "after": T + 1_001}
    messages = [NewMessage(name, "s1", "USER", f"sushi {name}", at) for name, at in times.items()]
    daos = history_daos([NewSession("s1", "Chat", T - 10)], messages)
    assert found(daos, "sushi", created_after=T, created_before=T + 1_000) == ["last", "inside", "first"]
    assert found(daos, "sushi", created_after=T + 500, created_before=T + 500) == ["inside"]
    assert found(daos, "sushi", created_after=T + 1_000, created_before=T) == []


def test_the_limit_keeps_the_newest(history_daos):
    daos = history_daos([NewSession("s1", "Chat", T)], chat(*(f"sushi note {n}" for n in range(6))))
    assert found(daos, "sushi", limit=2) == ["m5", "m4"]
    assert len(found(daos, "sushi")) == 6 and found(daos, "sushi", limit=0) == []


@pytest.mark.parametrize("within", [
    Within(frozenset({"AI_RESPONSE"})),
    Within(sessions=frozenset({"t"})),
    Within(frozenset({"USER"}), frozenset({"s", "t"})),
    Within(frozenset({"USER", "TOOL_CALL"})),
    Within(sessions=frozenset()),
    Within(),
])
def test_within_keeps_to_its_types_and_sessions(history_daos, within):
    sessions = [NewSession("s", "Sushi notes", T), NewSession("t", "More sushi", T), NewSession("u", "Other", T)]
    kinds = ("USER", "AI_RESPONSE", "TOOL_CALL")
    messages = [NewMessage(f"m{n}", "stu"[n % 3], kinds[n // 3 % 3], f"sushi note {n}", T + n) for n in range(18)]
    expected = [row.id for row in reversed(messages) if row.type in ("USER", "AI_RESPONSE")
                and (within.types is None or row.type in within.types)
                and (within.sessions is None or row.session_id in within.sessions)]
    assert found(history_daos(sessions, messages), "sushi", within=within) == expected
