"""What a summarizing model is told: the instructions, and a transcript cut into pieces that each fit
a token budget (draagon-forge REQ-016.3 key topics, key decisions, unresolved items, and a prose summary).

Tokens are estimated, not counted: a quarter of the characters, rounded up, is close enough for the
tokenizers of the usual chat models and needs none of them installed.
"""
from __future__ import annotations

import math

from oneclaw_search.domain.session_summary import Transcript

MAX_ITEMS = 5  # phrases per list, in the answer and in the merged digest

SYSTEM_PROMPT = f"""You summarise one past conversation between a user and an AI assistant.
Reply with STRICT JSON and nothing else: no prose, no code fence, exactly this object:
{{"key_topics": ["..."], "key_decisions": ["..."], "unresolved": ["..."], "summary": "..."}}
- key_topics: what the conversation is about, at most {MAX_ITEMS} short noun phrases.
- key_decisions: what the user and assistant settled on or chose, at most {MAX_ITEMS} short phrases.
- unresolved: questions, problems or tasks left open at the end, at most {MAX_ITEMS} short phrases.
- summary: 2-4 sentences, in the third person, of what the user and the assistant talked about.
Each phrase is a few words, taken from what the transcript says. Do not invent anything: a list with
nothing to report stays empty ([]). The transcript may be one part of a longer conversation."""

_ROLES = {"USER": "user", "AI_RESPONSE": "assistant"}
_TITLE_CHARS = 200  # a runaway title must not eat the budget meant for turns
_MIN_TURN_TOKENS = 100  # below this a piece holds too little conversation to summarise


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def transcript_pieces(transcript: Transcript, token_budget: int) -> list[str]:
    """The user messages to send, one per piece, each fitting `token_budget` together with the
    system prompt. A turn longer than a whole piece is cut across several, marked as continued."""
    title = transcript.session.title[:_TITLE_CHARS]
    room = turn_room(token_budget)
    pieces: list[list[str]] = [[]]
    used = 0
    for block in _blocks(transcript, room * 4):
        cost = estimate_tokens(block + "\n\n")
        if pieces[-1] and used + cost > room:
            pieces.append([])
            used = 0
        pieces[-1].append(block)
        used += cost
    return [_header(title, number, len(pieces)) + "\n\n".join(blocks)
            for number, blocks in enumerate(pieces, start=1)]


def turn_room(token_budget: int) -> int:
    """Tokens left for turns in each piece once the instructions and the longest header are in."""
    room = token_budget - estimate_tokens(SYSTEM_PROMPT) - estimate_tokens(_header("x" * _TITLE_CHARS, 9999, 9999))
    if room < _MIN_TURN_TOKENS:
        raise ValueError(f"token_budget {token_budget} leaves too little room for turns beside the instructions")
    return room


def _blocks(transcript: Transcript, max_chars: int) -> list[str]:
    """Each turn as `role: text`, split into blocks of at most `max_chars` (separators included)."""
    blocks = []
    for turn in transcript.turns:
        role = _ROLES.get(turn.role, turn.role.lower())
        first, later = f"{role}: ", f"{role} (continued): "
        text, prefix = turn.content.strip(), first
        while True:
            size = max_chars - len(prefix) - 2
            blocks.append(prefix + text[:size])
            text, prefix = text[size:], later
            if not text:
                break
    return blocks


def _header(title: str, number: int, total: int) -> str:
    return f"Conversation title: {title}\nTranscript part {number} of {total}:\n\n"
