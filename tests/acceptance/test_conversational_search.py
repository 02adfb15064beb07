"""How a conversation is read: answers found through their question and questions through
their answer, names that are everywhere, old strong matches against new weak ones, and the `index` command."""
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest
from acceptance_helpers import found, ids
from builders import ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.index import sync
from oneclaw_search.data.index.schema import MESSAGES
from oneclaw_search.data.index.sync import IndexSync
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts

CLOCK = FixedClock(ms("2026-03-01T12:00"))


def lexical(path):
    return create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None)


@pytest.fixture
def painting_chat(history):
    turns = [("q", "USER", "What did you paint last week for the gallery?"),
             ("a", "AI_RESPONSE", "A sunrise over the lake, in oils."),
             ("later", "USER", "Lovely. Shall we book a table for dinner tomorrow?")]
    messages = [new_message(i, "s", text, f"2026-02-20T09:0{n}", kind) for n, (i, kind, text) in enumerate(turns)]
    return history([new_session("s", "Session 1 with Caroline and Melanie", "2026-02-20T09:00")], messages)


@pytest.mark.spec("Q-01")
def test_an_answer_is_found_through_the_question_it_answers(painting_chat):
    assert ids(lexical(painting_chat), query="paint gallery", scope="sessions")[:2] == ["q", "a"]
    # Each holds one word and has the other next to it: both lead, the chat's last turn trails.
    assert sorted(ids(lexical(painting_chat), query="paint sunrise", scope="sessions")[:2]) == ["a", "q"]


@pytest.mark.spec("Q-01")
def test_one_word_of_the_turns_around_is_not_enough(painting_chat):
    assert ids(lexical(painting_chat), query="gallery", scope="sessions") == ["q"]


@pytest.mark.spec("Q-01")
def test_two_words_from_the_turns_around_a_message_find_it(painting_chat):
    # "later" holds neither word, but the question two turns before it holds both.
    assert ids(lexical(painting_chat), query="paint gallery", scope="sessions") == ["q", "a", "later"]


@pytest.mark.spec("Q-01")
def test_turns_of_another_session_lend_no_words(history):
    turns = [("q", "s", "What did you paint for the gallery?", "09:00"), ("x", "t", "The gallery opens at noon.", "09:01"),
             ("y", "t", "Fine.", "09:02"), ("a", "s", "A sunrise over the lake.", "09:03")]
    messages = [new_message(i, session, text, f"2026-02-20T{at}") for i, session, text, at in turns]
    sessions = [new_session("s", "Painting", "2026-02-20T09:00"), new_session("t", "Opening hours", "2026-02-20T09:01")]
    container = lexical(history(sessions, messages))
    # Written in between, x and y are not a's turns before nor q's turns after: only y, x's reply, is found through x.
    # (Session t is a hit too: "Opening hours" holds the stem of "opens".)
    assert [row for source, row in found(container, query="opens noon", scope="sessions") if source == "message"] == ["x", "y"]
    # a is found through q, its own turn before, in spite of x and y; y is not found through x's one word.
    hits = [row for source, row in found(container, query="paint gallery", scope="sessions") if source == "message"]
    assert hits[:2] == ["q", "a"] and "y" not in hits


@pytest.mark.spec("Q-01")
def test_a_name_in_every_session_title_makes_no_session_a_hit(history):
    sessions = [new_session(f"s{n}", f"Session {n} with Caroline and Melanie", f"2026-02-2{n}T09:00") for n in range(5)]
    messages = [new_message(f"m{n}", f"s{n}", text, f"2026-02-2{n}T09:00") for n, text in
                enumerate(["I finally adopted a puppy", "The weather was grim", "Work is busy", "Tea?", "A sunrise hike"])]
    results = found(lexical(history(sessions, messages)), query="Caroline puppy", scope="sessions")
    # s0 is found by its preview ("...adopted a puppy"); the other four hold only the name.
    assert results[0] == ("message", "m0") and [row for row in results if row[0] == "session"] == [("session", "s0")]


@pytest.mark.spec("Q-01")
def test_a_strong_old_match_beats_a_weak_new_one(history):
    messages = [new_message("old", "s1", "The sushi restaurant in Tokyo near the station", "2025-09-01T09:00"),
                new_message("new", "s2", "Tokyo was rainy today", "2026-02-28T09:00")]
    sessions = [new_session("s1", "Trip", "2025-09-01T09:00"), new_session("s2", "Weather", "2026-02-28T09:00")]
    results = found(lexical(history(sessions, messages)), query="sushi restaurant tokyo", scope="sessions")
    assert [row for source, row in results if source == "message"] == ["old", "new"]


