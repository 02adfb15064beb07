"""The MessageSearch and SessionSearch ports' promises (SearchHistoryUseCase.kt's message and session
steps; P-01, Q-01), proven alike by the spec's scan over the fake DAOs (what unit tests search),
the same scan over the real ones, and the indexed searches production wires.

A port hands over candidates with their evidence; the ranking model orders them. Only the indexed
searches find rows whose words are scattered, and how many candidates beyond `limit` a search
gathers is its own: outside the contract.
"""
from __future__ import annotations

import pytest

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within

T = 1_772_013_600_000
QUERY = HistoryQuery.parse("walrus colony", stem)


def messages(daos, after=0, before=2**62, limit=20, **options):
    return [item.hit.id for item in daos.message_search.search(QUERY, after, before, limit, **options)]


def sessions(daos, after=0, before=2**62, limit=20, **options):
    return [item.hit.id for item in daos.session_search.search(QUERY, after, before, limit, **options)]


@pytest.fixture
def colony(history_daos):
    rows = [NewSession("s", "The walrus colony", T), NewSession("t", "Lunch", T + 5, T + 5),
            NewSession("gone", "walrus colony, deleted", T, deleted_at=T + 9)]
    said = [("whole", "USER", "we saw the walrus colony today", T), ("answer", "AI_RESPONSE", "a walrus colony, yes", T + 1),
            ("tool", "TOOL_CALL", "walrus colony lookup", T + 2)]
    turns = [NewMessage(name, "s", kind, text, at) for name, kind, text, at in said]
    turns += [NewMessage("late", "t", "USER", "the walrus colony again", T + 4),
              NewMessage("hidden", "gone", "USER", "the walrus colony, deleted", T + 4)]
    return history_daos(rows, turns)


def test_messages_holding_the_whole_query_are_found_as_such_and_only_live_turns(colony):
    found = colony.message_search.search(QUERY, 0, 2**62, 20)
    assert sorted(item.hit.id for item in found) == ["answer", "late", "whole"]
    assert all(item.evidence.literal and item.evidence.phrase > 0 for item in found)  # once, as whole words


def test_messages_keep_to_the_window_both_bounds_included_and_to_the_limit(colony):
    assert set(messages(colony, T + 1, T + 4)) == {"answer", "late"}
    assert messages(colony, T + 4, T + 4) == ["late"] and messages(colony, T + 5, T + 9) == []
    assert 2 <= len(messages(colony, limit=2)) <= 3 and messages(colony, limit=0) == []


@pytest.mark.parametrize("within, expected", [
    (Within(frozenset({"AI_RESPONSE"})), {"answer"}),
    (Within(sessions=frozenset({"t"})), {"late"}),
    (Within(frozenset({"USER", "TOOL_CALL"}), frozenset({"s"})), {"whole"}),
])
def test_messages_keep_within_its_types_and_sessions(colony, within, expected):
    assert set(messages(colony, within=within)) == expected


def test_sessions_are_found_by_title_or_preview_in_their_activity_window(colony):
    assert set(sessions(colony)) == {"s", "t"}  # s by its title, t by its last words
    assert sessions(colony, T + 5, T + 5) == ["t"] and sessions(colony, T + 6, T + 9) == []
    assert sessions(colony, within=Within(sessions=frozenset({"s"}))) == ["s"] and 1 <= len(sessions(colony, limit=1)) <= 2
