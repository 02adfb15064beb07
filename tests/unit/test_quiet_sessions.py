"""Sessions summarised by a model as they go quiet: the use case asks the background summarizer for each
recent session whose last turn is old enough and whose summary is not kept, and the watch a
long-running host starts keeps asking until stopped (beyond FEAT-032: summaries in the background)."""
from __future__ import annotations

import threading

from oneclaw_search.data.index.summary_cache import MemorySummaryCache
from oneclaw_search.data.summaries.quiet_watch import QuietSessionWatch
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Digest, SessionVersion
from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase

MINUTE = 60_000
NOW = 1_700_000_000_000
LAST_TURN = {"quiet": NOW - 30 * MINUTE, "just-now": NOW - MINUTE, "edge": NOW - 10 * MINUTE, "empty": None}


class Directory:
    def recent(self, limit):
        return [SessionInfo(name, name.title(), NOW - 60 * MINUTE, NOW) for name in LAST_TURN][:limit]

    def session(self, session_id):
        return None

    def all_turns(self, session_id):
        at = LAST_TURN[session_id]
        return () if at is None else (Turn(f"{session_id}-1", "USER", "Shall we book the train?", at),)

    def version(self, session_id):
        at = LAST_TURN[session_id]
        return SessionVersion(f"v-{session_id}", 0 if at is None else 1, at, at)


class Later:
    name, method_key = "llm:tiny", "llm:tiny:abc"

    def __init__(self, failed=()):
        self.asked, self.failed = [], set(failed)

    def ask(self, session_id, key, read):
        self.asked.append((session_id, key, read()))

    def why_not(self, key):
        return "llm:tiny unavailable: HTTP 401" if key.split(":")[3] in self.failed else None

    def summarize_now(self, key, transcript):
        return True


def summaries(later, cache):
    return GetSessionSummaryUseCase(Directory(), Directory(), ExtractiveSummarizer(), cache, later=later)


def test_only_sessions_quiet_long_enough_and_not_yet_summarised_are_asked_for():
    later, cache = Later(), MemorySummaryCache()
    assert summaries(later, cache).ask_later_for_quiet(NOW, 10 * MINUTE) == 2
    assert [session for session, _, _ in later.asked] == ["quiet", "edge"]  # "just-now" is still going; "empty" has no turn
    _, key, transcript = later.asked[0]
    assert key == "llm:tiny:abc:v-quiet:" + key.rsplit(":", 1)[1] and transcript.turns[0].content == "Shall we book the train?"
    cache.put(key, Digest((), (), (), "llm:tiny"))
    later.asked.clear()
    assert summaries(later, cache).ask_later_for_quiet(NOW, 10 * MINUTE) == 1 and later.asked[0][0] == "edge"


def test_a_session_the_model_failed_on_lately_waits_and_a_kept_one_is_not_read_again_until_it_moves():
    later, cache = Later(failed={"v-quiet"}), MemorySummaryCache()
    summaries_ = summaries(later, cache)
    assert summaries_.ask_later_for_quiet(NOW, 10 * MINUTE) == 1 and later.asked[0][0] == "edge"
    cache.put(later.asked[0][1], Digest((), (), (), "llm:tiny"))
    reads = []
    summaries_._directory.version = lambda session_id: reads.append(session_id) or Directory().version(session_id)
    assert summaries_.ask_later_for_quiet(NOW, 10 * MINUTE) == 0
    assert "edge" in reads  # read once more, found kept
    reads.clear()
    summaries_.ask_later_for_quiet(NOW, 10 * MINUTE)
    assert "edge" not in reads and "quiet" in reads  # kept and unmoved: not read; failed lately: looked at again


def test_without_a_background_summarizer_nothing_is_asked_for():
    assert summaries(None, MemorySummaryCache()).ask_later_for_quiet(NOW, 0) == 0


def test_the_watch_looks_at_once_keeps_looking_survives_a_failure_and_stops():
    looked = []
    third = threading.Event()

    def sweep():
        looked.append(len(looked))
        if len(looked) == 2:
            raise RuntimeError("side index busy")
        if len(looked) >= 3:
            third.set()
        return 1

    slow = QuietSessionWatch(sweep, every_seconds=60)
    slow.start()
    slow.start()  # a second start starts no second thread
    for _ in range(500):
        if looked:
            break
        threading.Event().wait(0.01)
    assert looked == [0] and [t.name for t in threading.enumerate()].count("oneclaw-quiet-sessions") == 1  # at once
    slow.stop()
    watch = QuietSessionWatch(sweep, every_seconds=0.01)
    watch.start()
    assert third.wait(5)  # the failed second look did not end the watch
    watch.stop()
    assert [t.name for t in threading.enumerate()].count("oneclaw-quiet-sessions") == 0
