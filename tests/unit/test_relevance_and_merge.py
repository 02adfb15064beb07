"""The ranking rules of keyword search: one relevance score per hit, whole-query hits kept through the merge,
and the spec's own LIKE search as a ranked search (domain/ranking.py, domain/literal_search.py).

Covers Q-01, Q-02, Q-03 and Q-04 on hand-made relevances, results and fake DAOs.
"""
from itertools import pairwise

import pytest
from builders import message_hit, ms, session_hit
from fakes import FakeMessageDao, FakeSessionDao
from hypothesis import given, settings
from hypothesis import strategies as st

from oneclaw_search.domain import ranking
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import LITERAL_RETRIEVERS, LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.models import Relevance, SourceType, UnifiedSearchResult
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.ranking import merge, relevance_scores

DAY = 86_400_000
NOW = 1_000 * DAY


def hit(id, raw, *, exact=False, source=SourceType.MESSAGE, text=None):
    return UnifiedSearchResult(id, source, text or f"text of {id}", None, None, None, raw, 0.0, NOW, exact=exact)


def ids(results):
    return [result.id for result in results]


def shaped(blends):
    """Blended scores as relevance_scores reports them: in the tier below phrase hits, then sharpened."""
    below_phrases = ranking.PHRASE_TIER / (ranking.PHRASE_TIER + 1)
    return [(blend * below_phrases) ** ranking.RELEVANCE_SHARPNESS for blend in blends]


@pytest.mark.spec("Q-02")
def test_when_every_hit_holds_the_whole_query_the_phrase_scores_stand_unchanged():
    relevances = [Relevance(keyword=9.0, literal=0.4), Relevance(keyword=1.0, literal=1.7), Relevance(literal=0.2)]
    assert relevance_scores(relevances) == [0.4, 1.7, 0.2]


def test_without_keyword_or_semantic_evidence_scores_are_the_phrase_scores():
    assert relevance_scores([Relevance(literal=0.5), Relevance()]) == [0.5, 0.0]


@pytest.mark.spec("Q-02")
def test_the_best_hit_holding_the_whole_query_outranks_keyword_only_hits():
    scores = relevance_scores([Relevance(keyword=0.9), Relevance(literal=0.5), Relevance(keyword=0.3, semantic=0.9)])
    assert scores[1] > max(scores[0], scores[2])


@pytest.mark.spec("Q-01")
def test_keyword_only_hits_score_by_their_keyword_evidence():
    scores = relevance_scores([Relevance(keyword=1.0), Relevance(keyword=0.25), Relevance(literal=2.0)])
    assert scores[:2] == pytest.approx(shaped([1.0, 0.25]))


@pytest.mark.spec("Q-01")
def test_meaning_is_blended_linearly_with_keyword_evidence():
    semantic = ranking.MESSAGE_SEMANTIC_WEIGHT  # the weight messages and sessions use
    assert 0 < semantic < 1
    scores = relevance_scores([Relevance(keyword=1.0, semantic=0.5), Relevance(keyword=0.5, semantic=1.0), Relevance(semantic=0.4)])
    blend = lambda keyword, meaning: (1 - semantic) * keyword + semantic * meaning  # noqa: E731
    assert scores == pytest.approx(shaped([blend(1.0, 0.5), blend(0.5, 1.0), blend(0.0, 0.4)]))


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
    return {item.hit.id: item.relevance for item in found}


@pytest.mark.spec("Q-04")
def test_literal_message_search_returns_the_daos_hits_with_phrase_scores_only():
    found = dao_search("a sushi restaurant", "the restaurant had sushi", "sushi restaurant, sushi restaurant", query="Sushi Restaurant")
    assert set(found) == {"m0", "m2"}
    assert all(r.keyword == 0 and r.semantic is None and r.literal > 0 for r in found.values())
    assert found["m2"].literal > found["m0"].literal


@pytest.mark.spec("Q-03")
def test_literal_message_search_keeps_only_hits_holding_each_quoted_phrase():
    found = dao_search('the "blue flowerpot" key', '"blue" flowerpot key', query='"blue" flowerpot key')
    assert set(found) == {"m1"}


@pytest.mark.spec("Q-02")
def test_literal_session_search_weighs_a_title_above_a_preview():
    at = "2026-02-01T10:00"
    dao = FakeSessionDao([session_hit("in-title", "Sushi night", at, preview="see you"),
                          session_hit("in-preview", "Friday", at, preview="sushi night it is"),
                          session_hit("neither", "Ramen", at, preview="noodles")])
    found = LiteralSessionSearch(dao).search(HistoryQuery.parse("sushi night"), 0, ms("2026-03-01T00:00"), 20)
    scores = {item.hit.id: item.relevance.literal for item in found}
    assert set(scores) == {"in-title", "in-preview"} and scores["in-title"] > scores["in-preview"] > 0


def test_literal_searches_name_the_spec_scan_as_their_retriever():
    assert LiteralMessageSearch(FakeMessageDao()).retrievers == LITERAL_RETRIEVERS == ("phrase (LIKE scan)",)
    assert LiteralSessionSearch(FakeSessionDao()).retrievers == LITERAL_RETRIEVERS
