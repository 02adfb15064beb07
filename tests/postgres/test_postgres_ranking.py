"""The server computes the ranking model as the SQLite backend's tantivy index does (Q-01, Q-02): the
same window lengths as an engine keeps them, the same BM25, so the demo history answers every query
with the same hits and the same scores on both backends."""
from __future__ import annotations

import json
from datetime import UTC, date

import pytest

from oneclaw_search.data.history.demo_history import demo_history
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.clock import PinnedClock
from oneclaw_search.domain.window_bm25 import stored_length
from oneclaw_search.tools import ToolExecutionEngine

TODAY = date(2026, 12, 1)
NOW = 1_796_169_600_000  # 2026-12-01T00:00Z
QUERIES = ["restaurant", "sushi near Shibuya", "database migration", "Kotlin build", '"team dinner"', "omakase counter",
           "omakase", "the", "dinner plans for Friday", "Roppongi eight", "resturant"]


def test_a_window_length_is_kept_as_a_search_engine_keeps_it(fresh_database):
    _, admin = fresh_database
    lengths = [*range(0, 3000), 4095, 4096, 65_535, 1_000_000, 123_456_789]
    stored = admin.rows("SELECT oneclaw_search_norm(n) FROM unnest(%s::integer[]) n", (lengths,))
    assert [row[0] for row in stored] == [stored_length(length) for length in lengths]


@pytest.fixture
def both(fresh_database, tmp_path):
    url, _ = fresh_database
    sessions, messages, chunks = demo_history(TODAY, UTC)
    database = open_writable(tmp_path / "demo.db")
    HistoryWriter(database, None).write(sessions, messages, chunks)
    database.close()
    sqlite = create_injector(tmp_path / "demo.db", clock=PinnedClock(NOW), time_zone="UTC", embedder=None)
    assert sqlite.get(IndexParts).lookup.sync.catch_up()
    PostgresHistoryWriter(PostgresHistory(url, "owner"), None).write(sessions, messages, chunks)
    postgres = create_injector(url, tenant="owner", clock=PinnedClock(NOW), time_zone="UTC", embedder=None)
    return sqlite.get(ToolExecutionEngine), postgres.get(ToolExecutionEngine)


def answer(engine, query: str) -> list[tuple[str, str, float]]:
    reply = engine.execute_tool("search_history", {"query": query, "format": "json", "max_results": 20})
    assert reply.is_success, reply.error_message
    return [(item["source"], item["id"], round(item["score"], 3)) for item in json.loads(reply.result)["results"]]


@pytest.mark.parametrize("query", QUERIES)
def test_the_demo_history_gets_the_same_hits_and_scores_on_both_backends(both, query):
    sqlite, postgres = both
    expected = answer(sqlite, query)
    assert expected or query == "the"  # a stop word alone finds nothing; every other query finds something
    assert answer(postgres, query) == expected
