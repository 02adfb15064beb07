"""Shared fixtures: a pinned zone and clock, real SQLite history files, the real container."""
from __future__ import annotations

import pytest
from builders import TOKYO, chunk, ms, new_message, new_session, write_history
from fakes import FixedClock
from postgres_server import new_tenant, postgres_url, pytest_report_teststatus  # noqa: F401 - shared fixtures and hook

from oneclaw_search.di import create_injector

NOW = "2026-03-01T12:00"


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Side indexes of histories we did not create go to the user's cache: a temporary one here. A
    developer's own ONECLAW_SEARCH_DB never reaches the tests."""
    cache = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.delenv("ONECLAW_SEARCH_DB", raising=False)
    return cache


@pytest.fixture
def zone():
    return TOKYO


@pytest.fixture
def clock():
    return FixedClock(ms(NOW))


@pytest.fixture
def history(tmp_path):
    """Factory: history(sessions=..., messages=..., chunks=...) -> path of a real SQLite file."""
    counter = iter(range(1_000))

    def build(sessions=(), messages=(), chunks=(), embedder=None, name=None):
        path = tmp_path / (name or f"history-{next(counter)}.db")
        return write_history(path, sessions, messages, chunks, embedder)

    return build


def seeded_rows():
    """The spec's scenarios as rows, dated relative to NOW (2026-03-01 12:00 Tokyo)."""
    sessions = [
        new_session("s-dinner", "Dinner Planning", "2026-02-25T19:00"),
        new_session("s-restaurants", "Restaurant Recommendations", "2026-02-20T10:00"),
        new_session("s-migration", "Database migration plan", "2026-02-18T09:00"),
        new_session("s-json", "Parsing JSON", "2026-01-30T15:00"),
        new_session("s-deleted", "Old restaurant ideas", "2026-02-24T08:00", deleted="2026-02-24T09:00"),
        new_session("s-budget", "Weekend budget", "2026-02-28T20:00"),
    ]
    messages = [
        new_message("m-sushi", "s-dinner", "Can you help me find a good sushi restaurant near Shibuya station?", "2026-02-25T19:00"),
        new_message(
            "m-sakura", "s-dinner", "Sakura Sushi is a restaurant two minutes from the Hachiko exit.", "2026-02-25T19:01", "AI_RESPONSE"
        ),
        new_message(
            "m-tool",
            "s-dinner",
            "",
            "2026-02-25T19:02",
            "TOOL_CALL",
            tool_name="set_reminder",
            tool_input='{"title":"Dinner at Sakura Sushi"}',
        ),
        new_message("m-italian", "s-restaurants", "Looking for Italian restaurants in Roppongi.", "2026-02-20T10:00"),
        new_message("m-migrate", "s-migration", "What is the safest database migration path to PostgreSQL?", "2026-02-18T09:00"),
        new_message(
            "m-json",
            "s-json",
            'Use {"tool": "parse_json", "arguments": {"strict": true}} to parse JSON.',
            "2026-01-30T15:00",
            "AI_RESPONSE",
        ),
        new_message("m-ramen", "s-deleted", "A ramen restaurant in Shinjuku.", "2026-02-24T08:00"),
        new_message("m-budget", "s-budget", "Let's keep the weekend budget under 20,000 yen.", "2026-02-28T20:00"),
    ]
    chunks = [
        chunk("c-sakura", "Discussed dinner plans: the user wants to try Sakura Sushi, a restaurant a friend recommended.", "2026-02-25"),
        chunk("c-kamakura", "Went to Kamakura and saw the Great Buddha.", "2026-02-24"),
        chunk("c-keys", "API keys: the OpenAI API key is configured in Settings > Providers."),
        chunk("c-migration", "Database migration: rehearse on a copy before switching to PostgreSQL.", "2026-02-18"),
        chunk("c-budget", "Reviewed the weekend budget with the user.", "2026-02-28"),
    ]
    return sessions, messages, chunks


@pytest.fixture
def seeded_db(history):
    sessions, messages, chunks = seeded_rows()
    return history(sessions, messages, chunks, name="seeded.db")


@pytest.fixture
def container(seeded_db, clock):
    """The production container over the seeded file, with the pinned clock and zone."""
    return create_injector(seeded_db, clock=clock, time_zone="Asia/Tokyo")
