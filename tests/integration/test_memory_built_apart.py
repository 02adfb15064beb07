"""A large memory is modelled away from the searches: a search scores its newest chunks meanwhile and
says so, and once the whole model is built, or kept by another process, every chunk is searched."""
import json
import threading

import pytest
from acceptance_helpers import call
from builders import chunk, write_history
from fakes import FixedClock

from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.data.memory.memory_snapshot import MemorySnapshot
from oneclaw_search.di import create_injector

pytestmark = pytest.mark.spec("Q-11", "Q-14")
CLOCK = FixedClock(1_772_334_000_000)  # 2026-03-01
# The oldest chunk alone names the lighthouse; the newest alone names the harbour.
CHUNKS = [chunk(f"c{n:03}", f"note {n} about the garden", "2026-02-20") for n in range(120)]
CHUNKS[0] = chunk("c000", "the lighthouse keeper's note", "2026-02-01")
CHUNKS[-1] = chunk("c119", "the harbour master's note", "2026-02-28")


@pytest.fixture
def held(monkeypatch):
    """The whole model's build waits until the test lets it go: what a search meanwhile does is seen."""
    release, build = threading.Event(), MemorySnapshot.build

    def waiting(*args, **kwargs):
        if threading.current_thread().name == "oneclaw-memory-build":
            assert release.wait(30)
        return build(*args, **kwargs)
    monkeypatch.setattr(MemorySnapshot, "build", waiting)
    yield release
    release.set()


def container_for(path, first_build_chunks=50):
    container = create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None)
    container.get(HybridSearchEngine)._keeper.first_build_chunks = first_build_chunks
    return container


def searched(container, query, output="json"):
    result = call(container, query=query, scope="memory", format=output)
    assert result.is_success, result.error_message
    return json.loads(result.result) if output == "json" else result.result


def test_a_first_search_of_a_large_memory_scores_its_newest_chunks_and_says_so(history, held):
    path = history(chunks=CHUNKS)
    container = container_for(path)
    newest, oldest = searched(container, "harbour"), searched(container, "lighthouse")
    assert [item["id"] for item in newest["results"]] == ["c119"]
    assert oldest["results"] == [] and not oldest["complete"]
    assert oldest["memory_index"] == "building: only its newest 50 chunks were searched"
    assert "memory's search model is building: only its newest 50 chunks" in searched(container, "lighthouse", "text")
    held.set()
    container.get(HybridSearchEngine).flush()
    done = searched(container, "lighthouse")
    assert [item["id"] for item in done["results"]] == ["c000"] and done["complete"] and done["memory_index"] is None


def test_the_whole_model_is_kept_for_the_next_process_which_searches_every_chunk_at_once(history, mocker):
    path = history(chunks=CHUNKS)
    first = container_for(path)
    searched(first, "garden")
    first.get(HybridSearchEngine).flush()
    built = mocker.spy(MemorySnapshot, "build")
    again = searched(container_for(path), "lighthouse")
    assert [item["id"] for item in again["results"]] == ["c000"] and again["complete"] and built.call_count == 0


def test_a_memory_no_larger_than_a_search_models_is_modelled_in_that_search(history):
    path = history(chunks=CHUNKS)
    found = searched(container_for(path, first_build_chunks=120), "lighthouse")
    assert [item["id"] for item in found["results"]] == ["c000"] and found["complete"]


def test_memory_written_after_its_model_was_built_is_modelled_again_apart(history, held):
    path = history(chunks=CHUNKS)
    container = container_for(path)
    searched(container, "garden")
    held.set()
    container.get(HybridSearchEngine).flush()
    held.clear()
    write_history(path, chunks=[chunk("c120", "the ferry timetable", "2026-02-28")])
    meanwhile = searched(container, "lighthouse ferry")
    assert [item["id"] for item in meanwhile["results"]] == ["c120"] and not meanwhile["complete"]
    held.set()
    container.get(HybridSearchEngine).flush()
    after = searched(container, "lighthouse ferry")
    assert {item["id"] for item in after["results"]} == {"c000", "c120"} and after["complete"]


def test_with_nowhere_to_keep_the_model_it_is_built_in_the_search_whatever_its_size(history):
    path = history(chunks=CHUNKS)
    container = create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None, index_path=None)
    container.get(HybridSearchEngine)._keeper.first_build_chunks = 50
    found = searched(container, "lighthouse")
    assert [item["id"] for item in found["results"]] == ["c000"] and found["complete"]
