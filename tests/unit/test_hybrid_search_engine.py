"""HybridSearchEngine over an in-memory memory index: rank-bm25 scoring, vector blending, decay,
filtering before the top-k cut and the search deadline."""
from __future__ import annotations

import math
from datetime import date, timedelta

import numpy as np
import pytest
from builders import TOKYO, chunk, ms
from fakes import FakeMemoryIndexDao, FixedClock, KeywordEmbedder
from rank_bm25 import BM25Okapi

from oneclaw_search.data.embedding.vectors import encode_embedding
from oneclaw_search.data.memory.hybrid_search_engine import MIN_VECTOR_SIMILARITY as FLOOR
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.data.memory.memory_bm25 import MemoryBM25
from oneclaw_search.domain.clock import Deadline, SearchTimedOut
from oneclaw_search.domain.ports import MemoryFilter

NOW = "2026-03-01T12:00"  # the shared clock fixture's moment, in Tokyo
TODAY = date.fromisoformat(NOW[:10])
EMBEDDER = KeywordEmbedder(["sushi", "ramen"])


def engine(*chunks, embedder=None, vector_space=None, clock=None):
    dao = FakeMemoryIndexDao(list(chunks))
    return HybridSearchEngine(dao, clock or FixedClock(ms(NOW)), TOKYO, embedder, vector_space)


def by_id(results):
    return {result.chunk.id: result for result in results}


def vec(*values):
    return encode_embedding(values)


class OneClawOkapi(BM25Okapi):
    """rank-bm25's Okapi, scanning every document as rank-bm25 does, with BM25Scorer.kt's IDF."""

    def _calc_idf(self, nd):
        for word, freq in nd.items():
            self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


CORPUS = [["sushi", "rice", "sushi"], ["sushi", "soup", "bowl", "noodle"], ["ramen"], ["rice", "bowl"],
          ["sushi", "ramen", "bowl", "rice", "rice", "tea"], ["tea"]]


@pytest.mark.spec("AC-06", "BR-08")
@pytest.mark.parametrize("query", [["sushi"], ["rice", "bowl"], ["tea", "sushi", "ramen"], ["absent"], ["bowl", "bowl"]])
def test_memory_bm25_scores_as_rank_bm25s_okapi_with_k1_1_2_and_b_0_75_from_postings_and_from_a_snapshot(query):
    expected = OneClawOkapi(CORPUS, k1=1.2, b=0.75).get_scores(query)
    ours = MemoryBM25(CORPUS)
    restored = MemoryBM25.from_postings(ours.terms, ours.offsets, ours.rows, ours.counts, np.asarray(ours.doc_len, float))
    assert list(ours.get_scores(query)) == pytest.approx(list(expected), rel=1e-12, abs=1e-12)
    assert list(restored.get_scores(query)) == pytest.approx(list(expected), rel=1e-12, abs=1e-12)


@pytest.mark.spec("AC-06")
def test_the_engine_ranks_memory_by_that_model(mocker):
    spy = mocker.spy(MemoryBM25, "get_scores")
    results = engine(chunk("a", "sushi tonight"), chunk("b", "ramen later"), chunk("c", "sushi sushi")).search("sushi")
    assert spy.call_count == 1
    assert [result.chunk.id for result in results] == ["c", "a"]


@pytest.mark.spec("BR-08")
def test_bm25_scores_match_a_hand_computation_with_the_non_negative_idf():
    texts = {"c1": "sushi sushi rice", "c2": "sushi soup bowl noodle", "c3": "ramen"}
    avgdl, n = 8 / 3, 3

    def term(tf, dl, df):
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        return idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * dl / avgdl))

    raw = {"c1": term(2, 3, 2) + term(1, 3, 1), "c2": term(1, 4, 2)}  # (tf, chunk length, df) per query word
    results = by_id(engine(*(chunk(k, t) for k, t in texts.items())).search("sushi rice"))
    assert set(results) == {"c1", "c2"}
    assert results["c1"].bm25_score == pytest.approx(1.0)
    assert results["c2"].bm25_score == pytest.approx(raw["c2"] / raw["c1"], rel=1e-9)


