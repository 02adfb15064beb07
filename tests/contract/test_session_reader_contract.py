"""The SessionReader port's promises (read_session, beyond FEAT-032), proven alike by the unit
tests' FakeReader and PeeweeSessionReader over the same session written to a real SQLite file.

FakeReader holds one live session of user and assistant turns: soft-deleted sessions, tool rows
and turns written in the same millisecond are outside what it can hold, so outside the contract
(tests/acceptance/test_read_session.py reads the real one past a deleted session and a tool row).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from builders import write_history

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.data.history.session_reader import PeeweeSessionReader
from oneclaw_search.domain.session_reading import SessionInfo, Turn

MINUTE, COUNT = 60_000, 7


def fake_reader_class():
    """The fake the unit tests use, read from their module: a copy here could drift unseen."""
    spec = importlib.util.spec_from_file_location("read_session_fake", Path(__file__).parents[1] / "unit" / "test_read_session.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FakeReader


@pytest.fixture(params=["fake", "real", "postgres"])
def reader(request, tmp_path):
    if request.param == "fake":
        return fake_reader_class()(COUNT)
    turns = [NewMessage(f"t{n}", "s", "USER" if n % 2 else "AI_RESPONSE", f"turn {n}", n * MINUTE) for n in range(1, COUNT + 1)]
    if request.param == "postgres":
        from oneclaw_search.data.postgres.database import PostgresHistory
        from oneclaw_search.data.postgres.reader import PostgresSessionReader
        from oneclaw_search.data.postgres.writer import PostgresHistoryWriter

        history = PostgresHistory(request.getfixturevalue("postgres_url"), request.getfixturevalue("new_tenant")())
        PostgresHistoryWriter(history, None).write([NewSession("s", "Trip", MINUTE)], turns[::-1], [])
        return PostgresSessionReader(history)
    path = write_history(tmp_path / "history.db", [NewSession("s", "Trip", MINUTE)], turns[::-1])  # written out of order
    return PeeweeSessionReader(HistoryDatabase.open_read_only(path))


def test_a_live_session_is_found_by_its_id_with_its_last_activity(reader):
    assert reader.session("s") == SessionInfo("s", "Trip", MINUTE, COUNT * MINUTE)
    assert reader.session("nope") is None and reader.session("") is None


def test_turn_ids_run_oldest_first(reader):
    assert reader.turn_ids("s") == [f"t{n}" for n in range(1, COUNT + 1)]


@pytest.mark.parametrize("ids", [["t3", "t4", "t5"], ["t6", "t2"], ["t7"], []])
def test_turns_come_in_the_order_asked_for(reader, ids):
    expected = [Turn(turn_id, "USER" if int(turn_id[1:]) % 2 else "AI_RESPONSE", f"turn {turn_id[1:]}", int(turn_id[1:]) * MINUTE)
                for turn_id in ids]
    assert reader.turns(ids) == expected
