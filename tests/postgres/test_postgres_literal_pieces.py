"""The literal reading of a phrase through its rarest word (literal_reading.py): the same rows, newest
first, as the whole phrase through the trigram index; the whole phrase again when the word turns out
commoner than its count; and never a word the phrase does not hold as written. The readings tried
before these (the newest rows, the phrase of the needle's words) are set aside here."""
from __future__ import annotations

from dataclasses import replace

import pytest

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.data.postgres import literal_reading, message_dao
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.folded import folded_like
from oneclaw_search.data.postgres.literal_reading import (
    ALONG_TIME,
    THROUGH_INDEX,
    LiteralPlan,
    literal_plan,
    pieces,
    words_of,
)
from oneclaw_search.data.postgres.message_dao import PostgresMessageDao
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter

NOW = 1_780_000_000_000


@pytest.fixture(autouse=True)
def trigram_readings_only(mocker):
    """The readings these tests look at, with the newest rows and the needle's words not tried first."""
    mocker.patch.object(message_dao, "newest_rows", return_value=None)
    mocker.patch.object(message_dao, "phrase_of", return_value=None)


def chosen(plan: LiteralPlan) -> LiteralPlan:
    """The reading a plan chose, without the counts it carries for the readings tried before it."""
    return replace(plan, held=None)


def history_of(url: str) -> PostgresHistory:
    history = PostgresHistory(url, "owner")
    texts = ([f"the ferry schedule changed on day {n}" for n in range(40)]  # 'ferry schedule': 40 rows
             + [f"schedule item {n}" for n in range(30)]
             + ["a ferryboat schedule", "FERRY SCHEDULE in capitals", "ferry  schedule, two spaces"]
             + [f"unrelated scheduler note {n}" for n in range(30)])
    rows = [NewMessage(f"m{i:03}", "s1" if i % 2 else "s2", "USER" if i % 3 else "AI_RESPONSE", text, NOW + i)
            for i, text in enumerate(texts)]
    PostgresHistoryWriter(history, None).write([NewSession("s1", "One", NOW), NewSession("s2", "Two", NOW)], rows, [])
    return history


def read_whole(history: PostgresHistory, query: str, limit: int, mocker) -> list[str]:
    mocker.patch.object(literal_reading, "PIECE_ROWS", 0)  # no word is rare enough: the whole phrase
    return [hit.id for hit in PostgresMessageDao(history).search_content(query, limit=limit)]


@pytest.mark.parametrize("query", ["ferry schedule", "FERRY schedule", "schedule item 2", "schedule changed on day 3"])
@pytest.mark.parametrize("limit", [1, 5, 50])
def test_a_phrase_read_through_its_rarest_word_finds_what_the_whole_phrase_finds(fresh_database, mocker, query, limit):
    url, _ = fresh_database
    history = history_of(url)
    assert literal_plan(history, query, limit, None).piece is not None  # the new path is the one taken
    spy = mocker.spy(message_dao, "through_piece")
    through = [hit.id for hit in PostgresMessageDao(history).search_content(query, limit=limit)]
    assert spy.call_count == 1 and spy.spy_return is not None
    assert through == read_whole(history, query, limit, mocker)
    assert through == sorted(through, reverse=True)  # newest first: ids follow time here
    assert through  # each query is held by some row


def test_a_word_commoner_than_its_count_said_leaves_the_phrase_to_the_index(fresh_database, mocker):
    url, _ = fresh_database
    history = history_of(url)
    mocker.patch.object(literal_reading, "PIECE_ROWS", 20)  # 'ferry' is counted 42 times: not rare enough
    assert chosen(literal_plan(history, "ferry schedule", 50, None)) == LiteralPlan(order=THROUGH_INDEX)  # a phrase
    mocker.patch.object(message_dao, "literal_plan", return_value=LiteralPlan(piece="schedul"))  # held by 103 rows, past 20
    whole = mocker.spy(history, "rows")
    found = [hit.id for hit in PostgresMessageDao(history).search_content("ferry schedule", limit=50)]
    assert len(found) == 41  # the 40 and the capitals; not the ferryboat, nor the two spaces
    assert "held AS MATERIALIZED" in whole.call_args_list[0].args[0]
    assert "held AS MATERIALIZED" not in whole.call_args_list[-1].args[0]


def test_the_words_a_phrase_is_read_through_are_parts_of_it_as_written():
    assert pieces(words_of("ferry schedule")) == ["ferry", "schedule"]
    assert pieces(words_of("ferry")) == []  # one word is the phrase itself
    assert pieces(words_of("café")) == []  # and 'caf' would hold fewer of its trigrams, not more
    assert pieces(words_of("search.max_results")) == ["search", "max_results"]
    assert pieces(words_of("cafe\u0301 au lait")) == ["lait"]  # 'cafe' is not in 'café', whatever its bytes
    assert pieces(words_of("ab cd")) == []  # too short for a trigram
    assert pieces(words_of("東京 tokyo")) == ["tokyo"]


