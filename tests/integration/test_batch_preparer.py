"""Big index builds prepare their batches in a second process (issue 3, Q-11: build rate).

The index must come out the same as when a thread prepares them, a process that dies must cost
nothing but time, and the host's own script must never run a second time.
"""
import logging
import subprocess
import sys
from datetime import datetime, timedelta

import numpy as np
import pytest
from builders import new_message, new_session
from fakes import KeywordEmbedder, ParentOnlyEmbedder, SlowChildEmbedder

from oneclaw_search.data import batch_preparer, index_sync, postings
from oneclaw_search.data.batch_preparer import BatchPreparer, prepare
from oneclaw_search.data.database import HistoryDatabase
from oneclaw_search.data.index_sync import IndexSync
from oneclaw_search.data.message_indexer import MessageIndexer, ReadAhead
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.data.static_embedder import StaticEmbedder

TEXTS = ["Dinner at the sushi place in Ginza", "東京で寿司を食べた", "École über naïve café", "memorySearch in src/main.kt",
         "the reply about ramen", "", "deploy: kubectl apply -f app.yaml", "Ünïcödé and plain words"]
TABLES = {"m_docs": "doc", "m_vec": "doc", "m_last": "session"}


def two_sessions(history):
    start = datetime(2026, 2, 1, 9)
    rows = [new_message(f"m{i}", f"s{i % 2}", text, (start + timedelta(minutes=i)).isoformat())
            for i, text in enumerate(TEXTS * 3)]
    return history([new_session("s0", "Food", "2026-02-01T09:00"), new_session("s1", "Work", "2026-02-01T09:00")], rows)


def build(path, where, embedder, monkeypatch, *, process: bool) -> SideIndex:
    monkeypatch.setattr(batch_preparer, "PROCESS_ROWS", 0 if process else 10**9)
    for size in ("BATCH_ROWS", "BULK_BATCH_ROWS"):  # several batches: most of them go to the process
        monkeypatch.setattr(index_sync, size, 5)
    index = SideIndex(where)
    assert IndexSync(HistoryDatabase.open_read_only(path), index, embedder).catch_up()
    return index


def contents(index: SideIndex) -> dict:
    """The tables, and what the postings say however their segments were merged: each term's whole
    list, and each row's size, time and turn before."""
    found = {table: index.execute(f"SELECT * FROM {table} ORDER BY {order}") for table, order in TABLES.items()}
    lists: dict[str, list[bytes]] = {}
    for term, docs, counts in index.execute("SELECT term, docs, tfs FROM m_post ORDER BY term, seg"):
        lists.setdefault(term, [b"", b""])
        lists[term] = [lists[term][0] + docs, lists[term][1] + counts]
    rows = index.execute("SELECT first, count, sizes, ats, prevs FROM m_seg ORDER BY first")
    return found | {"lists": lists, "rows": [b"".join(row[i] for row in rows) for i in (2, 3, 4)]}


@pytest.mark.spec("Q-11", "Q-09")
def test_a_build_prepared_in_a_second_process_equals_one_prepared_on_a_thread(history, tmp_path, monkeypatch, caplog):
    path = two_sessions(history)
    on_thread = build(path, tmp_path / "thread.sqlite", StaticEmbedder(), monkeypatch, process=False)
    with caplog.at_level(logging.WARNING, logger=batch_preparer.__name__):
        in_process = build(path, tmp_path / "process.sqlite", StaticEmbedder(), monkeypatch, process=True)
    assert caplog.text == ""  # no batch fell back
    assert contents(in_process) == contents(on_thread)
    assert len(contents(in_process)["m_vec"]) == len(TEXTS) * 3
    # A build with no search waiting leaves its segments unmerged, at the bulk level.
    assert in_process.execute("SELECT DISTINCT level FROM m_seg") == [(postings.BULK_LEVEL,)]


@pytest.mark.spec("Q-11")
def test_batches_the_process_could_not_make_are_made_here_and_nothing_is_lost(history, tmp_path, monkeypatch, caplog):
    path = two_sessions(history)
    embedder = ParentOnlyEmbedder(["sushi", "ramen", "kubectl"])
    with caplog.at_level(logging.WARNING, logger=batch_preparer.__name__):
        index = build(path, tmp_path / "side.sqlite", embedder, monkeypatch, process=True)
    assert "preparing index batches in this process instead" in caplog.text  # the child died embedding
    expected = build(path, tmp_path / "thread.sqlite", embedder, monkeypatch, process=False)
    assert contents(index) == contents(expected)


@pytest.mark.spec("Q-11")
def test_an_embedder_that_cannot_travel_keeps_the_work_on_a_thread():
    class Local:  # a class inside a function cannot be pickled
        name, dimension = "local", 2

        def embed(self, texts):
            return [[1.0, 0.0] for _ in texts]

    preparer = BatchPreparer(Local(), backlog=batch_preparer.PROCESS_ROWS)
    try:
        assert not preparer.uses_process
        made, expected = preparer.submit(TEXTS).result(), prepare(TEXTS, Local())
        assert made.terms.names == expected.terms.names and made[1:] == expected[1:]
        assert all(np.array_equal(mine, theirs) for mine, theirs in zip(made.terms[1:], expected.terms[1:]))
    finally:
        preparer.shutdown()


