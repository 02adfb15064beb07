"""Memory snapshots kept in the side index file for the next process (Q-14).

A second engine over the same history and index stands in for a new process: it must read the
snapshot back rather than build it, score exactly as the first engine did, and rebuild when
memory_index changes or the store cannot be used.
"""
import gc

import numpy as np
import pytest
from builders import TOKYO, chunk
from fakes import FixedClock, KeywordEmbedder

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.memory_index_dao import PeeweeMemoryIndexDao
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.data.index.snapshot_store import SideSnapshotStore
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.data.memory.memory_bm25 import MemoryBM25
from oneclaw_search.data.memory.memory_snapshot import MemorySnapshot
from oneclaw_search.data.text.analyzer import query_terms
from oneclaw_search.di import create_injector

pytestmark = pytest.mark.spec("Q-14")
CLOCK = FixedClock(1_772_334_000_000)  # 2026-03-01 12:00 Tokyo
EMBEDDER = KeywordEmbedder(["sushi", "ramen", "tokyo"])
CHUNKS = [chunk("a", "Sushi for dinner in Tokyo", "2026-02-20"), chunk("b", "ramen for lunch", "2026-02-21"),
          chunk("c", "Long-term: the user loves sushi and ramen"), chunk("d", "nothing to see here", "2026-02-25")]


def engine(path, index_path):
    dao = PeeweeMemoryIndexDao(HistoryDatabase.open_read_only(path))
    return HybridSearchEngine(dao, CLOCK, TOKYO, EMBEDDER, EMBEDDER.name, SideSnapshotStore(SideIndex(index_path)))


def searched(memory, query):
    """Its results once the snapshot it built is kept (written after the answer, off the search's path)."""
    results = memory.search(query)
    memory.flush()
    return results


def outcome(results):
    return [(r.chunk.id, r.chunk.chunk_text, r.chunk.source_date, r.bm25_score, r.vector_score, r.score) for r in results]


def test_a_new_process_reads_the_snapshot_back_and_scores_the_same(history, tmp_path, mocker):
    path, index_path = history(chunks=CHUNKS, embedder=EMBEDDER), tmp_path / "side.sqlite"
    original = engine(path, index_path)
    first = [outcome(searched(original, query)) for query in ("sushi", "ramen tokyo", "dinner")]
    built = mocker.spy(MemorySnapshot, "build")
    second = engine(path, index_path)
    assert [outcome(second.search(query)) for query in ("sushi", "ramen tokyo", "dinner")] == first
    assert built.call_count == 0 and first[0]
    assert second.frequency("sushi") == 2 and second.frequency("zeppelin") == 0


def test_a_changed_memory_table_is_built_again_and_stored_for_the_next_process(history, tmp_path, mocker):
    path, index_path = history(chunks=CHUNKS, embedder=EMBEDDER), tmp_path / "side.sqlite"
    searched(engine(path, index_path), "sushi")
    writable = open_writable(path)
    PeeweeMemoryIndexDao(writable).insert_all([chunk("e", "sushi again", "2026-02-28")])
    writable.close()
    built = mocker.spy(MemorySnapshot, "build")
    assert "e" in {r.chunk.id for r in searched(engine(path, index_path), "sushi")} and built.call_count == 1
    assert "e" in {r.chunk.id for r in searched(engine(path, index_path), "sushi")} and built.call_count == 1


def test_a_store_that_cannot_be_written_only_means_building_each_time(history, tmp_path, mocker):
    path = history(chunks=CHUNKS, embedder=EMBEDDER)
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    built = mocker.spy(MemorySnapshot, "build")
    for _ in range(2):
        assert [r.chunk.id for r in searched(engine(path, blocker / "side.sqlite"), "ramen")][:2] == ["b", "c"]
    assert built.call_count == 2


def test_the_container_keeps_the_snapshot_beside_the_history_only_with_a_side_index(history, mocker):
    path = history(chunks=CHUNKS)
    searched(create_injector(path, clock=CLOCK, embedder=None).get(HybridSearchEngine), "sushi")
    built = mocker.spy(MemorySnapshot, "build")
    searched(create_injector(path, clock=CLOCK, embedder=None).get(HybridSearchEngine), "sushi")
    assert built.call_count == 0
    searched(create_injector(path, clock=CLOCK, embedder=None, index_path=None).get(HybridSearchEngine), "sushi")
    assert built.call_count == 1


def test_a_restored_bm25_model_gives_rank_bm25s_scores():
    corpus = [["sushi", "tokyo"], ["ramen"], ["sushi", "sushi", "ramen", "noodle"], []]
    model = MemoryBM25(corpus)
    restored = MemoryBM25.from_postings(model.terms, model.offsets, model.rows, model.counts,
                                        np.asarray(model.doc_len, dtype=np.float64))
    for query in (["sushi"], ["ramen", "noodle"], ["absent"], query_terms("sushi ramen")):
        assert np.array_equal(restored.get_scores(query), model.get_scores(query))
    assert restored.idf == model.idf and restored.avgdl == model.avgdl


def test_a_snapshot_holds_its_chunks_and_words_where_the_garbage_collector_stops_walking(history):
    """A host's every full collection walks each container it tracks: a large memory kept as lists
    (or as chunks holding their embeddings) doubled that walk. Built or read back, none stays tracked."""
    path = history(chunks=CHUNKS, embedder=EMBEDDER)
    built = MemorySnapshot.build("v1", PeeweeMemoryIndexDao(HistoryDatabase.open_read_only(path)).get_all(), 8, TOKYO)
    restored = MemorySnapshot.from_parts("v1", built.parts(), 8)
    gc.collect()
    gc.collect()  # the first leaves the fields untracked, the second the tuple of them
    for snapshot in (built, restored):
        held = [snapshot.chunks.fields(), *snapshot.chunks.fields(), snapshot.bm25.terms, snapshot.bm25.doc_len]
        assert not any(gc.is_tracked(item) for item in held)
        assert [c.chunk_text for c in snapshot.chunks] == [c.chunk_text for c in CHUNKS]
        assert all(c.embedding is None for c in snapshot.chunks)  # the matrix holds them once
