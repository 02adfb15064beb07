"""How a history is read between searches (data/history/sqlite_files.py, BR-11, Q-11).

A connection that takes no locks (a WAL file with no writer, read as immutable) is kept while the
file stays as it was, and reopened as soon as anything is written; any other is closed after each
unit of work, so a writer never waits on a search that has finished.
"""
from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest
from oneclaw_ddl import create_oneclaw_database

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.sqlite_files import change_token
from oneclaw_search.di import close_container, create_injector
from oneclaw_search.domain.errors import HistoryChanged

pytestmark = pytest.mark.spec("BR-11", "Q-11")
INSERT = "INSERT INTO messages (id, session_id, type, content, created_at) VALUES (?, 's', 'USER', ?, 1)"


def history(tmp_path, *, wal: bool):
    path = create_oneclaw_database(tmp_path / "oneclaw.db", wal=wal)
    write(path, "m1", "first")
    return path


def write(path, message_id, text):
    with closing(sqlite3.connect(path, isolation_level=None)) as writer:  # closing last folds any -wal back in
        writer.execute(INSERT, (message_id, text))


def read(database: HistoryDatabase):
    with database.connected() as db:
        connection = db.connection()
        return connection, [row[0] for row in db.execute_sql("SELECT content FROM messages ORDER BY id")]


def test_an_unchanged_immutable_history_keeps_its_connection_and_a_write_reopens_it(tmp_path):
    path = history(tmp_path, wal=True)
    database = HistoryDatabase.open_read_only(path)
    first, rows = read(database)
    again, _ = read(database)
    assert rows == ["first"] and again is first
    write(path, "m2", "second")
    reopened, rows = read(database)
    assert reopened is not first and rows == ["first", "second"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["oneclaw.db"]


@pytest.mark.parametrize("wal", [False, True], ids=["rollback-journal", "wal-with-a-writer"])
def test_a_connection_that_takes_locks_is_closed_after_each_unit_of_work(tmp_path, wal):
    path = history(tmp_path, wal=wal)
    with closing(sqlite3.connect(path, isolation_level=None, timeout=0)) as writer:
        writer.execute(INSERT, ("m2", "second"))  # with WAL, a -wal file now exists: no immutable read
        database = HistoryDatabase.open_read_only(path)
        first, rows = read(database)
        assert rows == ["first", "second"] and database.peewee.is_closed()
        writer.execute("BEGIN EXCLUSIVE")  # timeout 0: fails at once if a search still held a lock
        writer.execute("COMMIT")
        second, _ = read(database)
        assert second is not first


def test_the_change_token_moves_with_every_commit_and_with_a_wal_appearing_and_never_matches_a_missing_file(tmp_path):
    path = history(tmp_path, wal=False)
    token = change_token(path)
    assert change_token(path) == token
    write(path, "m2", "second")  # rollback journal: the header's change counter moves
    assert change_token(path) != token
    with closing(sqlite3.connect(path, isolation_level=None)) as writer:
        writer.execute("PRAGMA journal_mode=WAL")
        before = change_token(path)
        writer.execute(INSERT, ("m3", "third"))
        assert change_token(path) != before  # the commit sits in the -wal, the main file unchanged
    gone = tmp_path / "gone.db"
    assert change_token(gone) != change_token(gone)


def test_a_write_during_an_unlocked_read_raises_history_changed_and_the_next_read_locks(tmp_path):
    path = history(tmp_path, wal=True)
    database = HistoryDatabase.open_read_only(path)
    writer = sqlite3.connect(path, isolation_level=None)
    try:
        with pytest.raises(HistoryChanged, match="written to while it was read"), database.connected() as db:
            db.execute_sql("SELECT count(*) FROM messages").fetchone()
            writer.execute(INSERT, ("m2", "second"))  # a -wal now holds what the immutable read cannot see
        assert read(database)[1] == ["first", "second"]
    finally:
        writer.close()


def test_a_search_that_saw_the_history_change_runs_once_more(mocker):
    from builders import TOKYO
    from fakes import FakeMemorySearchEngine, FakeSessionDao, FixedClock

    from oneclaw_search.domain.literal_search import LiteralSessionSearch
    from oneclaw_search.domain.search_history_use_case import SearchHistoryUseCase, SearchSources
    from oneclaw_search.domain.search_request import parse_search_request

    messages = mocker.Mock()
    messages.search.side_effect = [HistoryChanged("written to while it was read"), []]
    messages.retrievers = ()
    sources = SearchSources(FakeMemorySearchEngine(), messages, LiteralSessionSearch(FakeSessionDao()))
    use_case = SearchHistoryUseCase(sources, FixedClock(0), TOKYO)
    assert use_case.search(parse_search_request({"query": "sushi", "scope": "sessions"})).results == ()
    assert messages.search.call_count == 2


WRITE_ELSEWHERE = """
import sqlite3, sys
from contextlib import closing
with closing(sqlite3.connect(sys.argv[1], isolation_level=None)) as writer:
    writer.execute("INSERT INTO messages (id, session_id, type, content, created_at) VALUES ('m2', 's', 'USER', 'second', 1)")
"""


def test_reading_the_file_beside_an_open_connection_keeps_that_connections_lock(tmp_path):
    """POSIX locks belong to the process and fall when any descriptor of the file closes: had the
    header been read through a descriptor opened and closed, another process closing last would
    have checkpointed and deleted the -wal and -shm under this open reader."""
    path = history(tmp_path, wal=True)
    with closing(sqlite3.connect(path, isolation_level=None)) as reader:
        assert reader.execute("SELECT count(*) FROM messages").fetchone() == (1,)  # holds the shared lock
        for _ in range(3):
            change_token(path)
            HistoryDatabase.open_read_only(path).close()
            close_container(create_injector(path, embedder=None, index_path=None))  # a host opening it anew
        subprocess.run([sys.executable, "-c", WRITE_ELSEWHERE, str(path)], check=True)
        assert (tmp_path / "oneclaw.db-wal").exists() and (tmp_path / "oneclaw.db-shm").exists()
        assert reader.execute("SELECT content FROM messages ORDER BY id").fetchall() == [("first",), ("second",)]
