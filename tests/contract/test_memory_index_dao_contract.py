"""The MemoryIndexDao port's promises (MemoryIndexDao.kt; AC-06), proven alike by
FakeMemoryIndexDao, PeeweeMemoryIndexDao on a writable SQLite file and PostgresMemoryIndexDao.

`version()` is a cache key: a store that offers one changes it whenever its rows change; one that
cannot tell (the fake) answers None, and the engine then reads the rows every search.
"""
from __future__ import annotations

import pytest
from builders import chunk
from fakes import FakeMemoryIndexDao

from oneclaw_search.data.embedding.vectors import encode_embedding
from oneclaw_search.data.history.memory_index_dao import PeeweeMemoryIndexDao
from oneclaw_search.data.history.schema import open_writable


@pytest.fixture(params=["fake", "real", "postgres"])
def dao(request, tmp_path):
    if request.param == "fake":
        yield FakeMemoryIndexDao()
        return
    if request.param == "postgres":
        from oneclaw_search.data.postgres.daos import PostgresMemoryIndexDao
        from oneclaw_search.data.postgres.database import PostgresHistory
        from oneclaw_search.data.postgres.writer import PostgresHistoryWriter

        history = PostgresHistory(request.getfixturevalue("postgres_url"), request.getfixturevalue("new_tenant")())
        yield PostgresMemoryIndexDao(history, PostgresHistoryWriter(history, None))
        history.close()
        return
    database = open_writable(tmp_path / "memory.db")
    yield PeeweeMemoryIndexDao(database)
    database.close()


CHUNKS = [
    chunk("zeta", "a daily note, last by id", "2026-02-03"),
    chunk("alpha", "a long-term note, first by id", embedding=encode_embedding([0.25, -1.5, 3.0])),
    chunk("mid", "another daily note", "2026-02-01"),
]


def test_an_empty_index_has_no_rows(dao):
    assert dao.get_all() == [] and dao.get_by_source_type("daily_log") == []


def test_get_all_returns_every_row_as_written_in_insertion_order(dao):
    dao.insert_all(CHUNKS[:2])
    dao.insert_all(CHUNKS[2:])
    assert dao.get_all() == CHUNKS


def test_get_by_source_type_keeps_that_type_in_insertion_order(dao):
    dao.insert_all(CHUNKS)
    assert [row.id for row in dao.get_by_source_type("daily_log")] == ["zeta", "mid"]
    assert dao.get_by_source_type("long_term") == [CHUNKS[1]] and dao.get_by_source_type("weekly") == []


def test_get_newest_returns_the_rows_inserted_last_in_insertion_order(dao):
    dao.insert_all(CHUNKS)
    dao.insert_all([chunk("zeta", "a daily note, rewritten where it stands", "2026-02-03")])
    assert [row.id for row in dao.get_newest(2)] == ["alpha", "mid"]
    assert dao.get_newest(5) == dao.get_all() and dao.get_newest(0) == []


def test_insert_all_replaces_a_row_with_the_same_id_where_it_stands(dao):
    dao.insert_all(CHUNKS)
    changed = chunk("alpha", "the long-term note, rewritten", written="2026-03-02T09:00")
    dao.insert_all([changed, chunk("new", "a later note", "2026-02-05")])
    assert [row.id for row in dao.get_all()] == ["zeta", "alpha", "mid", "new"]
    assert dao.get_all()[1] == changed


def test_a_version_when_offered_changes_whenever_the_rows_change(dao):
    dao.insert_all(CHUNKS[:1])
    first = dao.version()
    dao.insert_all([chunk("zeta", "the daily note, rewritten", "2026-02-03", written="2026-03-02T09:00")])
    second = dao.version()
    dao.insert_all(CHUNKS[1:])
    third = dao.version()
    assert (first, second, third) == (None, None, None) or len({first, second, third}) == 3
    assert dao.version() == third
