"""SearchHistoryUseCase on fakes: which sources each scope asks, the bounds they get, the merge.

Layer-1A tests for AC-03, AC-04, AC-06..AC-09 and the scope, date and weight test points.
"""
import pytest
from builders import TOKYO, memory_result, message_hit, ms, session_hit
from fakes import FakeMemorySearchEngine, FakeMessageDao, FakeSessionDao, FixedClock, scanning_use_case

from oneclaw_search.domain.models import SearchScope, SourceType
from oneclaw_search.domain.search_request import SearchRequest, parse_search_request

NOW = "2026-03-01T12:00"


@pytest.fixture
def sources():
    engine = FakeMemorySearchEngine([
        memory_result("c-log", "Dinner at Sakura Sushi, a restaurant", 0.8, "2026-03-01"),
        memory_result("c-md", "Likes restaurant food from Italy", 0.4),
    ])
    messages = FakeMessageDao([message_hit("m1", "a sushi restaurant in Shibuya", "2026-03-01T10:00", title="Dinner")])
    sessions = FakeSessionDao([session_hit("s1", "Restaurant ideas", "2026-03-01T09:00", preview="Italian?")])
    return engine, messages, sessions


def use_case(sources, **options):
    engine, messages, sessions = sources
    return scanning_use_case(engine, messages, sessions, FixedClock(ms(NOW)), TOKYO, **options)


def search(sources, **parameters):
    return use_case(sources).search(parse_search_request({"query": "restaurant", **parameters}))


def asked(sources):
    engine, messages, sessions = sources
    return bool(engine.calls), bool(messages.calls), bool(sessions.calls)


@pytest.mark.spec("SCOPE-1", "FT-05", "BR-02", "AC-03", "EDGE-01")
def test_scope_all_searches_all_three_sources(sources):
    outcome = search(sources)
    assert asked(sources) == (True, True, True)
    assert {r.source_type for r in outcome.results} == {SourceType.DAILY_LOG, SourceType.MEMORY, SourceType.MESSAGE, SourceType.SESSION}


@pytest.mark.spec("SCOPE-2", "FT-02")
def test_scope_memory_searches_only_the_memory_index(sources):
    outcome = search(sources, scope="memory")
    assert asked(sources) == (True, False, False)
    assert {r.source_type for r in outcome.results} == {SourceType.DAILY_LOG, SourceType.MEMORY}


@pytest.mark.spec("SCOPE-3", "FT-03")
def test_scope_daily_log_asks_the_engine_for_daily_logs_only(sources):
    outcome = search(sources, scope="daily_log")
    assert asked(sources) == (True, False, False)
    assert sources[0].calls[0][2].source_types == frozenset({"daily_log"})
    assert [r.id for r in outcome.results] == ["c-log"]


@pytest.mark.spec("SCOPE-4", "FT-04")
def test_scope_sessions_searches_session_metadata_and_message_content(sources):
    outcome = search(sources, scope="sessions")
    assert asked(sources) == (False, True, True)
    assert {r.source_type for r in outcome.results} == {SourceType.MESSAGE, SourceType.SESSION}


@pytest.mark.spec("AC-04", "FT-08", "P-16")
def test_a_date_range_becomes_whole_local_days_for_every_source(sources):
    search(sources, date_from="2026-02-22", date_to="2026-02-28")
    engine, messages, sessions = sources
    whole_days = (ms("2026-02-22T00:00"), ms("2026-03-01T00:00") - 1)
    assert messages.calls[0][1:3] == whole_days and sessions.calls[0][1:3] == whole_days
    memory_filter = engine.calls[0][2]
    assert (str(memory_filter.day_from), str(memory_filter.day_to)) == ("2026-02-22", "2026-02-28")


