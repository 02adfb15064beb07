"""The three sources run side by side, and a spent budget returns what finished (P-15, ERR-5)."""
import threading
import time

import pytest
from builders import TOKYO, memory_result, message_hit, ms, session_hit
from fakes import (
    BlockingMessageDao,
    FailingSessionDao,
    FakeMemorySearchEngine,
    FakeMessageDao,
    FakeSessionDao,
    FixedClock,
    scanning_use_case,
)

from oneclaw_search.domain import parallel
from oneclaw_search.domain.clock import SearchTimedOut
from oneclaw_search.domain.models import SearchSource
from oneclaw_search.domain.search_request import SearchRequest
from oneclaw_search.domain.search_settings import SearchSettings

CLOCK = FixedClock(ms("2026-03-01T12:00"))


class MeetingPoint:
    """Each source waits here for the other two: only a parallel search gets past it."""

    def __init__(self) -> None:
        self.barrier = threading.Barrier(3, timeout=5)

    def wrap(self, fake, method):
        original = getattr(fake, method)

        def waiting(*args, **kwargs):
            self.barrier.wait()
            return original(*args, **kwargs)

        setattr(fake, method, waiting)
        return fake


@pytest.mark.spec("P-15")
def test_all_three_sources_are_searched_at_the_same_time():
    meet = MeetingPoint()
    engine = meet.wrap(FakeMemorySearchEngine([memory_result("c", "sushi in memory", 1.0)]), "search")
    messages = meet.wrap(FakeMessageDao([message_hit("m", "a sushi message", "2026-03-01T10:00")]), "search_content")
    sessions = meet.wrap(FakeSessionDao([session_hit("s", "sushi", "2026-03-01T10:00")]), "search_by_title_or_preview")
    outcome = scanning_use_case(engine, messages, sessions, CLOCK, TOKYO).search(SearchRequest("sushi"))
    assert sorted(r.id for r in outcome.results) == ["c", "m", "s"]


@pytest.mark.spec("ERR-5")
def test_sources_that_miss_the_budget_are_named_and_the_rest_returned():
    blocked = BlockingMessageDao()
    engine = FakeMemorySearchEngine([memory_result("c", "sushi in memory", 1.0)])
    sessions = FakeSessionDao([session_hit("s", "sushi", "2026-03-01T10:00")])
    started = time.monotonic()
    try:
        outcome = scanning_use_case(engine, blocked, sessions, CLOCK, TOKYO, settings=SearchSettings(budget_seconds=0.2)).search(
            SearchRequest("sushi")
        )
    finally:
        blocked.release.set()
    assert time.monotonic() - started < 2.0
    assert sorted(r.id for r in outcome.results) == ["c", "s"]
    assert outcome.unfinished_sources == (SearchSource.MESSAGES,) and not outcome.complete


@pytest.mark.spec("ERR-5")
def test_a_source_that_stops_itself_at_the_deadline_counts_as_unfinished():
    class GivingUpEngine:
        retrievers = ("gives up",)

        def search(self, *args, **kwargs):
            raise SearchTimedOut()

    outcome = scanning_use_case(GivingUpEngine(), FakeMessageDao(), FakeSessionDao(), CLOCK, TOKYO).search(SearchRequest("x"))
    assert outcome.unfinished_sources == (SearchSource.MEMORY_INDEX,)


@pytest.mark.spec("ERR-4")
def test_a_failing_source_fails_the_whole_search():
    use_case = scanning_use_case(FakeMemorySearchEngine(), FakeMessageDao(), FailingSessionDao(), CLOCK, TOKYO)
    with pytest.raises(RuntimeError, match="disk I/O error"):
        use_case.search(SearchRequest("x"))


@pytest.mark.spec("ERR-5")
def test_a_source_still_stuck_from_an_earlier_search_does_not_slow_the_next_one():
    blocked = BlockingMessageDao()
    engine = FakeMemorySearchEngine([memory_result("c", "sushi in memory", 1.0)])
    use_case = scanning_use_case(engine, blocked, FakeSessionDao(), CLOCK, TOKYO, settings=SearchSettings(budget_seconds=0.2))
    try:
        outcomes = [use_case.search(SearchRequest("sushi")) for _ in range(4)]
    finally:
        blocked.release.set()
    assert [[r.id for r in outcome.results] for outcome in outcomes] == [["c"]] * 4


@pytest.mark.spec("P-15")
def test_searches_reuse_the_threads_and_so_the_connections_of_the_searches_before():
    seen = []  # the Thread objects themselves: kept alive, so each one is counted once
    messages = FakeMessageDao([message_hit("m", "a sushi message", "2026-03-01T10:00")])
    original = messages.search_content
    messages.search_content = lambda *args, **kwargs: seen.append(threading.current_thread()) or original(*args, **kwargs)
    use_case = scanning_use_case(FakeMemorySearchEngine(), messages, FakeSessionDao(), CLOCK, TOKYO)
    for _ in range(20):
        assert [r.id for r in use_case.search(SearchRequest("sushi")).results] == ["m"]
    # A thread per search would make 20; a pool reuses idle ones and never holds more than its cap.
    assert len(seen) == 20 and len({id(thread) for thread in seen}) <= parallel._MAX_THREADS < 20
    assert all(thread is not threading.main_thread() for thread in seen)