def test_a_word_present_in_every_chunk_still_scores_positively():
    results = engine(chunk("a", "apple one"), chunk("b", "apple two"), chunk("c", "apple three")).search("apple")
    assert sorted(result.chunk.id for result in results) == ["a", "b", "c"]
    assert all(result.bm25_score > 0 and result.score > 0 for result in results)


def test_without_an_embedder_relevance_is_the_normalised_bm25_alone():
    results = engine(chunk("a", "sushi sushi"), chunk("b", "sushi and many other words here")).search("sushi")
    assert len(results) == 2
    assert all(r.vector_score is None and r.relevance == pytest.approx(r.bm25_score) for r in results)
    assert max(r.bm25_score for r in results) == pytest.approx(1.0)


@pytest.mark.spec("BR-08")
def test_vectors_blend_thirty_seventy_and_rows_without_vectors_use_bm25_alone():
    chunks = [
        chunk("with-vector", "sushi", embedding=vec(0.6, 0.8)),
        chunk("no-vector", "sushi"),
        chunk("meaning-only", "a quiet dinner place", embedding=vec(1.0, 0.0)),
        chunk("near-enough", "noodle shop", embedding=vec(FLOOR + 0.01, math.sqrt(1 - (FLOOR + 0.01)**2))),
        chunk("too-far", "weather report", embedding=vec(FLOOR - 0.01, math.sqrt(1 - (FLOOR - 0.01)**2))),
    ]
    results = by_id(engine(*chunks, embedder=EMBEDDER, vector_space=EMBEDDER.name).search("sushi"))
    assert set(results) == {"with-vector", "no-vector", "meaning-only", "near-enough"}
    assert results["with-vector"].relevance == pytest.approx(0.3 * 1.0 + 0.7 * 0.6, abs=1e-6)
    assert results["no-vector"].vector_score is None
    assert results["no-vector"].relevance == pytest.approx(1.0)
    assert results["meaning-only"].relevance == pytest.approx(0.7, abs=1e-6)
    assert results["near-enough"].relevance == pytest.approx(0.7 * (FLOOR + 0.01), abs=1e-6)


def test_vectors_from_another_embedder_space_are_ignored():
    chunks = [chunk("a", "sushi", embedding=vec(0.6, 0.8)), chunk("b", "quiet dinner", embedding=vec(1.0, 0.0))]
    search = engine(*chunks, embedder=EMBEDDER, vector_space="hashing-v1")
    results = search.search("sushi")
    assert [(r.chunk.id, r.vector_score, r.relevance) for r in results] == [("a", None, 1.0)]


def test_an_embedding_of_the_wrong_length_is_ignored_for_that_row():
    chunks = [chunk("bad", "sushi", embedding=vec(1.0, 0.0, 0.0)), chunk("good", "sushi", embedding=vec(1.0, 0.0))]
    results = by_id(engine(*chunks, embedder=EMBEDDER, vector_space=EMBEDDER.name).search("sushi"))
    assert results["bad"].vector_score is None and results["bad"].relevance == pytest.approx(1.0)
    assert results["good"].vector_score == pytest.approx(1.0)


@pytest.mark.spec("MRG-4", "BR-08")
def test_a_daily_log_69_days_older_decays_to_about_half():
    old_day = (TODAY - timedelta(days=69)).isoformat()
    results = by_id(engine(chunk("new", "sushi", TODAY.isoformat()), chunk("old", "sushi", old_day)).search("sushi"))
    assert results["old"].relevance == pytest.approx(results["new"].relevance)
    assert results["old"].decay == pytest.approx(0.5, abs=0.01)
    assert results["new"].decay > 0.99
    assert all(r.score == pytest.approx(r.relevance * r.decay) for r in results.values())


@pytest.mark.spec("MRG-4")
def test_undated_memory_decays_by_its_updated_at():
    [result] = engine(chunk("stale", "sushi", written="2026-01-30T12:00")).search("sushi")
    assert result.decay == pytest.approx(math.exp(-0.3))


@pytest.mark.spec("SCOPE-3")
def test_the_filter_is_applied_before_the_top_k_cut():
    strong = [chunk(f"lt-{i}", "sushi sushi sushi", source_type="long_term") for i in range(10)]
    weak = chunk("log", "had sushi after a long walk through the old town", TODAY.isoformat())
    search = engine(*strong, weak)
    assert "log" not in by_id(search.search("sushi", top_k=3))
    results = search.search("sushi", top_k=3, chunk_filter=MemoryFilter(frozenset({"daily_log"})))
    assert [result.chunk.id for result in results] == ["log"]


