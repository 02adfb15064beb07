"""How a conversation is read: a message is a hit by its own words, raised by the turns around it and
shown with them as context; names that are everywhere, old strong matches against new weak ones, rows
written or edited since the index caught up, and the `index` command."""
import json
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest
import tantivy
from acceptance_helpers import call, found, ids
from builders import built, ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.index import sync
from oneclaw_search.data.index.schema import MESSAGES, ROWID, WINDOW
from oneclaw_search.data.index.sync import IndexSync
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.ports import MessageSearch

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


def messages_found(container, query):
    return [row for source, row in found(container, query=query, scope="sessions") if source == "message"]


def context_of(container, query, **more):
    """Each message hit's id and the ids of the turns shown around it in JSON (the default context)."""
    reply = json.loads(call(container, query=query, scope="sessions", format="json", **more).result)
    return [(item["id"], [turn["id"] for turn in item.get("context", [])]) for item in reply["results"] if item["source"] == "message"]


@pytest.mark.spec("Q-01")
def test_a_turn_holding_none_of_the_words_is_shown_as_context_not_as_a_hit(painting_chat):
    # "a" answers "q", which holds both words; "later" holds neither: one hit, the turns asked for around it.
    assert context_of(lexical(painting_chat), "paint gallery", context=1) == [("q", ["q", "a"])]
    assert context_of(lexical(painting_chat), "sunrise oils", context=1) == [("a", ["q", "a", "later"])]


@pytest.mark.spec("Q-01")
def test_by_default_a_hit_that_asks_a_question_is_shown_with_its_reply_and_no_other_turn(painting_chat):
    assert context_of(lexical(painting_chat), "paint gallery") == [("q", ["q", "a"])]
    assert context_of(lexical(painting_chat), "sunrise oils") == [("a", [])]  # it asks nothing: shown alone
    assert context_of(lexical(painting_chat), "table dinner") == [("later", [])]  # a question with no turn after it


@pytest.mark.spec("Q-01")
def test_the_turn_before_a_message_raises_it_above_an_equal_one_without(history):
    turns = [("q1", "s1", "What did you paint for the gallery?", "09:00"), ("a1", "s1", "A sunrise over the lake.", "09:01"),
             ("q2", "s2", "How was the weekend?", "09:02"), ("a2", "s2", "A sunrise over the sea.", "09:03")]
    messages = [new_message(i, session, text, f"2026-02-20T{at}") for i, session, text, at in turns]
    container = lexical(history([new_session("s1", "One", "2026-02-20T09:00"), new_session("s2", "Two", "2026-02-20T09:00")],
                                messages))
    # a2 is newer and says as much, but a1 answers the question that names the gallery.
    found = messages_found(container, "gallery sunrise")
    assert set(found[:2]) == {"q1", "a1"} and found[2:] == ["a2"]
    assert messages_found(container, "sunrise") == ["a2", "a1"]


@pytest.mark.spec("Q-01")
def test_one_word_of_the_turns_around_is_not_enough(painting_chat):
    assert ids(lexical(painting_chat), query="gallery", scope="sessions") == ["q"]


@pytest.mark.spec("Q-01")
def test_turns_of_another_session_lend_no_words(history):
    turns = [("q", "s", "What did you paint for the gallery?", "09:00"), ("x", "t", "The gallery opens at noon.", "09:01"),
             ("y", "t", "Fine.", "09:02"), ("a", "s", "A sunrise over the lake.", "09:03")]
    messages = [new_message(i, session, text, f"2026-02-20T{at}") for i, session, text, at in turns]
    sessions = [new_session("s", "Painting", "2026-02-20T09:00"), new_session("t", "Opening hours", "2026-02-20T09:01")]
    path = history(sessions, messages)
    container = lexical(path)
    assert set(messages_found(container, "noon sunrise paint")) == {"q", "x", "a"}
    # Written in between, x and y are not a's turns: a's turn before is q, which names no noon.
    assert window_holds(container, path, "a", "paint") and not window_holds(container, path, "a", "noon")
    assert not window_holds(container, path, "x", "paint") and not window_holds(container, path, "q", "noon")
    assert window_holds(container, path, "y", "noon")


