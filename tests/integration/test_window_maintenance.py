"""Each message's document holds its window (the turns beside it in its session), so a turn written,
edited or deleted rewrites its neighbours' documents: after a catch-up the index holds what a fresh
build of the history as it is would, document for document (its own text's and its window's
fingerprints, and the turns beside it), so it ranks alike: only the statistics of documents replaced
and not yet merged away differ, as they do for any tantivy index (Q-01, Q-11).

Real SQLite files and real tantivy indexes; sessions interleaved, so a turn's neighbours are seldom
the rows beside it.
"""
import shutil
import sqlite3
from contextlib import closing

import pytest
from builders import add_messages, built, new_message, new_session, run_sql
from fakes import FixedClock

from oneclaw_search.data.index import edits, sync
from oneclaw_search.data.index.edits import indexed
from oneclaw_search.data.index.keyword_search import ranked_rowids
from oneclaw_search.data.index.schema import FINGERPRINT, MESSAGES, NEXT, PREVIOUS, WINDOW_FINGERPRINT
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import RankingSettings
from oneclaw_search.domain.window_bm25 import WindowLayout

CLOCK = FixedClock(1_780_000_000_000)
WORDS = ["sunrise", "lake", "oils", "gallery", "paint", "dinner", "table", "walrus", "ferry", "harbour"]
QUERIES = ["paint sunrise", "walrus", "dinner table", "gallery oils", "ferry harbour lake"]
WIDE = RankingSettings(window=WindowLayout(4, (2, 1), (2, 1)))
SHIPPED = RankingSettings()


def turns(count, start=0):
    """`count` turns spread over three sessions in turn, user and assistant alternating within each."""
    return [new_message(f"m{n}", f"s{n % 3}", f"{WORDS[n % 10]} {WORDS[(n * 7) % 10]} note {n}",
                        f"2026-02-20T09:{n // 60:02d}:{n % 60:02d}", "USER" if (n // 3) % 2 == 0 else "AI_RESPONSE")
            for n in range(start, start + count)]


SESSIONS = [new_session(f"s{k}", f"Session {k}", "2026-02-20T09:00") for k in range(3)]


def open_search(path, ranking=SHIPPED):
    return create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None, ranking=ranking)


def documents(container):
    """Every message document's own and window fingerprints and neighbours, by rowid."""
    keyword = container.get(IndexParts).lookup.keyword
    return indexed(keyword, MESSAGES, 0, 2**63 - 1, (FINGERPRINT, WINDOW_FINGERPRINT, PREVIOUS, NEXT))


def ranks(container):
    """Each query's rows, best first (equal scores by rowid)."""
    keyword = container.get(IndexParts).lookup.keyword
    keyword.refresh()
    scores = {query: ranked_rowids(keyword, MESSAGES, HistoryQuery.parse(query, stem), (0, 2**62), 50).scores for query in QUERIES}
    return {query: sorted(found, key=lambda rowid: (-found[rowid], rowid)) for query, found in scores.items()}


def fresh_build_of(path, tmp_path, ranking=SHIPPED):
    copy = tmp_path / "fresh.db"
    shutil.copyfile(path, copy)
    container = open_search(copy, ranking)
    assert container.get(IndexParts).lookup.sync.catch_up()
    return container


append, sql = add_messages, run_sql


@pytest.fixture(autouse=True)
def no_sweeps(monkeypatch):
    """No newest-rows or sweeping comparison of fingerprints, which would mend a stale window on its
    own: the writes themselves must rewrite the windows they change."""
    monkeypatch.setattr(edits, "TAIL_ROWS", 0)
    monkeypatch.setattr(edits, "SWEEP_ROWS", 0)


def caught_up(path, ranking=SHIPPED):
    container = open_search(path, ranking)
    assert container.get(IndexParts).lookup.sync.catch_up()
    return container


@pytest.mark.spec("Q-01", "Q-11")
@pytest.mark.parametrize("ranking", [SHIPPED, WIDE], ids=["one-turn-each-side", "two-turns-each-side"])
def test_appending_turns_rewrites_the_windows_they_join_as_a_fresh_build_would(history, tmp_path, ranking):
    path = history(SESSIONS, turns(30))
    caught_up(path, ranking)
    append(path, turns(1, 30))  # one turn at a time, as a recorder writes
    caught_up(path, ranking)
    append(path, turns(7, 31))
    container = caught_up(path, ranking)
    fresh = fresh_build_of(path, tmp_path, ranking)
    assert documents(container) == documents(fresh)


@pytest.mark.spec("Q-01", "Q-11")
def test_editing_a_turn_rewrites_it_and_the_windows_that_hold_it(history, tmp_path):
    path = history(SESSIONS, turns(30))
    caught_up(path)
    sql(path, "UPDATE messages SET content = 'a walrus walrus sighting at the harbour' WHERE id = 'm13'")
    container = open_search(path)
    container.get(IndexParts).lookup.reindex([rowid_of(path, "m13")])  # as a search finding it changed notes it
    assert container.get(IndexParts).lookup.sync.catch_up()
    fresh = fresh_build_of(path, tmp_path)
    assert documents(container) == documents(fresh)
    assert ranks(container)["walrus"][0] == ranks(fresh)["walrus"][0] == rowid_of(path, "m13")  # twice, in its own words


@pytest.mark.spec("Q-01", "Q-11")
@pytest.mark.parametrize("ranking", [SHIPPED, WIDE], ids=["one-turn-each-side", "two-turns-each-side"])
def test_deleting_a_turn_joins_the_turns_that_were_beside_it_as_a_fresh_build_would(history, tmp_path, ranking):
    path = history(SESSIONS, turns(30))
    caught_up(path, ranking)
    sql(path, "DELETE FROM messages WHERE id IN ('m13', 'm14')")
    container = caught_up(path, ranking)
    fresh = fresh_build_of(path, tmp_path, ranking)
    assert documents(container) == documents(fresh)


@pytest.mark.spec("Q-11")
def test_a_build_in_many_small_commits_writes_what_one_pass_writes(history, tmp_path, monkeypatch):
    path = history(SESSIONS, turns(40))
    monkeypatch.setattr(sync, "BATCH_ROWS", 4)
    monkeypatch.setattr(sync, "COMMIT_ROWS", 8)
    container = caught_up(path)
    monkeypatch.undo()
    fresh = fresh_build_of(path, tmp_path)
    assert documents(container) == documents(fresh)
    assert ranks(container) == ranks(fresh)  # nothing replaced: the same statistics, the same order


@pytest.mark.spec("Q-01")
def test_an_answer_written_later_lifts_its_question_once_the_index_takes_it_in(history, tmp_path):
    question = new_message("q", "s0", "What did you paint for the gallery?", "2026-02-20T09:00")
    rival = new_message("r", "s1", "I paint most mornings.", "2026-02-20T09:01")
    path = history(SESSIONS, [question, rival])
    built(open_search(path))
    append(path, [new_message("a", "s0", "A sunrise over the lake.", "2026-02-20T09:02", "AI_RESPONSE")])
    container = caught_up(path)
    rowid = dict(zip(["q", "r", "a"], sorted(documents(container)), strict=True))
    assert set(ranks(container)["paint sunrise"][:2]) == {rowid["q"], rowid["a"]}  # each lent the other's word
    assert ranks(container)["paint sunrise"] == ranks(fresh_build_of(path, tmp_path))["paint sunrise"]


def rowid_of(path, message_id):
    with closing(sqlite3.connect(path)) as connection:
        return connection.execute("SELECT rowid FROM messages WHERE id = ?", (message_id,)).fetchone()[0]
