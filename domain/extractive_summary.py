"""ExtractiveSummarizer: a session's digest made offline and deterministically from its own words,
for draagon-forge's REQ-016.3 `get_session_summary` when no LLM is asked or available.

Topics come from a TopicFinder when one is given (the wiring gives YAKE's keyphrases), else from the
session's most distinctive words and two-word phrases; decisions and open items come from summary_cues.py.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from oneclaw_search.domain.ports import Vocabulary
from oneclaw_search.domain.prose_summary import prose_summary
from oneclaw_search.domain.search_terms import Stem, plain, unchanged
from oneclaw_search.domain.session_reading import Turn
from oneclaw_search.domain.session_summary import EXTRACTIVE, Digest, TopicFinder, Transcript
from oneclaw_search.domain.stopwords import STOPWORDS
from oneclaw_search.domain.summary_cues import TracedItem, decisions, open_items

MAX_ITEMS = 5
_PHRASE_BREAK = re.compile(r"[^\w\s-]+")  # punctuation but a hyphen ends a phrase
_WORD = re.compile(r"\w+")


class TracedDigest(NamedTuple):
    """A digest's items with the turn each came from, for checking them against labelled turns."""

    key_topics: tuple[str, ...]
    key_decisions: tuple[TracedItem, ...]
    unresolved: tuple[TracedItem, ...]


Key = tuple[str, ...]  # one stem, or two for a phrase


@dataclass(frozen=True, slots=True)
class _Tally:
    """How often the session uses each term and phrase, where it first does, and how it writes it most."""

    counts: dict[Key, int]
    first: dict[Key, int]
    shown: dict[Key, str]


class ExtractiveSummarizer:
    """With a vocabulary, a word's weight falls with how many of the history's `rows` hold it; without
    one, the session's own counts decide, stopwords left out."""

    def __init__(self, vocabulary: Vocabulary | None = None, rows: int = 0, topics: TopicFinder | None = None) -> None:
        self._vocabulary = vocabulary
        self._rows = rows
        self._topics = topics
        self._stem: Stem = vocabulary.stem if vocabulary is not None else unchanged

    def summarize(self, transcript: Transcript) -> Digest:
        traced = self.traced(transcript)
        return Digest(traced.key_topics, tuple(item.text for item in traced.key_decisions),
                      tuple(item.text for item in traced.unresolved), EXTRACTIVE, self.prose(transcript.turns))

    def prose(self, turns: Sequence[Turn]) -> str:
        """The session's short prose summary (prose_summary.py), its words weighed as the topics' are."""
        seen: dict[str, str | None] = {}  # a session repeats its words: stem each once
        return prose_summary(turns, lambda text: self.terms(text, seen), self.weights)

    def terms(self, text: str, seen: dict[str, str | None] | None = None) -> list[str]:
        """A text's content terms: stems, stop words and numbers left out (`seen`: words already stemmed)."""
        known = {} if seen is None else seen
        return [term for word in _WORD.findall(text)
                if (term := known[word] if word in known else known.setdefault(word, self._term(word)))]

    def weights(self, terms: set[str]) -> dict[str, float]:
        return self._weights(terms)

    def traced(self, transcript: Transcript) -> TracedDigest:
        """What summarize() says, each decision and open item with the id of its turn."""
        turns = transcript.turns
        topics = self._topics.topics(turns, MAX_ITEMS) if self._topics is not None else self.topics(turns)
        return TracedDigest(topics, tuple(decisions(turns)[:MAX_ITEMS]),
                            tuple(open_items(turns, self._stem)[:MAX_ITEMS]))

    def topics(self, turns: Sequence[Turn]) -> tuple[str, ...]:
        tally = self._tally(turns)
        weight = self._weights({term for key in tally.counts for term in key})
        score = {key: count * sum(weight[term] for term in key) for key, count in tally.counts.items()}
        ranked = sorted(score, key=lambda key: (-score[key], tally.first[key]))
        return _pick(ranked, tally.shown)

    def _tally(self, turns: Sequence[Turn]) -> _Tally:
        keys: list[Key] = []
        written: list[str] = []
        stems: dict[str, str | None] = {}  # a session repeats its words: fold and stem each once
        for turn in turns:
            for run in _PHRASE_BREAK.split(turn.content):
                before: tuple[str, str] | None = None  # the previous word as (stem, spelling)
                for word in _WORD.findall(run):
                    stem = stems[word] if word in stems else stems.setdefault(word, self._term(word))
                    if stem is None:
                        before = None
                        continue
                    keys.append((stem,))
                    written.append(word)
                    if before is not None:
                        keys.append((before[0], stem))
                        written.append(f"{before[1]} {word}")
                    before = (stem, word)
        counts = Counter(keys)
        shown: dict[Key, tuple[int, str]] = {}
        for (key, spelling), times in Counter(zip(keys, written, strict=True)).items():
            if key not in shown or times > shown[key][0]:  # on a tie, the spelling written first
                shown[key] = (times, spelling)
        # A pair of words seen together once is chance, not a phrase.
        kept = {key: count for key, count in counts.items() if len(key) == 1 or count > 1}
        first = {key: at for at, key in enumerate(counts) if key in kept}
        return _Tally(kept, first, {key: shown[key][1] for key in kept})

    def _term(self, word: str) -> str | None:
        """A word's stem, or None for a stopword, a number or a single letter: a phrase breaks there."""
        folded = plain(word)
        return None if folded in STOPWORDS or len(folded) < 2 or folded.isdigit() else self._stem(folded)

    def _weights(self, terms: set[str]) -> dict[str, float]:
        if self._vocabulary is None or not terms:
            return dict.fromkeys(terms, 1.0)
        held = self._vocabulary.frequencies(sorted(terms))
        rows = max(self._rows, max(held.values(), default=0), 1)
        return {term: math.log((rows + 1) / (held.get(term, 0) + 1)) + 1 for term in terms}


def _pick(ranked: list[Key], shown: dict[Key, str]) -> tuple[str, ...]:
    """The best five, a phrase standing in for a word of it already chosen, no word shown twice."""
    chosen: list[Key] = []
    for key in ranked:
        if len(chosen) == MAX_ITEMS:
            break
        covered = {term for picked in chosen for term in picked}
        if set(key) <= covered:
            continue
        parts = [picked for picked in chosen if len(picked) == 1 and picked[0] in key]
        if parts:
            chosen[chosen.index(parts[0])] = key
            chosen = [picked for picked in chosen if picked not in parts[1:]]
        else:
            chosen.append(key)
    return tuple(dict.fromkeys(shown[key] for key in chosen))
