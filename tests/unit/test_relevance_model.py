"""The ranking model (domain/relevance.py) on hand-made evidence: BM25 coverage over a row's window
(the row and the turns beside it as one document, each text a whole number of times) and over its own
words alone, the whole-query tier, who is a hit, and P-17's scores of rows a scan reads.

Covers Q-01, Q-02, P-17 and MRG-1.
"""
import math

import pytest

from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import Evidence, RankingSettings, phrase_weight, relevance
from oneclaw_search.domain.text_evidence import bag_of, scanned_evidence, whole_word_occurrences
from oneclaw_search.domain.window_bm25 import (
    K1,
    B,
    Bag,
    Collection,
    Statistics,
    Window,
    WindowLayout,
    coverage,
    stored_length,
)

ROWS = Collection(rows=1000, average_length=10.0, holding={"sushi": 10, "shibuya": 100})
ALONE = WindowLayout(1, (), (), words_alone=False)  # each row its own window, once
PAIRED = WindowLayout(2, (1,), (1,), words_alone=False)  # own text twice, each turn beside it once
PLAIN = RankingSettings(window=ALONE, sharpness=1.0)


def window_coverage(window, collection, layout):
    return coverage(window, Statistics(collection), layout)


def cover(own, length=10, *, before=None, after=None, layout=ALONE, collection=ROWS):
    side = lambda counts: (Bag(counts, 10),) if counts is not None else ()  # noqa: E731
    return window_coverage(Window(Bag(own, length), side(before), side(after)), collection, layout)


def idf(term):
    held = ROWS.holding[term]
    return math.log(1 + (1000 - held + 0.5) / (held + 0.5))


@pytest.mark.spec("Q-01")
def test_a_row_holding_each_term_once_at_average_length_covers_the_query_exactly_once():
    assert cover({"sushi": 1, "shibuya": 1}) == pytest.approx(1.0)
    assert cover({}) == 0.0


@pytest.mark.spec("Q-01")
def test_a_rare_term_covers_more_of_the_query_than_a_common_one():
    assert cover({"sushi": 1}) > cover({"shibuya": 1}) > 0


def test_coverage_is_bm25_over_the_query_terms_idf_at_the_length_the_engine_keeps():
    # 43 terms are kept as 42 (tantivy's one-byte lengths, Lucene's SmallFloat)
    norm = K1 * (1 - B + B * 42 / 10)
    expected = idf("sushi") * 3 * (K1 + 1) / (3 + norm) / (idf("sushi") + idf("shibuya"))
    assert cover({"sushi": 3}, length=43) == pytest.approx(expected)
    assert [stored_length(n) for n in (10, 40, 41, 43, 57, 1000)] == [10, 40, 40, 42, 56, 984]


def test_the_window_is_one_document_its_texts_counted_as_often_as_the_layout_says():
    window = Window(Bag({"sushi": 1}, 10), (Bag({"sushi": 2}, 30),), (Bag({}, 6),))
    collection = Collection(1000, 40.0, ROWS.holding)
    length = stored_length(2 * 10 + 30 + 6)
    frequency = 2 * 1 + 2
    expected = idf("sushi") * frequency * (K1 + 1) / (frequency + K1 * (1 - B + B * length / 40)) / (idf("sushi") + idf("shibuya"))
    assert window_coverage(window, collection, PAIRED) == pytest.approx(expected)


@pytest.mark.spec("Q-01")
def test_a_word_in_the_turn_before_adds_to_the_rows_own_before_saturating():
    own_only = cover({"sushi": 1}, before={}, layout=PAIRED)
    with_before = cover({"sushi": 1}, before={"sushi": 1}, layout=PAIRED)
    other_word = cover({"sushi": 1}, before={"shibuya": 1}, layout=PAIRED)
    assert own_only < with_before < 2 * own_only  # one word in two texts is not two words
    assert other_word > own_only


def test_a_word_of_the_row_itself_counts_more_than_the_same_word_beside_it():
    assert cover({"sushi": 1, "shibuya": 1}, layout=PAIRED) > cover({"sushi": 1}, after={"shibuya": 1}, layout=PAIRED)


def test_the_turns_before_and_after_weigh_as_the_layout_says():
    windows = Collection(1000, 50.0, ROWS.holding)  # windows hold several texts: 50 terms on average
    short = lambda counts: (Bag(counts, 2),)  # noqa: E731
    before_first = WindowLayout(2, (2,), (1,))
    before = window_coverage(Window(Bag({"sushi": 1}, 10), short({"shibuya": 1})), windows, before_first)
    after = window_coverage(Window(Bag({"sushi": 1}, 10), (), short({"shibuya": 1})), windows, before_first)
    assert before > after
    wide = WindowLayout(4, (2, 1), (2, 1))
    far = Window(Bag({"sushi": 1}, 10), (Bag({}, 2), Bag({"shibuya": 1}, 2)), ())
    near = Window(Bag({"sushi": 1}, 10), (Bag({"shibuya": 1}, 2), Bag({}, 2)), ())
    assert window_coverage(near, windows, wide) > window_coverage(far, windows, wide)


@pytest.mark.spec("Q-01")
def test_a_long_turn_beside_a_row_dilutes_it_and_lends_less_than_a_short_one_saying_as_much():
    own = Bag({"sushi": 1}, 5)
    alone = window_coverage(Window(own), ROWS, PAIRED)
    beside_long_silence = window_coverage(Window(own, (Bag({}, 300),)), ROWS, PAIRED)
    short_lends = window_coverage(Window(own, (Bag({"shibuya": 1}, 8),)), ROWS, PAIRED)
    long_lends = window_coverage(Window(own, (Bag({"shibuya": 1}, 300),)), ROWS, PAIRED)
    assert beside_long_silence < alone  # a short narration after a long prompt is no longer lifted by it
    assert short_lends > long_lends


