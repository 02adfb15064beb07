"""A deterministic synthetic history for benchmarks: chat-like messages, sessions, memory chunks.

Sizes are parameters; the same seed always gives the same rows, so runs can be compared.
"""
from __future__ import annotations

import random
from datetime import date, timedelta

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.domain.models import MemoryChunk

DAY_MS = 86_400_000
WORDS = ["the", "a", "to", "and", "of", "we", "you", "it", "is", "that", "for", "on", "with", "this", "can", "please", "could", "would", "maybe", "about", "sushi", "restaurant", "dinner", "booking", "shibuya", "ramen", "pasta", "café", "über", "école", "東京", "旅行", "budget", "invoice", "database", "migration", "postgres", "sqlite", "schema", "index", "query", "latency", "deploy", "kubernetes", "docker", "json", "parse", "serializer", "kotlin", "python", "function", "class", "error", "stacktrace", "retry", "timeout", "flight", "hotel", "kamakura", "museum", "weekend", "tuesday", "meeting", "calendar", "reminder", "birthday", "gift"]
TOPICS = ["Dinner plans", "Database migration", "Trip planning", "JSON parsing", "Budget review", "Team meeting"]


def _sentence(rng: random.Random, length: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(length)).capitalize() + "."


def synthetic_history(messages: int, sessions: int, chunks: int, now_ms: int, seed: int = 7):
    """(sessions, messages, chunks) spread over the 365 days before `now_ms`."""
    rng = random.Random(seed)
    start = now_ms - 365 * DAY_MS
    session_rows = [
        NewSession(f"s{i:06}", f"{rng.choice(TOPICS)} {i}", start + rng.randrange(365 * DAY_MS)) for i in range(sessions)
    ]
    message_rows = []
    for i in range(messages):
        session = session_rows[i % sessions]
        kind = "USER" if i % 2 == 0 else "AI_RESPONSE"
        content = _sentence(rng, rng.randint(6, 60))
        if i % 50 == 0:
            content += ' {"tool": "search_history", "arguments": {"query": "' + rng.choice(WORDS) + '"}}'
        message_rows.append(NewMessage(f"m{i:08}", session.id, kind, content, session.created_at + i % 997 * 60_000))
    today = date.fromtimestamp(now_ms / 1000)
    chunk_rows = []
    for i in range(chunks):
        day = today - timedelta(days=rng.randrange(365)) if i % 5 else None
        text = " ".join(_sentence(rng, rng.randint(8, 30)) for _ in range(rng.randint(1, 3)))
        kind = "daily_log" if day else "long_term"
        chunk_rows.append(MemoryChunk(f"c{i:06}", kind, day.isoformat() if day else None, text, None, now_ms, now_ms))
    return session_rows, message_rows, chunk_rows
