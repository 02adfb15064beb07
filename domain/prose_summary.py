"""A session's short prose summary: its most central sentences, in the order they were said, about
SUMMARY_WORDS words (the `summary` field of get_session_summary, beyond REQ-016.3's lists).

A sentence's centrality is the cosine between its weighted terms and the whole session's; each next
sentence is picked by maximal marginal relevance (centrality less NOVELTY times its likeness to a
sentence already picked), so a point made twice is said once. The session's opening sentence leads:
it usually names who speaks and what about. Offline and deterministic.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

from oneclaw_search.domain.session_reading import Turn
from oneclaw_search.domain.summary_cues import sentences

SUMMARY_WORDS = 120
NOVELTY = 0.5  # chosen by cross-validation over conversations (tests/benchmarks/bench_session_summary.py)
# A shorter sentence (a thanks, an agreement) carries nothing a summary needs (five folds: docs/performance.md).
MIN_SENTENCE_WORDS = 4

Terms = Callable[[str], list[str]]  # a sentence's content terms (stemmed, no stop words)
Weights = Callable[[set[str]], dict[str, float]]  # a weight per term (an idf, or 1 for all)
Vector = dict[str, float]


def prose_summary(turns: Sequence[Turn], terms: Terms, weights: Weights, novelty: float = NOVELTY) -> str:
    said = [sentence for turn in turns for sentence in sentences(turn.content)]
    if sum(len(sentence.split()) for sentence in said) <= SUMMARY_WORDS:
        return " ".join(said)
    bags = [Counter(terms(sentence)) for sentence in said]
    weight = weights({term for bag in bags for term in bag})
    vectors = [_unit({term: count * weight[term] for term, count in bag.items()}) for bag in bags]
    centre = _unit(_summed(vectors))
    central = [_cosine(vector, centre) for vector in vectors]
    first = {sentence.lower(): at for at, sentence in reversed(list(enumerate(said)))}  # a sentence said again is one
    candidates = [at for at in first.values() if len(said[at].split()) >= MIN_SENTENCE_WORDS and at != 0]
    chosen = [0]
    words = len(said[0].split())
    likeness = {at: _cosine(vectors[at], vectors[0]) for at in candidates}  # to the nearest sentence chosen
    while likeness:
        best = max(likeness, key=lambda at: (central[at] - novelty * likeness[at], -at))
        del likeness[best]
        if words + len(said[best].split()) > SUMMARY_WORDS:
            break  # the best left no longer fits: what is chosen stands
        if best not in chosen:
            chosen.append(best)
            words += len(said[best].split())
            for at in likeness:
                likeness[at] = max(likeness[at], _cosine(vectors[at], vectors[best]))
    return " ".join(said[at] for at in sorted(chosen))


def led_by(prose: str, summary: str) -> str:
    """A model's prose, then `summary`'s sentences in order while the whole stays within SUMMARY_WORDS:
    the gist in the model's words, then what the session itself said."""
    kept, words = [prose] if prose else [], len(prose.split())
    for sentence in sentences(summary):
        if words + len(sentence.split()) > SUMMARY_WORDS:
            break
        kept.append(sentence)
        words += len(sentence.split())
    return " ".join(kept)


def _summed(vectors: list[Vector]) -> Vector:
    total: Counter[str] = Counter()
    for vector in vectors:
        total.update(vector)
    return dict(total)


def _unit(vector: Vector) -> Vector:
    norm = math.sqrt(sum(value * value for value in vector.values()))
    return {term: value / norm for term, value in vector.items()} if norm else {}


def _cosine(a: Vector, b: Vector) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(value * b.get(term, 0.0) for term, value in a.items())
