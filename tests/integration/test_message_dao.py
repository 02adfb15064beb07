"""PeeweeMessageDao.search_content against real SQLite files: the query is literal, caseless across
Unicode and harmless, only user and assistant messages of live sessions are searched, bounds are
inclusive, results come newest first, and an expired deadline interrupts the running statement.
"""
from __future__ import annotations

import sqlite3

import pytest
from builders import ms, new_message, new_session, write_history
from fakes import FixedClock

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.domain.clock import Deadline, SearchTimedOut


def search(path, query, **options):
    return PeeweeMessageDao(HistoryDatabase.open_read_only(path)).search_content(query, **options)


def ids(hits):
    return [hit.id for hit in hits]


def chat(history, *contents, title="Chat"):
    """One live session holding one USER message per content, a minute apart."""
    messages = [new_message(f"m{i}", "s1", text, f"2026-02-01T10:{i:02d}") for i, text in enumerate(contents)]
    return history([new_session("s1", title, "2026-02-01T10:00")], messages)


@pytest.mark.spec("P-01", "AC-07", "BR-09")
@pytest.mark.parametrize(("query", "lookalike", "literal"), [
    ("100%", "1000 items", "100% sure"),
    ("a_b", "axb", "a_b"),
    ("a\\b", "ab", "a\\b"),
    ("x\\%y", "x%y", "x\\%y"),
    ("%", "no wildcard here", "50% off"),
])
def test_search_content_treats_wildcards_and_backslash_as_literal_characters(history, query, lookalike, literal):
    path = chat(history, lookalike, literal)
    assert [hit.content for hit in search(path, query)] == [literal]


@pytest.mark.spec("P-02", "BR-09")
@pytest.mark.parametrize(("query", "content"), [
    ("über", "Über den Wolken"),
    ("ÉCOLE", "une école primaire"),
    ("STRASSE", "Hauptstraße 5"),
    ("école", "une e\u0301cole primaire"),
    ("Ünïcödé", "ünïcÖdÉ text"),
])
def test_search_content_ignores_case_and_composition_across_unicode(history, query, content):
    path = chat(history, content, "something unrelated")
    assert [hit.content for hit in search(path, query)] == [content]


@pytest.mark.spec("EDGE-03", "P-01")
@pytest.mark.parametrize("query", ["'; DROP TABLE messages; --", 'say "hi"', "O'Brien", "C:\\Users\\me", "\"'\\%_;"])
def test_search_content_treats_quotes_backslashes_and_injection_text_as_plain_text(history, query):
    path = chat(history, f"before {query} after", "unrelated words")
    assert [hit.content for hit in search(path, query)] == [f"before {query} after"]
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT count(*) FROM messages").fetchone() == (2,)


@pytest.mark.spec("EDGE-04")
def test_search_content_accepts_a_query_longer_than_a_thousand_characters(history):
    long_text = "needle " * 200  # 1,400 characters
    path = chat(history, f"start {long_text} end", "needle alone")
    assert len(long_text) > 1000
    assert ids(search(path, long_text)) == ["m0"]
    assert search(path, long_text + "missing") == []


@pytest.mark.spec("EDGE-04")
def test_search_content_accepts_a_query_of_the_largest_allowed_length_whose_case_folding_expands(history):
    # 10,000 characters is MAX_QUERY_LENGTH; "ᾷ" folds to "ᾶι" (3 UTF-8 bytes become 5).
    query = "ᾷ" * 10_000
    path = chat(history, query, "unrelated words")
    assert ids(search(path, query)) == ["m0"]


@pytest.mark.spec("P-05", "AC-07")
def test_search_content_searches_only_user_and_assistant_messages(history):
    session = new_session("s1", "Chat", "2026-02-01T10:00")
    messages = [
        new_message("user", "s1", "The word kumquat from the user", "2026-02-01T10:00"),
        new_message("ai", "s1", "Kumquat, said the assistant", "2026-02-01T10:01", "AI_RESPONSE"),
        new_message("call", "s1", "", "2026-02-01T10:02", "TOOL_CALL", tool_name="note", tool_input='{"fruit":"kumquat"}'),
        new_message("result", "s1", "kumquat saved", "2026-02-01T10:03", "TOOL_RESULT", tool_output="kumquat"),
        new_message("system", "s1", "system mentions kumquat", "2026-02-01T10:04", "SYSTEM"),
        new_message("error", "s1", "error about kumquat", "2026-02-01T10:05", "ERROR"),
    ]
    assert ids(search(history([session], messages), "kumquat")) == ["ai", "user"]


@pytest.mark.spec("EDGE-11", "P-05")
def test_search_content_finds_a_user_message_by_a_word_inside_tool_call_json(history):
    path = chat(history, 'Run {"tool": "set_reminder", "arguments": {"title": "Dentist"}} please')
    assert ids(search(path, "set_reminder")) == ["m0"]
    assert ids(search(path, '"title": "dentist"')) == ["m0"]