@pytest.mark.spec("BR-06", "FT-06")
def test_only_date_from_searches_up_to_now_leaving_out_the_last_five_seconds_of_messages(sources):
    search(sources, date_from="2026-02-22")
    engine, messages, sessions = sources
    assert messages.calls[0][1:3] == (ms("2026-02-22T00:00"), ms(NOW) - 5_000)
    assert sessions.calls[0][1:3] == (ms("2026-02-22T00:00"), ms(NOW))
    assert str(engine.calls[0][2].day_to) == "2026-03-01"


@pytest.mark.spec("BR-07", "FT-07")
def test_only_date_to_searches_from_the_beginning(sources):
    search(sources, date_to="2026-02-28")
    engine, messages, sessions = sources
    assert messages.calls[0][1:3] == (0, ms("2026-03-01T00:00") - 1)
    assert engine.calls[0][2].day_from is None


@pytest.mark.spec("P-07")
def test_undated_memory_is_left_out_when_any_date_bound_is_given(sources):
    ids = [r.id for r in search(sources, date_to="2026-03-01").results]
    assert "c-md" not in ids and "c-log" in ids
    assert "c-md" in [r.id for r in search(sources).results]


@pytest.mark.spec("EDGE-08")
def test_a_range_wholly_in_the_future_finds_nothing(sources):
    assert search(sources, date_from="2027-01-01", date_to="2027-01-31").results == ()
    assert search(sources, date_from="2027-01-01").results == ()


@pytest.mark.spec("MRG-3", "AC-09", "FT-11")
def test_the_top_hit_of_each_source_scores_its_weight_when_fresh(sources):
    scores = {r.id: r.final_score for r in search(sources).results}
    assert scores["c-log"] == pytest.approx(1.0, abs=0.01)
    assert scores["m1"] == pytest.approx(0.6, abs=0.001)
    assert scores["s1"] == pytest.approx(0.5, abs=0.001)
    assert scores["c-md"] == pytest.approx(0.5, abs=0.01)


@pytest.mark.spec("AC-05", "FT-09")
def test_max_results_limits_the_merged_list(sources):
    assert len(search(sources, max_results=2).results) == 2
    assert len(search(sources).results) == 4


@pytest.mark.spec("AC-06", "BR-08")
def test_memory_search_is_delegated_to_the_hybrid_search_engine(sources, mocker):
    spy = mocker.spy(sources[0], "search")
    search(sources, scope="memory")
    spy.assert_called_once()
    assert spy.call_args.args[0] == "restaurant"


@pytest.mark.spec("AC-07", "AC-08")
def test_messages_and_sessions_are_delegated_to_their_daos(sources, mocker):
    content = mocker.spy(sources[1], "search_content")
    titles = mocker.spy(sources[2], "search_by_title_or_preview")
    search(sources, scope="sessions")
    assert content.call_args.args[0] == titles.call_args.args[0] == "restaurant"


@pytest.mark.spec("OUT-2")
def test_message_and_session_texts_follow_the_spec_example(sources):
    results = {r.id: r for r in search(sources).results}
    assert results["m1"].text == "User: a sushi restaurant in Shibuya"
    assert results["m1"].session_title == "Dinner" and results["m1"].source_date == "2026-03-01"
    assert results["s1"].text == 'Session: "Restaurant ideas" (2 messages, last active: 2026-03-01)\nPreview: Italian?'


@pytest.mark.spec("EDGE-02")
def test_a_query_found_in_one_source_returns_only_that_source():
    engine, sessions = FakeMemorySearchEngine(), FakeSessionDao()
    messages = FakeMessageDao([message_hit("m1", "only here", "2026-02-01T10:00")])
    outcome = scanning_use_case(engine, messages, sessions, FixedClock(ms(NOW)), TOKYO).search(SearchRequest("only here"))
    assert [(r.id, r.source_type) for r in outcome.results] == [("m1", SourceType.MESSAGE)]
    assert outcome.complete


def test_scope_enum_lists_sources_in_a_stable_order():
    assert [str(s) for s in SearchScope.ALL.sources] == ["memory", "messages", "sessions"]