def window_holds(container, path, message_id, term):
    """Whether the message's indexed window (its words and its neighbours') holds the index term."""
    with closing(sqlite3.connect(path)) as connection:
        rowid = connection.execute("SELECT rowid FROM messages WHERE id = ?", (message_id,)).fetchone()[0]
    searcher = container.get(IndexParts).lookup.keyword.searcher(MESSAGES, fresh=True)
    question = tantivy.Query.boolean_query([
        (tantivy.Occur.Must, tantivy.Query.term_set_query(MESSAGES.schema, ROWID, [rowid])),
        (tantivy.Occur.Must, tantivy.Query.term_query(MESSAGES.schema, WINDOW, stem(term), index_option="freq"))])
    return searcher.search(question, 1).count == 1


@pytest.mark.spec("Q-01")
def test_a_name_in_every_session_title_makes_no_session_a_hit(history):
    sessions = [new_session(f"s{n}", f"Session {n} with Caroline and Melanie", f"2026-02-2{n}T09:00") for n in range(5)]
    messages = [new_message(f"m{n}", f"s{n}", text, f"2026-02-2{n}T09:00") for n, text in
                enumerate(["I finally adopted a puppy", "The weather was grim", "Work is busy", "Tea?", "A sunrise hike"])]
    results = found(lexical(history(sessions, messages)), query="Caroline puppy", scope="sessions")
    # Every title holds the name, so none holds enough of the query; s0's preview is m0, found as itself.
    assert results[0] == ("message", "m0") and [row for row in results if row[0] == "session"] == []


@pytest.mark.spec("Q-01")
def test_a_strong_old_match_beats_a_weak_new_one(history):
    messages = [new_message("old", "s1", "The sushi restaurant in Tokyo near the station", "2025-09-01T09:00"),
                new_message("new", "s2", "Tokyo was rainy today", "2026-02-28T09:00")]
    sessions = [new_session("s1", "Trip", "2025-09-01T09:00"), new_session("s2", "Weather", "2026-02-28T09:00")]
    results = found(lexical(history(sessions, messages)), query="sushi restaurant tokyo", scope="sessions")
    assert [row for source, row in results if source == "message"] == ["old", "new"]


@pytest.mark.spec("Q-11")
def test_a_message_written_since_the_index_caught_up_is_found_without_waiting_for_a_build(painting_chat, mocker):
    container = lexical(painting_chat)
    ids(container, query="sunrise", scope="sessions")
    caught_up = mocker.spy(IndexSync, "catch_up")
    append(painting_chat, new_message("after", "s", "Dinner at eight, then.", "2026-02-20T09:05", "AI_RESPONSE"))
    assert "after" in ids(container, query="dinner", scope="sessions")
    assert caught_up.call_count == 0  # read directly: the search neither built nor waited for a build


