"""The spec's merge, rule by rule: normalisation, weights, decay, de-duplication, ranking.

Covers MRG-2..MRG-6, AC-09, FT-10, FT-11 and EDGE-12 on hand-made results (each source's own
scores, MRG-1 and P-17, are in test_relevance_model.py).
"""
import math
from itertools import pairwise

import pytest

from oneclaw_search.domain.models import SourceType, UnifiedSearchResult
from oneclaw_search.domain.ranking import (
    deduplicate,
    jaccard,
    merge,
    time_decay,
)

DAY = 86_400_000
NOW = 1_000 * DAY


def hit(id, source, raw, *, age_days=0.0, text=None):
    return UnifiedSearchResult(id, source, text or id, None, None, None, raw, 0.0, int(NOW - age_days * DAY))


@pytest.mark.spec("MRG-4")
def test_decay_halves_in_about_sixty_nine_days_and_never_exceeds_one():
    assert time_decay(0) == 1.0
    assert time_decay(int(69.3147 * DAY)) == pytest.approx(0.5, abs=1e-4)
    assert time_decay(-5 * DAY) == 1.0
    assert time_decay(10 * DAY) == pytest.approx(math.exp(-0.1))


@pytest.mark.spec("MRG-2", "MRG-3", "AC-09", "FT-11")
def test_the_best_hit_of_each_source_scores_its_source_weight():
    merged = merge([[hit("m1", SourceType.MEMORY, 4.0), hit("m2", SourceType.MEMORY, 2.0)],
                    [hit("msg", SourceType.MESSAGE, 0.3)],
                    [hit("s", SourceType.SESSION, 123.0)]], NOW, 10)
    scores = {result.id: result.final_score for result in merged}
    assert scores == pytest.approx({"m1": 1.0, "m2": 0.5, "msg": 0.6, "s": 0.5})


@pytest.mark.spec("MRG-1", "MRG-2")
def test_each_source_is_normalised_by_its_own_maximum_whatever_its_range():
    small = merge([[hit("a", SourceType.MESSAGE, 0.002), hit("b", SourceType.MESSAGE, 0.001)]], NOW, 10)
    large = merge([[hit("a", SourceType.MESSAGE, 2000.0), hit("b", SourceType.MESSAGE, 1000.0)]], NOW, 10)
    assert [r.final_score for r in small] == pytest.approx([0.6, 0.3])
    assert [r.final_score for r in large] == pytest.approx([0.6, 0.3])


@pytest.mark.spec("MRG-4")
def test_decay_uses_each_hits_own_date():
    merged = merge([[hit("new", SourceType.DAILY_LOG, 1.0), hit("old", SourceType.DAILY_LOG, 1.0, age_days=69.3147)]], NOW, 10)
    assert {r.id: r.final_score for r in merged} == pytest.approx({"new": 1.0, "old": 0.5}, abs=1e-4)


@pytest.mark.spec("MRG-6", "FT-10")
def test_results_are_sorted_by_final_score_descending_and_cut():
    hits = [hit(f"h{i}", SourceType.MESSAGE, float(i), text=f"text number {i}") for i in range(1, 8)]
    merged = merge([hits], NOW, 3)
    assert [r.id for r in merged] == ["h7", "h6", "h5"]
    assert all(a.final_score >= b.final_score for a, b in pairwise(merged))


def test_zero_scores_are_dropped():
    assert merge([[hit("a", SourceType.MESSAGE, 0.0)]], NOW, 10) == []


@pytest.mark.spec("MRG-5", "EDGE-12")
def test_near_duplicates_across_sources_keep_the_higher_score():
    text = "User wants to try Sakura Sushi near Shibuya station tonight"
    merged = merge([[hit("daily", SourceType.DAILY_LOG, 1.0, text=text)],
                    [hit("msg", SourceType.MESSAGE, 1.0, text=text + " please")]], NOW, 10)
    assert [r.id for r in merged] == ["daily"]


@pytest.mark.spec("MRG-5")
def test_overlap_must_exceed_eighty_percent_to_count_as_a_duplicate():
    four_of_five = [hit("a", SourceType.MESSAGE, 2.0, text="a b c d"), hit("b", SourceType.MESSAGE, 1.0, text="a b c d e")]
    assert jaccard(frozenset("abcd"), frozenset("abcde")) == 0.8
    assert [r.id for r in deduplicate(four_of_five, 10)] == ["a", "b"]
    five_of_six = [hit("a", SourceType.MESSAGE, 2.0, text="a b c d e"), hit("b", SourceType.MESSAGE, 1.0, text="a b c d e f")]
    assert [r.id for r in deduplicate(five_of_six, 10)] == ["a"]


def test_dedup_compares_case_folded_words():
    pair = [hit("a", SourceType.MESSAGE, 2.0, text="Sakura SUSHI tonight"), hit("b", SourceType.MESSAGE, 1.0, text="sakura sushi Tonight")]
    assert [r.id for r in deduplicate(pair, 10)] == ["a"]


@pytest.mark.spec("MRG-5", "MRG-6")
def test_merge_renders_only_the_hits_its_ranking_reaches_and_dedups_their_rendered_text():
    drafts = [hit(f"m{n}", SourceType.MESSAGE, 100.0 - n, text="") for n in range(20)]
    texts = {"m0": "sushi in tokyo", "m1": "Sushi in Tokyo", "m2": "ramen in osaka", "m3": "udon"}
    rendered = []

    def render(draft):
        rendered.append(draft.id)
        return UnifiedSearchResult(draft.id, draft.source_type, texts.get(draft.id, draft.id), None, None, None,
                                   draft.raw_score, draft.final_score, draft.created_at)
    merged = merge([drafts], NOW, 3, render)
    # m1 folds to m0's words: dropped as a duplicate, so m3 is rendered to fill the third place.
    assert [(h.id, h.text) for h in merged] == [("m0", "sushi in tokyo"), ("m2", "ramen in osaka"), ("m3", "udon")]
    assert rendered == ["m0", "m1", "m2", "m3"]
