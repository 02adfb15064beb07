"""HistoryWriter and open_writable on real SQLite files: derived session columns, safe upserts,
memory embeddings with the embedder recorded in the meta table, and where files may be created."""
from __future__ import annotations

import sqlite3

import pytest
from builders import chunk, ms, new_message, new_session, write_history
from fakes import KeywordEmbedder

from oneclaw_search.data.embedding.vectors import HashingEmbedder, encode_embedding
from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.domain.errors import HistoryUnavailable

LONG_ANSWER = "Sakura Sushi is a small restaurant two minutes from the Hachiko exit; " * 3


def rows(path, sql, *args):
    with sqlite3.connect(path) as connection:
        return connection.execute(sql, args).fetchall()


def session_row(path, session_id):
    [row] = rows(path, "SELECT message_count, last_message_preview, updated_at FROM sessions WHERE id = ?", session_id)
    return row


def write(path, sessions=(), messages=(), chunks=(), embedder=None):
    database = open_writable(path)
    try:
        HistoryWriter(database, embedder).write(list(sessions), list(messages), list(chunks))
    finally:
        database.close()


def dinner(tmp_path):
    return write_history(tmp_path / "h.db", [new_session("s1", "Dinner", "2026-02-25T18:00")], [
        new_message("m1", "s1", "Find me a sushi place", "2026-02-25T19:00"),
        new_message("m2", "s1", LONG_ANSWER, "2026-02-25T19:01", "AI_RESPONSE"),
        new_message("m3", "s1", "set_reminder(Dinner)", "2026-02-25T19:02", "TOOL_CALL", tool_name="set_reminder"),
        new_message("m4", "s1", "reminder set", "2026-02-25T19:03", "TOOL_RESULT"),
    ])


@pytest.mark.spec("P-13")
def test_session_columns_are_derived_from_every_message_row(tmp_path):
    path = dinner(tmp_path)
    count, preview, updated_at = session_row(path, "s1")
    assert count == 4
    assert preview == LONG_ANSWER[:100] and len(preview) == 100
    assert updated_at == ms("2026-02-25T19:03")


def test_a_session_without_messages_keeps_its_own_times(tmp_path):
    path = write_history(tmp_path / "h.db", [
        new_session("quiet", "No messages", "2026-02-01T09:00"),
        new_session("later", "Touched later", "2026-02-01T09:00", updated="2026-02-27T08:00"),
    ], [new_message("m1", "later", "early note", "2026-02-02T10:00")])
    assert session_row(path, "quiet") == (0, None, ms("2026-02-01T09:00"))
    assert session_row(path, "later") == (1, "early note", ms("2026-02-27T08:00"))


def test_the_preview_counts_characters_not_bytes(tmp_path):
    text = "寿司" * 80
    path = write_history(tmp_path / "h.db", [new_session("s1", "Sushi", "2026-02-25T18:00")],
                         [new_message("m1", "s1", text, "2026-02-25T19:00")])
    assert session_row(path, "s1")[1] == text[:100]


@pytest.mark.spec("P-12")
def test_writing_a_session_again_keeps_its_messages(tmp_path):
    path = dinner(tmp_path)
    write(path, [new_session("s1", "Dinner at Sakura", "2026-02-25T18:00")])
    assert rows(path, "SELECT COUNT(*) FROM messages WHERE session_id = 's1'") == [(4,)]
    assert rows(path, "SELECT title FROM sessions") == [("Dinner at Sakura",)]
    assert session_row(path, "s1") == (4, LONG_ANSWER[:100], ms("2026-02-25T19:03"))


def test_a_later_message_alone_updates_its_session(tmp_path):
    path = dinner(tmp_path)
    write(path, messages=[new_message("m5", "s1", "Thanks, booked!", "2026-02-26T08:00")])
    assert session_row(path, "s1") == (5, "Thanks, booked!", ms("2026-02-26T08:00"))


def test_memory_chunks_are_embedded_and_the_embedder_is_recorded(tmp_path):
    embedder = HashingEmbedder()
    path = write_history(tmp_path / "h.db", chunks=[chunk("c1", "Database migration: rehearse first", "2026-02-18")],
                         embedder=embedder)
    [(blob,)] = rows(path, "SELECT embedding FROM memory_index WHERE id = 'c1'")
    assert blob == encode_embedding(embedder.embed(["Database migration: rehearse first"])[0])
    assert HistoryDatabase.open_read_only(path).info.embedder == embedder.name


