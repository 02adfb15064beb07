"""The literal reading held against the spec's LIKE over a whole history (AC-07, AC-08, Q-04): for
random needles of every kind (whole words, pieces of words, runs across punctuation, CJK, `%` and `_`,
accents and mixed case), every row LIKE would return (a message by its content, a session by its title
or preview) is in the reply whenever those rows fit in max_results, through the real container on an
indexed history; and a needle more rows hold than fit, for which the reading is left out, fills the
reply with rows holding it as written. The same history and needles run on both backends."""
from __future__ import annotations

import random
import sqlite3
import uuid
from contextlib import closing
from datetime import datetime, timedelta

import pytest
from acceptance_helpers import found
from builders import ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.text import fold

pytestmark = pytest.mark.spec("AC-07", "AC-08", "Q-04")
CLOCK = FixedClock(ms("2026-03-01T12:00"))
# Words that stand inside one another, differ by case or accent, or carry LIKE's own wildcards.
WORDS = ["database", "mydatabase", "databases", "Database", "data_base", "migration", "migrationplan", "École", "ecole",
         "東京", "東京都", "寿司", "100%", "50%off", "max_results", "maxresults", "Über", "uber", "api", "apiKey", "config",
         "the", "plan", "sushi", "Shibuya", "re-run", "rerun", "v2.1", "a_b", "naïve"]
MAX_RESULTS = 10
COMMON = "database migration"  # held by more rows than a reply has room for, so the reading may be left out


def texts(rng: random.Random, count: int) -> list[str]:
    """Random runs of the words, with punctuation between some; every text distinct (a serial word), so
    no reply drops a row as a near-duplicate of another."""
    made = []
    for n in range(count):
        words = rng.choices(WORDS, k=rng.randint(3, 9))
        glue = [rng.choice([" ", " ", " ", ", ", "-", ".", "/"]) for _ in words]
        body = "".join(word + sep for word, sep in zip(words, glue, strict=True)).strip(" ,-./")
        made.append(f"{COMMON} {body} serial{n}" if n % 7 == 0 else f"{body} serial{n}")
    return made


def needles(rng: random.Random, written: list[str], count: int) -> list[str]:
    """Pieces of written texts: whole words, parts of words, runs across punctuation, in random case."""
    picked = ["database", "data", "migration plan", "ecole", "École", "東京", "京", "寿", "100%", "%", "_", "max_res", "a_b",
              "über", "Uber", "NAÏVE", "v2.", "re-r", "apikey", COMMON, COMMON.upper()]
    while len(picked) < count:
        text = rng.choice(written)
        start = rng.randrange(len(text))
        piece = text[start:start + rng.randint(1, 14)].strip()
        piece = "".join(ch.upper() if rng.random() < 0.3 else ch for ch in piece)
        if piece and '"' not in piece and ":" not in piece and not piece.startswith("-"):
            picked.append(piece)
    return picked


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def indexed(request, tmp_path_factory):
    from builders import write_history
    rng = random.Random(20261205)
    written = texts(rng, 700)
    start = datetime(2026, 1, 5, 9)
    rows = [new_message(f"m{n:04d}", f"s{n // 100}", text, (start + timedelta(minutes=37 * n)).isoformat(),
                        "USER" if n % 2 == 0 else "AI_RESPONSE") for n, text in enumerate(written)]
    sessions = [new_session(f"s{k}", f"Σ {k}", (start + timedelta(minutes=3700 * k)).isoformat()) for k in range(7)]
    if request.param == "postgres":
        return on_postgres(request.getfixturevalue("postgres_url"), sessions, rows), written, needles(rng, written, 160)
    path = write_history(tmp_path_factory.mktemp("literal") / "history.db", sessions, rows)
    container = create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None)
    assert container.get(IndexParts).lookup.sync.catch_up()
    with closing(sqlite3.connect(path)) as history:
        titled = {row[0]: f"{row[1]}\n{row[2] or ''}" for row in history.execute("SELECT id, title, last_message_preview FROM sessions")}
    return (container, titled, PeeweeMessageDao), written, needles(rng, written, 160)


def on_postgres(url: str, sessions, rows) -> tuple:
    """The history in a tenant of its own: its container, its sessions' titles and previews, its message DAO."""
    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.message_dao import PostgresMessageDao
    from oneclaw_search.data.postgres.schema import add_tenant
    from oneclaw_search.data.postgres.writer import PostgresHistoryWriter

    tenant, admin = f"literal-{uuid.uuid4().hex[:8]}", PostgresHistory(url, admin=True)
    add_tenant(admin, tenant)
    PostgresHistoryWriter(PostgresHistory(url, tenant), None).write(sessions, rows, [])
    titled = {key: f"{title}\n{preview or ''}" for key, title, preview in
              admin.rows("SELECT id, title, last_message_preview FROM sessions WHERE tenant = %s", (tenant,))}
    admin.close()
    container = create_injector(url, tenant=tenant, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None)
    return container, titled, PostgresMessageDao


def like(needle: str, written: list[str], sessions: dict[str, str] | None = None) -> set[tuple[str, str]]:
    """(source, id) of what the spec's LIKE '%needle%' returns, caseless as the search folds: messages by
    their content, sessions by their title or preview."""
    wanted = fold(needle)
    found = {("message", f"m{n:04d}") for n, text in enumerate(written) if wanted in fold(text)}
    return found | {("session", ident) for ident, text in (sessions or {}).items()
                    if any(wanted in fold(part) for part in text.split("\n"))}


def test_every_row_like_returns_is_in_the_reply_when_they_fit(indexed):
    (container, sessions, _), written, asked = indexed
    checked = set()
    for needle in asked:
        expected = like(needle, written, sessions)
        if not expected or len(expected) > MAX_RESULTS:
            continue
        shown = set(found(container, query=needle, scope="sessions", max_results=MAX_RESULTS))
        assert expected <= shown, f"{needle!r}: LIKE's {sorted(expected - shown)} missing from the reply"
        checked |= {source for source, _ in expected}
        checked.add(needle)
    assert {"message", "session"} <= checked and len(checked) >= 42  # every kind of row, not only common ones


def test_a_needle_more_rows_hold_than_fit_fills_the_reply_with_rows_holding_it_as_written(indexed, mocker):
    (container, _, dao), written, _ = indexed
    reading = mocker.spy(dao, "search_content")
    needles = (COMMON, "database", "東京", "serial1")
    for needle in needles:
        expected = {item for _, item in like(needle, written)}
        assert len(expected) > MAX_RESULTS
        results = found(container, query=needle, scope="sessions", max_results=MAX_RESULTS)
        shown = {item for source, item in results if source == "message"}
        assert len(results) == MAX_RESULTS and shown and shown <= expected, needle  # a session's preview may hold it too
    # On SQLite the engine's best rows held some of them often enough to leave the reading out; the server
    # reads it in every search, beside its keyword statement.
    assert reading.call_count < len(needles) if dao is PeeweeMessageDao else reading.call_count == len(needles)
