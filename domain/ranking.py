"""The ranking rules of the spec's merge: per-source relevance, normalisation, weights, decay, dedup.

Mirrors the scoring half of SearchHistoryUseCase.kt and TimeDecayCalculator.kt, but follows the
spec (merge steps 1-6) where the Kotlin code differs: LIKE hits get a relevance score rather than
a recency rank, every source decays by its content's own date, and overlap must exceed 80 %.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from oneclaw_search.domain.explanations import ScoreParts
from oneclaw_search.domain.local_time import MS_PER_DAY
from oneclaw_search.domain.models import Relevance, SourceType, UnifiedSearchResult
from oneclaw_search.domain.text import fold, word_set

T = TypeVar("T")

SOURCE_WEIGHTS: dict[SourceType, float] = {
    SourceType.MEMORY: 1.0,
    SourceType.DAILY_LOG: 1.0,
    SourceType.MESSAGE: 0.6,
    SourceType.SESSION: 0.5,
}
DECAY_LAMBDA_PER_DAY = 0.01  # half-life ln 2 / 0.01 = 69.3 days, as OneClaw's TimeDecayCalculator
DUPLICATE_OVERLAP = 0.8
# A hit holding the whole query outranks any scattered-keyword hit of its source.
PHRASE_TIER = 1.0
# Message and session relevance is raised to this power before the merge: a strong match from
# months ago then still beats a weak one from yesterday, while equal matches still favour the
# newer (tuned on LoCoMo dev recall, docs/performance.md; decay itself stays the spec's).
RELEVANCE_SHARPNESS = 6.0
# Static word vectors know synonyms but not sentences: they break ties between keyword hits.
MESSAGE_SEMANTIC_WEIGHT = 0.15

# BM25's saturation constants, reused so one more occurrence helps less each time.
_K1 = 1.2
_B = 0.75
# How much an occurrence counts by how it sits in the text: a whole word beats part of one.
_WHOLE_WORD, _WORD_EDGE, _INSIDE_WORD = 1.0, 0.7, 0.4
_WORD_CHAR = re.compile(r"\w")


def time_decay(age_ms: int) -> float:
    """exp(-0.01 per day of age); content from the future counts as new."""
    return math.exp(-DECAY_LAMBDA_PER_DAY * max(age_ms, 0) / MS_PER_DAY)


def phrase_match_score(text: str, query: str, average_words: float) -> float:
    """How well `text` contains the literal phrase `query`: a BM25-style term score.

    Occurrences are weighted by whether they stand as whole words, saturate like BM25's term
    frequency, and count for more in a short text than in a long one.
    """
    haystack, needle = fold(text), fold(query)
    frequency = sum(_occurrence_weight(haystack, start, len(needle)) for start in _find_all(haystack, needle))
    if frequency == 0:
        return 0.0
    length_ratio = len(haystack.split()) / average_words if average_words > 0 else 1.0
    return frequency * (_K1 + 1) / (frequency + _K1 * (1 - _B + _B * length_ratio))


def _find_all(haystack: str, needle: str) -> Iterable[int]:
    start = haystack.find(needle)
    while needle and start != -1:
        yield start
        start = haystack.find(needle, start + len(needle))


def _occurrence_weight(haystack: str, start: int, length: int) -> float:
    end = start + length
    open_left = start == 0 or not _WORD_CHAR.match(haystack[start - 1]) or not _WORD_CHAR.match(haystack[start])
    open_right = end == len(haystack) or not _WORD_CHAR.match(haystack[end]) or not _WORD_CHAR.match(haystack[end - 1])
    if open_left and open_right:
        return _WHOLE_WORD
    return _WORD_EDGE if open_left or open_right else _INSIDE_WORD


def average_word_count(texts: Iterable[str]) -> float:
    counts = [len(text.split()) for text in texts]
    return sum(counts) / len(counts) if counts else 0.0


def jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    """Word-set overlap; two empty texts are the same text."""
    union = first | second
    return len(first & second) / len(union) if union else 1.0


def relevance_scores(relevances: Sequence[Relevance]) -> list[float]:
    """One raw score per hit of a source: whole-query hits first, then keywords blended with meaning.

    When every hit holds the whole query, the spec's phrase scores stand unchanged, so a query
    the spec's LIKE answers fully ranks exactly as the spec ranks it.
    """
    if all(r.literal > 0 for r in relevances) or all(r.keyword == 0 and r.semantic is None for r in relevances):
        return [r.literal for r in relevances]
    return [score ** RELEVANCE_SHARPNESS for score in _blended(relevances)]


def _blended(relevances: Sequence[Relevance]) -> list[float]:
    """Keyword coverage (BM25 over its ideal, at most 1) blended with cosine similarity, or a whole-
    query hit's place in the tier above; both are absolute, so a weak source stays weak."""
    top_literal = max(r.literal for r in relevances)
    scores = []
    for r in relevances:
        if r.literal > 0:
            scores.append((PHRASE_TIER + r.literal / top_literal) / (PHRASE_TIER + 1))
            continue
        score = min(r.keyword, 1.0)
        if r.semantic is not None:
            score = (1 - MESSAGE_SEMANTIC_WEIGHT) * score + MESSAGE_SEMANTIC_WEIGHT * max(r.semantic, 0.0)
        scores.append(score * PHRASE_TIER / (PHRASE_TIER + 1))  # below every whole-query hit
    return scores


