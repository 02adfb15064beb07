"""The keyword pools read from the day their newest rows begin (pools.py) hold what the reading over
the whole window holds (Q-01): a search answers the same either way, whether the span the counts
name holds enough of a word's rows or, the word being rarer lately than on average, too few."""
from __future__ import annotations

import json

import pytest

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.data.postgres import pools, search
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.term_counts import DAY_MS
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.di import create_injector
from oneclaw_search.domain.clock import PinnedClock
from oneclaw_search.tools import ToolExecutionEngine

START = 1_780_000_000_000
DAYS = 150
NOW = START + DAYS * DAY_MS


def text(at: int) -> str:
    """Every other turn a storm; a ferry in every turn of the first hundred days, in few after: the
    newest days the counts name for it hold too few of its rows."""
    parts = ["storm over the harbour"] if at % 2 == 0 else ["a quiet day at the island"]
    if at < 1000 or at % 41 == 0:
        parts.append("the ferry left late")
    return f"{' and '.join(parts)} ({at})"


@pytest.fixture
def engine(fresh_database):
    url, _ = fresh_database
    messages = [NewMessage(f"m{at:04d}", f"s{at % 3}", "USER" if at % 2 else "AI_RESPONSE", text(at), START + at * DAY_MS // 10)
                for at in range(DAYS * 10)]
    PostgresHistoryWriter(PostgresHistory(url, "owner"), None).write(
        [NewSession(f"s{n}", f"Trip {n}", START) for n in range(3)], messages, [])
    return create_injector(url, tenant="owner", clock=PinnedClock(NOW), time_zone="UTC", embedder=None).get(ToolExecutionEngine)


def answer(engine: ToolExecutionEngine, query: str) -> list[tuple[str, str, float]]:
    reply = engine.execute_tool("search_history", {"query": query, "format": "json", "max_results": 3})
    assert reply.is_success, reply.error_message
    return [(item["source"], item["id"], round(item["score"], 6)) for item in json.loads(reply.result)["results"]]


@pytest.mark.parametrize("query", ["storm", "ferry", "storm ferry", "harbour island", "storm harbour quiet"])
def test_a_search_answers_the_same_whether_its_pools_are_read_from_a_span_or_the_whole_window(engine, mocker, query):
    asked = mocker.spy(pools, "written_since")
    spans = answer(engine, query)
    assert asked.call_count >= 1  # the words are common enough for a span
    mocker.patch.object(search, "spans", side_effect=lambda _, held, *args: [None] * len(held))
    assert spans == answer(engine, query)
    assert spans  # every query finds something


def test_a_span_is_asked_for_only_where_it_is_shorter_than_the_window(fresh_database):
    url, _ = fresh_database
    history = PostgresHistory(url, "owner")
    messages = [NewMessage(f"m{at}", "s", "USER", f"storm {at}", START + at * DAY_MS) for at in range(10)]
    PostgresHistoryWriter(history, None).write([NewSession("s", "Storms", START)], messages, [])
    # one turn a day: 4 rows wanted twice over of a word half the turns hold are the last 16, more than there
    # are; of a word every turn holds, the last 8, from the start of the third turn's day
    third_day = (START + 2 * DAY_MS) // DAY_MS * DAY_MS
    assert pools.spans(history, [5, None, 10, 0], 10, 4, 0, NOW, None) == [None, None, third_day, None]
    assert pools.spans(history, [10], 10, 4, START + 5 * DAY_MS, NOW, None) == [None]  # the window begins later