def test_without_an_embedder_chunks_have_no_vectors_and_no_embedder_is_recorded(tmp_path):
    path = write_history(tmp_path / "h.db", chunks=[chunk("c1", "API keys live in Settings")])
    assert rows(path, "SELECT embedding FROM memory_index") == [(None,)]
    assert HistoryDatabase.open_read_only(path).info.embedder is None


def test_switching_embedder_re_embeds_existing_chunks(tmp_path):
    path = write_history(tmp_path / "h.db", chunks=[chunk("old", "sushi dinner")], embedder=HashingEmbedder())
    keywords = KeywordEmbedder(["sushi", "ramen", "dinner"])
    write(path, chunks=[chunk("new", "ramen lunch")], embedder=keywords)
    stored = dict(rows(path, "SELECT id, embedding FROM memory_index"))
    half = 0.5 ** 0.5  # two keywords of three found: a unit vector
    assert stored == {"old": encode_embedding([half, 0.0, half]), "new": encode_embedding([0.0, 1.0, 0.0])}
    assert rows(path, "SELECT value FROM oneclaw_search_meta WHERE key = 'embedder'") == [("keyword-test",)]
    assert HistoryDatabase.open_read_only(path).info.embedder == "keyword-test"


@pytest.mark.spec("P-13")
def test_open_writable_creates_a_missing_file_with_the_history_tables(tmp_path):
    path = tmp_path / "fresh.db"
    open_writable(path).close()
    assert path.is_file()
    tables = {name for (name,) in rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"sessions", "messages", "memory_index", "oneclaw_search_meta"} <= tables


def test_open_writable_refuses_a_missing_folder_and_creates_nothing(tmp_path):
    folder = tmp_path / "no-such-folder"
    with pytest.raises(HistoryUnavailable, match="folder does not exist") as raised:
        open_writable(folder / "history.db")
    assert str(folder) in str(raised.value)
    assert not folder.exists()
    assert list(tmp_path.iterdir()) == []


def test_session_origins_go_to_a_side_table_and_replace_by_session(tmp_path):
    from oneclaw_search.data.history.history_writer import NewSession, SessionOrigin

    path = tmp_path / "h.db"
    first = SessionOrigin("claude-code", "/home/u/app", None, None, "a.jsonl")
    later = SessionOrigin("claude-code", "/home/u/app", "Explore", "parent", "b.jsonl")
    write(path, [NewSession("s1", "One", ms("2026-02-25T18:00"), origin=first), NewSession("s2", "Two", ms("2026-02-25T18:00"))])
    write(path, [NewSession("s1", "One", ms("2026-02-25T18:00"), origin=later)])
    assert rows(path, "SELECT session_id, source_kind, project_path, agent_type, parent_session_id, source_file"
                " FROM oneclaw_search_origins") == [("s1", "claude-code", "/home/u/app", "Explore", "parent", "b.jsonl")]


def test_a_message_written_again_is_updated_in_place_and_an_id_twice_in_one_write_keeps_its_last_row(tmp_path):
    path = dinner(tmp_path)
    write(path, [new_session("s2", "Lunch", "2026-02-26T11:00")])
    with sqlite3.connect(path) as connection:  # a column the writer does not set must survive the update
        connection.execute("UPDATE messages SET model_id = 'gpt' WHERE id = 'm1'")
    write(path, messages=[
        new_message("m9", "s2", "first draft", "2026-02-26T12:00"),
        new_message("m1", "s2", "moved to lunch", "2026-02-26T12:01"),
        new_message("m9", "s2", "final words", "2026-02-26T12:02"),
    ])
    moved = "SELECT rowid, id, session_id, content, model_id FROM messages WHERE id IN ('m1', 'm9') ORDER BY rowid"
    assert rows(path, moved) == [(1, "m1", "s2", "moved to lunch", "gpt"), (5, "m9", "s2", "final words", None)]
    assert session_row(path, "s2") == (2, "final words", ms("2026-02-26T12:02"))


def test_keep_existing_leaves_rows_already_there_untouched_and_counts_them(tmp_path):
    path = dinner(tmp_path)
    database = open_writable(path)
    try:
        already = HistoryWriter(database, None).write([], [
            new_message("m1", "s1", "edited elsewhere", "2026-02-25T19:00"),
            new_message("m5", "s1", "a new line", "2026-02-25T19:05"),
        ], [], keep_existing=True)
    finally:
        database.close()
    assert already == 1
    assert rows(path, "SELECT id, content FROM messages WHERE id IN ('m1', 'm5') ORDER BY id") == [
        ("m1", "Find me a sushi place"), ("m5", "a new line")]
