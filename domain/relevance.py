"""The ranking model: how one candidate row's raw features become its relevance within its source
(MRG-1, P-17, Q-01, Q-02), the same for every backend. docs/how-search-works.md states it.

A row is scored by BM25 over its window (window_bm25.py), read over what a row holding each query term
once scores (its coverage), plus the query itself standing in it as whole words. A row holding the
whole query as written stands in a tier above the rest. Only rows holding one of the query's terms
themselves (or the whole query) are hits. Every constant but BM25's own is in RankingSettings, chosen
by cross-validation over two kinds of history (docs/performance.md).
"""
from __future__ import annotations

from dataclasses import dataclass

from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, K1, B, WindowLayout

_MOST = 2 * (K1 + 1)  # the most a coverage and the phrase add up to, however often terms stand


def phrase_weight(occurrences: int, own_words: int, average_words: float) -> float:
    """The whole query standing in the row as whole words, as one more term: saturated like BM25's
    terms over the row's own length, at idf 1 (a phrase has no document frequency of its own). Lengths
    are counted in words between spaces, against the average of the rows scored with it: a measure
    every backend reads alike from the rows' text."""
    if occurrences <= 0:
        return 0.0
    norm = K1 * (1 - B + B * own_words / average_words) if average_words > 0 else K1
    return occurrences * (K1 + 1) / (occurrences + norm)


@dataclass(frozen=True, slots=True)
class Evidence:
    """One candidate row's raw features as a backend measured them: its coverage (window BM25 over the
    ideal), whether its own words hold a query term, whether it holds the whole query as written
    (`literal`: the spec's LIKE test), the weight of the query standing in it as whole words, and
    whether the query quotes a phrase the row holds (`quoted`)."""

    coverage: float
    holds_term: bool
    literal: bool = False
    phrase: float = 0.0
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class RankingSettings:
    """The model's parts and constants, each chosen by cross-validation over LoCoMo dev's conversations
    and the coding-agent set's transcripts, each fold left out in turn
    (tests/benchmarks/bench_cross_validation.py): the window's layout (indexed: changing it rebuilds the
    index); the power relevance is raised to before the merge (a strong match from months ago still beats
    a weak one from yesterday, while equal matches favour the newer); and the coverage a keyword hit
    needs (a row sharing only words that are everywhere is no hit)."""

    window: WindowLayout = DEFAULT_WINDOW
    sharpness: float = 48.0
    min_coverage: float = 0.2
    # A session result in a JSON reply shown with the turn of its session that matches the query best.
    session_turns: bool = True


def relevance(evidence: Evidence, settings: RankingSettings) -> float:
    """The row's raw score within its source, 0 when it is no hit. Whole-query rows fill the upper
    half of the scale and the others the lower (Q-02); within each, coverage and the phrase, linearly
    over their most, then raised to `sharpness`. The coverage floor keeps out rows sharing only words
    found everywhere; a row holding a phrase the query quotes holds what the user asked for by name,
    and needs no floor (a session is ranked by its title, while the phrase may stand in its preview)."""
    score = evidence.coverage
    if not evidence.literal and (not evidence.holds_term or (score < settings.min_coverage and not evidence.quoted)):
        return 0.0
    score += evidence.phrase
    return float(((evidence.literal + min(score, _MOST) / _MOST) / 2) ** settings.sharpness)

