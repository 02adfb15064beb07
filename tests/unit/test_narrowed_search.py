"""The peers' narrowing parameters on fakes (beyond FEAT-032): parsing, the filtered scan's ranking, that a
search asking for tool rows goes through FocusedSearch while every other one stays with the message
search, which is told what it may return, and the reply a question hit is shown with."""
import pytest
from builders import TOKYO, message_hit, ms
from fakes import FakeMemorySearchEngine, FakeMessageDao, FakeSessionDao, FixedClock, scanning_use_case

from oneclaw_search.domain.focused_search import FocusedSearch
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import InvalidFilter, MessageFilter, parse_message_filter
from oneclaw_search.domain.narrowed_search import reply_to, with_context
from oneclaw_search.domain.relevance import RankingSettings, relevance
from oneclaw_search.domain.search_history_use_case import SearchAids
from oneclaw_search.domain.search_request import parse_search_request
from oneclaw_search.domain.session_reading import Turn
from oneclaw_search.domain.text_evidence import scanned_evidence
from oneclaw_search.domain.unified_search_result import SourceType, UnifiedSearchResult


def test_no_narrowing_parameter_means_no_filter_at_all():
    assert parse_message_filter({"query": "x", "scope": "all"}) is None


@pytest.mark.parametrize("role, expected", [
    ("tool", ("tool",)), (" Tool , USER ", ("user", "tool")), (["assistant", "user", "user"], ("user", "assistant")),
])
def test_roles_are_read_from_a_string_or_a_list_in_one_order(role, expected):
    assert parse_message_filter({"role": role}).roles == expected


@pytest.mark.parametrize("role", ["", "bot", ["user", "robot"], ","])
def test_an_unknown_or_empty_role_is_refused(role):
    with pytest.raises(InvalidFilter, match="Must be one or more of: user, assistant, tool"):
        parse_message_filter({"role": role})


def test_the_filter_describes_itself_and_names_message_types():
    narrowed = MessageFilter(("user", "tool"), project="api")
    assert narrowed.describe() == "role: user, tool; project: api"
    assert narrowed.types == {"USER", "TOOL_CALL", "TOOL_RESULT"} and narrowed.narrows_sessions
    assert MessageFilter().describe() == "" and not MessageFilter().narrows_sessions


def scores(query, texts):
    return [relevance(found, RankingSettings()) for found in scanned_evidence(HistoryQuery.parse(query), texts)]


def test_the_whole_query_ranks_above_scattered_words_and_rare_words_weigh_more():
    texts = ["the blue parser failed", "parser, then later blue", "blue sky", "blue sea", "blue car", "nothing here"]
    found = scanned_evidence(HistoryQuery.parse("blue parser"), texts)
    assert found[0].literal and not found[1].literal  # only the first holds "blue parser" as written
    ranked = scores("blue parser", texts)
    assert ranked[0] > ranked[1] > ranked[2] == ranked[3] > 0 == ranked[5]  # both words beat the common one alone


def test_a_quoted_phrase_must_appear_as_written_in_a_filtered_search():
    rows = Rows([message_hit("m1", "parser blue logs", "2026-03-01T10:00", type="TOOL_CALL"),
                 message_hit("m2", "blue parser logs", "2026-03-01T10:01", type="TOOL_CALL")])
    found = FocusedSearch(rows).messages(HistoryQuery.parse('"blue parser" logs'), MessageFilter(("tool",)), None, 0,
                                         ms("2026-03-02T00:00"), 50)
    assert [item.hit.id for item in found] == ["m2"]


class Rows:
    """A FilteredHistory over fixed message hits."""

    def __init__(self, hits):
        self.hits, self.asked = hits, []

    def session_ids(self, message_filter):
        return None if message_filter.session_id is None else frozenset({message_filter.session_id})

    def messages(self, types, session_ids, after, before):
        self.asked.append((types, session_ids))
        yield [h for h in self.hits if h.type in types and (session_ids is None or h.session_id in session_ids)]


