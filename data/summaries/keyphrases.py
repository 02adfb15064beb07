"""YakeTopics: a session's key topics found by YAKE (keyphrases from the text alone, no corpus or
model), shaped as REQ-016.3's topics: a phrase of two to five words or a proper name, never a stop
word, filler or interjection, and no phrase that starts or ends with one.

YAKE's time grows with the text, so a long session is read as its turns spread evenly up to
MAX_WORDS; a session shorter than that is read whole.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from oneclaw_search.domain.session_reading import Turn
from oneclaw_search.domain.stopwords import STOPWORDS

# A bound on time, not a choice of topics: on LoCoMo's sessions every bound from 250 words up scores
# alike, while YAKE over a whole 1,000-turn session takes seconds (docs/performance.md).
MAX_WORDS = 1_000
# Words that say how a chat went, not what it was about: interjections, courtesies, filler verbs and
# adverbs, and the day words of small talk.
FILLERS = frozenset([
    "wow", "hey", "hi", "hello", "oh", "ooh", "ah", "aw", "yeah", "yep", "yup", "nope", "hmm", "um", "uh",
    "lol", "haha", "thanks", "thank", "please", "sorry", "welcome", "great", "cool", "awesome", "amazing",
    "nice", "lovely", "wonderful", "fantastic", "glad", "sure", "totally", "definitely", "absolutely",
    "really", "well", "pretty", "super", "good", "bad", "love", "like", "want", "wanted", "went", "go",
    "going", "goes", "gone", "gonna", "wanna", "know", "knew", "think", "thought", "feel", "felt", "said",
    "say", "says", "tell", "told", "see", "saw", "look", "looks", "make", "made", "take", "took", "lot",
    "lots", "kind", "sort", "way", "stuff", "today", "yesterday", "tomorrow", "tonight", "now", "day",
    "days", "time", "times",
])
_WORD = re.compile(r"\w+")


class YakeTopics:
    """YAKE is imported on the first summary (its own imports take a few hundred milliseconds, which a
    process that only searches never pays)."""

    def __init__(self) -> None:
        self._extractor: Any = None

    def topics(self, turns: Sequence[Turn], limit: int) -> tuple[str, ...]:
        """The session's best `limit` topics, most central first; a topic whose words hold, or are held
        by, a better one's is the same topic again and is left out."""
        if self._extractor is None:
            import yake

            # Every phrase YAKE finds is looked through for the few with a topic's shape (a text has no
            # more candidates than n per word read): capping them lowers the topics' ROUGE-1 (five folds).
            self._extractor = yake.KeywordExtractor(lan="en", n=3, top=3 * MAX_WORDS, dedupLim=0.7)
        text = _read(turns)
        chosen: list[tuple[str, frozenset[str]]] = []
        for phrase, _ in self._extractor.extract_keywords(text):
            words = frozenset(word.lower() for word in _WORD.findall(phrase))
            if _shaped(phrase, text) and not any(words <= held or held <= words for _, held in chosen):
                chosen.append((phrase, words))
                if len(chosen) == limit:
                    break
        return tuple(phrase for phrase, _ in chosen)


def _shaped(phrase: str, text: str) -> bool:
    """Two to five words, not starting or ending with a dull one; or one word that is a name."""
    words = _WORD.findall(phrase)
    if not words or any(_dull(word) for word in (words[0], words[-1])):
        return False
    return 2 <= len(words) <= 5 or (len(words) == 1 and _name(words[0], text))


def _name(word: str, text: str) -> bool:
    """A word is a name when the text never writes it in lower case and capitalises it mid-sentence
    at least once (a capital at a sentence's start says nothing)."""
    if not word[0].isupper() or re.search(rf"\b{re.escape(word.lower())}\b", text):
        return False
    return re.search(rf"[\w,;:)] +{re.escape(word)}\b", text) is not None


def _dull(word: str) -> bool:
    folded = word.lower()
    return folded in STOPWORDS or folded in FILLERS or folded.isdigit() or len(folded) < 2


def _read(turns: Sequence[Turn]) -> str:
    """The session's text, or for a long one every k-th turn, k chosen to keep about MAX_WORDS."""
    total = sum(len(turn.content.split()) for turn in turns)
    every = max(1, math.ceil(total / MAX_WORDS))
    return "\n".join(turn.content for turn in turns[::every])