@pytest.mark.spec("Q-11")
def test_the_index_command_builds_the_side_index_and_says_where(painting_chat):
    done = subprocess.run([sys.executable, "-m", "oneclaw_search.tools.cli", "--db", str(painting_chat), "index"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "3 messages, 1 sessions" in done.stdout and f"{painting_chat.name}.search-index.sqlite" in done.stdout


def append(path, *messages):
    database = open_writable(path)
    HistoryWriter(database, None).write([], list(messages), [])
    database.close()


def indexed_messages(container) -> int:
    return container.get(IndexParts).lookup.keyword.searcher(MESSAGES, fresh=True).num_docs


@pytest.mark.spec("Q-01", "Q-11")
def test_an_answer_written_after_its_question_was_indexed_raises_it(history):
    path = history([new_session("s", "Painting", "2026-02-20T09:00")],
                   [new_message("q", "s", "What did you paint last week?", "2026-02-20T09:00")])
    container = lexical(path)
    query = HistoryQuery.parse("paint sunrise", stem)
    before = {item.hit.id: item.evidence for item in container.get(MessageSearch).search(query, 0, ms("2026-03-01T00:00"), 10)}
    append(path, new_message("a", "s", "A sunrise over the lake, in oils.", "2026-02-20T09:01", "AI_RESPONSE"))
    read_now = {item.hit.id: item.evidence for item in container.get(MessageSearch).search(query, 0, ms("2026-03-01T00:00"), 10)}
    assert set(before) == {"q"} and set(read_now) == {"q", "a"}
    assert read_now["q"].coverage > before["q"].coverage  # read before the index caught up: its answer lends it "sunrise"
    container.get(IndexParts).lookup.sync.catch_up()
    assert window_holds(container, path, "q", "sunrise") and window_holds(container, path, "a", "paint")


@pytest.mark.spec("Q-01", "Q-11")
def test_a_build_in_many_commits_writes_the_documents_one_pass_writes(history, monkeypatch):
    words = ["sunrise", "lake", "oils", "gallery", "paint", "dinner", "table", "walrus"]
    messages = [new_message(f"m{n}", f"s{n % 3}", f"{words[n % 8]} {words[(n * 3) % 8]} note {n}",
                            f"2026-02-20T09:{n:02d}") for n in range(40)]
    sessions = [new_session(f"s{n}", f"Chat {n}", "2026-02-20T09:00") for n in range(3)]
    whole = built(lexical(history(sessions, messages)))
    monkeypatch.setattr(sync, "BATCH_ROWS", 7)
    monkeypatch.setattr(sync, "COMMIT_ROWS", 7)
    batched = built(lexical(history(sessions, messages)))
    for query in ("sunrise lake", "oils gallery", "dinner walrus", "paint"):
        assert ids(batched, query=query, scope="sessions") == ids(whole, query=query, scope="sessions")
    assert indexed_messages(batched) == indexed_messages(whole) == 40


@pytest.mark.spec("Q-01", "Q-11")
def test_an_edited_reply_no_longer_lends_its_old_words_to_the_turns_around_it(painting_chat):
    container = built(lexical(painting_chat))
    assert context_of(container, "sunrise oils", context=1) == [("a", ["q", "a", "later"])]
    with closing(sqlite3.connect(painting_chat)) as connection, connection:
        connection.execute("UPDATE messages SET content = 'A portrait of my cat.' WHERE id = 'a'")
    assert ids(container, query="sunrise oils", scope="sessions") == []
    assert ids(container, query="portrait cat", scope="sessions")[0] == "a"
    assert ids(container, query="paint oils", scope="sessions") == ["q"]  # raised by a's words no more


@pytest.mark.spec("Q-01")
def test_in_a_short_session_where_every_window_holds_every_word_the_turns_holding_them_are_found(history):
    turns = [("a", "USER", "Can you find the receipt from March?"), ("b", "AI_RESPONSE", "Sure, here it is."),
             ("c", "USER", "Thanks. Also the hotel booking please."), ("d", "AI_RESPONSE", "Done, sent to your inbox.")]
    messages = [new_message(i, "s", text, f"2026-02-20T09:0{n}", kind) for n, (i, kind, text) in enumerate(turns)]
    path = history([new_session("s", "Errands", "2026-02-20T09:00")], messages)
    # Only the turns holding the words are hits; the turns between them are their context.
    container = create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo")  # message vectors re-rank too
    hits = context_of(container, "find me please", context=1)
    assert sorted(hit for hit, _ in hits) == ["a", "c"] and {"b", "d"} <= {turn for _, turns in hits for turn in turns}


@pytest.mark.spec("Q-01")
def test_as_in_squidbot_one_line_of_a_four_line_chat_is_one_hit_with_its_neighbours_as_context(history):
    lines = ["alpha noise", "beta noise", "please find me", "gamma noise"]
    messages = [new_message(f"m{n}", "s", text, f"2026-02-20T09:0{n}", "USER" if n % 2 == 0 else "AI_RESPONSE")
                for n, text in enumerate(lines)]
    container = create_injector(history([new_session("s", "Chat", "2026-02-20T09:00")], messages), clock=CLOCK,
                                time_zone="Asia/Tokyo")
    assert context_of(container, "find me please", context=1) == [("m2", ["m1", "m2", "m3"])]
