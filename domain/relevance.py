"""The ranking model: how one candidate row's raw features become its relevance within its source
(MRG-1, P-17, Q-01, Q-02), the same for every backend. docs/how-search-works.md states it.

A row is scored by BM25 over its window (its own words and the turns just before and after it in its
session, read as one weighted document), over what a row holding each query term once scores (its
coverage), plus the query itself standing in it as whole words, counted as one more term. A row
holding the whole query as written stands in a tier above the rest. Only rows holding one of the
query's terms themselves (or the whole query) are hits. Every constant but BM25's own is in
RankingSettings, chosen by cross-validation over two kinds of history, LoCoMo dev conversations and
coding-agent transcripts (docs/performance.md), where a share of meaning (static word vectors)
earned no place.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

K1, B = 1.2, 0.75  # BM25's constants, tantivy's and rank-bm25's defaults: the model's, not knobs
_MOST = 2 * (K1 + 1)  # the most a coverage and the phrase add up to, however often terms stand
# Candidates per result a source keeps that a backend's keyword search hands the model: the model
# re-ranks BM25 with the turns around each row, which lifts some from below the first few. Both
# backends read it; its five-fold figures are in docs/performance.md.
CANDIDATES_PER_RESULT = 4


@dataclass(frozen=True, slots=True)
class Bag:
    """One text as BM25 sees it: how often each query term stands in it, and its length in terms."""

    counts: Mapping[str, int]
    length: int

    def holds_any(self) -> bool:
        return any(self.counts.values())


NO_TEXT = Bag({}, 0)


@dataclass(frozen=True)
class Collection:
    """The rows a source searches, as BM25 needs them: how many, their average length in terms and how
    many hold each query term. Its terms are the query's, as the backend's analyzer made them."""

    rows: int
    average_length: float
    holding: Mapping[str, int]

    def idf(self, term: str) -> float:
        """tantivy's (and Lucene's) BM25 idf, never negative."""
        held = min(self.holding.get(term, 0), self.rows)
        return math.log(1 + (self.rows - held + 0.5) / (held + 0.5))

    @cached_property
    def idfs(self) -> dict[str, float]:
        """Each query term's idf, worked out once for every candidate the collection scores."""
        return {term: self.idf(term) for term in self.holding}

    @cached_property
    def ideal(self) -> float:
        """What a row holding each term once at average length scores: the scale coverage is read on."""
        return sum(self.idfs.values())


NOTHING_KNOWN = Collection(0, 0.0, {})


@dataclass(frozen=True, slots=True)
class Evidence:
    """One candidate row's raw features: its own words, those of the turns just before and after it
    (messages only), whether it holds the whole query as written (`literal`: the spec's LIKE test)
    and how often it holds it as whole words (`phrase`)."""

    own: Bag
    collection: Collection = field(default=NOTHING_KNOWN, repr=False)
    before: Bag = NO_TEXT
    after: Bag = NO_TEXT
    literal: bool = False
    phrase: int = 0


@dataclass(frozen=True, slots=True)
class RankingSettings:
    """The model's constants, each chosen by cross-validation over LoCoMo dev's conversations and the
    coding-agent set's transcripts, each fold left out in turn (tests/benchmarks/bench_cross_validation.py):
    the weight of each turn beside a row in its window, before it or after it alike, against 1 for its own text;
    the power relevance is raised to before the merge (so a strong match from months ago still beats a
    weak one from yesterday, while equal matches favour the newer); and the coverage a keyword hit needs
    (a row sharing only words that are everywhere is no hit)."""

    neighbour_weight: float = 0.5
    sharpness: float = 48.0
    min_coverage: float = 0.1


def coverage(evidence: Evidence, neighbour_weight: float = 0.0) -> float:
    """BM25 over the row's window: its own text and, at `neighbour_weight`, the turns beside it,
    read as one document (Robertson, Zaragoza and Taylor's simple BM25F): each text's term counts and
    its length are weighed and summed, then saturated once against the windows' average length, so a
    long turn beside a short row dilutes the row's own words as much as it lends them its own, and a
    word standing in two of the texts does not count twice. Divided by the query terms' idf: 1 is a
    row holding each term once, alone, at average length."""
    collection = evidence.collection
    own, before, after, weight = evidence.own.counts, evidence.before.counts, evidence.after.counts, neighbour_weight
    if collection.ideal <= 0 or not evidence.own.length:
        return 0.0
    # Written out rather than summed over the three texts: every candidate of every search comes here.
    average = collection.average_length * (1 + 2 * weight)
    length = 1.0 * evidence.own.length + weight * evidence.before.length + weight * evidence.after.length
    norm = (1 - B + B * length / average) if average > 0 else 1.0
    total = 0.0
    for term, idf in collection.idfs.items():
        frequency = (1.0 * own.get(term, 0) + weight * before.get(term, 0) + weight * after.get(term, 0)) / norm
        if frequency > 0:
            total += idf * frequency * (K1 + 1) / (frequency + K1)
    return total / collection.ideal


def phrase_weight(evidence: Evidence) -> float:
    """The whole query standing in the row as whole words, as one more term: saturated like BM25's
    terms over the row's own length, at idf 1 (a phrase has no document frequency of its own)."""
    if evidence.phrase <= 0:
        return 0.0
    average = evidence.collection.average_length
    norm = K1 * (1 - B + B * evidence.own.length / average) if average > 0 else K1
    return evidence.phrase * (K1 + 1) / (evidence.phrase + norm)


def relevance(evidence: Evidence, settings: RankingSettings) -> float:
    """The row's raw score within its source, 0 when it is no hit. Whole-query rows fill the upper
    half of the scale and the others the lower (Q-02); within each, coverage and the phrase, linearly
    over their most, then raised to `sharpness`."""
    score = coverage(evidence, settings.neighbour_weight)
    if not evidence.literal and (not evidence.own.holds_any() or score < settings.min_coverage):
        return 0.0
    score += phrase_weight(evidence)
    return float(((evidence.literal + min(score, _MOST) / _MOST) / 2) ** settings.sharpness)