def merge(
    by_source: Sequence[Sequence[UnifiedSearchResult]], now_ms: int, max_results: int,
    render: Callable[[UnifiedSearchResult], UnifiedSearchResult] = lambda hit: hit,
) -> list[UnifiedSearchResult]:
    """Normalise each source by its maximum, weight, decay, rank, drop near-duplicates, cut.

    Hits holding the whole query stand within the first (their number + 1) places, so when fewer
    than `max_results` of them are found they are all shown (the superset rule: what the
    spec's own LIKE search returns is never lost to keyword hits). The order never depends on
    `max_results`, so a shorter answer is always the start of a longer one.
    `render` gives a hit its printable text; only hits the ranking reaches are rendered.
    """
    scored = [hit for hits in by_source for hit in _normalise_weight_decay(hits, now_ms)]
    scored.sort(key=_rank_key)
    return _deduplicated(exact_first(scored), max_results, lambda entry: render(entry.result()))


def exact_first(ranked: list[_Weighed]) -> list[_Weighed]:
    """`ranked` with every hit not holding the whole query, but the best such one, moved below the
    last that does: the fewest moves that keep whole-query hits within their number + 1 places."""
    last_exact = max((at for at, hit in enumerate(ranked) if hit.exact), default=None)
    if last_exact is None:
        return ranked
    best_other = next((at for at, hit in enumerate(ranked) if not hit.exact), None)
    moved = [hit for at, hit in enumerate(ranked[:last_exact]) if not hit.exact and at != best_other]
    kept = [hit for at, hit in enumerate(ranked[:last_exact + 1]) if hit.exact or at == best_other]
    return kept + moved + ranked[last_exact + 1:]


def _rank_key(hit: _Weighed) -> tuple[float, int, str, str]:
    return (-hit.final_score, -hit.created_at, hit.source_type, hit.id)


class _Weighed:
    """A hit with its final score, ranked before the result itself is built: copying a result of
    twenty fields for each of a search's hundreds of candidates is a noticeable share of a search."""

    __slots__ = ("hit", "parts", "final_score", "created_at", "source_type", "id", "exact")

    def __init__(self, hit: UnifiedSearchResult, parts: ScoreParts) -> None:
        self.hit, self.parts = hit, parts
        self.final_score = parts.normalised * parts.weight * parts.decay
        self.created_at, self.source_type, self.id, self.exact = hit.created_at, hit.source_type, hit.id, hit.exact

    def result(self) -> UnifiedSearchResult:
        return replace(self.hit, final_score=self.final_score, parts=self.parts)


def _normalise_weight_decay(hits: Sequence[UnifiedSearchResult], now_ms: int) -> list[_Weighed]:
    top = max((hit.raw_score for hit in hits), default=0.0)
    if top <= 0:
        return []
    return [_Weighed(hit, ScoreParts(hit.raw_score / top, SOURCE_WEIGHTS[hit.source_type], time_decay(now_ms - hit.created_at)))
            for hit in hits if hit.raw_score > 0]


def deduplicate(ranked: Sequence[UnifiedSearchResult], limit: int) -> list[UnifiedSearchResult]:
    """Keep each hit unless its text overlaps a better one already kept by more than 80 %."""
    return _deduplicated(ranked, limit, lambda hit: hit)


def _deduplicated(ranked: Sequence[T], limit: int, render: Callable[[T], UnifiedSearchResult]) -> list[UnifiedSearchResult]:
    """deduplicate() over entries that `render` makes into results, as the ranking reaches them."""
    kept: list[UnifiedSearchResult] = []
    kept_words: list[frozenset[str]] = []
    for entry in ranked:
        if len(kept) >= limit:
            break
        hit = render(entry)
        words = word_set(hit.text)
        if any(jaccard(words, other) > DUPLICATE_OVERLAP for other in kept_words):
            continue
        kept.append(hit)
        kept_words.append(words)
    return kept
