"""The spec's merge: normalisation, weights, decay, de-duplication and the cut (MRG-2..MRG-6).

Mirrors the merging half of SearchHistoryUseCase.kt and TimeDecayCalculator.kt, but follows the
spec where the Kotlin code differs: every source decays by its content's own date and overlap must
exceed 80 %. Each source's own scores come from relevance.py (messages, sessions) and the memory engine.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from oneclaw_search.domain.explanations import ScoreParts
from oneclaw_search.domain.local_time import MS_PER_DAY
from oneclaw_search.domain.models import SourceType, UnifiedSearchResult
from oneclaw_search.domain.text import word_set

T = TypeVar("T")

SOURCE_WEIGHTS: dict[SourceType, float] = {
    SourceType.MEMORY: 1.0,
    SourceType.DAILY_LOG: 1.0,
    SourceType.MESSAGE: 0.6,
    SourceType.SESSION: 0.5,
}
DECAY_LAMBDA_PER_DAY = 0.01  # half-life ln 2 / 0.01 = 69.3 days, as OneClaw's TimeDecayCalculator
DUPLICATE_OVERLAP = 0.8


def time_decay(age_ms: int) -> float:
    """exp(-0.01 per day of age); content from the future counts as new."""
    return math.exp(-DECAY_LAMBDA_PER_DAY * max(age_ms, 0) / MS_PER_DAY)


def jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    """Word-set overlap; two empty texts are the same text."""
    union = first | second
    return len(first & second) / len(union) if union else 1.0


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