@pytest.mark.spec("Q-01")
def test_a_rows_own_words_scored_alone_keep_its_length_costing_whatever_its_neighbours():
    layout = WindowLayout(1, (1,), (1,))  # the shipped model: the window of three turns, and the own words alone
    windows, owns = Collection(1000, 60.0, ROWS.holding), Collection(1000, 20.0, ROWS.holding)
    known = Statistics(windows, owns)
    prompt = Bag({}, 20)
    short_answer = Window(Bag({"sushi": 1}, 8), (prompt,), (Bag({}, 10),))
    long_summary = Window(Bag({"sushi": 2, "shibuya": 1}, 200), (prompt,), ())
    assert coverage(short_answer, known, layout) > coverage(long_summary, known, layout)
    window_only = WindowLayout(1, (1,), (1,), words_alone=False)
    window_part = coverage(short_answer, Statistics(windows), window_only) * windows.ideal
    own_part = coverage(short_answer, known, layout) * known.ideal - window_part
    norm = K1 * (1 - B + B * 8 / 20)
    assert own_part == pytest.approx(idf("sushi") * (K1 + 1) / (1 + norm))  # bare BM25 of the row's own words


@pytest.mark.spec("Q-01")
def test_the_turns_around_a_row_raise_its_rank_but_make_no_hit_of_it():
    settings = RankingSettings(window=PAIRED)
    alone = relevance(Evidence(cover({"sushi": 1}, layout=PAIRED), True), settings)
    helped = relevance(Evidence(cover({"sushi": 1}, before={"shibuya": 1}, after={"sushi": 1}, layout=PAIRED), True), settings)
    assert helped > alone > 0
    lent_only = cover({}, before={"sushi": 2, "shibuya": 2}, after={"sushi": 1}, layout=PAIRED)
    assert lent_only > 0 and relevance(Evidence(lent_only, holds_term=False), settings) == 0.0


@pytest.mark.spec("Q-02")
def test_a_row_holding_the_whole_query_outranks_any_row_that_does_not():
    settings = RankingSettings()
    weakest_whole = relevance(Evidence(0.0, False, literal=True), settings)
    strongest_other = relevance(Evidence(cover({"sushi": 50, "shibuya": 50}, length=1), True), settings)
    assert weakest_whole > strongest_other > 0


def test_a_message_sharing_only_a_common_word_is_a_hit_ranked_low():
    common, rare = cover({"shibuya": 1}), cover({"sushi": 1})
    assert 0 < relevance(Evidence(common, True), RankingSettings()) < relevance(Evidence(rare, True), RankingSettings())


@pytest.mark.spec("Q-01")
def test_a_session_is_a_hit_only_when_its_title_holds_every_term_the_whole_query_or_a_quoted_phrase():
    settings = RankingSettings()
    assert relevance(Evidence(0.9, True, holds_all=True), settings, session=True) > 0
    assert relevance(Evidence(0.9, True), settings, session=True) == 0.0  # a title sharing a word, no more
    assert relevance(Evidence(0.0, False, literal=True), settings, session=True) > 0
    assert relevance(Evidence(0.05, False, quoted=True), settings, session=True) > 0
    assert relevance(Evidence(0.9, True), settings) > 0  # a message sharing a word is a hit


def test_quoted_phrases_and_every_term_are_read_from_text():
    query = HistoryQuery.parse('"blue flowerpot" key', stem)
    title, preview = "Spare key", "The key is under the blue flowerpot by the door."
    [held] = scanned_evidence(query, [f"{title} {preview}"])
    assert held.quoted and held.holds_all
    [unquoted] = scanned_evidence(HistoryQuery.parse("blue flowerpot key", stem), [f"{title} {preview}"])
    assert not unquoted.quoted and unquoted.holds_all
    [partly] = scanned_evidence(HistoryQuery.parse("blue flowerpot doormat", stem), [f"{title} {preview}"])
    assert not partly.holds_all and partly.holds_term
    [inside_a_word] = scanned_evidence(HistoryQuery.parse('"log" error', stem), ["a catalog error"])
    assert not inside_a_word.quoted  # a quoted phrase counts as whole words, as the index finds it


def test_relevance_is_the_tier_plus_evidence_over_its_most_raised_to_the_sharpness():
    settings = RankingSettings(sharpness=3.0)
    most = 2 * (K1 + 1)
    assert relevance(Evidence(1.0, True), settings) == pytest.approx((1.0 / most / 2) ** 3)
    once = phrase_weight(1, 10, 10.0)  # the phrase once at average length: one more term
    assert once == pytest.approx(1.0)
    assert relevance(Evidence(1.0, True, literal=True, phrase=once), settings) == pytest.approx(((1 + 2.0 / most) / 2) ** 3)
    assert relevance(Evidence(99.0, True), settings) == pytest.approx((1 / 2) ** 3)  # evidence past its most counts as its most


def test_a_layout_is_named_by_one_word_and_read_back_from_it():
    for layout in (PAIRED, ALONE, WindowLayout(4, (2, 1), (1,), False), WindowLayout(3, (), (1,), False)):
        assert WindowLayout.from_token(layout.token, words_alone=False) == layout
    assert PAIRED.token == "2-1-1" and ALONE.token == "1-0-0" and WindowLayout(4, (2, 1), (2, 1)).reach == 2


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