HOST_SCRIPT = """
import sys
from pathlib import Path
with open(sys.argv[2], "a") as marks:
    marks.write("ran\\n")  # top level, no __main__ guard: a spawned child re-running this would write again
from oneclaw_search.data import batch_preparer, index_sync, postings
from oneclaw_search.data.database import HistoryDatabase
from oneclaw_search.data.index_sync import IndexSync
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.data.static_embedder import StaticEmbedder
batch_preparer.PROCESS_ROWS, index_sync.BULK_BATCH_ROWS = 0, 5
index = SideIndex(Path(sys.argv[3]))
IndexSync(HistoryDatabase.open_read_only(Path(sys.argv[1])), index, StaticEmbedder()).catch_up()
print(index.meta_int("m.rows"))
"""


@pytest.mark.spec("Q-11")
def test_the_hosts_unguarded_script_runs_once_while_a_process_prepares_batches(history, tmp_path):
    script, marks = tmp_path / "host.py", tmp_path / "marks.txt"
    script.write_text(HOST_SCRIPT)
    run = subprocess.run([sys.executable, str(script), str(two_sessions(history)), str(marks), str(tmp_path / "side.sqlite")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(len(TEXTS) * 3)]
    assert marks.read_text() == "ran\n"
    assert "instead" not in run.stderr  # the process did the work; nothing fell back


SECONDARY_INDEXES = {"m_docs_id", "m_post_term", "m_post_seg"}


def secondary_indexes(index: SideIndex) -> set[str]:
    return {name for name, in index.execute("SELECT name FROM sqlite_master WHERE type = 'index'")} & SECONDARY_INDEXES


@pytest.mark.spec("Q-11")
def test_a_first_build_goes_without_secondary_indexes_and_restores_them_even_when_it_fails(history, tmp_path, monkeypatch):
    path = two_sessions(history)
    seen: list[set[str]] = []
    real_add = index_sync.MessageIndexer.add

    def add(self, *arguments, **options):
        seen.append(secondary_indexes(self._index))
        if len(seen) == 3 and fail:
            raise RuntimeError("disk gone")
        return real_add(self, *arguments, **options)

    monkeypatch.setattr(index_sync.MessageIndexer, "add", add)
    fail = False
    index = build(path, tmp_path / "side.sqlite", None, monkeypatch, process=True)
    assert len(seen) > 3 and seen[0] == set() and secondary_indexes(index) == SECONDARY_INDEXES
    assert "SEARCH" in index.execute("EXPLAIN QUERY PLAN SELECT docs FROM m_post WHERE term = 'sushi'")[0][-1]
    fail, seen[:] = True, []
    with pytest.raises(RuntimeError):
        build(path, tmp_path / "failed.sqlite", None, monkeypatch, process=True)
    failed = SideIndex(tmp_path / "failed.sqlite")
    assert seen[-1] == set() and secondary_indexes(failed) == SECONDARY_INDEXES
    failed.execute("DROP INDEX m_post_term")  # as a build killed midway leaves it
    fail = False
    assert IndexSync(HistoryDatabase.open_read_only(path), failed).catch_up()
    assert secondary_indexes(failed) == SECONDARY_INDEXES


@pytest.mark.spec("Q-11")
def test_when_the_process_falls_behind_this_one_prepares_batches_too_and_the_index_is_the_same(history, tmp_path, monkeypatch, mocker):
    path = two_sessions(history)
    made_here = mocker.spy(batch_preparer, "prepare")  # this process's batches only
    slow = build(path, tmp_path / "slow.sqlite", SlowChildEmbedder(["sushi", "ramen"], 0.3), monkeypatch, process=True)
    assert made_here.call_count >= 2  # the first batch, and more once it had waited for the process
    expected = build(path, tmp_path / "thread.sqlite", KeywordEmbedder(["sushi", "ramen"]), monkeypatch, process=False)
    assert contents(slow) == contents(expected)


@pytest.mark.spec("Q-11")
def test_reading_ahead_drops_batches_another_process_indexed_meanwhile(history, tmp_path):
    path = two_sessions(history)  # 24 messages, rowids 1-24
    indexer = MessageIndexer(SideIndex(tmp_path / "side.sqlite"), None)
    preparer = BatchPreparer(None, backlog=0)
    try:
        with HistoryDatabase.open_read_only(path).connected() as database:
            ahead = ReadAhead(indexer, database, top=24, size=5, preparer=preparer, depth=2)
            first = ahead.take(0)
            assert [row.rowid for row in first.searchable] == [1, 2, 3, 4, 5]
            assert [row.rowid for row in ahead.take(15).searchable] == [16, 17, 18, 19, 20]  # 6-15 done elsewhere
            assert [row.rowid for row in ahead.take(20).searchable] == [21, 22, 23, 24]
            assert ahead.take(24) is None
    finally:
        preparer.shutdown()