@pytest.mark.spec("P-04")
def test_search_content_never_returns_messages_of_a_soft_deleted_session(history):
    sessions = [
        new_session("live", "Live", "2026-02-01T10:00"),
        new_session("gone", "Gone", "2026-02-01T10:00", deleted="2026-02-02T10:00"),
    ]
    messages = [
        new_message("kept", "live", "ramen in Shinjuku", "2026-02-01T10:00"),
        new_message("hidden", "gone", "ramen in Shibuya", "2026-02-01T11:00"),
    ]
    assert ids(search(history(sessions, messages), "ramen")) == ["kept"]


def test_search_content_treats_created_after_and_created_before_as_inclusive_bounds(history):
    path = chat(history, "tea at ten", "tea at ten oh one", "tea at ten oh two")
    first, last = ms("2026-02-01T10:00"), ms("2026-02-01T10:02")
    assert ids(search(path, "tea", created_after=first, created_before=last)) == ["m2", "m1", "m0"]
    assert ids(search(path, "tea", created_after=first + 1, created_before=last - 1)) == ["m1"]
    assert ids(search(path, "tea", created_after=last, created_before=last)) == ["m2"]


def test_search_content_returns_newest_first_cut_to_the_limit(history):
    path = chat(history, "coffee one", "coffee two", "coffee three", "coffee four")
    assert ids(search(path, "coffee")) == ["m3", "m2", "m1", "m0"]
    assert ids(search(path, "coffee", limit=2)) == ["m3", "m2"]


@pytest.mark.spec("AC-02")
def test_search_content_reports_the_title_of_the_session_the_message_belongs_to(history):
    path = chat(history, "the quarterly budget", title="Finance review")
    [hit] = search(path, "budget")
    assert (hit.id, hit.session_id, hit.session_title, hit.type) == ("m0", "s1", "Finance review", "USER")
    assert hit.created_at == ms("2026-02-01T10:00")


def test_search_content_raises_search_timed_out_when_the_deadline_has_expired(tmp_path):
    path = write_history(tmp_path / "big.db", [new_session("s1", "Big", "2026-02-01T10:00")])
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO messages (id, session_id, type, content, created_at) VALUES (?, 's1', 'USER', ?, ?)",
            ((f"m{n}", f"filler message number {n}", 1_700_000_000_000 + n) for n in range(20_000)),
        )
    connection.close()
    expired = Deadline(FixedClock(0, frozen_monotonic=1.0), expires_at=0)
    with pytest.raises(SearchTimedOut):
        search(path, "absent words", deadline=expired)
    assert len(search(path, "filler message", limit=5)) == 5  # the same search runs without a deadline


@pytest.mark.spec("EDGE-10")
def test_search_content_on_an_empty_database_returns_nothing(history):
    assert search(history(), "anything") == []


@pytest.mark.spec("AC-07", "Q-05")
def test_ascii_text_folded_by_sqlite_and_other_text_by_python_answer_alike(history):
    # ASCII rows are folded by SQLite's lower(), the rest by the Python fold: a needle matches both
    # kinds, and a row with a NUL inside (whose SQL length stops at it) still folds whole.
    path = chat(history, "MEETING NOTES", "Meeting Notes — Café", "meeting\x00 NOTES after a NUL", "ＭＥＥＴＩＮＧ notes",
                "no match")
    assert sorted(ids(search(path, "meeting notes"))) == ["m0", "m1"]
    assert ids(search(path, "notes after")) == ["m2"]
    assert ids(search(path, "ｍｅｅｔｉｎｇ")) == ["m3"]


@pytest.mark.spec("AC-07", "P-01")
def test_a_needle_too_long_for_a_like_pattern_is_still_found_caseless_and_literal(history):
    # The spec's LIKE refuses a pattern over 50,000 bytes; the literal test has no such limit.
    needle = "x%_" * 12_000
    path = chat(history, f"a{needle}b", f"a{needle.upper()}b", "x" * 36_000, f"é{needle}")
    assert sorted(ids(search(path, needle))) == ["m0", "m1", "m3"]
    assert sorted(ids(search(path, "x%_" * 10))) == ["m0", "m1", "m3"]


@pytest.mark.spec("AC-07", "P-01")
def test_a_needle_holding_a_nul_is_matched_whole(history):
    # SQLite's LIKE would read a pattern only up to the NUL; the literal test compares it whole.
    path = chat(history, "ab", "ab\x00zz", "plain text")
    assert ids(search(path, "ab\x00zz")) == ["m1"]
    assert ids(search(path, "\x00zzz")) == []
