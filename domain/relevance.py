"""The ranking model: how one candidate row's raw features become its relevance within its source
(MRG-1, P-17, Q-01, Q-02), the same for every backend. docs/how-search-works.md states it.

A row is scored by BM25 over its window and over its own words (window_bm25.py), read over what a row
holding each query term once scores (its coverage), plus the query itself standing in it as whole
words. A row holding the whole query as written stands in a tier above the rest. A message is a hit
when its own words hold a query term; a session, whose title is a handful of words, when its title
holds every term. Every constant but BM25's own is in RankingSettings, chosen by cross-validation over
every kind of history this repository holds (docs/performance.md).
"""
from __future__ import annotations

from dataclasses import dataclass

from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, K1, WindowLayout, length_norm

_MOST = 2 * (K1 + 1)  # the most a coverage and the phrase add up to, however often terms stand


def phrase_weight(occurrences: int, own_words: int, average_words: float) -> float:
    """The whole query standing in the row as whole words, as one more term: saturated like BM25's
    terms over the row's own length, at idf 1 (a phrase has no document frequency of its own). It tells a
    whole-word match from one at a word's edge or inside a word (P-17), which stemming and the spec's
    substring test both take alike. Lengths are counted in words between spaces, against the average
    of the rows scored with it: a measure every backend reads alike from the rows' text."""
    if occurrences <= 0:
        return 0.0
    return occurrences * (K1 + 1) / (occurrences + length_norm(own_words, average_words))


@dataclass(frozen=True, slots=True)
class Evidence:
    """One candidate row's raw features as a backend measured them: its coverage (its BM25 over the
    ideal), whether its own words hold a query term, whether they hold every one (`holds_all`), whether
    it holds the whole query as written (`literal`: the spec's LIKE test), the weight of the query
    standing in it as whole words, and whether it holds every phrase the query quotes (`quoted`)."""

    coverage: float
    holds_term: bool
    literal: bool = False
    phrase: float = 0.0
    quoted: bool = False
    holds_all: bool = False


@dataclass(frozen=True, slots=True)
class RankingSettings:
    """The model's parts and constants, each chosen by cross-validation over LoCoMo dev's conversations
    and two sets of queries over coding-agent transcripts, each fold left out in turn, by the worst
    (set, kind of query) figure (tests/benchmarks/bench_cross_validation.py): the window's layout
    (indexed: changing it rebuilds the index) and whether a row's own words are scored alone too; and
    the power relevance is raised to before the merge (a strong match from months ago still beats a
    weak one from yesterday, while equal matches favour the newer)."""

    window: WindowLayout = DEFAULT_WINDOW
    sharpness: float = 48.0


def relevance(evidence: Evidence, settings: RankingSettings, session: bool = False) -> float:
    """The row's raw score within its source, 0 when it is no hit. Whole-query rows fill the upper
    half of the scale and the others the lower (Q-02); within each, coverage and the phrase, linearly
    over their most, then raised to `sharpness`. A session's words are its title's, a few, so a title sharing one common
    word with the query says little; a session holding every term, the whole query or every quoted
    phrase is a hit, and any other is not."""
    if not evidence.literal:
        held = evidence.holds_all or evidence.quoted if session else evidence.holds_term
        if not held:
            return 0.0
    score = min(evidence.coverage + evidence.phrase, _MOST)
    return float(((evidence.literal + score / _MOST) / 2) ** settings.sharpness)