@pytest.mark.spec("Q-11")
def test_nothing_is_read_from_the_history_while_no_commit_happened(painting_chat, mocker):
    container = lexical(painting_chat)
    ids(container, query="sunrise", scope="sessions")
    caught_up = mocker.spy(IndexSync, "catch_up")
    ids(container, query="dinner", scope="sessions")
    assert caught_up.call_count == 0
    append(painting_chat, new_message("after", "s", "Dinner at eight, then.", "2026-02-20T09:05", "AI_RESPONSE"))
    assert "after" in ids(container, query="dinner", scope="sessions") and caught_up.call_count == 1


@pytest.mark.spec("Q-11")
def test_the_index_command_builds_the_side_index_and_says_where(painting_chat):
    done = subprocess.run([sys.executable, "-m", "oneclaw_search.di.cli", "--db", str(painting_chat), "index"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "3 messages, 1 sessions" in done.stdout and f"{painting_chat.name}.search-index.sqlite" in done.stdout


def append(path, *messages):
    database = open_writable(path)
    HistoryWriter(database, None).write([], list(messages), [])
    database.close()


def indexed_messages(container) -> int:
    return container.get(IndexParts).lookup.keyword.searcher(MESSAGES, fresh=True).num_docs


@pytest.mark.spec("Q-01")
def test_a_question_is_found_through_the_answer_after_it(painting_chat):
    # "q" holds neither word; the reply after it holds both.
    results = ids(lexical(painting_chat), query="sunrise oils", scope="sessions")
    assert results[0] == "a" and "q" in results


@pytest.mark.spec("Q-01", "Q-11")
def test_an_answer_written_after_its_question_was_indexed_lends_it_its_words(history):
    path = history([new_session("s", "Painting", "2026-02-20T09:00")],
                   [new_message("q", "s", "What did you paint last week?", "2026-02-20T09:00")])
    container = lexical(path)
    assert ids(container, query="sunrise oils", scope="sessions") == []
    append(path, new_message("a", "s", "A sunrise over the lake, in oils.", "2026-02-20T09:01", "AI_RESPONSE"))
    hits = [row for source, row in found(container, query="sunrise oils", scope="sessions") if source == "message"]
    assert hits == ["a", "q"]
    assert indexed_messages(container) == 2  # q's first document was replaced, not joined


@pytest.mark.spec("Q-01", "Q-11")
def test_a_build_in_many_commits_writes_the_documents_one_pass_writes(history, monkeypatch):
    words = ["sunrise", "lake", "oils", "gallery", "paint", "dinner", "table", "walrus"]
    messages = [new_message(f"m{n}", f"s{n % 3}", f"{words[n % 8]} {words[(n * 3) % 8]} note {n}",
                            f"2026-02-20T09:{n:02d}") for n in range(40)]
    sessions = [new_session(f"s{n}", f"Chat {n}", "2026-02-20T09:00") for n in range(3)]
    whole = lexical(history(sessions, messages))
    monkeypatch.setattr(sync, "BATCH_ROWS", 7)
    monkeypatch.setattr(sync, "COMMIT_ROWS", 7)
    batched = lexical(history(sessions, messages))
    for query in ("sunrise lake", "oils gallery", "dinner walrus", "paint"):
        assert ids(batched, query=query, scope="sessions") == ids(whole, query=query, scope="sessions")
    assert indexed_messages(batched) == indexed_messages(whole) == 40


@pytest.mark.spec("Q-01", "Q-11")
def test_an_edited_reply_no_longer_lends_its_old_words_to_the_turns_around_it(painting_chat):
    container = lexical(painting_chat)
    assert "q" in ids(container, query="sunrise oils", scope="sessions")
    with closing(sqlite3.connect(painting_chat)) as connection, connection:
        connection.execute("UPDATE messages SET content = 'A portrait of my cat.' WHERE id = 'a'")
    assert ids(container, query="sunrise oils", scope="sessions") == []
    assert ids(container, query="portrait cat", scope="sessions")[0] == "a"


@pytest.mark.spec("Q-01")
def test_in_a_short_session_where_every_window_holds_every_word_the_turns_holding_them_are_found(history):
    turns = [("a", "USER", "Can you find the receipt from March?"), ("b", "AI_RESPONSE", "Sure, here it is."),
             ("c", "USER", "Thanks. Also the hotel booking please."), ("d", "AI_RESPONSE", "Done, sent to your inbox.")]
    messages = [new_message(i, "s", text, f"2026-02-20T09:0{n}", kind) for n, (i, kind, text) in enumerate(turns)]
    path = history([new_session("s", "Errands", "2026-02-20T09:00")], messages)
    # Each window here holds all four turns, so no word is rare in windows: nothing was found
    # before, and then the turn between the two holding the words ranked above them.
    container = create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo")  # message vectors re-rank too
    hits = [row for source, row in found(container, query="find me please", scope="sessions") if source == "message"]
    assert sorted(hits[:2]) == ["a", "c"] and set(hits[2:]) <= {"b", "d"}
