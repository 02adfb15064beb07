"""Reading a model's answer into the three lists of a digest and its prose summary, and merging the
digests of a long session's pieces (draagon-forge REQ-016.3 key_topics, key_decisions, unresolved).

The merge is deterministic rather than one more model call: it costs nothing, cannot fail or time
out, and cannot invent. It drops repeats case-insensitively and takes the pieces' phrases in turn
(each piece's first, then each piece's second, ...) so the cap of five does not go wholly to the
opening of a long session. Unresolved items take the latest piece first, since an early question is
the likelier one to have been settled later on.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from oneclaw_search.data.summaries.summary_prompt import MAX_ITEMS
from oneclaw_search.domain.prose_summary import SUMMARY_WORDS
from oneclaw_search.domain.summary_cues import sentences

FIELDS = ("key_topics", "key_decisions", "unresolved")
PROSE = "summary"  # asked for; an answer without it still gives its lists, and the offline prose stands in
MAX_PHRASE_CHARS = 160
# The answer's shape as a JSON schema, for servers that constrain a model's output to one (llama.cpp's
# server and others): a small local model asked plainly for JSON often answers prose instead.
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {**{field: {"type": "array", "items": {"type": "string"}, "maxItems": MAX_ITEMS} for field in FIELDS},
                   PROSE: {"type": "string"}},
    "required": [*FIELDS, PROSE],
    "additionalProperties": False,
}

Lists = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Answer:
    lists: Lists
    summary: str = ""

# some local reasoning models think aloud before answering; some models fence JSON despite being told not to
_THINKING = re.compile(r"^<think>.*?</think>\s*", re.DOTALL)
_FENCE = re.compile(r"^```[A-Za-z]*[ \t]*\n?(.*?)\n?```$", re.DOTALL)


class UnparsableAnswer(ValueError):
    """The model's answer is not the JSON object the prompt asks for."""


def parse_answer(text: str | None) -> Answer:
    """The three lists of the answer, trimmed and capped, and its prose; anything but that object raises."""
    body = _THINKING.sub("", (text or "").strip()).strip()
    if fenced := _FENCE.match(body):
        body = fenced.group(1).strip()
    try:
        answer = json.loads(body)
    except ValueError as error:
        raise UnparsableAnswer(f"not JSON: {body[:80]!r}") from error
    if not isinstance(answer, dict) or set(answer) - {PROSE} != set(FIELDS):
        raise UnparsableAnswer(f"not an object with exactly {', '.join(FIELDS)} (and {PROSE})")
    prose = answer.get(PROSE, "")
    if not isinstance(prose, str):
        raise UnparsableAnswer(f"{PROSE} is not a string")
    topics, decisions, unresolved = (_phrases(answer[field], field) for field in FIELDS)
    return Answer((topics, decisions, unresolved), " ".join(prose.split()))


def merge(parts: Sequence[Answer]) -> Answer:
    """One digest's lists and prose from the pieces', oldest piece first."""
    topics = _interleave(part.lists[0] for part in parts)
    decisions = _interleave(part.lists[1] for part in parts)
    unresolved = _interleave(part.lists[2] for part in reversed(parts))
    return Answer((topics, decisions, unresolved), _prose([part.summary for part in parts]))


def _prose(summaries: Sequence[str]) -> str:
    """The pieces' sentences while they fit the summary's words, each piece's first before any piece's
    second, so a long session's gist is not all its opening; told in the pieces' order."""
    said = [sentences(summary) for summary in summaries]
    chosen, words = set(), 0
    for rank in range(max((len(piece) for piece in said), default=0)):
        for number, piece in enumerate(said):
            if rank < len(piece) and words + len(piece[rank].split()) <= SUMMARY_WORDS:
                chosen.add((number, rank))
                words += len(piece[rank].split())
    return " ".join(sentence for number, piece in enumerate(said) for rank, sentence in enumerate(piece)
                    if (number, rank) in chosen)


def _phrases(value: object, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise UnparsableAnswer(f"{field} is not a list of non-empty strings")
    return _interleave([[_capped(" ".join(item.split())) for item in value]])


def _capped(phrase: str) -> str:
    return phrase if len(phrase) <= MAX_PHRASE_CHARS else phrase[:MAX_PHRASE_CHARS - 1].rstrip() + "…"


def _interleave(lists: Iterable[Sequence[str]]) -> tuple[str, ...]:
    """Round-robin over `lists`, dropping repeats regardless of case, at most MAX_ITEMS."""
    lists = list(lists)
    seen: set[str] = set()
    kept: list[str] = []
    for rank in range(max((len(items) for items in lists), default=0)):
        for items in lists:
            if rank < len(items) and items[rank].casefold() not in seen and len(kept) < MAX_ITEMS:
                seen.add(items[rank].casefold())
                kept.append(items[rank])
    return tuple(kept)
