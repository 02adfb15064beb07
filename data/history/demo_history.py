"""A small, realistic history for `oneclaw-search demo`, dated relative to today.

Written for this project: conversations, MEMORY.md paragraphs and daily-log entries that the
spec's scenarios (a restaurant last week, a database migration, API keys, a day trip) can find.
"""
from __future__ import annotations

import json
import uuid
from datetime import date, datetime, time, timedelta, tzinfo

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.domain.models import DAILY_LOG_TYPE, LONG_TERM_TYPE, MemoryChunk

_NAMESPACE = uuid.UUID("6f1c2b1e-5a3d-4c39-9a51-0c1a3e9b7d20")
U, A = "USER", "AI_RESPONSE"

# (title, days ago, deleted, [(role, text)])
CONVERSATIONS = [
    (
        "Dinner Planning",
        6,
        False,
        [
            (U, "Can you help me find a good sushi restaurant near Shibuya station?"),
            (A, "Sakura Sushi, two minutes from the Hachiko exit, is a well-reviewed restaurant with an omakase counter."),
            (U, "A friend recommended Sakura Sushi as well. Let's book it for Friday at 7pm."),
            (A, "Done: I set a reminder for dinner at Sakura Sushi on Friday at 19:00."),
        ],
    ),
    (
        "Restaurant Recommendations",
        20,
        False,
        [
            (U, "Looking for Italian restaurants in Roppongi for a team dinner of eight."),
            (A, "Trattoria Roma takes groups and has a private room; Pizzeria Napoli is louder but cheaper."),
        ],
    ),
    (
        "Database migration plan",
        12,
        False,
        [
            (U, "We need to move the expense tracker from SQLite to PostgreSQL. What is the safest database migration path?"),
            (A, "Freeze the schema, generate Alembic scripts, rehearse the database migration on a copy, "
                "then switch over in a maintenance window."),
            (U, "How long did the dry run take last time?"),
            (A, "About 40 minutes for 2 GB; the index rebuild was the slow part."),
        ],
    ),
    (
        "Parsing JSON in Kotlin",
        30,
        False,
        [
            (U, "Find me a snippet for parsing JSON with kotlinx.serialization."),
            (
                A,
                "```kotlin\n@Serializable data class Expense(val id: String, val amount: Double)\n"
                "val expense = Json.decodeFromString<Expense>(text)\n```\nThis parses JSON into a data class.",
            ),
            (A, 'I called a tool for this: {"tool": "search_history", "arguments": {"query": "JSON parsing", "scope": "sessions"}}'),
        ],
    ),
    (
        "Weekend in Kamakura",
        5,
        False,
        [
            (U, "I went to Kamakura today: the Great Buddha, Hase-dera, and lunch at Café Über by the station."),
            (A, "Sounds lovely! Café Über's matcha parfait is famous. Want me to save the trip to your daily log?"),
        ],
    ),
    (
        "API key setup",
        45,
        False,
        [
            (U, "Where do I put my OpenAI API key?"),
            (A, "Open Settings > Providers > OpenAI and paste the API key there; it is stored in the Android keystore."),
        ],
    ),
    (
        "Paris notes",
        60,
        False,
        [
            (U, "Remind me which ÉCOLE my niece goes to in Paris."),
            (A, "You said she attends the École Jeannine Manuel in the 7th arrondissement."),
        ],
    ),
    (
        "Old restaurant ideas",
        9,
        True,
        [
            (U, "Scratch this: a ramen restaurant in Shinjuku I no longer care about."),
        ],
    ),
]

LONG_TERM = [
    "The user prefers sushi and Italian food and avoids very spicy dishes.",
    "API keys: the OpenAI API key is configured under Settings > Providers; the Anthropic API key lives in the "
    "device keystore. Keys are never pasted into chat.",
    "Current project: moving the expense tracker's database from SQLite to PostgreSQL before the end of the month.",
]

# (days ago, text)
DAILY_LOGS = [
    (
        6,
        "Dinner plans: the user wants to try Sakura Sushi near Shibuya station, a restaurant a friend "
        "recommended. Booked for Friday at 7pm.",
    ),
    (5, "Day trip to Kamakura: the Great Buddha, Hase-dera temple, and lunch at Café Über near the station."),
    (12, "Went through the database migration plan: schema freeze, Alembic scripts, a rehearsal on a copy of production."),
    (20, "The user asked for Italian restaurant ideas in Roppongi; shortlisted Trattoria Roma and Pizzeria Napoli."),
    (45, "Configured the OpenAI and Anthropic API keys in the provider settings."),
]


def demo_history(today: date, zone: tzinfo) -> tuple[list[NewSession], list[NewMessage], list[MemoryChunk]]:
    """Sessions, messages and memory chunks placed relative to `today` in `zone`."""
    sessions, messages = [], []
    for title, days_ago, deleted, turns in CONVERSATIONS:
        session_id = _id("session", title)
        start = _ms(today - timedelta(days=days_ago), zone, hour=19)
        sessions.append(NewSession(session_id, title, start, deleted_at=start + 3_600_000 if deleted else None))
        for index, (role, text) in enumerate(turns):
            messages.append(NewMessage(_id("message", title, index), session_id, role, text, start + index * 60_000))
    messages.extend(_tool_round(sessions[0], today, zone))
    return sessions, messages, _memory_chunks(today, zone)


def _tool_round(session: NewSession, today: date, zone: tzinfo) -> list[NewMessage]:
    """OneClaw stores a tool call's JSON in tool_input with empty content; search skips these rows."""
    at = session.created_at + 10 * 60_000
    arguments = json.dumps({"title": "Dinner at Sakura Sushi", "time": "Friday 19:00"})
    return [
        NewMessage(_id("message", "tool-call"), session.id, "TOOL_CALL", "", at, "set_reminder", arguments),
        NewMessage(_id("message", "tool-result"), session.id, "TOOL_RESULT", "", at + 1, "set_reminder", None, "Reminder created"),
    ]


def _memory_chunks(today: date, zone: tzinfo) -> list[MemoryChunk]:
    indexed = _ms(today, zone, hour=3)
    chunks = [MemoryChunk(_id("memory", text), LONG_TERM_TYPE, None, text, None, indexed, indexed) for text in LONG_TERM]
    for days_ago, text in DAILY_LOGS:
        day = today - timedelta(days=days_ago)
        written = _ms(day, zone, hour=23)
        chunks.append(MemoryChunk(_id("daily", text), DAILY_LOG_TYPE, day.isoformat(), text, None, written, written))
    return chunks


def _id(*parts: object) -> str:
    return str(uuid.uuid5(_NAMESPACE, "/".join(str(part) for part in parts)))


def _ms(day: date, zone: tzinfo, hour: int) -> int:
    return int(datetime.combine(day, time(hour), tzinfo=zone).timestamp() * 1000)
