"""Decisions and open items of a session, found by cue phrases and unanswered questions, each traced
to the turn it came from: the extractive half of draagon-forge's REQ-016.3 `get_session_summary`.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from oneclaw_search.domain.search_terms import Stem, index_terms, unchanged
from oneclaw_search.domain.session_reading import Turn

USER = "USER"
ITEM_CHARS = 120  # an item is a reminder of what was said, not the whole turn
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+")
_DECISION = re.compile(
    r"\b(?:let's|let us|we'll|we will|decided|decisions?|go(?:ing)? with|went with|agreed|"
    r"settled? on|I'll use|we chose|final answer|"
    # a speaker's own intent or choice, as a chat between people states it
    r"I'm going to|I am going to|I'm gonna|I've decided|I have decided|I chose|I picked|I'll start|I'll go)\b",
    re.IGNORECASE,
)
# "TODO" only in capitals: a "todo list" in prose is not an open item.
# a plan still undecided counts too, as people say it: still looking or deciding, not sure, figure out
_OPEN = re.compile(r"\bTODO\b|\bTBD\b|(?i:\bstill need to\b|\bopen question|\bnot sure yet\b|\bto be decided\b"
                   r"|\bstill (?:looking|deciding|figuring|thinking|waiting)\b|\bnot sure\b|\bfigure out\b"
                   r"|\bhaven't decided\b|\bundecided\b)")
# Substrings one of which each cue holds: a plain `in` test skips most sentences before the regex runs.
_DECISION_HINTS = ("let", "we'll", "we will", "decid", "decision", "with", "agreed", "settle", "i'll use", "chose",
                   "final answer", "going to", "gonna", "picked", "i'll start", "i'll go")
_OPEN_HINTS = ("todo", "tbd", "still", "open question", "not sure", "to be decided", "figure out", "haven't decided",
               "undecided")
_DECISION_WORDS = 3  # a bare "Agreed." says nothing of what was agreed
_ANSWER_OVERLAP = 2  # content words a later reply shares with a question to count as answering it


class TracedItem(NamedTuple):
    text: str
    turn_id: str


@lru_cache(maxsize=4096)
def sentences(text: str) -> tuple[str, ...]:
    """A line break ends a sentence too; curly apostrophes are folded so "let’s" and "let's" read alike."""
    lines = text.replace("\u2019", "'").splitlines()
    return tuple(s.strip() for line in lines for s in _SENTENCE_END.split(line) if s.strip())


def clipped(sentence: str) -> str:
    if len(sentence) <= ITEM_CHARS:
        return sentence
    cut = sentence[: ITEM_CHARS - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "…"


def is_question(sentence: str) -> bool:
    return sentence.rstrip("\"')] ").endswith("?")


def decisions(turns: Sequence[Turn]) -> list[TracedItem]:
    """Statements (not questions) that carry a decision cue, in the order they were said."""
    found = [TracedItem(clipped(s), turn.id) for turn in turns for s in sentences(turn.content)
             if not is_question(s) and len(s.split()) >= _DECISION_WORDS and _cued(_DECISION, _DECISION_HINTS, s)]
    return _distinct(found)


def open_items(turns: Sequence[Turn], stem: Stem = unchanged) -> list[TracedItem]:
    """The user's questions nobody answered, and items either side marked as still open, in order."""
    replies = _Replies(turns, stem)
    found: list[TracedItem] = []
    for at, turn in enumerate(turns):
        said = sentences(turn.content)
        for index, sentence in enumerate(said):
            unanswered = turn.role == USER and is_question(sentence) and not replies.answer(at, sentence, index == len(said) - 1)
            if unanswered or _cued(_OPEN, _OPEN_HINTS, sentence):
                found.append(TracedItem(clipped(sentence), turn.id))
    return _distinct(found)


class _Replies:
    """Where each content word occurs among the assistant's turns, to find a later reply to a question."""

    def __init__(self, turns: Sequence[Turn], stem: Stem) -> None:
        self._turns, self._stem = turns, stem
        self._where: dict[str, list[int]] = {}
        for at, turn in enumerate(turns):
            if turn.role != USER:
                for term in set(index_terms(turn.content, stem)):
                    self._where.setdefault(term, []).append(at)

    def answer(self, at: int, question: str, ends_turn: bool) -> bool:
        """A question that ends its turn is answered by the other side's very next turn; any question
        by a later assistant turn sharing enough of its content words."""
        following = self._turns[at + 1] if at + 1 < len(self._turns) else None
        if ends_turn and following is not None and following.role != self._turns[at].role:
            return True
        shared: Counter[int] = Counter()
        for term in set(index_terms(question, self._stem)):
            positions = self._where.get(term, [])
            shared.update(positions[bisect_right(positions, at):])
        return bool(shared) and shared.most_common(1)[0][1] >= _ANSWER_OVERLAP


def _cued(cue: re.Pattern[str], hints: tuple[str, ...], sentence: str) -> bool:
    lowered = sentence.lower()
    return any(hint in lowered for hint in hints) and cue.search(sentence) is not None


def _distinct(items: list[TracedItem]) -> list[TracedItem]:
    """The first of items saying the same thing, caselessly."""
    seen: set[str] = set()
    kept = []
    for item in items:
        if item.text.casefold() not in seen:
            seen.add(item.text.casefold())
            kept.append(item)
    return kept
