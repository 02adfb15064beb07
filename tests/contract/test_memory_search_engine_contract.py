"""The MemorySearchEngine port's promises (HybridSearchEngine.kt; SCOPE-3), proven alike by
FakeMemorySearchEngine and HybridSearchEngine over a real memory_index, on BM25 alone and with
vectors: the filter applies before the top-k cut, results come best first, top_k holds.

The fake returns canned results whatever the query, so which chunks are relevant and how they
score is outside the contract (tests/unit/test_hybrid_search_engine.py holds it).
"""
from __future__ import annotations

import math
from datetime import date
from itertools import pairwise

import pytest
from builders import TOKYO, chunk, ms
from fakes import FakeMemorySearchEngine, FixedClock

from oneclaw_search.data.embedding.vectors import HashingEmbedder
from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.memory_index_dao import PeeweeMemoryIndexDao
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.domain.models import MemorySearchResult
from oneclaw_search.domain.ports import MemoryFilter

NOW = ms("2026-03-01T12:00")
LOGS = [chunk(f"log-{day}", f"sushi night number {day}", f"2026-02-{day:02d}") for day in range(1, 11)]
NOTES = [chunk("note-a", "loves sushi with friends"), chunk("note-b", "sushi, always sushi")]
OTHER = [chunk("ramen", "ramen at the station", "2026-02-11")]
ALL = 50


def canned(chunks):
    """Every sushi chunk as found, decayed by its age, in no particular order."""
    results = []
    for row in chunks:
        age = (NOW - (ms(f"{row.source_date}T12:00") if row.source_date else row.updated_at)) / 86_400_000
        decay = math.exp(-0.01 * age)
        results.append(MemorySearchResult(row, 1.0, None, 1.0, decay, decay))
    return results[1::2] + results[::2]


@pytest.fixture(params=["fake", "bm25", "hybrid"])
def engine(request, history):
    if request.param == "fake":
        return FakeMemorySearchEngine(canned(LOGS + NOTES))
    embedder = HashingEmbedder() if request.param == "hybrid" else None
    dao = PeeweeMemoryIndexDao(HistoryDatabase.open_read_only(history(chunks=LOGS + NOTES + OTHER, embedder=embedder)))
    return HybridSearchEngine(dao, FixedClock(NOW), TOKYO, embedder, embedder.name if embedder else None)


def ids(results):
    return [result.chunk.id for result in results]


def test_results_come_best_first_and_top_k_takes_the_best(engine):
    every = engine.search("sushi", top_k=ALL)
    assert len(every) == len(LOGS + NOTES)
    assert all(earlier.score >= later.score for earlier, later in pairwise(every))
    for top_k in (1, 3, 5):
        assert ids(engine.search("sushi", top_k=top_k)) == ids(every)[:top_k]
    assert engine.search("sushi", top_k=0) == []


@pytest.mark.parametrize("chunk_filter", [
    MemoryFilter(day_to=date(2026, 2, 3)),  # the oldest logs: decay puts them last
    MemoryFilter(day_from=date(2026, 2, 4), day_to=date(2026, 2, 5)),
    MemoryFilter(source_types=frozenset({"long_term"})),
    MemoryFilter(source_types=frozenset({"daily_log"}), day_from=date(2026, 2, 9)),
])
def test_the_filter_applies_before_the_top_k_cut(engine, chunk_filter):
    admitted = [result for result in engine.search("sushi", top_k=ALL) if chunk_filter.admits(result.chunk)]
    assert len(admitted) >= 2
    assert ids(engine.search("sushi", top_k=2, chunk_filter=chunk_filter)) == ids(admitted)[:2]


def test_undated_chunks_pass_a_filter_only_when_it_bounds_no_day(engine):
    bounded = engine.search("sushi", top_k=ALL, chunk_filter=MemoryFilter(day_from=date(2000, 1, 1)))
    assert sorted(ids(bounded)) == sorted(row.id for row in LOGS)
    typed = engine.search("sushi", top_k=ALL, chunk_filter=MemoryFilter(source_types=frozenset({"long_term", "daily_log"})))
    assert sorted(ids(typed)) == sorted(row.id for row in LOGS + NOTES)


def test_retrievers_name_what_runs(engine):
    assert engine.retrievers and all(isinstance(name, str) and name for name in engine.retrievers)
