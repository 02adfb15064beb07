"""Caseless text handling shared by every source: folding, word sets, match spans, excerpts.

Makes BR-9's "case-insensitive" hold for all of Unicode, not just ASCII, and BR-10's 500-character
excerpts show the part of a long text that matched.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

EXCERPT_LIMIT = 500
ELLIPSIS = "…"
_WORD = re.compile(r"\w+")


def fold(text: str) -> str:
    """Canonical caseless form: 'ÉCOLE', 'école' and a decomposed 'école' all fold alike."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


def tokens(text: str) -> list[str]:
    """Folded word tokens (letters, digits and underscore runs in any script)."""
    return _WORD.findall(fold(text))


def word_set(text: str) -> frozenset[str]:
    """Folded whitespace-separated words, as OneClaw's de-duplication compares them."""
    return frozenset(fold(text).split())


def _fold_with_offsets(text: str) -> tuple[str, list[int] | range]:
    """Fold char by char, remembering which original index each folded char came from."""
    folded = text.lower() if text.isascii() else text.casefold()
    if len(folded) == len(text):  # casefold never drops a char: same length means one for one
        return folded, range(len(text))
    pieces: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        folded = char.casefold()
        pieces.append(folded)
        origin.extend([index] * len(folded))
    return "".join(pieces), origin


def find_spans(text: str, needles: list[str]) -> list[tuple[int, int]]:
    """[start, end) spans in `text` where any folded needle occurs, sorted, non-overlapping."""
    folded, origin = _fold_with_offsets(text)
    spans: list[tuple[int, int]] = []
    for needle in {fold(n) for n in needles if n.strip()}:
        start = folded.find(needle)
        while start != -1:
            end = start + len(needle)
            spans.append((origin[start], origin[end - 1] + 1))
            start = folded.find(needle, end)
    return _merge_overlaps(sorted(spans))


def _merge_overlaps(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


@dataclass(frozen=True, slots=True)
class Excerpt:
    """A window of a longer text: the characters original[start:end], ellipses marking cuts."""

    text: str
    start: int
    end: int
    lead: int

    def place(self, spans: list[tuple[int, int]], prefix_len: int = 0) -> tuple[tuple[int, int], ...]:
        """Spans of the original that lie inside the window, moved to excerpt coordinates."""
        shift = prefix_len + self.lead - self.start
        return tuple(
            (begin + shift, finish + shift)
            for begin, finish in spans
            if begin >= self.start and finish <= self.end
        )


def excerpt(text: str, spans: list[tuple[int, int]], limit: int = EXCERPT_LIMIT) -> Excerpt:
    """Cut `text` to at most `limit` characters, keeping the first span in view.

    A cut end is marked with an ellipsis, which counts towards the limit, so the LLM can tell
    the text goes on.
    """
    if len(text) <= limit:
        return Excerpt(text, 0, len(text), 0)
    first = spans[0][0] if spans else 0
    start = 0 if first < limit // 3 else first - limit // 4
    start = min(start, len(text) - (limit - 1))
    lead = ELLIPSIS if start > 0 else ""
    room = limit - len(lead)
    tail = ""
    if start + room < len(text):
        room -= 1
        tail = ELLIPSIS
    return Excerpt(lead + text[start:start + room] + tail, start, start + room, len(lead))
