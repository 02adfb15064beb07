"""What keeps a PostgreSQL history fast from its first search: the writer refreshes the planner's
statistics as soon as they are missing or stale by autovacuum's rule, and the memory cache's key is a
counter any change moves, read in one lookup."""
from __future__ import annotations

import time

import pytest

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.data.postgres.daos import PostgresMemoryIndexDao
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.functions import GIN_INDEXES
from oneclaw_search.data.postgres.term_counts import MESSAGES, TURNS, collection
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.domain.clock import Deadline, SearchTimedOut, SystemClock
from oneclaw_search.domain.models import MemoryChunk

NOW = 1_780_000_000_000


def described(admin: PostgresHistory) -> float:
    return float(admin.rows("SELECT reltuples FROM pg_class WHERE oid = 'messages'::regclass")[0][0])


def messages(count: int, start: int = 0) -> list[NewMessage]:
    return [NewMessage(f"m{start + i}", "s1", "USER", f"note number {start + i} about the ferry", NOW + start + i)
            for i in range(count)]


def test_the_first_write_gathers_statistics_and_a_large_one_refreshes_them(fresh_database):
    url, admin = fresh_database
    assert described(admin) < 0  # never analyzed: the planner would guess
    writer = PostgresHistoryWriter(PostgresHistory(url, "owner"), None)
    writer.write([NewSession("s1", "Ferry times", NOW)], messages(3), [])
    assert described(admin) == 3
    writer.write([], messages(1_000, start=3), [])  # more than 50 + 10 % of the 3 described
    assert described(admin) == 1_003
    writer.write([], messages(10, start=1_003), [])  # fewer than 50 + 10 % of 1,003: autovacuum's to do
    assert described(admin) == 1_003


def test_a_recorders_small_writes_ask_the_server_nothing_once_it_knows_the_bound(fresh_database, mocker):
    url, admin = fresh_database
    history = PostgresHistory(url, "owner")
    writer = PostgresHistoryWriter(history, None)
    writer.write([NewSession("s1", "Ferry times", NOW)], messages(100), [])  # never analyzed: refreshed
    writer.write([], messages(1, start=100), [])  # reads the bound once
    asked = mocker.spy(history, "rows")
    for turn in range(101, 111):
        writer.write([], messages(1, start=turn), [])
    assert not [call for call in asked.call_args_list if "reltuples" in call.args[0]]
    assert described(admin) == 100


def test_the_end_of_an_import_leaves_no_stale_statistics_and_no_pending_index_entries(fresh_database):
    url, admin = fresh_database
    writer = PostgresHistoryWriter(PostgresHistory(url, "owner"), None)
    writer.write([NewSession("s1", "Ferry times", NOW)], messages(1_000), [])
    writer.write([], messages(10, start=1_000), [])  # too few for the rule: left as they are
    assert described(admin) == 1_000
    writer.settle()
    assert described(admin) == 1_010
    pending = [admin.rows("SELECT gin_clean_pending_list(%s::regclass)", (index,))[0][0] for index in GIN_INDEXES]
    assert pending == [0] * len(GIN_INDEXES)


def test_any_statement_that_changes_memory_moves_its_version(fresh_database):
    url, admin = fresh_database
    history = PostgresHistory(url, "owner")
    dao = PostgresMemoryIndexDao(history, PostgresHistoryWriter(history, None))
    empty = dao.version()
    dao.insert_all([MemoryChunk("c1", "long_term", None, "The ferry leaves at nine.", None, NOW, NOW)])
    written = dao.version()
    history.run("UPDATE memory_index SET chunk_text = 'The ferry leaves at ten.'")  # not through the writer
    assert len({empty, written, dao.version()}) == 3
    history.close()
    assert admin.run("DELETE FROM oneclaw_tenants WHERE name = 'owner'") == 1  # the cascade moves no counter
    assert admin.rows("SELECT count(*) FROM memory_index")[0][0] == 0


def test_a_search_deadline_binds_its_own_statements_and_never_a_later_unit_of_work(postgres_url, new_tenant):
    history = PostgresHistory(postgres_url, new_tenant())
    limited = history.rows("SHOW statement_timeout", (), Deadline.after(SystemClock(), 5.0))[0][0]
    assert limited != "0" and history.rows("SHOW statement_timeout")[0][0] == "0"
    # sent with its timeout in one round trip, a statement still running at the deadline is cancelled
    started = time.monotonic()
    with pytest.raises(SearchTimedOut):
        history.rows("SELECT pg_sleep(5)", (), Deadline.after(SystemClock(), 0.3))
    assert time.monotonic() - started < 3 and history.rows("SELECT 1", (), Deadline.after(SystemClock(), 5.0)) == [(1,)]
    with pytest.raises(SearchTimedOut):  # and so is one planned with some methods off
        history.rows("SELECT pg_sleep(5)", (), Deadline.after(SystemClock(), 0.3), without=["enable_seqscan"])
    history.close()


def test_an_import_still_settles_when_a_host_has_dropped_one_of_the_indexes(fresh_database):
    url, admin = fresh_database
    admin.run("DROP INDEX messages_folded_trgm")
    writer = PostgresHistoryWriter(PostgresHistory(url, "owner"), None)
    writer.write([NewSession("s1", "Ferry times", NOW)], messages(3), [])
    writer.write([], messages(2, start=3), [])
    writer.settle()
    assert described(admin) == 5


def test_a_tenants_statements_are_planned_without_parallel_workers(fresh_database):
    """A search's statements stop after a few hundred rows: workers would each read on (docs/postgresql.md)."""
    url, admin = fresh_database
    assert PostgresHistory(url, "owner").rows("SHOW max_parallel_workers_per_gather") == [("0",)]
    assert admin.rows("SHOW max_parallel_workers_per_gather") != [("0",)]  # the server's own setting, untouched


def test_bm25s_rows_and_average_length_count_the_turns_the_keyword_index_holds_not_tool_rows(fresh_database):
    url, _ = fresh_database
    history = PostgresHistory(url, "owner")
    tool_rows = [NewMessage(f"t{i}", "s1", kind, "", NOW + 100 + i, "Bash", '{"command": "ls"}', "a b c d e f g h")
                 for i, kind in enumerate(["TOOL_CALL", "TOOL_RESULT"] * 5)]
    PostgresHistoryWriter(history, None).write([NewSession("s1", "Ferry times", NOW)], messages(4) + tool_rows, [])
    found = collection(history, MESSAGES, ["ferri"])
    # "note number N about the ferry": 6 terms, a window itself and a neighbour on each side (the first and
    # last have one): (12 + 18 + 18 + 12) / 4; its own words alone, 6 each
    assert (found.rows, found.average_length, found.holding) == (4, 15.0, {"ferri": 4})
    own = collection(history, TURNS, ["ferri"])
    assert (own.rows, own.average_length, own.holding) == (4, 6.0, {"ferri": 4})
