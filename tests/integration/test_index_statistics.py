"""The keyword index ranks over the statistics a fresh build of the history has (Q-11): documents
replaced or deleted and not yet merged away are left out of BM25's counts and lengths, and a row
deleted while a catch-up runs is found by the next one. Real SQLite files and tantivy indexes.
"""
import shutil
import sqlite3
from contextlib import closing
from dataclasses import replace

import pytest
from builders import add_messages, ms, new_message, new_session, run_sql
from fakes import FixedClock
from oneclaw_ddl import create_oneclaw_database
from replay_writes import append, delete

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.index.edits import indexed
from oneclaw_search.data.index.keyword_search import ranked_rowids
from oneclaw_search.data.index.message_writes import MessageWrites
from oneclaw_search.data.index.schema import BODY, EVERY, EVERY_TERM, MESSAGES
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.history_query import HistoryQuery

CLOCK = FixedClock(ms("2026-03-01T12:00"))
WORDS = ["harbour", "ferry", "lantern", "kettle", "violin", "market", "bridge", "garden"]


def turns(count, start=0):
    return [new_message(f"m{n}", f"s{n % 2}", " ".join(WORDS[(n * k) % 8] for k in range(1, 2 + n % 5)),
                        f"2026-02-20T{9 + n // 60:02d}:{n % 60:02d}", "USER" if n % 2 == 0 else "AI_RESPONSE")
            for n in range(start, start + count)]


def parts(path):
    return create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None).get(IndexParts)


write, sql = add_messages, run_sql


def rewritten(path, index_parts, rowids):
    """These rows' documents written again as they are, in a commit of their own."""
    keyword = index_parts.lookup.keyword
    writer = keyword.writer(MESSAGES)
    with create_injector(path, clock=CLOCK, time_zone="UTC").get(HistoryDatabase).connected() as history:
        MessageWrites(history, writer, keyword.layout).rewrite(rowids)
    keyword.commit(MESSAGES, writer)  # and the live totals noted, as every commit of the index notes them


def scores(index_parts, query):
    keyword = index_parts.lookup.keyword
    keyword.refresh()
    return ranked_rowids(keyword, MESSAGES, HistoryQuery.parse(query, stem), (0, 2**62), 20).scores


def assert_scored_as_by_a_fresh_build(path, index_parts, folder):
    copy = folder / "fresh.db"
    shutil.copyfile(path, copy)
    fresh = parts(copy)
    fresh.lookup.sync.catch_up()
    for query in ("kettle harbour", "violin", "lantern market bridge", "garden ferry"):
        assert scores(index_parts, query) == pytest.approx(scores(fresh, query), rel=1e-5)


@pytest.fixture
def chat(history):
    return history([new_session("s0", "Boats", "2026-02-20T09:00"), new_session("s1", "Music", "2026-02-20T09:00")], turns(200))


@pytest.mark.spec("Q-11")
def test_documents_replaced_and_deleted_leave_no_trace_in_the_scores(chat, tmp_path):
    index = parts(chat)
    index.lookup.sync.catch_up()
    for n in (3, 8, 13):
        sql(chat, "UPDATE messages SET content = ? WHERE id = ?", (f"kettle harbour kettle {n}", f"m{n}"))
    sql(chat, "DELETE FROM messages WHERE id IN ('m5', 'm21')")
    write(chat, turns(6, start=200))
    index.lookup.sync.catch_up()
    index.lookup.sync.verify()
    for _ in range(3):  # a commit may have tantivy merge every small segment, dropping the dead: the next leaves some
        rewritten(chat, index, [1, 2, 40, 41, 120])
        searcher = index.lookup.keyword.searcher(MESSAGES, fresh=True)
        if searcher.doc_freq(EVERY, EVERY_TERM) > searcher.num_docs:
            break
    assert searcher.doc_freq(EVERY, EVERY_TERM) > searcher.num_docs  # tantivy counts dead documents
    assert_scored_as_by_a_fresh_build(chat, index, tmp_path)


@pytest.mark.spec("Q-11")
def test_a_query_word_only_dead_documents_hold_leaves_the_scores_as_a_fresh_build_gives_them(history, tmp_path):
    rows = [replace(row, content=row.content + " zeppelin") if row.id == "m7" else row for row in turns(200)]
    path = history([new_session("s0", "Boats", "2026-02-20T09:00"), new_session("s1", "Music", "2026-02-20T09:00")], rows)
    index = parts(path)
    index.lookup.sync.catch_up()
    sql(path, "UPDATE messages SET content = ? WHERE id = ?", ("kettle harbour kettle lantern", "m7"))
    index.lookup.sync.catch_up()
    searcher = index.lookup.keyword.searcher(MESSAGES, fresh=True)
    assert searcher.doc_freq(BODY, "zeppelin") == 1 and searcher.num_docs == 200  # held by a replaced document alone
    copy = tmp_path / "fresh.db"
    shutil.copyfile(path, copy)
    fresh = parts(copy)
    fresh.lookup.sync.catch_up()
    # tantivy's average lengths are read from a word some live document holds, not from the rarest one.
    assert scores(index, "zeppelin kettle") == pytest.approx(scores(fresh, "zeppelin kettle"), rel=1e-5)


@pytest.mark.spec("Q-11")
def test_a_row_deleted_while_a_catch_up_appends_is_found_by_the_next(tmp_path, monkeypatch):
    path = tmp_path / "app.db"  # written as the app writes, so another writer may commit while the index reads it
    create_oneclaw_database(path)
    sessions = {"s0": "Boats", "s1": "Music"}
    append(path, turns(200), sessions)
    index = parts(path)
    index.lookup.sync.catch_up()
    append(path, turns(5, start=200), sessions)
    add = MessageWrites.add

    def deleting_meanwhile(self, rows, indexed_up_to):
        delete(path, "m7")
        return add(self, rows, indexed_up_to)

    monkeypatch.setattr(MessageWrites, "add", deleting_meanwhile)
    index.lookup.sync.catch_up()
    monkeypatch.undo()
    index.lookup.sync.catch_up()
    with closing(sqlite3.connect(path)) as connection:
        live = {rowid for (rowid,) in connection.execute("SELECT rowid FROM messages")}
    assert set(indexed(index.lookup.keyword, MESSAGES, 0, 2**62)) == live


@pytest.mark.spec("Q-11")
def test_scores_hold_once_the_dead_are_merged_away(history, tmp_path):
    """A merge drops dead documents but leaves tantivy's total length as their one-byte norms round it:
    scores are held to the lengths the live documents keep, so they equal a fresh build's still."""
    sessions = [new_session("s0", "Boats", "2026-02-20T09:00"), new_session("s1", "Music", "2026-02-20T09:00")]
    long_turns = [replace(turn, content=" ".join([turn.content] * (7 + n % 9))) for n, turn in enumerate(turns(200))]
    path = history(sessions, long_turns)
    index = parts(path)
    index.lookup.sync.catch_up()
    for round_number in range(12):  # commits enough for tantivy to merge the small segments, dead documents and all
        rewritten(path, index, [3 + round_number, 50 + round_number, 120 + round_number])
    searcher = index.lookup.keyword.searcher(MESSAGES, fresh=True)
    dead = searcher.doc_freq(EVERY, EVERY_TERM) - searcher.num_docs
    assert dead < 36  # some were merged away
    assert_scored_as_by_a_fresh_build(path, index, tmp_path)
