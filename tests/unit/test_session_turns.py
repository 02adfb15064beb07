"""A session result shown with its best turn (domain/session_turns.py): asked of the message search once,
kept to the sessions shown, the best turn by the ranking model; nothing else in the reply changes.

Covers MRG-1 (the session keeps its place and score) and OUT-2 (what a JSON result shows).
"""
import pytest
from builders import message_hit, ms

from oneclaw_search.domain.clock import Deadline, PinnedClock
from oneclaw_search.domain.errors import HistoryChanged
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.models import ScoredMessage, SourceType, UnifiedSearchResult
from oneclaw_search.domain.ports import MemoryFilter
from oneclaw_search.domain.redaction import unchanged
from oneclaw_search.domain.relevance import Evidence, RankingSettings
from oneclaw_search.domain.search_window import SearchWindow
from oneclaw_search.domain.session_turns import best_turns_in_time, with_best_turns


class RecordingMessageSearch:
    retrievers = ("fake",)

    def __init__(self, found):
        self.found, self.asked = found, []

    def search(self, query, after, before, limit, *, deadline=None, within=None):
        self.asked.append(within)
        return [item for item in self.found if within is None or within.sessions is None or item.hit.session_id in within.sessions]


def result(id, source, session_id=None):
    return UnifiedSearchResult(id=id, source_type=source, text=f"text of {id}", source_date="2026-02-20", session_id=session_id,
                               session_title=None, raw_score=1.0, final_score=0.5, created_at=ms("2026-02-20T09:00"))


def scored(id, session_id, coverage):
    return ScoredMessage(message_hit(id, f"turn {id}", "2026-02-20T09:00", session_id=session_id), Evidence(coverage, True))


def window():
    return SearchWindow(0, 2**62, 2**62, MemoryFilter())


@pytest.mark.spec("MRG-1", "OUT-2")
def test_each_session_result_shows_its_best_turn_and_nothing_else_moves():
    search = RecordingMessageSearch([scored("weak", "s1", 0.3), scored("strong", "s1", 0.9), scored("other", "s2", 0.5),
                                     scored("elsewhere", "s9", 2.0)])
    results = [result("s1", SourceType.SESSION, "s1"), result("m1", SourceType.MESSAGE, "s1"), result("s3", SourceType.SESSION, "s3")]
    shown = with_best_turns(results, search, HistoryQuery.parse("turn"), window(), RankingSettings(min_coverage=0.1), unchanged)
    assert [item.id for item in shown] == ["s1", "m1", "s3"] and [item.final_score for item in shown] == [0.5] * 3
    assert [turn.id for turn in shown[0].context] == ["strong"]
    assert shown[1].context == () and shown[2].context == ()  # a message result, and a session none of whose turns matched
    assert search.asked == [search.asked[0]] and search.asked[0].sessions == {"s1", "s3"}


def test_a_reply_without_session_results_asks_nothing():
    search = RecordingMessageSearch([scored("m", "s1", 1.0)])
    results = [result("m1", SourceType.MESSAGE, "s1")]
    assert with_best_turns(results, search, HistoryQuery.parse("turn"), window(), RankingSettings(), unchanged) == results
    assert search.asked == []



class ChangingMessageSearch(RecordingMessageSearch):
    def search(self, query, after, before, limit, *, deadline=None, within=None):
        raise HistoryChanged("the history changed under the search")


def test_a_spent_budget_or_a_changed_history_leaves_the_session_results_as_they_were():
    results = [result("s1", SourceType.SESSION, "s1")]
    clock = PinnedClock(ms("2026-02-20T09:00"))
    spent, search = Deadline.after(clock, 0.0), RecordingMessageSearch([scored("strong", "s1", 0.9)])
    assert best_turns_in_time(results, search, HistoryQuery.parse("turn"), window(), RankingSettings(), unchanged, spent) == results
    assert search.asked == []  # nothing is asked once the budget is spent
    alive = Deadline.after(clock, 5.0)
    changing = ChangingMessageSearch([])
    assert best_turns_in_time(results, changing, HistoryQuery.parse("turn"), window(), RankingSettings(), unchanged, alive) == results
    shown = best_turns_in_time(results, search, HistoryQuery.parse("turn"), window(), RankingSettings(), unchanged, alive)
    assert [turn.id for turn in shown[0].context] == ["strong"]