@pytest.mark.spec("P-07")
def test_day_bounds_are_inclusive_and_exclude_undated_chunks():
    days = ["2026-02-20", "2026-02-21", "2026-02-22", "2026-02-23"]
    search = engine(*(chunk(day, "sushi", day) for day in days), chunk("undated", "sushi"))
    bounded = MemoryFilter(day_from=date(2026, 2, 21), day_to=date(2026, 2, 22))
    assert set(by_id(search.search("sushi", top_k=10, chunk_filter=bounded))) == {"2026-02-21", "2026-02-22"}
    assert "undated" in by_id(search.search("sushi", top_k=10, chunk_filter=MemoryFilter()))


@pytest.mark.spec("EDGE-09")
def test_an_empty_index_or_a_query_without_word_characters_returns_no_results():
    assert engine().search("sushi") == []
    assert engine(chunk("a", "100% sushi"), chunk("b", "%%% ramen")).search("%%%") == []


def test_results_are_positive_sorted_by_score_and_cut_to_top_k():
    texts = ["sushi", "sushi and ramen", "sushi with a very long tail of words", "ramen only", "sushi sushi"]
    search = engine(*(chunk(f"c{i}", text) for i, text in enumerate(texts)))
    results = search.search("sushi", top_k=3)
    assert len(results) == 3 and len(search.search("sushi", top_k=10)) == 4
    assert all(result.score > 0 for result in results)
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)


def test_an_expired_deadline_stops_the_search():
    clock = FixedClock(ms(NOW), frozen_monotonic=100.0)
    with pytest.raises(SearchTimedOut):
        engine(chunk("a", "sushi"), clock=clock).search("sushi", deadline=Deadline(clock, expires_at=99.0))


def test_best_first_ranks_a_prefix_exactly_as_a_full_stable_sort_then_everything():
    import numpy as np

    from oneclaw_search.data.memory.hybrid_search_engine import _best_first

    rng = np.random.default_rng(3)
    for _ in range(50):
        score = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=300)  # many ties, some zeros
        full = [row for row in np.argsort(-score, kind="stable") if score[row] > 0]
        passes = [list(rows) for rows in _best_first(score, top_k=5)]
        assert passes[-1] == full  # the last pass is every positive row
        assert all(rows == full[:len(rows)] and len(rows) >= 20 for rows in passes[:-1])


def test_spelling_look_ups_read_the_model_the_last_search_built_not_a_new_one_each(mocker):
    from oneclaw_search.data.memory.memory_snapshot import MemorySnapshot

    memory = engine(chunk("a", "the garden party", "2026-02-20"), chunk("b", "garden tools", "2026-02-21"))
    assert set(by_id(memory.search("garden"))) == {"a", "b"}
    built = mocker.spy(MemorySnapshot, "build")
    assert "garden" in memory.spellings_near("gardn") and built.call_count == 0


@pytest.mark.spec("BR-08")
def test_each_results_decay_is_the_age_in_days_decayed_to_the_last_bit():
    results = engine(chunk("a", "sushi", written="2025-12-25T08:00")).search("sushi")
    age_days = (ms("2026-03-01T12:00") - ms("2025-12-25T08:00")) / 86_400_000
    assert results[0].decay == math.exp(-0.01 * age_days)
    assert results[0].score == results[0].relevance * results[0].decay


@pytest.mark.spec("AC-06")
def test_a_query_of_no_known_token_is_ranked_by_its_words_and_vectors_count_for_nothing():
    memory = engine(chunk("a", "sushi tonight", embedding=vec(1.0, 0.0)), chunk("b", "tea later", embedding=vec(0.0, 1.0)),
                    embedder=EMBEDDER, vector_space=EMBEDDER.name)
    results = memory.search("tonight")  # neither keyword of the embedder: a query vector of zeros
    assert [result.chunk.id for result in results] == ["a"]
    assert results[0].vector_score == 0.0 and results[0].relevance == pytest.approx(0.3)
