"""Whole-query hits kept through the merge, and the spec's own LIKE search as a search of candidates the
ranking model scores (domain/ranking.py, domain/literal_search.py).

Covers Q-02, Q-03, Q-04 and P-17 on hand-made results and fake DAOs.
"""
from itertools import pairwise

import pytest
from builders import message_hit, ms, session_hit
from fakes import FakeMessageDao, FakeSessionDao
from hypothesis import given, settings
from hypothesis import strategies as st

from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import LITERAL_RETRIEVERS, LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.models import SourceType, UnifiedSearchResult
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.ranking import merge
from oneclaw_search.domain.relevance import RankingSettings, relevance

DAY = 86_400_000
NOW = 1_000 * DAY


def hit(id, raw, *, exact=False, source=SourceType.MESSAGE, text=None):
    return UnifiedSearchResult(id, source, text or f"text of {id}", None, None, None, raw, 0.0, NOW, exact=exact)


def ids(results):
    return [result.id for result in results]


@pytest.mark.spec("Q-04")
def test_merge_keeps_every_exact_hit_that_fits_even_below_stronger_keyword_hits():
    memory = [hit(f"k{i}", 10.0 - i, source=SourceType.MEMORY) for i in range(6)]
    messages = [hit("e1", 1.0, exact=True), hit("e2", 0.5, exact=True)]
    merged = merge([memory, messages], NOW, 4)
    keyword_only = merge([memory], NOW, 4)
    assert min(r.final_score for r in keyword_only) > max(r.final_score for r in merged if r.exact)
    assert ids(merged) == ["k0", "e1", "e2", "k1"]  # the best other hit keeps its place, the rest give way


@pytest.mark.spec("Q-04")
def test_merge_puts_exact_hits_after_the_best_other_one_even_when_they_outnumber_max_results():
    memory = [hit(f"k{i}", 10.0 - i, source=SourceType.MEMORY) for i in range(6)]
    messages = [hit(f"e{i}", 1.0, exact=True) for i in range(4)]
    assert ids(merge([memory, messages], NOW, 3)) == ["k0", "e0", "e1"]


hits_drawn = st.lists(st.builds(
    lambda n, raw, exact, source, days, words: UnifiedSearchResult(
        f"h{n}", source, " ".join(words), None, None, None, raw, 0.0, NOW - days * DAY, exact=exact),
    st.integers(0, 10_000), st.floats(0.0, 10.0), st.booleans(), st.sampled_from(list(SourceType)), st.integers(0, 900),
    st.lists(st.sampled_from(["sushi", "tokyo", "ramen", "deploy", "parser", "notes"]), min_size=1, max_size=4),
), max_size=30, unique_by=lambda result: (result.id, result.source_type))


@pytest.mark.spec("Q-04")
@settings(max_examples=300, deadline=None)
@given(hits_drawn)
def test_a_shorter_answer_is_the_start_of_a_longer_one_and_exact_hits_that_fit_are_all_there(drawn):
    by_source = [[hit for hit in drawn if hit.source_type is source] for source in SourceType]
    answers = [ids(merge(by_source, NOW, k)) for k in range(1, 52)]
    assert all(shorter == longer[:len(shorter)] for shorter, longer in pairwise(answers))
    whole = merge(by_source, NOW, 51)
    exact = [hit for hit in whole if hit.exact]
    for k in range(len(exact) + 1, 51):
        assert {hit.id for hit in exact} <= set(answers[k - 1])


@pytest.mark.spec("Q-04")
def test_an_exact_hit_that_nearly_duplicates_a_kept_result_is_not_forced_in():
    text = "Sakura Sushi is a restaurant two minutes from the Hachiko exit"
    memory = [hit("k0", 9.0, source=SourceType.MEMORY, text=text), hit("k1", 8.0, source=SourceType.MEMORY)]
    messages = [hit("dup", 1.0, exact=True, text=text + " gate"), hit("e", 0.5, exact=True)]
    assert ids(merge([memory, messages], NOW, 2)) == ["k0", "e"]


@pytest.mark.spec("Q-04")
def test_exact_hits_that_rank_in_anyway_change_nothing():
    messages = [hit("e", 5.0, exact=True), hit("k", 1.0)]
    assert ids(merge([messages], NOW, 1)) == ["e"]


def dao_search(*contents, query):
    hits = [message_hit(f"m{i}", text, f"2026-02-0{i + 1}T10:00") for i, text in enumerate(contents)]
    found = LiteralMessageSearch(FakeMessageDao(hits)).search(HistoryQuery.parse(query), 0, NO_UPPER_BOUND, 50)
    return {item.hit.id: item.evidence for item in found}


@pytest.mark.spec("Q-04", "P-17")
def test_literal_message_search_returns_the_daos_hits_scored_by_how_well_they_match():
    found = dao_search("a sushi restaurant", "the restaurant had sushi", "sushi restaurant, sushi restaurant", query="Sushi Restaurant")
    assert set(found) == {"m0", "m2"}
    assert all(e.literal for e in found.values())
    assert found["m2"].phrase > found["m0"].phrase > 0  # twice as whole words against once
    assert relevance(found["m2"], RankingSettings()) > relevance(found["m0"], RankingSettings())


@pytest.mark.spec("Q-03")
def test_literal_message_search_keeps_only_hits_holding_each_quoted_phrase():
    found = dao_search('the "blue flowerpot" key', '"blue" flowerpot key', query='"blue" flowerpot key')
    assert set(found) == {"m1"}


@pytest.mark.spec("Q-02")
def test_literal_session_search_finds_a_session_by_its_title_or_its_preview():
    at = "2026-02-01T10:00"
    dao = FakeSessionDao([session_hit("in-title", "Sushi night", at, preview="see you"),
                          session_hit("in-preview", "Friday", at, preview="sushi night it is"),
                          session_hit("neither", "Ramen", at, preview="noodles")])
    found = LiteralSessionSearch(dao).search(HistoryQuery.parse("sushi night"), 0, ms("2026-03-01T00:00"), 20)
    scores = {item.hit.id: relevance(item.evidence, RankingSettings()) for item in found}
    assert set(scores) == {"in-title", "in-preview"} and min(scores.values()) > 0


def test_literal_searches_name_the_spec_scan_as_their_retriever():
    assert LiteralMessageSearch(FakeMessageDao()).retrievers == LITERAL_RETRIEVERS == ("phrase (LIKE scan)",)
    assert LiteralSessionSearch(FakeSessionDao()).retrievers == LITERAL_RETRIEVERS