def test_a_search_for_tool_rows_goes_through_focused_search_and_others_do_not(mocker):
    rows = Rows([message_hit("m1", "sushi call", "2026-03-01T10:00", type="TOOL_CALL"),
                 message_hit("m2", "sushi talk", "2026-03-01T10:00", session_id="s2")])
    focused = FocusedSearch(rows)
    spy = mocker.spy(focused, "messages")
    messages = FakeMessageDao([message_hit("m3", "sushi spec", "2026-03-01T10:00"),
                               message_hit("m2", "sushi talk", "2026-03-01T10:00", session_id="s2")])
    use_case = scanning_use_case(FakeMemorySearchEngine(), messages, FakeSessionDao(), FixedClock(ms("2026-03-01T12:00")),
                                 TOKYO, aids=SearchAids(focused=focused))
    plain = use_case.search(parse_search_request({"query": "sushi"}))
    assert {r.id for r in plain.results} == {"m2", "m3"} and spy.call_count == 0
    tools = use_case.search(parse_search_request({"query": "sushi", "role": "tool"}))
    assert [r.id for r in tools.results] == ["m1"] and spy.call_count == 1
    assert "keyword (filtered scan)" in tools.retrievers and "keyword (filtered scan)" not in plain.retrievers
    one = use_case.search(parse_search_request({"query": "sushi", "session_id": "s2"}))
    assert [r.id for r in one.results] == ["m2"] and spy.call_count == 1  # the message search, kept to s2


def test_a_role_filter_over_user_and_assistant_turns_is_handed_to_the_message_search(mocker):
    focused = FocusedSearch(Rows([]))
    spy = mocker.spy(focused, "messages")
    messages = FakeMessageDao([message_hit("m-user", "sushi question", "2026-03-01T10:00"),
                               message_hit("m-ai", "sushi answer", "2026-03-01T10:01", type="AI_RESPONSE")])
    use_case = scanning_use_case(FakeMemorySearchEngine(), messages, FakeSessionDao(), FixedClock(ms("2026-03-01T12:00")),
                                 TOKYO, aids=SearchAids(focused=focused))
    outcome = use_case.search(parse_search_request({"query": "sushi", "role": "assistant", "max_results": 3}))
    assert [r.id for r in outcome.results] == ["m-ai"] and spy.call_count == 0
    assert messages.calls[-1][3] == 50  # the usual pool: nothing is filtered afterwards, the search keeps to the role


def turn(id, text, at=0):
    return Turn(id, "USER", text, at)


@pytest.mark.spec("Q-01")
@pytest.mark.parametrize("hit_text, shown", [
    ("Where did we eat on Friday?", ["hit", "next"]),
    ("東京でどこに行きましたか？", ["hit", "next"]),  # a full-width question mark
    ("We ate at the sushi place.", []),  # it asks nothing: no neighbour is shown
])
def test_a_hit_that_asks_a_question_is_shown_with_the_turn_after_it(hit_text, shown):
    window = [turn("before", "Hi"), turn("hit", hit_text), turn("next", "At Sakura Sushi.")]
    assert [t.id for t in reply_to(window, "hit")] == shown


def test_a_question_with_no_turn_after_it_or_a_hit_outside_its_window_shows_nothing():
    assert reply_to([turn("before", "Hi"), turn("hit", "Anyone?")], "hit") == []
    assert reply_to([turn("before", "Hi?")], "hit") == []


def test_only_hits_that_ask_a_question_have_their_turns_read_for_a_reply(mocker):
    def result(id, text):
        return UnifiedSearchResult(id, SourceType.MESSAGE, text, None, "s1", "Chat", 1.0, 1.0, 0, searched_text=text)
    reader = mocker.Mock()
    reader.turns_around.return_value = {"q": [turn("q", "Where did we eat?"), turn("a", "At Sakura.")]}
    shown = with_context([result("q", "Where did we eat?"), result("s", "We ate sushi.")], reader, 0, replies=True)
    reader.turns_around.assert_called_once_with(["q"], 1)
    assert [[t.id for t in r.context] for r in shown] == [["q", "a"], []]