def test_a_stop_word_or_a_word_never_counted_is_not_taken_for_a_rare_one(fresh_database):
    url, _ = fresh_database
    history = history_of(url)
    assert literal_plan(history, "the ferry", 50, None).piece == "ferry"  # 'the' has no count: not 'rarest'
    assert literal_plan(history, "ferryboat schedule", 50, None).piece == "ferryboat"
    assert literal_plan(history, "what about the", 50, None).piece is None  # stop words only
    assert literal_plan(history, "ferry zzqx", 50, None).piece == "zzqx"  # no row holds it whole: the rarest there is


def test_a_word_is_read_back_along_time_when_common_and_through_the_index_when_rare(fresh_database, mocker):
    """held² against limit · rows · ALONG_TIME_SHARE: 'ferry' is held by 42 of 103 messages."""
    url, _ = fresh_database
    history = history_of(url)
    assert chosen(literal_plan(history, "ferry", 50, None)) == LiteralPlan(order=ALONG_TIME, rows_back=168)  # 42² > 50 · 103 / 4
    assert chosen(literal_plan(history, "ferry", 100, None)) == LiteralPlan(order=THROUGH_INDEX)  # 42² < 100 · 103 / 4
    assert chosen(literal_plan(history, "fe", 50, None)) == LiteralPlan(order=ALONG_TIME)  # no trigram to look up
    assert chosen(literal_plan(history, "zzqx", 50, None)) == LiteralPlan()  # no count: the planner's choice
    assert chosen(literal_plan(history, "ferry", 50, None, some_sessions=True)) == LiteralPlan()  # counts of all sessions
    assert chosen(literal_plan(history, "école", 50, None)) == LiteralPlan()  # counted as 'ecol', which no row holds
    statements = mocker.spy(history, "rows")
    for limit, order in ((5, ALONG_TIME), (100, THROUGH_INDEX)):
        expected = read_whole_free(history, "FERRY", limit)
        statements.reset_mock()
        found = [hit.id for hit in PostgresMessageDao(history).search_content("FERRY", limit=limit)]
        asked = [call.args[0] for call in statements.call_args_list]
        assert found == expected and len(found) == min(limit, 43)  # the ferryboat too, as a part of a word
        # back along time, at most 42 / ALONG_TIME_SHARE rows, for the smaller page; the larger one
        # through the index
        assert any("LIMIT 168) m" in sql for sql in asked) == (order == ALONG_TIME)
        assert any("m.created_at + 0" in sql for sql in asked) == (order == THROUGH_INDEX)
    expected = read_whole_free(history, "scheduler", 5)
    statements.reset_mock()
    found = [hit.id for hit in PostgresMessageDao(history).search_content("scheduler", limit=5)]
    asked = [call.args[0] for call in statements.call_args_list]
    assert found == expected and len(found) == 5  # the newest rows, the scheduler's, hold the page:
    assert any("LIMIT 412) m" in sql for sql in asked) and not any("m.created_at + 0" in sql for sql in asked)


def read_whole_free(history: PostgresHistory, query: str, limit: int) -> list[str]:
    """The needle through the plain statement, the planner choosing: the rows any reading must give."""
    rows = history.rows(f"SELECT m.id FROM messages m WHERE {folded_like('m.content')} ORDER BY m.created_at DESC, m.id LIMIT %s",
                        (query, limit))
    return [row[0] for row in rows]


def test_a_word_commoner_in_the_counts_than_as_written_is_read_through_the_index_after_its_newest_rows(fresh_database,
                                                                                                        mocker):
    """The index's words drop accents: 'école' counts for 'ecole'. The newest rows hold only the accented
    form, so reading back finds too few, and the index gives the rest."""
    url, _ = fresh_database
    history = PostgresHistory(url, "owner")
    rows = ([NewMessage(f"a{i:03}", "s1", "USER", f"plain ecole note {i}", NOW + i) for i in range(3)]
            + [NewMessage(f"b{i:03}", "s1", "USER", f"une école {i}", NOW + 100 + i) for i in range(60)])
    PostgresHistoryWriter(history, None).write([NewSession("s1", "One", NOW)], rows, [])
    mocker.patch.object(literal_reading, "ALONG_TIME_SHARE", 2.0)  # read back 63 / 2 rows: accented ones only
    assert chosen(literal_plan(history, "ecole", 5, None)) == LiteralPlan(order=ALONG_TIME, rows_back=31)
    expected = read_whole_free(history, "ecole", 5)
    statements = mocker.spy(history, "rows")
    found = [hit.id for hit in PostgresMessageDao(history).search_content("ecole", limit=5)]
    assert found == ["a002", "a001", "a000"] == expected
    assert "LIMIT 31) m" in statements.call_args_list[-2].args[0]  # back along time first,
    assert "m.created_at + 0" in statements.call_args_list[-1].args[0]  # then through the index
