"""The ranking model (domain/relevance.py) on hand-made evidence: BM25 coverage over a row's window
(the row and the turns beside it as one document), the whole-query tier, who is a hit, and P-17's
phrase scores read from text.

Covers Q-01, Q-02, P-17 and MRG-1.
"""
import math

import pytest

from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import K1, B, Bag, Collection, Evidence, RankingSettings, coverage, relevance
from oneclaw_search.domain.text_evidence import bag_of, scanned_evidence, whole_word_occurrences

ROWS = Collection(rows=1000, average_length=10.0, holding={"sushi": 10, "shibuya": 100})
PLAIN = RankingSettings(neighbour_weight=0.0, sharpness=1.0, min_coverage=0.0)


def evidence(own, length=10, *, before=None, after=None, literal=False, phrase=0, collection=ROWS):
    bag = lambda counts, size=10: Bag(counts, size) if counts is not None else Bag({}, 0)  # noqa: E731
    return Evidence(Bag(own, length), collection, bag(before), bag(after), literal, phrase)


@pytest.mark.spec("Q-01")
def test_a_row_holding_each_term_once_at_average_length_covers_the_query_exactly_once():
    assert coverage(evidence({"sushi": 1, "shibuya": 1})) == pytest.approx(1.0)
    assert coverage(evidence({})) == 0.0


@pytest.mark.spec("Q-01")
def test_a_rare_term_covers_more_of_the_query_than_a_common_one():
    assert coverage(evidence({"sushi": 1})) > coverage(evidence({"shibuya": 1})) > 0


def test_coverage_is_bm25_over_the_query_terms_idf():
    idf = {term: math.log(1 + (1000 - n + 0.5) / (n + 0.5)) for term, n in ROWS.holding.items()}
    norm = K1 * (1 - B + B * 20 / 10)
    expected = idf["sushi"] * 3 * (K1 + 1) / (3 + norm) / sum(idf.values())
    assert coverage(evidence({"sushi": 3}, length=20)) == pytest.approx(expected)


@pytest.mark.spec("Q-01")
def test_a_word_in_the_turn_before_adds_to_the_rows_own_before_saturating():
    own_only = coverage(evidence({"sushi": 1}, before={}), 1.0)
    with_before = coverage(evidence({"sushi": 1}, before={"sushi": 1}), 1.0)
    other_word = coverage(evidence({"sushi": 1}, before={"shibuya": 1}), 1.0)
    assert own_only < with_before < 2 * own_only  # one word in two texts is not two words
    assert other_word > own_only


def test_the_window_is_one_document_its_counts_and_lengths_weighed_and_saturated_once():
    idf = {term: math.log(1 + (1000 - n + 0.5) / (n + 0.5)) for term, n in ROWS.holding.items()}
    window = Evidence(Bag({"sushi": 1}, 10), ROWS, Bag({"sushi": 2}, 30), Bag({}, 6))
    length, average = 10 + 0.5 * 30 + 0.5 * 6, 10 * (1 + 0.5 + 0.5)
    frequency = (1 + 0.5 * 2) / (1 - B + B * length / average)
    expected = idf["sushi"] * frequency * (K1 + 1) / (frequency + K1) / sum(idf.values())
    assert coverage(window, 0.5) == pytest.approx(expected)


@pytest.mark.spec("Q-01")
def test_a_long_turn_beside_a_row_dilutes_it_and_lends_less_than_a_short_one_saying_as_much():
    own = Bag({"sushi": 1}, 5)
    alone = coverage(Evidence(own, ROWS), 1.0)
    beside_long_silence = coverage(Evidence(own, ROWS, Bag({}, 300)), 1.0)
    short_lends = coverage(Evidence(own, ROWS, Bag({"shibuya": 1}, 8)), 1.0)
    long_lends = coverage(Evidence(own, ROWS, Bag({"shibuya": 1}, 300)), 1.0)
    assert beside_long_silence < alone  # a short narration after a long prompt is no longer lifted by it
    assert short_lends > long_lends


@pytest.mark.spec("Q-01")
def test_the_turns_around_a_row_raise_its_rank_but_make_no_hit_of_it():
    settings = RankingSettings(neighbour_weight=1.0, min_coverage=0.0)
    alone = relevance(evidence({"sushi": 1}), settings)
    helped = relevance(evidence({"sushi": 1}, before={"shibuya": 1}, after={"sushi": 1}), settings)
    assert helped > alone > 0
    assert relevance(evidence({}, before={"sushi": 2, "shibuya": 2}, after={"sushi": 1}), settings) == 0.0


@pytest.mark.spec("Q-02")
def test_a_row_holding_the_whole_query_outranks_any_row_that_does_not():
    settings = RankingSettings()
    weakest_whole = relevance(evidence({}, length=200, literal=True), settings)
    strongest_other = relevance(evidence({"sushi": 50, "shibuya": 50}, length=1, phrase=0), settings)
    assert weakest_whole > strongest_other > 0


def test_a_row_sharing_only_a_common_word_falls_below_the_floor():
    common = evidence({"shibuya": 1})
    assert 0 < coverage(common) < 0.5
    assert relevance(common, RankingSettings(min_coverage=0.5)) == 0.0
    assert relevance(common, RankingSettings(min_coverage=0.0)) > 0
    assert relevance(evidence({}, literal=True), RankingSettings(min_coverage=0.5)) > 0  # the whole query always counts


def test_relevance_is_the_tier_plus_evidence_over_its_most_raised_to_the_sharpness():
    settings = RankingSettings(neighbour_weight=0.0, sharpness=3.0, min_coverage=0.0)
    found = evidence({"sushi": 1, "shibuya": 1})
    most = 2 * (K1 + 1)
    assert relevance(found, settings) == pytest.approx((1.0 / most / 2) ** 3)
    whole = Evidence(found.own, ROWS, literal=True, phrase=1)  # the phrase once at average length: one more term
    assert relevance(whole, settings) == pytest.approx(((1 + 2.0 / most) / 2) ** 3)


def score_of(query, *texts):
    """Scores as a scan without an index gives them, words stemmed as the search stems them."""
    return [relevance(found, PLAIN) for found in scanned_evidence(HistoryQuery.parse(query, stem), list(texts))]


@pytest.mark.spec("P-17")
def test_a_whole_word_match_beats_a_word_edge_which_beats_a_match_inside_a_word():
    exact, plural, inside = score_of("restaurant", "we booked the restaurant today", "we viewed the restaurants today",
                                     "we found the prerestaurantx today")
    assert exact > plural > inside > 0


@pytest.mark.spec("P-17")
def test_more_occurrences_score_higher_but_saturate():
    one, two, three = score_of("sushi", "sushi and rice and tea", "sushi and sushi and tea", "sushi sushi sushi and tea")
    assert one < two < three and (three - two) < (two - one)


@pytest.mark.spec("P-17")
def test_a_short_focused_text_beats_a_long_one_with_the_same_match():
    short, long = score_of("sushi", "sushi tonight", "sushi " + "word " * 60)
    assert short > long


def test_the_query_stands_whole_only_between_word_boundaries():
    assert whole_word_occurrences("the sushi bar, sushi!", "sushi") == 2
    assert whole_word_occurrences("sushis and mysushi", "sushi") == 0
    assert whole_word_occurrences("c++ code in c++", "c++") == 2


def test_a_texts_terms_are_counted_against_the_querys():
    assert bag_of(["sushi", "bar", "sushi"], ["sushi", "ramen"]) == Bag({"sushi": 2}, 3)
